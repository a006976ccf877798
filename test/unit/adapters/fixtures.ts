import { PRESETS, type RunResult } from '../../../src/index.js';

/** A RunResult for tests of pure formatting code (no sandbox involved). */
export function fakeResult(over: Partial<RunResult> = {}): RunResult {
  return {
    ok: true,
    stdout: '',
    stderr: '',
    stats: { wallMs: 1, cpuMs: 1, heapUsedMb: 1 },
    truncated: { stdout: false, value: false },
    limits: { ...PRESETS.standard },
    ...over,
  };
}

export const TABLE = {
  columns: ['Agency', 'count'],
  dtypes: ['string', 'integer'],
  rows: [['DOD', 3]],
  totalRows: 1,
  truncated: false,
  markdown: '| Agency | count |\n|---|---|\n| DOD | 3 |',
};

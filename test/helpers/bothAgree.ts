import { expect } from 'vitest';
import type { Sandbox } from '../../src/index.js';

/**
 * Runs each program as `__both(program)` in `box` (the test's own setup defines `__both`: the
 * program on award_data, the typed paths, and on a plain-array copy, and where their dumps first
 * differ) and expects the two dumps to be the same, with no error on the typed side.
 */
export async function expectBothAgree(box: Sandbox, programs: readonly string[]): Promise<void> {
  for (const program of programs) {
    const r = await box.run(`__both(${program})`);
    expect(r.ok, program).toBe(true);
    const [head, fast, plain, sameLength] = r.value as [string, string, string, boolean];
    expect(head, program).not.toBe('ERR ');
    expect(fast, program).toEqual(plain);
    expect(sameLength, program).toBe(true);
  }
}

/**
 * Guest definitions the differential tests' setups start with: `__ser` (a value as text, -0, NaN,
 * null, undefined and Dates told apart), `__dump` (a table's names, row count and cells, or a value)
 * and `__plain` (award_data copied into plain arrays, which no fast path takes).
 */
export const PLAIN_DUMP_SETUP = `var __ser = (v) => v === undefined ? 'u' : v === null ? 'n' : typeof v === 'number' ? (Object.is(v, -0) ? '-0' : String(v))
  : v instanceof Date ? 'D' + v.getTime() : Array.isArray(v) ? '[' + v.map(__ser).join(',') + ']' : typeof v + ':' + JSON.stringify(v);
var __dump = (x) => x instanceof aq.ColumnTable
  ? JSON.stringify({ names: x.columnNames(), rows: x.numRows(), cols: x.columnNames().map((c) => x.array(c).map(__ser)) })
  : __ser(x);
var __plain = aq.table(Object.fromEntries(award_data.columnNames().map((c) => [c, award_data.array(c)])));
`;

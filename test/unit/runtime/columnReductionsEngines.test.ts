// A number column's first sum, mean, count, min and max read it in place and keep the answers for
// the session (prelude/series/fastReduce.ts sumInPlace, extremeInPlace), on both engines: in a fresh
// session per order of first touches, each reduction of award_data's columns, one run each, must
// equal the same reduction over a plain-array copy of the column (the per-value code), -0 and NaN
// told apart, and must stay the same when asked again in later runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionHost } from '../../../src/runtime/holder/sessionHost.js';
import { PRESETS } from '../../../schema/limits.js';
import type { SessionSpec } from '../../../src/runtime/holder/protocol.js';

const COLUMNS = ['Award Amount', 'Number Employees', 'Award Year'];
const ORDERS = [
  ['sum', 'mean', 'min', 'max', 'count'],
  ['max', 'count', 'min', 'sum', 'mean'],
  ['count', 'median', 'sum', 'max', 'mean'],
];
const SER =
  "const __s = (v) => v === null ? 'n' : Object.is(v, -0) ? '-0' : typeof v === 'number' ? String(v) : JSON.stringify(v);";

let cacheDir: string;
const hosts: SessionHost[] = [];
beforeAll(() => {
  cacheDir = mkdtempSync(join(tmpdir(), 'sbt-col-reduce-'));
});
afterAll(() => {
  for (const h of hosts.splice(0)) h.closeAll();
  rmSync(cacheDir, { recursive: true, force: true });
});

async function answer(h: SessionHost, id: string, source: string): Promise<string> {
  const r = await h.run(id, { source, preset: 'standard', timeoutMs: 60_000 });
  expect(r.status, r.message).toBe('ok');
  return JSON.parse(r.outcomeJson!).value as string;
}

describe.each(['isolated-vm', 'quickjs'] as const)('first reductions of a column on %s', (engine) => {
  it.each(ORDERS.map((o, i) => [i, o] as const))(
    'order %i answers as the per-value code',
    async (i, order) => {
      const h = new SessionHost();
      hosts.push(h);
      const spec: SessionSpec = {
        limits: { ...PRESETS.standard },
        data: { kind: 'synthetic', cacheDir },
        tables: [],
        engine,
      };
      await h.open(`o${i}`, spec);
      const got: string[] = [];
      for (const col of COLUMNS)
        for (const m of order)
          got.push(await answer(h, `o${i}`, `${SER} __s(award_data[${JSON.stringify(col)}].${m}())`));
      // again, in later runs: the kept answers
      const again: string[] = [];
      for (const col of COLUMNS)
        for (const m of order)
          again.push(await answer(h, `o${i}`, `${SER} __s(award_data[${JSON.stringify(col)}].${m}())`));
      const plain = JSON.parse(
        await answer(
          h,
          `o${i}`,
          `${SER} const out = []; for (const col of ${JSON.stringify(COLUMNS)}) { const P = aq.table({ c: award_data.array(col) }); for (const m of ${JSON.stringify(order)}) out.push(__s(P.c[m]())); } JSON.stringify(out)`,
        ),
      ) as string[];
      expect(got).toEqual(plain);
      expect(again).toEqual(plain);
      // the columns do have missing values here (the in-place path's case)
      expect(await answer(h, `o${i}`, "String(award_data['Number Employees'].isna().sum() > 0)")).toBe('true');
      h.closeAll();
    },
    120_000,
  );
});

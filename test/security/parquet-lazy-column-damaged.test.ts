// Attack: a Parquet file that passes every check made when the table is opened (footer, schema,
// page headers within the caps) but whose pages are damaged or inflate to more than memory holds,
// decoded lazily (src/data/formats/lazyParquet/): the column is decoded only when a run touches it,
// inside the guest call. Each must still end in its typed DataError (DATA_CORRUPT for a page that
// lies, DATA_TOO_LARGE for the page cap at open and for a worker at its heap limit), the other
// columns must still load, and the sandbox that touched the column must go on running.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { DataError } from '../../src/data/index.js';
import { DEFAULT_DECODE_CAPS } from '../../src/data/formats/decodeCaps.js';
import { openLazyParquet } from '../../src/data/formats/lazyParquet/lazyParquetTable.js';
import { firstPage, patchUncompressedSize } from '../helpers/parquetSurgery.js';
import { expectHealthy } from './helpers.js';

let dir: string;
let liar: string;
let decimals: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sbirtools-lazy-hostile-'));
  const real = join(dir, 'real.parquet');
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  // z first (the page the surgery patches), then an intact column
  await duck.run(
    `COPY (SELECT i::BIGINT AS z, i % 7 AS w FROM range(300000) r(i)) TO '${real}' (FORMAT parquet, COMPRESSION zstd)`,
  );
  const bytes = new Uint8Array(readFileSync(real));
  liar = join(dir, 'liar.parquet');
  writeFileSync(liar, patchUncompressedSize(bytes, firstPage(bytes).uncompressed - 1000));
  // a DECIMAL column goes through hyparquet's row-wise reader: one JS number per row on the heap
  decimals = join(dir, 'decimals.parquet');
  await duck.run(
    `COPY (SELECT (i / 100)::DECIMAL(12, 2) AS dec FROM range(3000000) r(i)) TO '${decimals}' (FORMAT parquet)`,
  );
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const failure = (fn: () => unknown): DataError => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DataError);
    return err as DataError;
  }
  throw new Error('expected a DataError');
};

describe('a damaged Parquet column decoded on first touch', () => {
  it('a page that inflates to less than its header says: DATA_CORRUPT when the column is loaded; the others load', async () => {
    const t = await openLazyParquet('t', liar, 'liar.parquet');
    expect(failure(() => t.loadColumn('z')).code).toBe('DATA_CORRUPT');
    const w = t.loadColumn('w');
    expect(w.kind === 'float64' && Array.from(w.values.subarray(0, 8))).toEqual([0, 1, 2, 3, 4, 5, 6, 0]);
    // asked again, the same typed error (nothing half-decoded is kept)
    expect(failure(() => t.loadColumn('z')).code).toBe('DATA_CORRUPT');
  }, 60_000);

  it('named beside an intact column (decoded ahead together before a run): the failure waits for the touch, the other is exact', async () => {
    const t = await openLazyParquet('t', liar, 'liar.parquet');
    t.prefetch(['z', 'w'], 60_000);
    expect(failure(() => t.takeColumn('z')).code).toBe('DATA_CORRUPT');
    const w = t.takeColumn('w');
    expect(w.kind === 'float64' && Array.from(w.values.subarray(0, 8))).toEqual([0, 1, 2, 3, 4, 5, 6, 0]);
  }, 60_000);

  it('a page over the page cap: DATA_TOO_LARGE when the table is opened, before any page is inflated', async () => {
    const err = await openLazyParquet('t', liar, 'liar.parquet', {
      ...DEFAULT_DECODE_CAPS,
      maxPageBytes: 64 * 1024,
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).code).toBe('DATA_TOO_LARGE');
  });

  it('a column past the decode heap: the worker dies, the call gets DATA_TOO_LARGE naming the setting, the next load works', async () => {
    const caps = { ...DEFAULT_DECODE_CAPS, heapMb: 24 };
    const t = await openLazyParquet('t', decimals, 'decimals.parquet', caps);
    const err = failure(() => t.loadColumn('dec'));
    expect(['DATA_TOO_LARGE', 'DATA_DECODE_FAILED']).toContain(err.code);
    if (err.code === 'DATA_TOO_LARGE') expect(err.hint).toMatch(/SBIRTOOLS_DECODE_HEAP_MB|heapMb/);
    // a new worker replaces the dead one: an intact table still loads with the same caps
    const ok = await openLazyParquet('t', liar, 'liar.parquet', caps);
    expect(ok.loadColumn('w').kind).toBe('float64');
  }, 120_000);

  it('in a sandbox: the run that touches the column fails with the code in its message; the session goes on', async () => {
    const box = await createSandbox({ awardData: false, tables: { t: liar } });
    try {
      const bad = await box.run('t.z.sum()');
      expect(bad.ok).toBe(false);
      expect(bad.error?.message).toMatch(/DATA_CORRUPT/);
      expect(bad.error?.message).toMatch(/liar\.parquet/);
      expect(bad.error?.message).not.toContain(dir);
      const good = await box.run('t.w.sum()');
      expect(good.error).toBeUndefined();
      expect(good.value).toBe(899_997);
      // both named: decoded ahead together, the damaged one fails at its touch as alone
      const both = await box.run('t.w.sum() + t.z.sum()');
      expect(both.ok).toBe(false);
      expect(both.error?.message).toMatch(/DATA_CORRUPT/);
      await expectHealthy(box);
    } finally {
      await box.close();
    }
  }, 120_000);
});

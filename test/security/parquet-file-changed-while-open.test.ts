// Attack: a Parquet table file that is checked when the table is opened, then truncated or
// overwritten in place before a run touches its columns. A lazily decoded table
// (src/data/formats/lazyParquet/) keeps only an open descriptor and reads each column's chunks on
// first touch, so what it reads later is no longer what was checked. Every page is checked again as
// it is decoded (bounds, sizes, the capped inflate): the column must fail with a typed DataError
// (DATA_CORRUPT), never zeros, a wrong value or a crash, and the sandbox must go on running.
import { mkdtempSync, readFileSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { DataError } from '../../src/data/index.js';
import { dataErrorCode } from '../helpers/dataErrorCode.js';
import { openLazyParquet } from '../../src/data/formats/lazyParquet/lazyParquetTable.js';
import { expectHealthy } from './helpers.js';

let dir: string;
let original: Uint8Array;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sbirtools-changed-'));
  const path = join(dir, 'orig.parquet');
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  // a first column, then the column the attack damages, which lies in the second half of the file
  await duck.run(
    `COPY (SELECT i % 7 AS w, 'text ' || i::VARCHAR AS z FROM range(200000) r(i)) TO '${path}' (FORMAT parquet, COMPRESSION snappy)`,
  );
  original = new Uint8Array(readFileSync(path));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fresh(name: string): string {
  const p = join(dir, name);
  writeFileSync(p, original);
  return p;
}

const code = dataErrorCode;

describe('a Parquet table file changed after it was opened', () => {
  it('truncated: DATA_CORRUPT when a column past the new end is loaded', async () => {
    const p = fresh('cut.parquet');
    const t = await openLazyParquet('t', p, 'cut.parquet');
    truncateSync(p, Math.floor(original.byteLength / 2));
    expect(code(() => t.loadColumn('z'))).toBe('DATA_CORRUPT');
  }, 60_000);

  it('overwritten in place with other bytes: DATA_CORRUPT, never other values', async () => {
    const p = fresh('noise.parquet');
    const t = await openLazyParquet('t', p, 'noise.parquet');
    const noise = original.slice();
    for (let i = 4; i < noise.byteLength - 8; i++) noise[i] = (i * 2654435761) >>> 24;
    writeFileSync(p, noise);
    expect(code(() => t.loadColumn('z'))).toBe('DATA_CORRUPT');
    expect(code(() => t.loadColumn('w'))).toBe('DATA_CORRUPT');
  }, 60_000);

  it('rewritten in place with a valid file of the same shape: refused, never a mix of two versions', async () => {
    const p = fresh('same.parquet');
    const t = await openLazyParquet('t', p, 'same.parquet');
    expect(t.loadColumn('w').kind).toBe('float64');
    // the same bytes, written again later: every page still checks out, only the stamp tells
    writeFileSync(p, original);
    utimesSync(p, new Date(), new Date(Date.now() + 5000));
    let err: unknown;
    try {
      t.loadColumn('z');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).code).toBe('DATA_CORRUPT');
    expect((err as Error).message).toMatch(/same\.parquet: the file changed on disk after the table was opened/);
    // a column decoded before the change is kept as it was
    expect(t.loadColumn('w').kind).toBe('float64');
  }, 60_000);

  it('a column handed to an isolate and forgotten, read again after the file changed: DATA_CORRUPT, never the new bytes', async () => {
    const p = fresh('taken.parquet');
    const t = await openLazyParquet('t', p, 'taken.parquet');
    expect(t.takeColumn('w').kind).toBe('float64');
    writeFileSync(p, original);
    utimesSync(p, new Date(), new Date(Date.now() + 5000));
    expect(code(() => t.takeColumn('w'))).toBe('DATA_CORRUPT');
    expect(code(() => t.loadColumn('w'))).toBe('DATA_CORRUPT');
  }, 60_000);

  it('in a sandbox: the run fails with the code in its message, the session goes on', async () => {
    const p = fresh('sandbox.parquet');
    const box = await createSandbox({ awardData: false, tables: { t: p } });
    try {
      expect((await box.run('t.numRows()')).value).toBe(200_000);
      truncateSync(p, 100);
      const bad = await box.run('t.z.str.len().sum()');
      expect(bad.ok).toBe(false);
      expect(bad.error?.message).toMatch(/DATA_CORRUPT/);
      expect(bad.error?.message).not.toContain(dir);
      await expectHealthy(box);
    } finally {
      await box.close();
    }
  }, 120_000);
});

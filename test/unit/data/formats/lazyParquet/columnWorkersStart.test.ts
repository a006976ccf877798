// A column decode worker whose script cannot load (an install missing a file, a broken build) must
// fail the job it was given with a typed DataError that says so, never hang the table's open or a
// run waiting on a column; and the bundled worker (dist/holder/columnWorker.cjs) is what starts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataError } from '../../../../../src/data/index.js';
import { DEFAULT_DECODE_CAPS } from '../../../../../src/data/formats/decodeCaps.js';
import { ColumnWorkers } from '../../../../../src/data/formats/lazyParquet/columnWorkers.js';

let dir: string;
let broken: URL;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sbirtools-worker-start-'));
  const file = join(dir, 'broken.cjs');
  writeFileSync(file, "throw new Error('a module of the decoder is missing');\n");
  broken = pathToFileURL(file);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const caps = { ...DEFAULT_DECODE_CAPS };

describe('a column worker that cannot start', () => {
  it('fails a table open (waited for asynchronously) at once, saying it could not start and what to do', async () => {
    const pool = new ColumnWorkers(broken);
    let err: unknown;
    try {
      await pool.answer(pool.post(0, { op: 'close', id: 1 }, 64), 't.parquet', caps);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).code).toBe('DATA_DECODE_FAILED');
    expect((err as Error).message).toMatch(
      /t\.parquet: the column decoder thread could not start \(a module of the decoder is missing\)/,
    );
    expect((err as DataError).hint).toMatch(/Reinstall/);
    expect(pool.running).toBe(0);
  }, 60_000);

  it('fails a column waited for synchronously (inside a run) with the same code, never a hang', () => {
    const pool = new ColumnWorkers(broken);
    let err: unknown;
    try {
      pool.wait(pool.post(0, { op: 'close', id: 1 }, 64), 't.parquet', caps);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).code).toBe('DATA_DECODE_FAILED');
    expect((err as Error).message).toMatch(/t\.parquet: the column decoder thread could not start/);
  }, 60_000);

  it('started early with no job, a worker that cannot load is dropped, and the next job fails cleanly', async () => {
    const pool = new ColumnWorkers(broken);
    pool.start(64);
    expect(pool.running).toBe(pool.width);
    await expect(pool.answer(pool.post(0, { op: 'close', id: 1 }, 64), 't.arrow', caps)).rejects.toMatchObject({
      code: 'DATA_DECODE_FAILED',
    });
  }, 60_000);
});

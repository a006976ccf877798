// A lazily read Parquet file is checked (its footer and every page header) by one column worker,
// once per open of the table: the second worker, and a worker started again after the idle ones
// ended, parse the footer only, from the row count the first check found (columnJob.ts
// `checkedRows`); their columns are the same, and a footer that no longer adds up is refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnData } from '../../../../../schema/columnar.js';
import { DEFAULT_DECODE_CAPS } from '../../../../../src/data/formats/decodeCaps.js';
import type { ColumnJob } from '../../../../../src/data/formats/lazyParquet/columnJob.js';
import { columnWorkers } from '../../../../../src/data/formats/lazyParquet/columnWorkers.js';
import { openLazyParquet } from '../../../../../src/data/formats/lazyParquet/lazyParquetTable.js';
import { waitFor } from '../../../../helpers/waitFor.js';

const ROWS = 100_000;
let dir: string;
let path: string;
const pool = columnWorkers(DEFAULT_DECODE_CAPS.heapMb);
/** Every job posted to the pool, with the worker it went to. */
const posted: Array<{ worker: number; job: ColumnJob }> = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sbirtools-check-once-'));
  path = join(dir, 't.parquet');
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  await duck.run(`COPY (SELECT 'K' || (i % 7)::VARCHAR AS k, CASE WHEN i % 5 = 0 THEN NULL ELSE i * 0.5 END AS x
    FROM range(${ROWS}) r(i)) TO '${path}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 8192)`);
  const post = pool.post.bind(pool);
  pool.post = (worker, job, heapMb) => {
    posted.push({ worker, job });
    return post(worker, job, heapMb);
  };
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const opens = () =>
  posted.filter((p) => p.job.op === 'open') as Array<{ worker: number; job: Extract<ColumnJob, { op: 'open' }> }>;
const fullChecks = () => opens().filter((p) => p.job.checkedRows === undefined).length;
const hex = (c: ColumnData) =>
  Object.entries(c).map(([k, v]) => [
    k,
    ArrayBuffer.isView(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex') : String(v),
  ]);

describe('a Parquet file opened for lazy decoding', () => {
  it('is checked by one worker; the other opens it from that check, and a restarted one does too', async () => {
    posted.length = 0;
    // split every column over both workers
    const t = await openLazyParquet('t', path, 't.parquet', undefined, { splitMinBytes: 0 });
    expect(t.meta.numRows).toBe(ROWS);
    expect(fullChecks()).toBe(1);
    const split = t.loadColumn('x');
    if (pool.width > 1) expect(posted.some((p) => p.worker === 1 && p.job.op === 'column')).toBe(true);
    // every open after the first carries the checked row count
    expect(fullChecks()).toBe(1);
    for (const o of opens().slice(1)) expect(o.job.checkedRows).toBe(ROWS);
    // the idle workers end; the next column starts them again, and they do not walk the pages again
    await waitFor(() => pool.running === 0, { what: 'the idle column workers to end' });
    const before = opens().length;
    t.loadColumn('k');
    expect(opens().length).toBeGreaterThan(before);
    expect(fullChecks()).toBe(1);
    // the same column decoded whole, by a table of its own (checked again: a new open)
    const whole = (await openLazyParquet('t2', path, 't.parquet', undefined, { splitMinBytes: Infinity })).loadColumn(
      'x',
    );
    expect(fullChecks()).toBe(2);
    expect(hex(split)).toEqual(hex(whole));
  }, 120_000);

  it('refuses a footer whose row groups no longer add up to the checked row count', async () => {
    const t = await openLazyParquet('t', path, 't.parquet');
    const open = opens().at(-1)!.job;
    const wrong: ColumnJob = { ...open, id: open.id + 100_000, checkedRows: ROWS + 1 };
    const answer = await pool.answer(
      pool.post(pool.width - 1, wrong, DEFAULT_DECODE_CAPS.heapMb),
      't.parquet',
      DEFAULT_DECODE_CAPS,
    );
    expect(answer).toMatchObject({
      ok: false,
      error: { code: 'DATA_CORRUPT', message: expect.stringMatching(/t\.parquet: the file changed while it was open/) },
    });
    expect(t.loadColumn('k').type).toBe('string');
  }, 120_000);
});

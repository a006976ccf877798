// The columns a run names, decoded ahead together (lazyParquetTable.ts prefetch, called by the
// holder before the run: holder/prefetchTables.ts): every job is posted to the workers before the
// first is waited for (the columns decode side by side, not one after the other as the guest touches
// them), the columns are exactly those a touch decodes, a touch then decodes nothing again, and a
// prefetched column no run asked for is forgotten after the run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnData } from '../../../../../schema/columnar.js';
import { DEFAULT_DECODE_CAPS } from '../../../../../src/data/formats/decodeCaps.js';
import { columnWorkers } from '../../../../../src/data/formats/lazyParquet/columnWorkers.js';
import { openLazyParquet } from '../../../../../src/data/formats/lazyParquet/lazyParquetTable.js';

const ROWS = 200_000;
let dir: string;
let path: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sbirtools-prefetch-'));
  path = join(dir, 't.parquet');
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  await duck.run(`COPY (SELECT
      CASE WHEN i % 11 = 0 THEN NULL ELSE 'K' || (i % 7)::VARCHAR END AS few,
      CASE WHEN i % 5 = 0 THEN NULL ELSE i * 0.5 - 1000 END AS num,
      'text ' || i::VARCHAR AS uniq,
      DATE '1960-01-01' + (i % 30000)::INTEGER AS d
    FROM range(${ROWS}) r(i)) TO '${path}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 16384)`);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A column as comparable strings (each typed array's bytes in hex). */
function dump(c: ColumnData): Record<string, string> {
  return Object.fromEntries(
    Object.entries(c).map(([k, v]) => [
      k,
      ArrayBuffer.isView(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex') : String(v),
    ]),
  );
}

/** Logs the pool's posts and waits (in order) until restored. */
function watchPool(): { log: string[]; restore: () => void } {
  const pool = columnWorkers(DEFAULT_DECODE_CAPS.heapMb);
  const post = pool.post.bind(pool);
  const wait = pool.wait.bind(pool);
  const log: string[] = [];
  pool.post = (index, job, heapMb) => {
    log.push(job.op === 'column' ? `post ${job.leaf}` : `post ${job.op}`);
    return post(index, job, heapMb);
  };
  pool.wait = (p, file, caps) => {
    log.push('wait');
    return wait(p, file, caps);
  };
  return {
    log,
    restore: () => {
      pool.post = post;
      pool.wait = wait;
    },
  };
}

let restore: (() => void) | undefined;
afterEach(() => restore?.());

describe('columns decoded ahead of a run', () => {
  it.each([
    ['split over both workers', 0],
    ['each whole on one worker, in turn', Infinity],
  ])(
    'every column named is posted before any is waited for, decodes exactly, and is not decoded again when touched: %s',
    async (_, splitMinBytes) => {
      const ref = await openLazyParquet('ref', path, 't.parquet');
      const want = new Map(['few', 'num', 'uniq', 'd'].map((c) => [c, dump(ref.loadColumn(c))]));
      const t = await openLazyParquet('t', path, 't.parquet', undefined, { splitMinBytes });
      const watch = watchPool();
      restore = watch.restore;
      // a superset of names, as the code gives them: methods, text, a column twice
      t.prefetch(['groupby', 'few', 'num', 'uniq', 'd', 'num', 'count'], 60_000);
      // (a column the columnar decoder leaves to hyparquet is posted again, whole, after its first answer)
      const beforeWait = watch.log.slice(0, watch.log.indexOf('wait'));
      expect(new Set(beforeWait.filter((e) => e !== 'post open'))).toEqual(
        new Set(['post 0', 'post 1', 'post 2', 'post 3']),
      );
      watch.log.length = 0;
      for (const [c, data] of want) expect(dump(t.takeColumn(c)), c).toEqual(data);
      expect(watch.log).toEqual([]);
    },
    120_000,
  );

  it('one column named alone is left for its touch (it gains nothing from going first)', async () => {
    const t = await openLazyParquet('t', path, 't.parquet');
    const watch = watchPool();
    restore = watch.restore;
    t.prefetch(['num', 'sum', 'nope'], 60_000);
    expect(watch.log).toEqual([]);
  });

  it('a column an isolate has taken is not decoded ahead again (the session that took it keeps it)', async () => {
    const t = await openLazyParquet('t', path, 't.parquet');
    t.takeColumn('num');
    t.takeColumn('few');
    const watch = watchPool();
    restore = watch.restore;
    t.prefetch(['few', 'num', 'd'], 60_000);
    expect(watch.log).toEqual([]);
  }, 60_000);

  it('after the run, a prefetched column no call asked for is forgotten; one kept by the host stays', async () => {
    const t = await openLazyParquet('t', path, 't.parquet');
    const watch = watchPool();
    restore = watch.restore;
    t.prefetch(['few', 'num'], 60_000);
    watch.log.length = 0;
    const kept = t.loadColumn('few');
    t.releasePrefetched();
    expect(t.loadColumn('few')).toBe(kept);
    expect(watch.log).toEqual([]);
    // never asked for during the run: decoded again when a later run touches it, identical
    const num = t.loadColumn('num');
    expect(watch.log.filter((e) => e === 'post 1').length).toBeGreaterThan(0);
    const ref = await openLazyParquet('ref', path, 't.parquet');
    expect(dump(num)).toEqual(dump(ref.loadColumn('num')));
    // decoded ahead and never read, then named by a later run: not decoded ahead for nothing again
    watch.log.length = 0;
    t.prefetch(['uniq', 'd'], 60_000);
    expect(watch.log.filter((e) => e.startsWith('post ')).length).toBeGreaterThan(0);
    t.releasePrefetched();
    watch.log.length = 0;
    t.prefetch(['uniq', 'd'], 60_000);
    expect(watch.log).toEqual([]);
  }, 120_000);
});

// A run over a Parquet or Arrow table decodes the columns its code names together, before it starts
// (holder/prefetchTables.ts): the group-by's key and value are posted to the column workers before
// either is waited for, also when the code ends in row objects (whose other columns are unknowable
// statically), and the answers are those DuckDB gives on the same file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../../src/index.js';
import { DEFAULT_DECODE_CAPS } from '../../../src/data/formats/decodeCaps.js';
import { columnWorkers } from '../../../src/data/formats/lazyParquet/columnWorkers.js';

const ROWS = 300_000;
let dir: string;
let path: string;
let want: unknown;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sbirtools-prefetch-run-'));
  path = join(dir, 't.parquet');
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  await duck.run(`COPY (SELECT 'AG' || (i % 11)::VARCHAR AS Agency, 'x' || i::VARCHAR AS Other,
      round((hash(i * 7) % 10000000) / 100.0, 2) AS Amount
    FROM range(${ROWS}) r(i)) TO '${path}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 30000)`);
  const r = await duck.runAndReadAll(
    `SELECT Agency, count(*)::INTEGER, round(sum(Amount))::BIGINT FROM '${path}' GROUP BY Agency ORDER BY Agency`,
  );
  want = r.getRows().map((row) => row.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a run decodes the columns it names ahead, together', () => {
  it('the group-by of the scale bench: key and value posted before either is waited for; the answer is DuckDB’s', async () => {
    const pool = columnWorkers(DEFAULT_DECODE_CAPS.heapMb);
    const post = pool.post.bind(pool);
    const wait = pool.wait.bind(pool);
    const log: string[] = [];
    pool.post = (index, job, heapMb) => {
      if (job.op === 'column') log.push(`post ${job.leaf}`);
      return post(index, job, heapMb);
    };
    pool.wait = (p, file, caps) => {
      log.push('wait');
      return wait(p, file, caps);
    };
    const box = await createSandbox({ awardData: false, isolation: 'inline', tables: { t: path } });
    try {
      const r = await box.run(
        "t.groupby('Agency').rollup({ n: op.count(), s: op.sum('Amount') }).orderby('Agency').objects().map((r) => [r.Agency, r.n, Math.round(r.s)])",
      );
      expect(r.error).toBeUndefined();
      expect(r.value).toEqual(want);
      const beforeWait = new Set(log.slice(0, log.indexOf('wait')));
      expect(beforeWait).toEqual(new Set(['post 0', 'post 2']));
      // the column the code did not name was never decoded
      expect(log).not.toContain('post 1');
      // run again: the session's isolate holds both columns, nothing is decoded again ahead
      log.length = 0;
      const again = await box.run(
        "t.groupby('Agency').rollup({ n: op.count(), s: op.sum('Amount') }).orderby('Agency').objects().map((r) => [r.Agency, r.n, Math.round(r.s)])",
      );
      expect(again.value).toEqual(want);
      expect(log).toEqual([]);
    } finally {
      pool.post = post;
      pool.wait = wait;
      await box.close();
    }
  }, 120_000);
});

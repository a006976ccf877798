// The decode-ahead's TIMEOUT branch, for real (holder/sessionHost.ts: prefetchTables then
// prefetchTimeout): a run whose code names two columns of a Parquet table that take longer to
// decode than the run's whole time limit ends, before its code starts, with the TIMEOUT a user
// reads (the limit, "did not run", the option and flag to raise), an HTTP 200 like every guest
// error, and the session's state kept: the next run still sees what an earlier one defined.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../../src/index.js';
import { runResultHttp } from '../../../src/result/runResultHttp.js';

// two all-distinct text columns of 2.5M rows: seconds of decoding on this VM, against a limit of 300 ms
const ROWS = 2_500_000;
const LIMIT_MS = 300;
let dir: string;
let path: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sbirtools-prefetch-timeout-'));
  path = join(dir, 't.parquet');
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  await duck.run(`COPY (SELECT md5(i::VARCHAR) AS A, md5((i * 7)::VARCHAR) AS B, i AS n FROM range(${ROWS}) r(i))
    TO '${path}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 100000)`);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a run whose named columns take longer to decode than its time limit', () => {
  for (const isolation of ['inline', 'process'] as const) {
    it(`ends with the decode-ahead TIMEOUT before its code runs, and keeps the session (${isolation})`, async () => {
      const box = await createSandbox({ awardData: false, isolation, tables: { t: path }, timeoutMs: LIMIT_MS });
      try {
        // names no two columns of t: nothing is decoded ahead
        const first = await box.run('var kept = 41; kept');
        expect(first.error).toBeUndefined();
        expect(first.value).toBe(41);

        const r = await box.run("t.array('A').length + t.array('B').length");
        expect(r.ok).toBe(false);
        expect(r.value).toBeUndefined();
        expect(r.stdout).toBe('');
        expect(r.error).toEqual({
          type: 'TIMEOUT',
          message: `Decoding the table columns the code names took the whole ${LIMIT_MS} ms time limit, so the code did not run.`,
          hint: 'Raise the time limit (the `timeoutMs` option, CLI --timeout-ms) for the first run over a large table, or read fewer columns in it; the columns decoded so far are kept, and the session state is kept.',
        });
        expect(r.limits.timeoutMs).toBe(LIMIT_MS);
        // a TIMEOUT whose code never started (`serve` answers sbirtools-code-ran: false, keeps the history)
        expect(r.codeRan).toBe(false);
        expect(first.codeRan).toBeUndefined();
        // over HTTP (createHandler, `serve`'s /v1/run): a guest error is a result, status 200
        const http = runResultHttp(r);
        expect(http.status).toBe(200);
        expect(JSON.parse(http.body).error.type).toBe('TIMEOUT');

        // the isolate was not disposed: what the first run defined is still there
        const after = await box.run('kept + 1');
        expect(after.error).toBeUndefined();
        expect(after.value).toBe(42);
      } finally {
        await box.close();
      }
    }, 120_000);
  }
});

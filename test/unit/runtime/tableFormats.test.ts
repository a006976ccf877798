import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, run } from '../../../src/index.js';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { portfolioArrow, portfolioParquet } from '../../helpers/tableFiles.js';

const dir = mkdtempSync(join(tmpdir(), 'sbirtools-formats-'));
const parquetPath = join(dir, 'goals.parquet');
writeFileSync(parquetPath, portfolioParquet());
let server: Server;
let url = '';
let hits = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    if (req.headers['if-none-match'] === '"v1"') {
      res.writeHead(304).end();
      return;
    }
    const body = '{"Agency":"Department of Defense","target":5}\n{"Agency":"National Science Foundation","target":2}\n';
    res.writeHead(200, { 'content-length': Buffer.byteLength(body), etag: '"v1"' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/goals.ndjson`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('tables from Parquet, Arrow and JSON files', () => {
  it('a Parquet path joins with award_data; the data card shows its schema', async () => {
    const r = await run(
      "[merge(value_counts(award_data, 'Agency'), goals, { on: 'Agency' }).numRows(), dtypes(goals), describeData('goals').summary]",
      { tables: { goals: parquetPath } },
    );
    expect(r.error).toBeUndefined();
    const [joined, types, summary] = r.value as [number, Record<string, string>, string];
    expect(joined).toBe(2);
    expect(types).toEqual({ Agency: 'string', target: 'integer', big: 'string', when: 'date', flag: 'boolean' });
    expect(summary).toMatch(/goals/);
    expect(summary).toMatch(/when \(date\)/);
  });

  it('Arrow bytes and a URL (downloaded once into the cache, revalidated with its ETag)', async () => {
    const cacheDir = join(dir, 'cache');
    const opts = { awardData: false, cacheDir, tables: { a: portfolioArrow('stream'), u: url } };
    const first = await run('[a.numRows(), u.numRows(), u.array("target")]', opts);
    expect(first.value).toEqual([4, 2, [5, 2]]);
    const second = await run('u.numRows()', opts);
    expect(second.value).toBe(2);
    expect(hits).toBe(2); // the second request was a conditional GET answered 304
  });

  it("a second session over the same file reuses the holder's decoded table", async () => {
    const a = await createSandbox({ awardData: false, tables: { g: parquetPath } });
    const b = await createSandbox({ awardData: false, tables: { g: parquetPath } });
    expect((await a.run('g.numRows()')).value).toBe(4);
    expect((await b.run('g.array("Agency")[3]')).value).toBe('Département ü 日本');
    await a.close();
    await b.close();
  });

  it("tables load together; with several bad ones the error is the first one's in the tables' order", async () => {
    // 'late' fails in a decode worker after reading its first row group; 'early' (an empty CSV) fails at once
    const bytes = new Uint8Array(
      parquetWriteBuffer({
        columnData: [{ name: 'x', data: Array.from({ length: 50_000 }, (_, i) => `v${i}`), type: 'STRING' }],
      }),
    );
    bytes.fill(7, 100, 20_000);
    const late = join(dir, 'late.parquet');
    const early = join(dir, 'early.csv');
    writeFileSync(late, bytes);
    writeFileSync(early, '');
    await expect(run('1', { awardData: false, tables: { late, early } })).rejects.toMatchObject({
      code: 'DATA_CORRUPT',
      message: expect.stringMatching(/late\.parquet/),
    });
    await expect(run('1', { awardData: false, tables: { early, late } })).rejects.toMatchObject({ code: 'DATA_EMPTY' });
    // and the holder is fine afterwards
    expect((await run('1 + 1', { awardData: false, tables: { g: parquetPath } })).value).toBe(2);
  });
});

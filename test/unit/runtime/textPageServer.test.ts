// bridge.fetchTextPage's host side (src/runtime/engines/isolated-vm/textPageServer.ts): a pass over a
// text column in page order reads each page alone from the binary cache (never the column whole),
// and the next page is read, checked and decoded ahead while the guest uses this one. Every page
// served equals the page decoded from the whole column; a damaged page is the guest's error, raised
// on its own request, never a wrong page.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ColumnarTable } from '../../../schema/columnar.js';
import { BLOCK_BYTES } from '../../../src/data/cache/format.js';
import { openCache } from '../../../src/data/cache/readCache.js';
import { writeCache } from '../../../src/data/cache/writeCache.js';
import { datasetFromCache } from '../../../src/data/dataDir.js';
import { textPage } from '../../../src/data/columns/textPage.js';
import { ingestCsv } from '../../../src/data/ingest/ingestCsv.js';
import { TextPageServer } from '../../../src/runtime/engines/isolated-vm/textPageServer.js';
import type { TableProvider } from '../../../src/runtime/engines/engineSession.js';
import { tempDir } from '../data/helpers.js';

const ROWS = 6000;
const PAGE = 256;
const rowText = (i: number) =>
  i % 13 === 12
    ? null
    : i % 29 === 0
      ? 'N/A'
      : `${i} ${i % 7 === 0 ? 'café “quoted”' : 'plain'} ${'w'.repeat(40 + (i % 23))}`;

async function cached(): Promise<{ path: string; bytesAt: number }> {
  const enc = new TextEncoder();
  const parts = Array.from({ length: ROWS }, (_, i) => enc.encode(rowText(i) ?? ''));
  const offsets = new Int32Array(ROWS + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i]! + p.length));
  const bytes = new Uint8Array(offsets[ROWS]!);
  parts.forEach((p, i) => bytes.set(p, offsets[i]!));
  const valid = Uint8Array.from({ length: ROWS }, (_, i) => (rowText(i) === null ? 0 : 1));
  const table: ColumnarTable = {
    name: 'docs',
    numRows: ROWS,
    columns: [
      { name: 'body', type: 'string', kind: 'utf8', data: { kind: 'utf8', type: 'string', bytes, offsets, valid } },
      { name: 'other', type: 'string', kind: 'utf8', data: { kind: 'utf8', type: 'string', bytes, offsets, valid } },
    ],
  };
  const path = join(tempDir(), 'docs.sbtc');
  const info = { name: 'docs', synthetic: true, source: 'test', identity: 'x', rows: ROWS };
  await writeCache(path, { key: 'k', table, info, report: (await ingestCsv(Buffer.from('a\n1\n'))).report });
  const raw = readFileSync(path);
  const header = JSON.parse(raw.subarray(24, 24 + raw.readUInt32LE(12)).toString('utf8')) as {
    columns: Array<{ buffers: Record<string, { offset: number }> }>;
  };
  return { path, bytesAt: header.columns[0]!.buffers.bytes!.offset };
}

/** A provider over the cache file, page reads on for any size; counts whole-column loads and page reads. */
function provider(path: string) {
  const opened = openCache(path, 'k');
  if (!opened.ok) throw new Error(opened.reason);
  opened.reader.lazyMinBytes = 0;
  const ds = datasetFromCache(opened.reader);
  const p = {
    meta: ds.meta,
    wholeLoads: 0,
    pageReads: 0,
    loadColumn: (name: string) => {
      p.wholeLoads++;
      return ds.loadColumn(name);
    },
    loadRows: (name: string, start: number, end: number, reuse?: boolean) => {
      p.pageReads++;
      return ds.loadRows!(name, start, end, reuse);
    },
  };
  return { p: p as TableProvider & { wholeLoads: number; pageReads: number }, close: () => ds.close() };
}

const expected = (start: number, end: number) => ({
  kind: 'text',
  rows: Array.from({ length: end - start }, (_, k) => rowText(start + k)),
});

describe('TextPageServer', () => {
  it('a pass in page order streams every page alone, read ahead while the guest works, never the column whole', async () => {
    const { path } = await cached();
    const { p, close } = provider(path);
    const server = new TextPageServer();
    for (let s = 0; s < ROWS; s += PAGE) {
      const e = Math.min(ROWS, s + PAGE);
      expect(server.page(p, 'docs', 'body', s, e)).toMatchObject(expected(s, e));
      // the guest's turn: the host's event loop runs the read ahead
      await tick();
    }
    const pages = Math.ceil(ROWS / PAGE);
    // every page after the second came from a read ahead; nothing read twice, nothing loaded whole
    expect(server.readAheadHits).toBe(pages - 2);
    expect(p.pageReads).toBe(pages);
    expect(p.wholeLoads).toBe(0);
    server.close();
    close();
  });

  it('serves a read ahead only for the same column and rows; pages out of order keep the 16-page rule', async () => {
    const { path } = await cached();
    const { p, close } = provider(path);
    const server = new TextPageServer();
    server.page(p, 'docs', 'body', 0, PAGE);
    server.page(p, 'docs', 'body', PAGE, 2 * PAGE);
    await tick(); // reads body rows [512, 768) ahead
    expect(server.page(p, 'docs', 'other', 2 * PAGE, 3 * PAGE)).toMatchObject(expected(2 * PAGE, 3 * PAGE));
    expect(server.page(p, 'docs', 'body', 2 * PAGE + 1, 3 * PAGE + 1)).toMatchObject(
      expected(2 * PAGE + 1, 3 * PAGE + 1),
    );
    expect(server.readAheadHits).toBe(0);
    // random access: 16 pages read alone, then the column whole (the last five requests)
    for (let k = 0; k < 20; k++) {
      const s = ((k * 7) % 20) * PAGE + 3;
      expect(server.page(p, 'docs', 'other', s, s + 10)).toMatchObject(expected(s, s + 10));
    }
    expect(p.wholeLoads).toBe(5);
    server.close();
    close();
  });

  it('two columns read in turn, page by page, each keep their own read ahead', async () => {
    const { path } = await cached();
    const { p, close } = provider(path);
    const server = new TextPageServer();
    for (let s = 0; s < ROWS; s += PAGE) {
      const e = Math.min(ROWS, s + PAGE);
      expect(server.page(p, 'docs', 'body', s, e)).toMatchObject(expected(s, e));
      expect(server.page(p, 'docs', 'other', s, e)).toMatchObject(expected(s, e));
      await tick();
    }
    const pages = Math.ceil(ROWS / PAGE);
    expect(server.readAheadHits).toBe(2 * (pages - 2));
    expect(p.pageReads).toBe(2 * pages);
    server.close();
    close();
  });

  it('the pages served equal the pages decoded from the whole column (ASCII, non-ASCII, null and N/A rows)', async () => {
    const { path } = await cached();
    const { p, close } = provider(path);
    const whole = openCache(path, 'k');
    if (!whole.ok) throw new Error(whole.reason);
    const col = whole.reader.loadColumn('body');
    const server = new TextPageServer();
    for (let s = 0; s < ROWS; s += PAGE) {
      const e = Math.min(ROWS, s + PAGE);
      expect(server.page(p, 'docs', 'body', s, e)).toEqual(textPage(col, s, e));
      await tick();
    }
    server.close();
    close();
    whole.reader.close();
  });

  it("a damaged page read ahead is the guest's error on its own request, and says the cache is corrupt", async () => {
    const { path, bytesAt } = await cached();
    const raw = readFileSync(path);
    // a byte of the third block (rows near 3,000 of ~65 bytes): first read ahead, then asked for
    raw[bytesAt + 2 * BLOCK_BYTES + 11] ^= 0x04;
    writeFileSync(path, raw);
    const { p, close } = provider(path);
    const server = new TextPageServer();
    const pass = async () => {
      for (let s = 0; s < ROWS; s += PAGE) {
        server.page(p, 'docs', 'body', s, Math.min(ROWS, s + PAGE));
        await tick();
      }
    };
    await expect(pass()).rejects.toThrow(
      /column 'body' of docs could not be loaded: the cached column is corrupt \(CACHE_CORRUPT\)/,
    );
    server.close();
    close();
  });
});

// bridge.fetchTextPage's host side (src/runtime/engines/isolated-vm/textPageServer.ts): a pass over a
// text column in page order reads each page alone from the binary cache (never the column whole),
// and the next page is read, checked and decoded ahead while the guest uses this one. Every page
// served equals the page decoded from the whole column; a damaged page is the guest's error, raised
// on its own request, never a wrong page.
import { readFileSync, writeFileSync } from 'node:fs';
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BLOCK_BYTES } from '../../../src/data/cache/format.js';
import { openCache } from '../../../src/data/cache/readCache.js';
import { textPage } from '../../../src/data/columns/textPage.js';
import { TextPageServer } from '../../../src/runtime/engines/isolated-vm/textPageServer.js';
import { cachedText, countingProvider } from './textCacheFixture.js';

const ROWS = 6000;
const PAGE = 256;
const rowText = (i: number) =>
  i % 13 === 12
    ? null
    : i % 29 === 0
      ? 'N/A'
      : `${i} ${i % 7 === 0 ? 'café “quoted”' : 'plain'} ${'w'.repeat(40 + (i % 23))}`;

const cached = () => cachedText(ROWS, rowText, ['body', 'other']);
const provider = (path: string) => countingProvider(path);

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
      expect(server.page(p, 'docs', 'other', s, s + PAGE)).toMatchObject(expected(s, s + PAGE));
    }
    expect(p.wholeLoads).toBe(5);
    server.close();
    close();
  });

  it("a guest's window (128 rows or fewer) is read alone without using up the pages read alone, and continues no pass", async () => {
    const { path } = await cached();
    const { p, close } = provider(path);
    const server = new TextPageServer();
    // a few rows of many places (objects() of a sorted table's top rows): each a window read alone
    for (let k = 0; k < 16; k++) {
      const s = ((k * 11) % 40) * 128;
      expect(server.page(p, 'docs', 'body', s, s + 128)).toMatchObject(expected(s, s + 128));
    }
    expect([p.pageReads, p.wholeLoads]).toEqual([16, 0]);
    // pages read alone out of order still have their 16 reads before the column is loaded whole
    for (let k = 0; k < 16; k++)
      server.page(p, 'docs', 'body', ((k * 7) % 20) * PAGE + 5, ((k * 7) % 20) * PAGE + 5 + PAGE);
    expect([p.pageReads, p.wholeLoads]).toEqual([32, 0]);
    // a window then the page after it: no read ahead started by the window
    server.page(p, 'docs', 'other', 0, 128);
    server.page(p, 'docs', 'other', 128, 128 + PAGE);
    await tick();
    expect(server.readAheadHits).toBe(0);
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

// bridge.textScan over the binary cache (src/runtime/engines/isolated-vm/hostScan.ts): a column not
// yet loaded is scanned page by page from the file, every page's blocks checked first; the answers
// equal those over the whole column, a repeat is served from the session's answers, and a damaged
// page is a clear error (the cache is removed, so the next session rebuilds it), never wrong counts.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BLOCK_BYTES } from '../../../src/data/cache/format.js';
import { openCache } from '../../../src/data/cache/readCache.js';
import { textScan } from '../../../src/data/columns/textScan.js';
import { HostScan } from '../../../src/runtime/engines/isolated-vm/hostScan.js';
import { cachedText, countingProvider } from './textCacheFixture.js';

const ROWS = 5000;
const PAGE = 1024;
const rowText = (i: number) =>
  i % 11 === 10
    ? null
    : `${i} ${i % 4 === 0 ? 'Digital Twin' : 'plain'} ${'é'.repeat(i % 3)}${'z'.repeat(60 + (i % 17))}`;

const cached = () => cachedText(ROWS, rowText);
const provider = (path: string) => countingProvider(path, { textLengths: true });

const pages = (f: (start: number, end: number) => Int32Array | Uint8Array | null) => {
  const out: number[] = [];
  for (let s = 0; s < ROWS; s += PAGE) out.push(...f(s, Math.min(ROWS, s + PAGE))!);
  return out;
};

describe('HostScan over the binary cache', () => {
  it('streams pages from the file with the answers of the whole column, and answers a repeat from the session', async () => {
    const { path } = await cached();
    const { p, close } = provider(path);
    const whole = openCache(path, 'k');
    if (!whole.ok) throw new Error(whole.reason);
    const col = whole.reader.loadColumn('body');
    const scan = new HostScan();
    for (const req of [
      { op: 'len' } as const,
      { op: 'contains', needle: 'Digital Twin', fold: 'none' } as const,
      { op: 'contains', needle: 'digital TWIN', fold: 'regex' } as const,
      { op: 'contains', needle: 'É', fold: 'lower' } as const,
    ]) {
      const want = pages((s, e) => textScan(col, s, e, req));
      expect(pages((s, e) => scan.scan(p, 'docs', 'body', s, e, req))).toEqual(want);
      // lengths come from the cache's per-row counts: no text read at all
      if (req.op === 'len') expect([p.wholeLoads, p.pageReads]).toEqual([0, 0]);
      // the first contains pass streamed pages: no whole load
      if (req.op === 'contains' && req.fold === 'none') expect(p.wholeLoads).toBe(0);
    }
    // a repeat is answered from the session: the file is not read again (a damaged file would not be seen)
    const req = { op: 'contains', needle: 'Digital Twin', fold: 'none' } as const;
    const first = scan.scan(p, 'docs', 'body', 0, PAGE, req);
    expect(scan.scan(p, 'docs', 'body', 0, PAGE, req)).toBe(first);
    close();
    whole.reader.close();
  });

  it('after two full streamed passes the column is loaded whole once, with the same answers', async () => {
    const { path } = await cached();
    const { p, close } = provider(path);
    const scan = new HostScan();
    const answers = ['a', 'b', 'c'].map((needle) =>
      pages((s, e) => scan.scan(p, 'docs', 'body', s, e, { op: 'contains', needle, fold: 'none' })),
    );
    expect(p.wholeLoads).toBeGreaterThan(0);
    const col = p.loadColumn('body');
    ['a', 'b', 'c'].forEach((needle, k) =>
      expect(answers[k]).toEqual(pages((s, e) => textScan(col, s, e, { op: 'contains', needle, fold: 'none' }))),
    );
    close();
  });

  it('a contains or an equals over a page answers every page at once (textScanPages): the next pages are lookups', async () => {
    const { path } = await cached();
    const { p, close } = countingProvider(path, { textScanPages: true });
    const whole = openCache(path, 'k');
    if (!whole.ok) throw new Error(whole.reason);
    const col = whole.reader.loadColumn('body');
    const long = `Digital Twin ${'z'.repeat(1100)}`; // too long a question for the per-page answers
    for (const req of [
      { op: 'contains', needle: 'Digital Twin', fold: 'none' } as const,
      { op: 'contains', needle: 'digital TWIN', fold: 'regex' } as const,
      { op: 'contains', needle: 'É', fold: 'lower' } as const,
      { op: 'contains', needle: long, fold: 'none' } as const,
      { op: 'equals', needle: rowText(7)! } as const,
    ]) {
      // a session each: after two full passes a session loads the column whole
      const scan = new HostScan();
      const before = p.passes;
      const want = pages((s, e) => textScan(col, s, e, req));
      expect(pages((s, e) => scan.scan(p, 'docs', 'body', s, e, req))).toEqual(want);
      expect(pages((s, e) => scan.scan(p, 'docs', 'body', s, e, req))).toEqual(want);
      expect(p.passes - before).toBe(1);
    }
    // no page was read on its own, and the column was never loaded whole
    expect([p.pageReads, p.wholeLoads]).toEqual([0, 0]);
    close();
    whole.reader.close();
  });

  it('a damaged page is an error that says the cache is corrupt and rebuilt, never a wrong count', async () => {
    const { path, bytesAt } = await cached();
    const raw = readFileSync(path);
    raw[bytesAt + 2 * BLOCK_BYTES + 7] ^= 0x04;
    writeFileSync(path, raw);
    for (const textScanPages of [false, true]) {
      writeFileSync(path, raw);
      const { p, close } = countingProvider(path, { textLengths: true, textScanPages });
      const scan = new HostScan();
      const req = { op: 'contains', needle: 'Twin', fold: 'regex' } as const;
      expect(() => pages((s, e) => scan.scan(p, 'docs', 'body', s, e, req))).toThrow(
        /column 'body' of docs could not be loaded: the cached column is corrupt \(CACHE_CORRUPT\); the data cache is rebuilt on the next session/,
      );
      expect(existsSync(path)).toBe(false);
      close();
    }
  });
});

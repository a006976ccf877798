// An equality with a short literal (`d.Abstract === 'N/A'`, `.eq('N/A')`) from the binary cache
// without the text: the cache numbers each utf8 column's distinct short rows (at most 16 bytes;
// format.ts SHORT_ROLE, `shortValues`), one byte a row. The answers must be textScan's `equals` on
// the bytes for any needle (invalid UTF-8 that decodes to U+FFFD, a lone surrogate, empty, astral,
// 16 and 17 bytes); a cache written before the index, or a column with too many short strings,
// still answers, from the text.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { crc32 } from '../../../src/data/cache/crc32.js';
import { MAX_SHORT_VALUES } from '../../../src/data/cache/format.js';
import { openCache } from '../../../src/data/cache/readCache.js';
import { textScan } from '../../../src/data/columns/textScan.js';
import { HostScan } from '../../../src/runtime/engines/isolated-vm/hostScan.js';
import { countingProvider } from '../runtime/textCacheFixture.js';
import { utf8CacheOf } from './utf8Cache.js';

const enc = new TextEncoder();
const ROWS = 3000;
const SHORT: Array<Uint8Array | null> = [
  enc.encode('N/A'),
  enc.encode(''),
  enc.encode('n/a'),
  Uint8Array.of(0xff), // decodes to U+FFFD
  enc.encode('\uFFFD'),
  enc.encode('é'),
  enc.encode('😀'),
  enc.encode('x'.repeat(16)),
  enc.encode('x'.repeat(17)),
  null,
  Uint8Array.of(0xe2, 0x82), // a truncated character: one U+FFFD
];
const rowOf = (i: number) =>
  i % 4 === 0 ? SHORT[(i >> 2) % SHORT.length]! : enc.encode(`a long abstract ${i} ${'z'.repeat(i % 40)}`);

function reader(path: string) {
  const opened = openCache(path, 'k');
  if (!opened.ok) throw new Error(opened.reason);
  return opened.reader;
}

/** Removes the short-row index from the header (as a cache written before it), same length, CRC updated. */
function dropIndex(path: string): void {
  const raw = readFileSync(path);
  const length = raw.readUInt32LE(12);
  const h = JSON.parse(raw.subarray(24, 24 + length).toString('utf8'));
  for (const c of h.columns) {
    delete c.shortValues;
    delete c.buffers.short;
  }
  const json = Buffer.from(JSON.stringify(h), 'utf8');
  const padded = Buffer.concat([json, Buffer.alloc(length - json.length, 0x20)]);
  padded.copy(raw, 24);
  raw.writeUInt32LE(crc32(padded), 16);
  writeFileSync(path, raw);
}

const NEEDLES = ['N/A', '', 'n/a', '\uFFFD', 'é', '😀', 'x'.repeat(16), 'x'.repeat(17), '\uD800', 'N/A ', 'zzz'];
const RANGES = [
  [0, ROWS],
  [0, 1],
  [1234, 1500],
  [2999, 3000],
  [700, 700],
] as const;

describe('binary cache: equality with a short literal without the text', () => {
  it("answers exactly textScan's equals on the bytes, for every needle and range", async () => {
    const rows = Array.from({ length: ROWS }, (_, i) => rowOf(i));
    const path = await utf8CacheOf(rows);
    const r = reader(path);
    const whole = r.loadColumn('body');
    let answered = 0;
    for (const needle of NEEDLES)
      for (const [a, b] of RANGES) {
        const got = r.textEquals('body', a, b, needle);
        if (Buffer.byteLength(needle) > 16) {
          expect(got).toBeNull();
          continue;
        }
        answered++;
        expect([...got!], `${JSON.stringify(needle)} ${a}..${b}`).toEqual([
          ...textScan(whole, a, b, { op: 'equals', needle })!,
        ]);
      }
    expect(answered).toBeGreaterThan(40);
    // the invalid byte and the stored U+FFFD both equal '\uFFFD', as the decoded rows do
    expect(r.textEquals('body', 12, 17, '\uFFFD')).toEqual(Uint8Array.of(1, 0, 0, 0, 1));
    r.close();
  });

  it('HostScan answers equals from the index: no text read', async () => {
    const path = await utf8CacheOf(Array.from({ length: ROWS }, (_, i) => rowOf(i)));
    const { p, close } = countingProvider(path, { textLengths: true, textEquals: true });
    const scan = new HostScan();
    const whole = reader(path).loadColumn('body');
    for (let s = 0; s < ROWS; s += 1024) {
      const e = Math.min(ROWS, s + 1024);
      const req = { op: 'equals', needle: 'N/A' } as const;
      expect(scan.scan(p, 'docs', 'body', s, e, req)).toEqual(textScan(whole, s, e, req));
    }
    expect([p.wholeLoads, p.pageReads]).toEqual([0, 0]);
    close();
  });

  it('a column with more distinct short strings than the index holds has none: equals reads the text', async () => {
    const rows = Array.from({ length: ROWS }, (_, i) => enc.encode(`v${i % (MAX_SHORT_VALUES + 1)}`));
    const path = await utf8CacheOf(rows);
    const r = reader(path);
    expect(r.header.columns[0]!.shortValues).toBeUndefined();
    expect(r.textEquals('body', 0, 10, 'v1')).toBeNull();
    r.close();
  });

  it('a cache written before the index still opens and answers equals from the text, right', async () => {
    const rows = Array.from({ length: ROWS }, (_, i) => rowOf(i));
    const path = await utf8CacheOf(rows);
    dropIndex(path);
    const r = reader(path);
    expect(r.textEquals('body', 0, 10, 'N/A')).toBeNull();
    const whole = r.loadColumn('body');
    r.close();
    const { p, close } = countingProvider(path, { textLengths: true, textEquals: true });
    const scan = new HostScan();
    const req = { op: 'equals', needle: 'N/A' } as const;
    expect(scan.scan(p, 'docs', 'body', 0, 1024, req)).toEqual(textScan(whole, 0, 1024, req));
    expect(p.pageReads + p.wholeLoads).toBeGreaterThan(0);
    close();
  });
});

// UTF-16 lengths (textScan's `units`, JavaScript's `s.length`) from the binary cache without the
// text: the cache lists, per text column, the rows whose units exceed their characters (format.ts
// `wideRows`), so the stored character counts answer `units` too. A cache written before that list
// still opens and answers lengths; its `units` come from the bytes (HostScan), never a wrong count.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { crc32 } from '../../../src/data/cache/crc32.js';
import { MAX_WIDE_ROWS } from '../../../src/data/cache/format.js';
import { openCache } from '../../../src/data/cache/readCache.js';
import { textPage } from '../../../src/data/columns/textPage.js';
import { textScan } from '../../../src/data/columns/textScan.js';
import { HostScan } from '../../../src/runtime/engines/isolated-vm/hostScan.js';
import { countingProvider } from '../runtime/textCacheFixture.js';
import { utf8CacheOf } from './utf8Cache.js';

const enc = new TextEncoder();
const ROWS = 3000;

const textRows = (f: (i: number) => string | null, n = ROWS) =>
  Array.from({ length: n }, (_, i) => {
    const t = f(i);
    return t === null ? null : enc.encode(t);
  });

/** The rows as the guest sees them (invalid UTF-8 decoded to U+FFFD). */
function decoded(rows: Array<Uint8Array | null>): Array<string | null> {
  const offsets = new Int32Array(rows.length + 1);
  rows.forEach((r, i) => (offsets[i + 1] = offsets[i]! + (r?.length ?? 0)));
  const bytes = new Uint8Array(offsets[rows.length]!);
  rows.forEach((r, i) => r && bytes.set(r, offsets[i]!));
  const valid = Uint8Array.from(rows, (r) => (r ? 1 : 0));
  return textPage({ kind: 'utf8', type: 'string', bytes, offsets, valid }, 0, rows.length).rows;
}
/** What the guest's `s.length` gives on the decoded rows. */
const decodedUnits = (rows: Array<Uint8Array | null>) => decoded(rows).map((r) => (r === null ? -1 : r.length));

function header(path: string): { columns: Array<{ wideRows?: Array<[number, number]> }> } {
  const raw = readFileSync(path);
  return JSON.parse(raw.subarray(24, 24 + raw.readUInt32LE(12)).toString('utf8'));
}

/** Rewrites the cache header through `edit` (same length, padded with spaces; CRC updated). */
function editHeader(path: string, edit: (h: { columns: Array<Record<string, unknown>> }) => void): void {
  const raw = readFileSync(path);
  const length = raw.readUInt32LE(12);
  const h = JSON.parse(raw.subarray(24, 24 + length).toString('utf8'));
  edit(h);
  const json = Buffer.from(JSON.stringify(h), 'utf8');
  if (json.length > length) throw new Error('the edited header is longer than the room it had');
  const padded = Buffer.concat([json, Buffer.alloc(length - json.length, 0x20)]);
  padded.copy(raw, 24);
  raw.writeUInt32LE(crc32(padded), 16);
  writeFileSync(path, raw);
}

function reader(path: string) {
  const opened = openCache(path, 'k');
  if (!opened.ok) throw new Error(opened.reason);
  return opened.reader;
}

const RANGES = [
  [0, ROWS],
  [0, 1],
  [1234, 1500],
  [2999, 3000],
  [700, 700],
  [5, 17],
] as const;

describe('binary cache: UTF-16 units without the text', () => {
  it('a column with no character outside the BMP: units are the stored character counts', async () => {
    const rows = textRows((i) => (i % 10 === 9 ? null : `row ${i} ${'é€'.repeat(i % 5)}`));
    const path = await utf8CacheOf(rows);
    expect(header(path).columns[0]!.wideRows).toEqual([]);
    const r = reader(path);
    const want = decodedUnits(rows);
    for (const [a, b] of RANGES) expect([...r.textUnits('body', a, b)!]).toEqual(want.slice(a, b));
    expect([...r.textUnits('body', 0, ROWS)!]).toEqual([...r.textLengths('body', 0, ROWS)!]);
    expect(() => r.textUnits('body', 0, ROWS + 1)).toThrow(RangeError);
    r.close();
  });

  it('rows with surrogate pairs (and invalid bytes elsewhere) are listed and added: every range equals s.length', async () => {
    const rows = textRows((i) =>
      i % 10 === 9 ? null : i % 97 === 3 ? `${i} 😀 𝔘${'😀'.repeat(i % 4)}` : `row ${i} café`,
    );
    rows[50] = Uint8Array.from([0x61, 0xff, 0xf0, 0x9f, 0x98]); // invalid: U+FFFD units, no pair
    rows[51] = Uint8Array.from([0xed, 0xa0, 0x80, 0xf0, 0x9f, 0x98, 0x80]); // WTF-8 surrogate, then a pair
    const path = await utf8CacheOf(rows);
    const wide = header(path).columns[0]!.wideRows!;
    const want = decodedUnits(rows);
    // exactly the rows whose units differ from their characters, with the difference
    const listed = decoded(rows).flatMap((v, i) =>
      v !== null && v.length !== [...v].length ? [[i, v.length - [...v].length]] : [],
    );
    expect(wide).toEqual(listed);
    expect(wide.length).toBeGreaterThan(20);
    expect(wide.find(([row]) => row === 51)).toEqual([51, 1]);
    const r = reader(path);
    for (const [a, b] of RANGES) expect([...r.textUnits('body', a, b)!]).toEqual(want.slice(a, b));
    r.close();
  });

  it('a column with more such rows than the header lists has no figure: units are read from the bytes', async () => {
    const rows = textRows((i) => (i <= MAX_WIDE_ROWS ? `${i} 😀` : `${i}`));
    const path = await utf8CacheOf(rows);
    expect(header(path).columns[0]!.wideRows).toBeUndefined();
    const r = reader(path);
    expect(r.textUnits('body', 0, 10)).toBeNull();
    r.close();
    const { p, close } = countingProvider(path, { textLengths: true, textUnits: true });
    const scan = new HostScan();
    const want = decodedUnits(rows);
    expect([...(scan.scan(p, 'docs', 'body', 0, 1024, { op: 'units' }) as Int32Array)]).toEqual(want.slice(0, 1024));
    expect(p.pageReads + p.wholeLoads).toBeGreaterThan(0);
    close();
  });

  it('a cache written before the figure still opens, answers lengths, and its units come from the text', async () => {
    const rows = textRows((i) => (i % 10 === 9 ? null : `${i} ${i % 7 === 0 ? '😀' : 'plain'}`));
    const path = await utf8CacheOf(rows);
    editHeader(path, (h) => h.columns.forEach((c) => delete c.wideRows));
    expect(header(path).columns[0]!.wideRows).toBeUndefined();
    const r = reader(path);
    expect(r.textUnits('body', 0, ROWS)).toBeNull();
    expect(r.textLengths('body', 0, 3)).not.toBeNull();
    r.close();
    const { p, close } = countingProvider(path, { textLengths: true, textUnits: true });
    const scan = new HostScan();
    const want = decodedUnits(rows);
    const got: number[] = [];
    for (let s = 0; s < ROWS; s += 1024)
      got.push(...scan.scan(p, 'docs', 'body', s, Math.min(ROWS, s + 1024), { op: 'units' })!);
    expect(got).toEqual(want);
    expect(p.pageReads + p.wholeLoads).toBeGreaterThan(0);
    close();
  });

  it('with the figure, HostScan answers units from the counts: no text read at all', async () => {
    const rows = textRows((i) => (i % 10 === 9 ? null : `${i} ${i % 7 === 0 ? '😀' : 'plain'}`));
    const path = await utf8CacheOf(rows);
    const { p, close } = countingProvider(path, { textLengths: true, textUnits: true });
    const scan = new HostScan();
    const whole = reader(path).loadColumn('body');
    for (let s = 0; s < ROWS; s += 1024) {
      const e = Math.min(ROWS, s + 1024);
      expect(scan.scan(p, 'docs', 'body', s, e, { op: 'units' })).toEqual(textScan(whole, s, e, { op: 'units' }));
    }
    expect([p.wholeLoads, p.pageReads]).toEqual([0, 0]);
    close();
  });

  it('a header whose listed rows are out of order or past the last row is refused with the reason', async () => {
    const path = await utf8CacheOf(textRows((i) => `${i} 😀`, 10));
    editHeader(
      path,
      (h) =>
        (h.columns[0]!.wideRows = [
          [3, 1],
          [2, 1],
        ]),
    );
    expect(openCache(path, 'k')).toEqual({ ok: false, reason: 'wide rows of column "body" out of order' });
    editHeader(path, (h) => (h.columns[0]!.wideRows = [[10, 1]]));
    expect(openCache(path, 'k')).toEqual({ ok: false, reason: 'wide rows of column "body" out of order' });
  });
});

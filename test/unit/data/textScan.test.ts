// textScan: a length or a literal contains answered on the host from a utf8 column's bytes (what
// bridge.textScan sends). Every answer must equal the same test run on the rows as the isolate sees
// them (textPage's decoding: invalid UTF-8 becomes U+FFFD), for valid and invalid UTF-8 alike.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { ColumnData, TextScanRequest } from '../../../schema/columnar.js';
import { textPage } from '../../../src/data/columns/textPage.js';
import { columnFromValues } from '../../../src/data/columns/fromValues.js';
import { textScan } from '../../../src/data/columns/textScan.js';

function rawColumn(rows: Array<Uint8Array | null>): Extract<ColumnData, { kind: 'utf8' }> {
  const offsets = new Int32Array(rows.length + 1);
  rows.forEach((r, i) => (offsets[i + 1] = offsets[i]! + (r?.length ?? 0)));
  const bytes = new Uint8Array(offsets[rows.length]!);
  rows.forEach((r, i) => r && bytes.set(r, offsets[i]!));
  return { kind: 'utf8', type: 'string', bytes, offsets, valid: Uint8Array.from(rows, (r) => (r ? 1 : 0)) };
}
const enc = new TextEncoder();
const textColumn = (rows: Array<string | null>) => rawColumn(rows.map((r) => (r === null ? null : enc.encode(r))));

/** What the guest computes on the decoded rows (prelude/series/strAccessor.ts). */
function expected(col: ColumnData, start: number, end: number, req: TextScanRequest): number[] {
  const rows = textPage(col, start, end).rows;
  if (req.op === 'len') return rows.map((r) => (r === null ? -1 : [...r].length));
  if (req.op === 'units') return rows.map((r) => (r === null ? -1 : r.length));
  if (req.op === 'equals') return rows.map((r) => (r === null ? 2 : r === req.needle ? 1 : 0));
  const escaped = req.needle.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const re = new RegExp(escaped, 'i');
  const low = req.needle.toLowerCase();
  return rows.map((r) =>
    r === null
      ? 2
      : (
            req.fold === 'none'
              ? r.includes(req.needle)
              : req.fold === 'regex'
                ? re.test(r)
                : r.toLowerCase().includes(low)
          )
        ? 1
        : 0,
  );
}

const edgyByte = fc.oneof(
  fc.integer({ min: 0x41, max: 0x7a }),
  fc.integer({ min: 0x80, max: 0xbf }),
  fc.constantFrom(0x20, 0xc0, 0xc3, 0xc4, 0xe2, 0xed, 0xef, 0xf0, 0xf4, 0xff, 0x0a),
);
const rowBytes = fc.oneof(
  fc.array(edgyByte, { maxLength: 20 }).map((a) => Uint8Array.from(a)),
  fc.string({ unit: 'binary', maxLength: 20 }).map((s) => enc.encode(s)),
  fc
    .constantFrom('Laser', 'LASER optics', 'İstanbul', 'KELVIN \u212A', 'café CAFÉ', '😀 pair', 'straße', '')
    .map((s) => enc.encode(s)),
);
const column = fc.array(fc.option(rowBytes, { freq: 6 }), { minLength: 1, maxLength: 30 }).map(rawColumn);
const needle = fc.oneof(
  fc.constantFrom('', 'a', 'laser', 'LaSeR', 'i', 'k', 'é', 'É', '😀', '\uD83D', '\uFFFD', 'ss', 'ß', ' '),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 3 }),
);
const request: fc.Arbitrary<TextScanRequest> = fc.oneof(
  fc.constant({ op: 'len' } as const),
  fc.constant({ op: 'units' } as const),
  fc.record({
    op: fc.constant('contains' as const),
    needle,
    fold: fc.constantFrom('none' as const, 'regex' as const, 'lower' as const),
  }),
  fc.record({
    op: fc.constant('equals' as const),
    // whole rows too (a U+FFFD needle equals a row of invalid bytes once decoded)
    needle: fc.oneof(needle, fc.constantFrom('Laser', 'café CAFÉ', '😀 pair', '\uFFFD', '\uFFFD\uFFFD', 'N/A')),
  }),
);

describe('textScan', () => {
  test('equals the test on the decoded rows, for any bytes, needle and fold (or leaves the page to the guest)', () => {
    fc.assert(
      fc.property(column, request, fc.nat(), fc.nat(), (col, req, a, b) => {
        const n = col.valid.length;
        const start = a % (n + 1);
        const end = start + (b % (n - start + 1));
        const got = textScan(col, start, end, req);
        if (got === null) {
          // only a folded needle outside ASCII under a RegExp's rules is left to the guest
          expect(req.op === 'contains' && req.fold === 'regex' && /[^\u0000-\u007f]/.test(req.needle)).toBe(true);
          return;
        }
        expect(Array.from(got)).toEqual(expected(col, start, end, req));
      }),
      { numRuns: 3000 },
    );
  });

  test('lengths count code points: surrogate pairs once, nulls -1, empty 0', () => {
    const col = textColumn(['abc', null, '', '😀x', 'café', 'Ünïcödé 𝔘']);
    expect(Array.from(textScan(col, 0, 6, { op: 'len' })!)).toEqual([3, -1, 0, 2, 4, 9]);
  });

  test("units count UTF-16 code units (JavaScript's length): 1, 2 and 3-byte characters one each, 4-byte two", () => {
    const rows = ['abc', null, '', 'é', '€', '😀', '😀x', 'café', 'Ünïcödé 𝔘', '𝔘𝔘𝔘', '\u{10FFFF}'];
    const col = textColumn(rows);
    const want = rows.map((r) => (r === null ? -1 : r.length));
    expect(want.slice(5)).toEqual([2, 3, 4, 10, 6, 2]);
    expect(Array.from(textScan(col, 0, rows.length, { op: 'units' })!)).toEqual(want);
    // an all-ASCII page answers from its offsets; sub-ranges agree with the whole
    expect(Array.from(textScan(textColumn(['ab', null, 'xyz']), 0, 3, { op: 'units' })!)).toEqual([2, -1, 3]);
    expect(Array.from(textScan(col, 5, 9, { op: 'units' })!)).toEqual(want.slice(5, 9));
  });

  test('units of invalid UTF-8: each bad sequence decodes to one U+FFFD unit', () => {
    const col = rawColumn([
      Uint8Array.from([0xff]),
      Uint8Array.from([0x61, 0xc3]), // a truncated 2-byte sequence
      Uint8Array.from([0xf0, 0x9f, 0x98]), // a truncated 4-byte sequence: one U+FFFD, not a pair
      Uint8Array.from([0xed, 0xa0, 0x80]), // an encoded surrogate (WTF-8): three U+FFFD
      Uint8Array.from([0xf0, 0x9f, 0x98, 0x80, 0xff]), // a pair, then a bad byte
      null,
    ]);
    const decoded = textPage(col, 0, 6).rows;
    expect(Array.from(textScan(col, 0, 6, { op: 'units' })!)).toEqual(decoded.map((r) => (r === null ? -1 : r.length)));
    expect(Array.from(textScan(col, 0, 6, { op: 'units' })!)).toEqual([1, 2, 1, 3, 3, -1]);
  });

  test('units of a table built from JavaScript strings with lone surrogates: they are stored as U+FFFD', () => {
    // what a caller's rows become (fromValues.ts writes them with Buffer.write, as UTF-8)
    const rows = ['a\uD800b', '\uDC00', '\uD83D\uDE00\uD83D', 'x\uDBFF', null, 'plain'];
    const col = columnFromValues([...rows, ...rows.map((r, i) => (r === null ? null : `${r} ${i}`))]);
    if (col.kind !== 'utf8') throw new Error(`expected utf8, got ${col.kind}`);
    const n = col.valid.length;
    const decoded = textPage(col, 0, n).rows;
    expect(decoded[0]).toBe('a\uFFFDb');
    expect(Array.from(textScan(col, 0, n, { op: 'units' })!)).toEqual(decoded.map((r) => (r === null ? -1 : r.length)));
    // the JavaScript strings' own lengths agree: a lone surrogate and its U+FFFD are one unit each
    expect(Array.from(textScan(col, 0, 6, { op: 'units' })!)).toEqual(rows.map((r) => (r === null ? -1 : r.length)));
  });

  test('a page that is valid UTF-8 while a row boundary splits a character: each half decodes to U+FFFD', () => {
    // E2 80 80 is U+2000 as a whole; rows [E2] and [80 80] decode to one and two U+FFFD (fast-check found it)
    const col: ColumnData = {
      kind: 'utf8',
      type: 'string',
      bytes: Uint8Array.from([226, 128, 128]),
      offsets: Int32Array.from([0, 1, 3]),
      valid: Uint8Array.from([1, 1]),
    };
    expect([...(textScan(col, 0, 2, { op: 'len' }) as Int32Array)]).toEqual([1, 2]);
    expect([...(textScan(col, 0, 2, { op: 'units' }) as Int32Array)]).toEqual([1, 2]);
    // the same with a 4-byte character split after its lead byte, and inside a page read alone
    const astral: ColumnData = {
      kind: 'utf8',
      type: 'string',
      bytes: Uint8Array.from([0x61, 0xf0, 0x9f, 0x98, 0x80, 0x62]),
      offsets: Int32Array.from([0, 2, 2, 6]),
      valid: Uint8Array.from([1, 0, 1]),
    };
    expect([...(textScan(astral, 0, 3, { op: 'units' }) as Int32Array)]).toEqual([2, -1, 4]);
    expect([...(textScan(astral, 2, 3, { op: 'units' }) as Int32Array)]).toEqual([4]);
    expect([...(textScan(col, 0, 2, { op: 'contains', needle: '\u2000', fold: 'none' }) as Uint8Array)]).toEqual([
      0, 0,
    ]);
  });

  test('a hit must lie inside one row, not across two', () => {
    const col = textColumn(['las', 'er', 'a laser', null, 'LASER']);
    expect(Array.from(textScan(col, 0, 5, { op: 'contains', needle: 'laser', fold: 'none' })!)).toEqual([
      0, 0, 1, 2, 0,
    ]);
    expect(Array.from(textScan(col, 0, 5, { op: 'contains', needle: 'laser', fold: 'regex' })!)).toEqual([
      0, 0, 1, 2, 1,
    ]);
  });

  test('Unicode case folds follow the decoded rule: toLowerCase folds the Kelvin sign to k, a RegExp i flag does not', () => {
    const col = textColumn(['\u212A', 'k', 'İ']);
    expect(Array.from(textScan(col, 0, 3, { op: 'contains', needle: 'k', fold: 'lower' })!)).toEqual([1, 1, 0]);
    expect(Array.from(textScan(col, 0, 3, { op: 'contains', needle: 'k', fold: 'regex' })!)).toEqual([0, 1, 0]);
    expect(Array.from(textScan(col, 0, 3, { op: 'contains', needle: 'i', fold: 'lower' })!)).toEqual([0, 0, 1]);
  });

  test('equals compares whole rows: nulls 2, non-ASCII and empty rows, a U+FFFD needle against invalid bytes', () => {
    const col = rawColumn([
      enc.encode('N/A'),
      null,
      enc.encode('N/A '),
      enc.encode(''),
      enc.encode('café “x”'),
      Uint8Array.from([0xff]),
      enc.encode('\uFFFD'),
      enc.encode('n/a'),
    ]);
    const eq = (needle: string) => Array.from(textScan(col, 0, 8, { op: 'equals', needle })!);
    expect(eq('N/A')).toEqual([1, 2, 0, 0, 0, 0, 0, 0]);
    expect(eq('')).toEqual([0, 2, 0, 1, 0, 0, 0, 0]);
    expect(eq('café “x”')).toEqual([0, 2, 0, 0, 1, 0, 0, 0]);
    // the byte FF decodes to U+FFFD, as the stored U+FFFD does
    expect(eq('\uFFFD')).toEqual([0, 2, 0, 0, 0, 1, 1, 0]);
    // a lone surrogate has no UTF-8 form: no decoded row holds one
    expect(eq('\uD83D')).toEqual([0, 2, 0, 0, 0, 0, 0, 0]);
  });

  test('bad ranges and non-text columns are refused', () => {
    const col = textColumn(['a']);
    expect(() => textScan(col, 0, 2, { op: 'len' })).toThrow(RangeError);
    expect(() =>
      textScan({ kind: 'float64', type: 'number', values: new Float64Array(1), valid: new Uint8Array(1) }, 0, 1, {
        op: 'len',
      }),
    ).toThrow(/utf8/);
  });
});

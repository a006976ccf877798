// textScan: a length or a literal contains answered on the host from a utf8 column's bytes (what
// bridge.textScan sends). Every answer must equal the same test run on the rows as the isolate sees
// them (textPage's decoding: invalid UTF-8 becomes U+FFFD), for valid and invalid UTF-8 alike.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { ColumnData, TextScanRequest } from '../../../schema/columnar.js';
import { textPage } from '../../../src/data/columns/textPage.js';
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

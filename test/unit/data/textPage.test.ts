// textPage: rows of a utf8 column decoded natively on the host (what bridge.fetchTextPage sends).
// The text must be exactly what the in-isolate JavaScript decoder (prelude/polyfills/utf8.ts) and
// the WHATWG TextDecoder give, for valid and invalid UTF-8 alike.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { ColumnData } from '../../../schema/columnar.js';
import { textPage } from '../../../src/data/columns/textPage.js';
import { utf8Decode } from '../../../prelude/polyfills/utf8.js';
import { utf8 } from '../prelude/fixture.js';

const whatwg = new TextDecoder('utf-8');

/** A utf8 column from raw byte rows (null = a null row). */
function rawColumn(rows: Array<Uint8Array | null>): Extract<ColumnData, { kind: 'utf8' }> {
  const offsets = new Int32Array(rows.length + 1);
  rows.forEach((r, i) => (offsets[i + 1] = offsets[i]! + (r?.length ?? 0)));
  const bytes = new Uint8Array(offsets[rows.length]!);
  rows.forEach((r, i) => r && bytes.set(r, offsets[i]!));
  return { kind: 'utf8', type: 'string', bytes, offsets, valid: Uint8Array.from(rows, (r) => (r ? 1 : 0)) };
}

/** Bytes biased towards UTF-8 edge cases: lead bytes, continuations, surrogates (ED A0..), F4 90.. */
const edgyByte = fc.oneof(
  fc.integer({ min: 0, max: 0x7f }),
  fc.integer({ min: 0x80, max: 0xbf }),
  fc.constantFrom(0xc0, 0xc1, 0xc2, 0xc3, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff, 0x0d, 0x0a),
);
const rowBytes = fc.oneof(
  fc.uint8Array({ maxLength: 24 }).map((b) => b),
  fc.array(edgyByte, { maxLength: 24 }).map((a) => Uint8Array.from(a)),
  fc.string({ unit: 'binary', maxLength: 24 }).map((s) => new TextEncoder().encode(s)),
);

describe('textPage', () => {
  test('random bytes decode like the WHATWG decoder and the in-isolate decoder, row by row', () => {
    fc.assert(
      fc.property(fc.array(fc.option(rowBytes, { nil: null }), { maxLength: 30 }), fc.nat(), fc.nat(), (rows, a, b) => {
        const col = rawColumn(rows);
        const start = rows.length ? a % (rows.length + 1) : 0;
        const end = start + (rows.length - start ? b % (rows.length - start + 1) : 0);
        const page = textPage(col, start, end);
        expect(page.rows.length).toBe(end - start);
        let charBytes = 0;
        for (let i = start; i < end; i++) {
          const r = rows[i]!;
          const got = page.rows[i - start];
          if (r === null) {
            expect(got).toBeNull();
            continue;
          }
          expect(got).toBe(whatwg.decode(r));
          expect(got).toBe(utf8Decode(col.bytes, col.offsets[i], col.offsets[i + 1]));
          charBytes += /[^\u0000-\u00ff]/.test(got!) ? 2 * got!.length : got!.length;
        }
        expect(page.charBytes).toBe(charBytes);
      }),
      { numRuns: 400 },
    );
  });

  test('unicode text round-trips: multi-byte, surrogate pairs, CRLF, empty strings, nulls', () => {
    const values = ['', null, 'a\r\nb', 'Café ümlaut', '✓ check', '😀 emoji 𝔘', 'plain ascii', '\u0000nul', 'ÿ'];
    const page = textPage(utf8(values), 0, values.length);
    expect(page.rows).toEqual(values);
    // Latin-1 rows count one byte per character, the others two
    expect(page.charBytes).toBe(0 + 4 + 11 + 2 * 7 + 2 * '😀 emoji 𝔘'.length + 11 + 4 + 1);
  });

  test('an all-ASCII page is copied without decoding; ranges are checked', () => {
    const col = utf8(['abc', 'de', null, '']);
    expect(textPage(col, 1, 4)).toEqual({ kind: 'text', rows: ['de', null, ''], charBytes: 2 });
    expect(textPage(col, 2, 2).rows).toEqual([]);
    expect(() => textPage(col, 3, 5)).toThrow(RangeError);
    expect(() => textPage(col, -1, 2)).toThrow(RangeError);
    expect(() => textPage(col, 2, 1)).toThrow(/outside/);
    expect(() =>
      textPage({ kind: 'bool', type: 'boolean', values: new Uint8Array(1), valid: new Uint8Array(1) }, 0, 1),
    ).toThrow(/utf8 columns only/);
  });
});

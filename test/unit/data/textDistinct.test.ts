// textDistinct: the distinct values of a utf8 column counted on the host from its bytes (what
// bridge.textScan `distinct` answers for nunique). Every count must equal a Set of the rows as the
// isolate sees them (textPage's decoding: invalid UTF-8 becomes U+FFFD), nulls apart, for valid and
// invalid UTF-8 alike, whatever the partitions and rounds the rows are counted in.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { ColumnData } from '../../../schema/columnar.js';
import { textPage } from '../../../src/data/columns/textPage.js';
import { byteRanks, textCodes, textDistinct } from '../../../src/data/columns/textDistinct.js';
import { textScan } from '../../../src/data/columns/textScan.js';

function rawColumn(rows: Array<Uint8Array | null>): Extract<ColumnData, { kind: 'utf8' }> {
  const offsets = new Int32Array(rows.length + 1);
  rows.forEach((r, i) => (offsets[i + 1] = offsets[i]! + (r?.length ?? 0)));
  const bytes = new Uint8Array(offsets[rows.length]!);
  rows.forEach((r, i) => r && bytes.set(r, offsets[i]!));
  return { kind: 'utf8', type: 'string', bytes, offsets, valid: Uint8Array.from(rows, (r) => (r ? 1 : 0)) };
}
const enc = new TextEncoder();
const bytesOf = (...b: number[]) => Uint8Array.from(b);

/** [distinct strings, 1 when a row is null] of rows [start, end) as the isolate decodes them. */
function expected(col: ColumnData, start = 0, end = col.kind === 'utf8' ? col.valid.length : 0): number[] {
  const rows = textPage(col, start, end).rows;
  const present = rows.filter((r): r is string => r !== null);
  return [new Set(present).size, present.length < rows.length ? 1 : 0];
}

const LAYOUTS = [
  {},
  { partitionBytes: 64 },
  { partitionBytes: 16, roundBytes: 40 },
  { partitionBytes: 1, roundBytes: 1 },
];

const edgyByte = fc.oneof(
  fc.integer({ min: 0x61, max: 0x64 }),
  fc.integer({ min: 0x80, max: 0xbf }),
  fc.constantFrom(0xc3, 0xa9, 0xe2, 0xed, 0xef, 0xbb, 0xf0, 0x9f, 0xff, 0xfe),
);
const rowBytes = fc.oneof(
  fc.array(edgyByte, { maxLength: 4 }).map((a) => Uint8Array.from(a)),
  fc.string({ unit: 'binary', maxLength: 3 }).map((s) => enc.encode(s)),
  fc.constantFrom('a', 'é', '😀', '\uFFFD', '\uFEFFa', '', 'ab', 'zq\uFFFD').map((s) => enc.encode(s)),
);
const column = fc.array(fc.option(rowBytes, { freq: 5 }), { minLength: 0, maxLength: 60 }).map(rawColumn);

describe('textDistinct', () => {
  test('counts the decoded strings: empty is a value, null apart, invalid bytes as their U+FFFD text', () => {
    const col = rawColumn([
      enc.encode('Acme'),
      enc.encode('Acme'),
      enc.encode(''),
      null,
      enc.encode(''),
      bytesOf(0x7a, 0x71, 0xfe), // zq\xfe -> 'zq\uFFFD'
      bytesOf(0x7a, 0x71, 0xff), // zq\xff -> the same string
      enc.encode('zq\uFFFD'), // and the same again, from valid bytes
      enc.encode('café'), // Latin-1 in one byte per character in V8, two bytes of UTF-8
      bytesOf(0x63, 0x61, 0x66, 0xc3), // the same row cut inside its last character: 'caf\uFFFD'
      enc.encode('😀'), // astral: a surrogate pair
      bytesOf(0xf0, 0x9f, 0x98), // a cut astral character: one U+FFFD
      bytesOf(0xed, 0xa0, 0x80), // an encoded surrogate: three U+FFFD
      enc.encode('\uFFFD\uFFFD\uFFFD'),
      enc.encode('\uFEFFAcme'), // a byte order mark is a character of the row
    ]);
    const want = expected(col);
    expect(want).toEqual([9, 1]);
    for (const layout of LAYOUTS) expect(Array.from(textDistinct(col, layout))).toEqual(want);
  });

  test('a row that starts inside a character of a valid buffer decodes alone', () => {
    const all = enc.encode('éé😀');
    // rows [0,1) [1,3) [3,4) [4,8): cut inside characters although the whole buffer is valid UTF-8
    const col: ColumnData = {
      kind: 'utf8',
      type: 'string',
      bytes: all,
      offsets: Int32Array.of(0, 1, 3, 4, 8),
      valid: Uint8Array.of(1, 1, 1, 1),
    };
    const want = expected(col);
    for (const layout of LAYOUTS) expect(Array.from(textDistinct(col, layout))).toEqual(want);
  });

  test('no rows, all null, one value on every row', () => {
    expect(Array.from(textDistinct(rawColumn([])))).toEqual([0, 0]);
    expect(Array.from(textDistinct(rawColumn([null, null])))).toEqual([0, 1]);
    const same = rawColumn(Array.from({ length: 5000 }, () => enc.encode('Phase II')));
    for (const layout of LAYOUTS) expect(Array.from(textDistinct(same, layout))).toEqual([1, 0]);
  });

  test('many values over many partitions and rounds (colliding hashes compared by bytes)', () => {
    const rows = Array.from({ length: 20_000 }, (_, i) =>
      i % 29 === 0 ? null : enc.encode(`Company ${(i * 7919) % 6007}${i % 3 ? '' : ' é'}`),
    );
    const col = rawColumn(rows);
    const want = expected(col);
    for (const layout of [...LAYOUTS.slice(0, 3), { partitionBytes: 4096, roundBytes: 20_000 }])
      expect(Array.from(textDistinct(col, layout))).toEqual(want);
  });

  test('invalid rows among thousands of valid ones: each replaced by its decoded text, the runs between kept', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => {
      if (i % 31 === 0) return null;
      const base = enc.encode(`Company ${(i * 7919) % 3001}`);
      // one row in 97 ends in a byte that is not UTF-8; one in 89 holds the U+FFFD it decodes to
      if (i % 97 === 0) return Uint8Array.from([...base, 0xff]);
      if (i % 89 === 0) return enc.encode(`Company ${(i * 7919) % 3001}\uFFFD`);
      return base;
    });
    const col = rawColumn(rows);
    const want = expected(col);
    for (const layout of LAYOUTS.slice(0, 2)) expect(Array.from(textDistinct(col, layout))).toEqual(want);
  });

  test('fast-check: equals a Set of the decoded rows, in every layout', () => {
    fc.assert(
      fc.property(column, fc.constantFrom(...LAYOUTS), (col, layout) => {
        expect(Array.from(textDistinct(col, layout))).toEqual(expected(col));
      }),
      { numRuns: 400 },
    );
  });

  test('textScan `distinct` counts a range of rows', () => {
    fc.assert(
      fc.property(column, fc.nat(), fc.nat(), (col, a, b) => {
        const n = col.valid.length;
        const start = n ? a % (n + 1) : 0;
        const end = start + (n - start ? b % (n - start + 1) : 0);
        expect(Array.from(textScan(col, start, end, { op: 'distinct' }) as Int32Array)).toEqual(
          expected(col, start, end),
        );
      }),
      { numRuns: 200 },
    );
  });
});

/**
 * textCodes' expected answer, from the rows as the isolate decodes them: codes in order of first
 * appearance (a Map of the strings), -1 for null, the dictionary those strings in that order.
 */
function expectedCodes(col: ColumnData): { codes: number[]; dict: string[] } {
  const rows = textPage(col, 0, col.kind === 'utf8' ? col.valid.length : 0).rows;
  const seen = new Map<string, number>();
  const codes = rows.map((r) => {
    if (r === null) return -1;
    let c = seen.get(r);
    if (c === undefined) seen.set(r, (c = seen.size));
    return c;
  });
  return { codes, dict: [...seen.keys()] };
}

/** textCodes' answer as codes and decoded dictionary strings (each entry must be well-formed UTF-8). */
function gotCodes(col: ColumnData, layout = {}): { codes: number[]; dict: string[] } {
  const got = textCodes(col, layout);
  expect(got.dictOffsets[got.dictOffsets.length - 1]).toBe(got.dictBytes.length);
  const dec = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const dict: string[] = [];
  for (let k = 0; k + 1 < got.dictOffsets.length; k++)
    dict.push(dec.decode(got.dictBytes.subarray(got.dictOffsets[k]!, got.dictOffsets[k + 1]!)));
  return { codes: Array.from(got.codes), dict };
}

describe('textCodes', () => {
  test('one code per decoded string, in order of first appearance: empty a value, null -1, invalid bytes as their U+FFFD text', () => {
    const col = rawColumn([
      enc.encode('Acme'),
      null,
      enc.encode(''),
      enc.encode('Acme'),
      bytesOf(0x7a, 0x71, 0xfe), // 'zq\uFFFD'
      bytesOf(0x7a, 0x71, 0xff), // the same string
      enc.encode('zq\uFFFD'), // and again, from valid bytes
      enc.encode('café'),
      bytesOf(0x63, 0x61, 0x66, 0xc3), // 'caf\uFFFD'
      enc.encode('😀'),
      bytesOf(0xed, 0xa0, 0x80), // an encoded surrogate: three U+FFFD
      enc.encode('\uFFFD\uFFFD\uFFFD'),
      enc.encode(''),
    ]);
    const want = expectedCodes(col);
    expect(want.codes).toEqual([0, -1, 1, 0, 2, 2, 2, 3, 4, 5, 6, 6, 1]);
    for (const layout of LAYOUTS) expect(gotCodes(col, layout)).toEqual(want);
  });

  test('no rows, all null, one value on every row', () => {
    expect(gotCodes(rawColumn([]))).toEqual({ codes: [], dict: [] });
    expect(gotCodes(rawColumn([null, null]))).toEqual({ codes: [-1, -1], dict: [] });
    const same = rawColumn(Array.from({ length: 3000 }, (_, i) => (i === 7 ? null : enc.encode('Phase II'))));
    for (const layout of LAYOUTS) expect(gotCodes(same, layout)).toEqual(expectedCodes(same));
  });

  test('many values over many partitions and rounds, invalid rows among them', () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => {
      if (i % 29 === 0) return null;
      const base = enc.encode(`Company ${(i * 7919) % 6007}${i % 3 ? '' : ' é'}`);
      if (i % 97 === 0) return Uint8Array.from([...base, 0xff]);
      if (i % 89 === 0) return enc.encode(`Company ${(i * 7919) % 6007}\uFFFD`);
      return base;
    });
    const col = rawColumn(rows);
    const want = expectedCodes(col);
    for (const layout of [...LAYOUTS.slice(0, 3), { partitionBytes: 4096, roundBytes: 20_000 }])
      expect(gotCodes(col, layout)).toEqual(want);
  });

  test('fast-check: the codes and dictionary of the decoded rows, in every layout', () => {
    fc.assert(
      fc.property(column, fc.constantFrom(...LAYOUTS), (col, layout) => {
        expect(gotCodes(col, layout)).toEqual(expectedCodes(col));
      }),
      { numRuns: 400 },
    );
  });
});

describe('byteRanks (textCodes ranks)', () => {
  /** Ranks of the strings in code-unit order (a plain sort, as `<` orders them). */
  const want = (dict: string[]) => {
    const sorted = [...dict].sort();
    return dict.map((s) => sorted.indexOf(s));
  };
  const ranksOf = (dict: string[]) => {
    const parts = dict.map((s) => enc.encode(s));
    const offsets = new Int32Array(parts.length + 1);
    parts.forEach((p, i) => (offsets[i + 1] = offsets[i]! + p.length));
    const bytes = new Uint8Array(offsets[parts.length]!);
    parts.forEach((p, i) => bytes.set(p, offsets[i]!));
    const r = byteRanks(bytes, offsets);
    return r && Array.from(r);
  };

  test('the code-unit order of distinct strings: prefixes first, Latin-1, U+FFFD, long shared prefixes', () => {
    const dict = ['b', 'a', '', 'ab', 'é', 'Z', '\uFFFD', 'aa', 'café', 'cafe', '\u00ff', '\u0100', ' x'];
    for (let i = 0; i < 200; i++) dict.push(`Company ${(i * 7919) % 1000}`.padEnd(12 + (i % 5), 'x'));
    const unique = [...new Set(dict)];
    expect(ranksOf(unique)).toEqual(want(unique));
  });

  test('none for a dictionary with a character outside the BMP (its UTF-8 order is not the code-unit order)', () => {
    expect(ranksOf(['\uFFFF', '😀'])).toBeNull();
  });

  test('fast-check: equals a plain sort of the strings', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.string({ unit: fc.constantFrom('a', 'b', 'é', '\uFFFD', '\u0800', 'Z', ' ', 'ab'), maxLength: 6 }),
          {
            maxLength: 120,
          },
        ),
        (dict) => {
          expect(ranksOf(dict)).toEqual(want(dict));
        },
      ),
      { numRuns: 300 },
    );
  });

  test('textCodes gives the ranks with its codes', () => {
    const col = rawColumn(['pear', 'apple', null, 'fig', 'apple', ''].map((s) => (s === null ? null : enc.encode(s))));
    const got = textCodes(col);
    expect(Array.from(got.ranks!)).toEqual([3, 1, 2, 0]); // pear, apple, fig, ''
  });
});

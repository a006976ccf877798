// The text column builder of the columnar Parquet decoder against the reference it must equal:
// dictEncode over the plain UTF-8 column (what the CSV ingest and the hyparquet path build).
// Pages come in any mix a writer produces (PLAIN, DELTA_LENGTH_BYTE_ARRAY via PLAIN here,
// dictionary pages and dictionary-coded pages, nulls), with cardinalities on both sides of
// dictEncode's rule, and on both sides of MAX_DICT_SIZE.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DictColumn, Utf8Column } from '../../../../../schema/columnar.js';
import { dictEncode, MAX_DICT_SIZE } from '../../../../../src/data/columns/dictEncode.js';
import { hashBytes, viewOf } from '../../../../../src/data/columns/hashBytes.js';
import { DistinctFloor } from '../../../../../src/data/formats/parquetColumnar/distinctFloor.js';
import { StringSink } from '../../../../../src/data/formats/parquetColumnar/stringSink.js';
import { plainByteArray } from '../../../../helpers/plainByteArray.js';

const enc = new TextEncoder();

/** A page of the column: PLAIN values, or indices into the dictionary page before it. */
type Page =
  { kind: 'plain'; rows: Array<string | null> } | { kind: 'dict'; entries: string[]; rows: Array<number | null> };

/** Dictionary indices as the page holds them: a bit width, then one RLE run per value. */
function indexBytes(idx: number[], size: number): Uint8Array {
  const width = Math.max(1, Math.ceil(Math.log2(Math.max(2, size))));
  const out = [width];
  for (const v of idx) {
    out.push(2); // an RLE run of 1 value
    for (let b = 0; b < Math.ceil(width / 8); b++) out.push((v >>> (8 * b)) & 0xff);
  }
  return new Uint8Array(out);
}

function defsOf(rows: Array<unknown>): Int32Array | null {
  return rows.every((r) => r !== null) ? null : Int32Array.from(rows, (r) => (r === null ? 0 : 1));
}

/**
 * The column through StringSink, page by page. `handed` is called with each data page's bytes
 * once the sink has it (a test may then scribble over them).
 */
function built(pages: Page[], maxDict = MAX_DICT_SIZE, handed?: (buf: Uint8Array) => void): DictColumn | Utf8Column {
  const numRows = pages.reduce((n, p) => n + p.rows.length, 0);
  const sink = new StringSink(numRows, maxDict);
  for (const p of pages) {
    const values = p.rows.filter((r) => r !== null);
    if (p.kind === 'plain') {
      const buf = plainByteArray(values as string[]);
      sink.page({
        buf,
        pos: 0,
        end: buf.length,
        encoding: 'PLAIN',
        rows: p.rows.length,
        defs: defsOf(p.rows),
        nonNull: values.length,
      });
      handed?.(buf);
    } else {
      const dict = plainByteArray(p.entries);
      sink.dictionary(dict, 0, dict.length, p.entries.length);
      const buf = indexBytes(values as number[], p.entries.length);
      sink.page({
        buf,
        pos: 0,
        end: buf.length,
        encoding: 'RLE_DICTIONARY',
        rows: p.rows.length,
        defs: defsOf(p.rows),
        nonNull: values.length,
      });
      handed?.(buf);
    }
  }
  return sink.finish();
}

/** The reference: every row as UTF-8, then dictEncode's rule. */
function reference(pages: Page[], maxDict = MAX_DICT_SIZE): DictColumn | Utf8Column {
  const rows = pages.flatMap((p) =>
    p.kind === 'plain' ? p.rows : p.rows.map((r) => (r === null ? null : p.entries[r])),
  );
  const parts = rows.map((r) => (r === null ? new Uint8Array(0) : enc.encode(r)));
  const offsets = new Int32Array(rows.length + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i] + p.length));
  const bytes = new Uint8Array(offsets[rows.length]);
  parts.forEach((p, i) => bytes.set(p, offsets[i]));
  const col: Utf8Column = {
    kind: 'utf8',
    type: 'string',
    bytes,
    offsets,
    valid: Uint8Array.from(rows, (r) => (r === null ? 0 : 1)),
  };
  return dictEncode(col, rows.filter((r) => r !== null).length, maxDict) ?? col;
}

/** The two columns are the same: same form, same bytes in every array (toEqual is slow on 100,000-entry arrays). */
function expectSame(a: DictColumn | Utf8Column, b: DictColumn | Utf8Column): void {
  expect(a.kind).toBe(b.kind);
  const arrays = (c: DictColumn | Utf8Column) =>
    c.kind === 'dict' ? [c.codes, c.dictBytes, c.dictOffsets] : [c.bytes, c.offsets, c.valid];
  arrays(a).forEach((x, i) => {
    const y = arrays(b)[i];
    expect(x.constructor).toBe(y.constructor);
    expect(
      Buffer.compare(
        Buffer.from(x.buffer, x.byteOffset, x.byteLength),
        Buffer.from(y.buffer, y.byteOffset, y.byteLength),
      ),
    ).toBe(0);
  });
}

const word = (pool: number) =>
  fc.integer({ min: 0, max: pool - 1 }).map((i) => (i % 5 === 0 ? `é${i}` : i % 7 === 0 ? '' : `value ${i}`));
const page = (pool: number): fc.Arbitrary<Page> =>
  fc.oneof(
    fc.record({
      kind: fc.constant('plain' as const),
      rows: fc.array(fc.option(word(pool), { freq: 6, nil: null }), { maxLength: 60 }),
    }),
    fc.uniqueArray(word(pool), { minLength: 1, maxLength: 20 }).chain((entries) =>
      fc.record({
        kind: fc.constant('dict' as const),
        entries: fc.constant(entries),
        rows: fc.array(fc.option(fc.nat(entries.length - 1), { freq: 6, nil: null }), { maxLength: 60 }),
      }),
    ),
  );

describe('StringSink = dictEncode over the same rows', () => {
  it('any mix of PLAIN, dictionary and dictionary-coded pages, few or many distinct values', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(3, 30, 300, 3000).chain((pool) => fc.array(page(pool), { maxLength: 8 })),
        (pages) => {
          expectSame(built(pages), reference(pages));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a dictionary cap passed in the middle of a dictionary-coded page (with and without nulls): the same column', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom(30, 300).chain((pool) => fc.array(page(pool), { minLength: 1, maxLength: 8 })),
        (maxDict, pages) => {
          expectSame(built(pages, maxDict), reference(pages, maxDict));
        },
      ),
      { numRuns: 400 },
    );
  });

  it.each([
    ['all distinct, PLAIN (the bound proves UTF-8 early)', MAX_DICT_SIZE + 5000, (i: number) => `U${i * 7919}`],
    [
      'exactly MAX_DICT_SIZE distinct, each twice, PLAIN: still a dictionary',
      MAX_DICT_SIZE * 2,
      (i: number) => `v${i % MAX_DICT_SIZE}`,
    ],
    ['MAX_DICT_SIZE + 1 distinct, PLAIN: UTF-8', MAX_DICT_SIZE * 2 + 2, (i: number) => `v${i % (MAX_DICT_SIZE + 1)}`],
  ])('%s', (_what, rows, value) => {
    // two PLAIN pages and a dictionary-coded page in between, as a writer that falls back does
    const all = Array.from({ length: rows }, (_, i) => (i % 101 === 0 ? null : value(i)));
    const third = Math.floor(rows / 3);
    const mid = all.slice(third, 2 * third);
    const entries = [...new Set(mid.filter((v) => v !== null))] as string[];
    const index = new Map(entries.map((v, i) => [v, i]));
    const pages: Page[] = [
      { kind: 'plain', rows: all.slice(0, third) },
      { kind: 'dict', entries, rows: mid.map((v) => (v === null ? null : index.get(v)!)) },
      { kind: 'plain', rows: all.slice(2 * third) },
    ];
    expectSame(built(pages), reference(pages));
  });

  it('a data page is not read after it is handed over (its values are copied out as it comes): any mix, the same column', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(3, 30, 300, 3000).chain((pool) => fc.array(page(pool), { maxLength: 8 })),
        fc.integer({ min: 1, max: 40 }),
        (pages, maxDict) => {
          // the reader drops (or reuses) each inflated page once the sink has it: scribbled over here
          const scribble = (buf: Uint8Array) => buf.fill(0xa5);
          expectSame(built(pages, MAX_DICT_SIZE, scribble), reference(pages));
          expectSame(built(pages, maxDict, scribble), reference(pages, maxDict));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a column of PLAIN pages proven to be text is the copied values themselves, nulls or not', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => (i % 13 === 0 ? null : `row ${i} é`));
    for (const all of [rows, rows.map((v, i) => v ?? `filled ${i}`)]) {
      const pages: Page[] = [0, 1, 2, 3].map((k) => ({ kind: 'plain', rows: all.slice(k * 1250, (k + 1) * 1250) }));
      const col = built(pages, 100);
      expectSame(col, reference(pages, 100));
      // the stage's resizable buffer, trimmed: not a second copy of the text (where the runtime has resizable buffers)
      const buffer = (col as Utf8Column).bytes.buffer as ArrayBuffer & { resizable?: boolean };
      if (typeof (ArrayBuffer.prototype as { resize?: unknown }).resize === 'function')
        expect(buffer.resizable).toBe(true);
      expect(buffer.byteLength).toBe((col as Utf8Column).bytes.byteLength);
    }
  });

  it('values of the same length and the same hash stay distinct (the bytes are compared)', () => {
    const [a, b] = ['k1xoh', 'k2wef'];
    const hash = (v: string) => {
      const bytes = enc.encode(v);
      return hashBytes(viewOf(bytes), bytes, 0, bytes.length);
    };
    expect(hash(a)).toBe(hash(b));
    const pages: Page[] = [
      { kind: 'plain', rows: [a, b, null, a, b, 'x', a] },
      { kind: 'dict', entries: [b, a], rows: [0, 1, 1, null, 0] },
    ];
    const col = built(pages);
    expectSame(col, reference(pages));
    expect(col.kind === 'dict' && col.dictOffsets.length).toBe(4);
  });
});

describe('DistinctFloor', () => {
  it('never counts more than the distinct values, and proves a column of unique values', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', maxLength: 9 }), { maxLength: 400 }),
        fc.nat(300),
        (values, limit) => {
          const floor = new DistinctFloor(limit);
          for (const v of values) {
            const b = enc.encode(v);
            floor.add(hashBytes(viewOf(b), b, 0, b.length));
          }
          if (new Set(values).size <= limit) expect(floor.above).toBe(false);
        },
      ),
    );
    const floor = new DistinctFloor(MAX_DICT_SIZE);
    for (let i = 0; i < MAX_DICT_SIZE * 1.1 && !floor.above; i++) {
      const b = enc.encode(`U${i}`);
      floor.add(hashBytes(viewOf(b), b, 0, b.length));
    }
    expect(floor.above).toBe(true);
  });
});

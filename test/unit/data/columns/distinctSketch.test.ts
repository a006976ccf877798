// A CSV read in two parts skips hashing a text column for a dictionary when the parts' sketches
// prove it has too many distinct values; the sketch must never count more than there are.
import { describe, expect, test } from 'vitest';
import { utf8Column as column } from '../../../helpers/utf8Column.js';
import { distinctAtLeast, distinctSketch } from '../../../../src/data/columns/distinctSketch.js';
import { dictEncode, MAX_DICT_SIZE, USER_MAX_DICT_SIZE } from '../../../../src/data/columns/dictEncode.js';
import { Utf8Builder } from '../../../../src/data/ingest/utf8Builder.js';
import { IssueLog } from '../../../../src/data/ingest/report.js';

const nonNull = (values: (string | null)[]) => values.filter((v) => v !== null).length;
const distinct = (values: (string | null)[]) => new Set(values.filter((v) => v !== null)).size;
const sketch = (values: (string | null)[], bound = MAX_DICT_SIZE) =>
  distinctSketch(column(values), nonNull(values), bound);

/** A seeded generator, so a failure repeats. */
function random(seed: number): () => number {
  return () => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
    return (seed >>> 0) / 2 ** 32;
  };
}

describe('distinctSketch: a lower bound of a column’s distinct values', () => {
  test('never above the distinct values, alone or over parts of different sizes', () => {
    const next = random(7);
    const pad = 'x'.repeat(20);
    const makers: Array<(k: number) => string> = [
      (k) => `v${k}`,
      (k) => `${pad}${k}${pad}${pad}${pad}`, // values differ only between the bytes the sketch reads
      (k) => (k % 3 === 0 ? '' : `${k}`.repeat(1 + (k % 5))),
      (k) => `é${k}😀`,
    ];
    for (let round = 0; round < 60; round++) {
      const make = makers[round % makers.length]!;
      const rows = 1 + Math.floor(next() * 3000);
      const spread = 1 + Math.floor(next() * rows * 1.5);
      const values = Array.from({ length: rows }, () => (next() < 0.1 ? null : make(Math.floor(next() * spread))));
      const cut = Math.floor(next() * rows);
      const [a, b] = [values.slice(0, cut), values.slice(cut)];
      const all = distinct(values);
      const bound = round % 2 === 0 ? 50 : MAX_DICT_SIZE;
      expect(distinctAtLeast([sketch(values, bound)])).toBeLessThanOrEqual(all);
      expect(distinctAtLeast([sketch(a, bound), sketch(b, bound)])).toBeLessThanOrEqual(all);
      expect(distinctAtLeast([sketch(a, bound), undefined])).toBeLessThanOrEqual(distinct(a));
    }
  });

  test('an all-distinct column is proven past half its rows; parts of different map sizes fold', () => {
    const values = Array.from({ length: 20_000 }, (_, i) => `A study of lasers and optics for award ${i}`);
    expect(distinctAtLeast([sketch(values)])).toBeGreaterThan(values.length / 2);
    const [a, b] = [values.slice(0, 6000), values.slice(6000)];
    const [sa, sb] = [sketch(a, USER_MAX_DICT_SIZE)!, sketch(b, USER_MAX_DICT_SIZE)!];
    expect(sa.length * 2).toBe(sb.length);
    const both = distinctAtLeast([sa, sb]);
    expect(both).toBeGreaterThan(distinctAtLeast([sb]));
    expect(both).toBeGreaterThan(distinctAtLeast([sa]));
    expect(both).toBeLessThanOrEqual(values.length);
  });

  test('a sketch stops once past its bound', () => {
    const values = Array.from({ length: 5000 }, (_, i) => `v${i}`);
    expect(distinctAtLeast([sketch(values, 100)])).toBe(101);
  });

  test('a column that repeats through its first block, or any later one, gives no sketch; nulls add nothing', () => {
    expect(sketch(Array.from({ length: 100_000 }, (_, i) => `s${i % 30_000}`))).toBeNull();
    expect(sketch(Array.from({ length: 20_000 }, (_, i) => `s${i % 50}`))).toBeNull();
    expect(distinctAtLeast([sketch([null, null, 'a', null, 'a'])])).toBe(1);
    expect(distinctAtLeast([sketch([])])).toBe(0);
    expect(distinctAtLeast([])).toBe(0);
  });
});

describe('Utf8Builder.decide over two parts', () => {
  function part(values: string[], maxDict = USER_MAX_DICT_SIZE): Utf8Builder {
    const b = new Utf8Builder('Abstract', 'text', new IssueLog(), false, 'auto', 1 << 24, maxDict);
    for (const v of values) {
      const buf = Buffer.from(v);
      b.add(buf, 0, buf.length, 0);
    }
    return b;
  }

  test('all-distinct halves are decided plain text before any part hashes them', () => {
    const values = Array.from({ length: 40_000 }, (_, i) => `an abstract that is text number ${i}`);
    const [a, b] = [part(values.slice(0, 20_000)), part(values.slice(20_000))];
    expect(a.decide([a.summary(), b.summary()])).toEqual({ as: 'text', dictLimit: null });
  });

  test('one pass: finish() is dictEncode as written, under, at and over the limit', () => {
    const rows = 1000;
    const pad = 'q'.repeat(30);
    const cases: Array<[string, (i: number, d: number) => string | null]> = [
      ['cycle', (i, d) => `c${i % d}`],
      ['late', (i, d) => `l${Math.max(0, i - (rows - d))}`],
      ['padded', (i, d) => `${pad}${i % d}${pad}${pad}`],
      ['nulls', (i, d) => (i % 3 === 0 ? null : `n${i % d}`)],
    ];
    // every typed array of a column, as one string: toEqual over typed arrays is slow
    const flat = (c: object) =>
      Object.entries(c)
        .map(
          ([k, v]) =>
            `${k}=${ArrayBuffer.isView(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex') : String(v)}`,
        )
        .join(';');
    for (const maxDict of [USER_MAX_DICT_SIZE, 250])
      for (const d of [249, 250, 251, 332, 333, 334, 499, 500, 501, rows])
        for (const [name, make] of cases) {
          const values = Array.from({ length: rows }, (_, i) => make(i, d));
          const b = new Utf8Builder(name, 'text', new IssueLog(), false, 'auto', 1 << 24, maxDict);
          for (const v of values) {
            if (v === null) b.addNull();
            else b.add(Buffer.from(v), 0, Buffer.byteLength(v), 0);
          }
          const col = column(values);
          expect(flat(b.finish()), `${name} ${d} of ${maxDict}`).toBe(
            flat(dictEncode(col, nonNull(values), maxDict) ?? col),
          );
        }
  });

  test('halves that share their values keep the dictionary limit', () => {
    const values = Array.from({ length: 40_000 }, (_, i) => `company ${i % 20_000}`);
    const [a, b] = [part(values.slice(0, 20_000)), part(values.slice(20_000))];
    expect(a.decide([a.summary(), b.summary()])).toEqual({ as: 'text', dictLimit: 20_000 });
  });
});

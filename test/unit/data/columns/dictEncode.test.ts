// dictCodes / dictEncode (CSV text columns, Arrow and Parquet text read as UTF-8): each distinct
// value's code in first-seen order, null as -1, null past the limit. Checked against a Map over the
// values' strings, including values whose hashes collide and a dictionary that outgrows every
// starting size (the table, the codes' arrays and the compact copy of the values).
import { describe, expect, test } from 'vitest';
import { utf8Column as column } from '../../../helpers/utf8Column.js';
import { dictCodes, dictEncode } from '../../../../src/data/columns/dictEncode.js';

/** The codes as written by hand: a Map of the strings, in first-seen order. */
function expected(values: (string | null)[]): { codes: number[]; firstRow: number[]; dict: string[] } {
  const seen = new Map<string, number>();
  const firstRow: number[] = [];
  const codes = values.map((v, r) => {
    if (v === null) return -1;
    let code = seen.get(v);
    if (code === undefined) {
      code = seen.size;
      seen.set(v, code);
      firstRow.push(r);
    }
    return code;
  });
  return { codes, firstRow, dict: [...seen.keys()] };
}

function fnv(s: string): number {
  let h = 0x811c9dc5 | 0;
  for (const b of Buffer.from(s)) h = Math.imul(h ^ b, 16777619);
  return h;
}

/** A seeded generator, so a failure repeats. */
function random(seed: number): () => number {
  return () => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
    return (seed >>> 0) / 2 ** 32;
  };
}

describe('dictCodes: the codes of a text column', () => {
  test('values whose hashes collide get codes of their own', () => {
    // two values of one FNV-1a hash (found by search; checked here so the case stays a collision)
    expect(fnv('v332789')).toBe(fnv('v529192'));
    const values = ['v332789', 'v529192', null, 'v529192', 'v332789', '', 'v332789', ''];
    const coded = dictCodes(column(values), 100)!;
    expect(Array.from(coded.codes)).toEqual(expected(values).codes);
    expect(coded.distinct).toBe(3);
    expect(coded.hashes[0]).toBe(coded.hashes[1]);
  });

  test('any mix of values, lengths, nulls and sizes equals the Map of strings', () => {
    const next = random(21);
    for (let round = 0; round < 40; round++) {
      const rows = 1 + Math.floor(next() * 6000);
      const distinct = 1 + Math.floor(next() * (round % 4 === 0 ? 3000 : 300));
      const long = round % 3 === 0 ? 'é'.repeat(Math.floor(next() * 40)) : '';
      const values = Array.from({ length: rows }, () => {
        if (next() < 0.05) return null;
        const k = Math.floor(next() * distinct);
        // prefixes of one another and the empty value, so a length mismatch matters
        return k % 7 === 0 ? 'x'.repeat(k % 13) : `${long}value ${k}${'.'.repeat(k % 5)}`;
      });
      const want = expected(values);
      const coded = dictCodes(column(values), rows)!;
      expect(Array.from(coded.codes)).toEqual(want.codes);
      expect(coded.distinct).toBe(want.dict.length);
      expect(Array.from(coded.firstRow.subarray(0, coded.distinct))).toEqual(want.firstRow);
      expect(Array.from(coded.hashes.subarray(0, coded.distinct))).toEqual(want.dict.map(fnv));
    }
  });

  test('null once the values pass the limit, codes up to it', () => {
    const values = Array.from({ length: 5000 }, (_, i) => `c${i % 1500}`);
    expect(dictCodes(column(values), 1499)).toBeNull();
    expect(dictCodes(column(values), 1500)!.distinct).toBe(1500);
  });

  test('dictEncode writes the dictionary of the first-seen values', () => {
    const values = Array.from({ length: 4000 }, (_, i) => (i % 11 === 0 ? null : `name ${(i * 7919) % 900}`));
    const col = dictEncode(column(values), 4000, 4000);
    expect(col).not.toBeNull();
    const want = expected(values);
    expect(Array.from(col!.codes)).toEqual(want.codes);
    const dict = Array.from({ length: want.dict.length }, (_, c) =>
      Buffer.from(col!.dictBytes.subarray(col!.dictOffsets[c], col!.dictOffsets[c + 1])).toString(),
    );
    expect(dict).toEqual(want.dict);
  });
});

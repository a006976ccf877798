/**
 * Chunks of a dictionary-coded host column: an RLE_DICTIONARY page of indices over the entries
 * this chunk uses (renumbered in order of first use), and a dictionary page holding each of those
 * entries' UTF-8 bytes once, copied from the column's own dictionary (no string is made).
 */
import type { DictPlan } from './plan.js';
import type { Encoded, Scratch } from './scratch.js';
import { bitWidth, writeBitPacked } from './rle.js';

/** Encodes rows [a, b) of a dictionary plan into `s` (values = bit width + indices, dict = entries). */
export function encodeDict(p: DictPlan, a: number, b: number, s: Scratch): Encoded {
  const { codes, dictBytes, dictOffsets, rows } = p;
  const size = dictOffsets.length - 1;
  const remap = new Int32Array(size).fill(-1);
  const order: number[] = [];
  const flags = s.valid;
  const idx = s.codes;
  let j = 0;
  for (let k = a; k < b; k++) {
    const c = codes[rows ? rows[k] : k];
    if (c < 0 || c >= size) {
      flags[k - a] = 0;
      continue;
    }
    flags[k - a] = 1;
    let m = remap[c];
    if (m < 0) {
      m = remap[c] = order.length;
      order.push(c);
    }
    idx[j++] = m;
  }
  const nulls = b - a - j;
  if (j === 0) return { nulls, encoding: 0 }; // every row null: a PLAIN page without values
  const dict = s.dict;
  for (let q = 0; q < order.length; q++) {
    const c = order[q];
    dict.lengthPrefixed(dictBytes, dictOffsets[c], dictOffsets[c + 1]);
  }
  const width = Math.max(1, bitWidth(order.length - 1));
  s.values.byte(width);
  writeBitPacked(s.values, idx, j, width);
  return { nulls, encoding: 8, dictEntries: order.length };
}

import type { ColumnData } from '../../../../schema/columnar.js';
import { MAX_DICT_SIZE } from '../../columns/dictEncode.js';
import type { ArrowBatch } from './arrowBatch.js';
import { corrupt } from './corrupt.js';
import { dictionaryIds } from './dictionaryIds.js';
import { validBytes } from './validBytes.js';
import { ValueTable } from './valueTable.js';

/**
 * A string transfer column from checked batches (checkBatches.ts) of a dictionary-encoded
 * Arrow text column: the keys are mapped through each batch's dictionary to value ids, and the
 * column is then exactly what dictEncode.ts makes of the same text row by row: dictionary-coded
 * when there are at most MAX_DICT_SIZE distinct values and no more than half the non-null rows,
 * with codes in the order the VALUES are first met in the rows (unused entries absent, equal
 * values of different dictionaries one code); else plain UTF-8.
 * @throws {DataError} DATA_CORRUPT when a key is outside its dictionary or a dictionary is damaged.
 * @throws {RangeError} when the text is larger than 2 GiB, as the per-value path.
 * @example dictionaryColumn(batches, 't.arrow', 'agency')
 */
export function dictionaryColumn(batches: readonly ArrowBatch[], file: string, column: string): ColumnData {
  const table = new ValueTable();
  const seen = new Map<ArrowBatch, Int32Array>();
  const byDictionary = new Map<object, Int32Array>();
  let total = 0;
  for (const b of batches) total += b.length;
  const codes = new Int32Array(total);
  const valid = new Uint8Array(total);
  let codeOf = new Int32Array(0); // value id -> code, -1 = not met yet
  let valueOf = new Int32Array(64); // code -> value id
  let distinct = 0;
  let nonNull = 0;
  let at = 0;
  for (let k = 0; k < batches.length; k++) {
    const b = batches[k];
    const n = b.length;
    if (!b.dictionary) throw corrupt(file, column, `record batch ${k + 1} refers to a dictionary that the file does not hold`);
    let ids = byDictionary.get(b.dictionary);
    if (!ids) byDictionary.set(b.dictionary, (ids = dictionaryIds(b.dictionary, table, seen, file, column)));
    if (codeOf.length < table.size) {
      const grown = new Int32Array(Math.max(table.size, codeOf.length * 2)).fill(-1);
      grown.set(codeOf);
      codeOf = grown;
    }
    const keys = keysOf(b, k, file, column);
    validBytes(b, valid, at);
    for (let i = 0; i < n; i++) {
      if (!valid[at + i]) {
        codes[at + i] = -1;
        continue;
      }
      const key = keys[i];
      if (!(key >= 0 && key < ids.length)) throw corrupt(file, column, `row ${i + 1} of record batch ${k + 1} has dictionary key ${key}, outside its dictionary of ${ids.length} entries`);
      const v = ids[key];
      if (v < 0) {
        codes[at + i] = -1;
        valid[at + i] = 0;
        continue;
      }
      nonNull++;
      let c = codeOf[v];
      if (c < 0) {
        c = codeOf[v] = distinct++;
        if (c === valueOf.length) {
          const grown = new Int32Array(c * 2);
          grown.set(valueOf);
          valueOf = grown;
        }
        valueOf[c] = v;
      }
      codes[at + i] = c;
    }
    at += n;
  }
  if (distinct <= Math.min(MAX_DICT_SIZE, Math.floor(nonNull / 2))) {
    const dictOffsets = new Int32Array(distinct + 1);
    for (let c = 0; c < distinct; c++) dictOffsets[c + 1] = dictOffsets[c] + table.start(valueOf[c] + 1) - table.start(valueOf[c]);
    const dictBytes = new Uint8Array(dictOffsets[distinct]);
    for (let c = 0; c < distinct; c++) dictBytes.set(table.pool.subarray(table.start(valueOf[c]), table.start(valueOf[c] + 1)), dictOffsets[c]);
    return { kind: 'dict', type: 'string', codes, dictBytes, dictOffsets };
  }
  return plain(codes, valid, valueOf, table);
}

/** The rows as plain UTF-8 (too many distinct values for a dictionary). */
function plain(codes: Int32Array, valid: Uint8Array, valueOf: Int32Array, table: ValueTable): ColumnData {
  const n = codes.length;
  const offsets = new Int32Array(n + 1);
  let size = 0;
  for (let r = 0; r < n; r++) {
    const c = codes[r];
    if (c >= 0) size += table.start(valueOf[c] + 1) - table.start(valueOf[c]);
    if (size > 0x7fffffff) throw new RangeError('a text column is larger than 2 GiB');
    offsets[r + 1] = size;
  }
  const bytes = new Uint8Array(size);
  const pool = table.pool;
  for (let r = 0; r < n; r++) {
    const c = codes[r];
    if (c < 0) continue;
    const s = table.start(valueOf[c]);
    const e = table.start(valueOf[c] + 1);
    let at = offsets[r];
    if (e - s > 32) bytes.set(pool.subarray(s, e), at);
    else for (let k = s; k < e; k++) bytes[at++] = pool[k];
  }
  return { kind: 'utf8', type: 'string', bytes, offsets, valid };
}

/** A batch's dictionary keys as numbers (64-bit keys read as words: one beyond 2^31 is -1, outside any dictionary). */
function keysOf(b: ArrowBatch, k: number, file: string, column: string): ArrayLike<number> {
  const v = b.values;
  if (!v || v.length < b.length) throw corrupt(file, column, `record batch ${k + 1} has ${v?.length ?? 0} dictionary keys for ${b.length} rows`);
  if (!(v instanceof BigInt64Array || v instanceof BigUint64Array)) return v as ArrayLike<number>;
  const w = new Int32Array(v.buffer, v.byteOffset, 2 * b.length);
  const keys = new Int32Array(b.length);
  for (let i = 0; i < b.length; i++) keys[i] = w[2 * i + 1] === 0 ? w[2 * i] : -1;
  return keys;
}

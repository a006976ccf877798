import type { ColumnData } from '../../../../schema/columnar.js';
import { USER_MAX_DICT_SIZE } from '../../columns/dictEncode.js';
import { hashBytes, viewOf } from '../../columns/hashBytes.js';
import { TextDictionary } from '../../columns/textDictionary.js';
import type { ArrowBatch } from './arrowBatch.js';
import { corrupt } from './corrupt.js';
import { DictionaryEntries } from './dictionaryEntries.js';
import { validBytes } from './validBytes.js';

/**
 * A string transfer column from checked batches (checkBatches.ts) of a dictionary-encoded
 * Arrow text column, exactly what dictEncode.ts makes of the same text row by row: dictionary-
 * coded when there are at most USER_MAX_DICT_SIZE distinct values and no more than half the non-null
 * rows, with codes in the order the VALUES are first met in the rows (unused entries absent,
 * equal values of different dictionaries or entries one code); else plain UTF-8. Entries are
 * hashed when a row first uses them, and no more once the values are too many for a dictionary.
 * @throws {DataError} DATA_CORRUPT when a key is outside its dictionary or a dictionary is damaged.
 * @throws {RangeError} when the text is larger than 2 GiB, as the per-value path.
 * @example dictionaryColumn(batches, 't.arrow', 'agency')
 */
export function dictionaryColumn(batches: readonly ArrowBatch[], file: string, column: string): ColumnData {
  const entries = new DictionaryEntries(file, column);
  let total = 0;
  for (const b of batches) total += b.length;
  const rowEntry = new Int32Array(total); // the column-wide entry of each row, -1 = null
  const valid = new Uint8Array(total);
  let nonNull = 0;
  let at = 0;
  for (let k = 0; k < batches.length; k++) {
    const b = batches[k];
    const n = b.length;
    if (!b.dictionary)
      throw corrupt(file, column, `record batch ${k + 1} refers to a dictionary that the file does not hold`);
    const view = entries.view(b.dictionary);
    const keys = keysOf(b, k, file, column);
    validBytes(b, valid, at);
    const { parts, starts } = view;
    for (let i = 0; i < n; i++) {
      const r = at + i;
      if (!valid[r]) {
        rowEntry[r] = -1;
        continue;
      }
      const key = keys[i];
      if (!(key >= 0 && key < view.size))
        throw corrupt(
          file,
          column,
          `row ${i + 1} of record batch ${k + 1} has dictionary key ${key}, outside its dictionary of ${view.size} entries`,
        );
      let j = 0;
      if (parts.length > 1) {
        let hi = parts.length - 1;
        while (j < hi) {
          const mid = (j + hi + 1) >> 1;
          if (starts[mid] <= key) j = mid;
          else hi = mid - 1;
        }
      }
      const p = parts[j];
      const local = key - starts[j];
      if (!entries.parts[p].valid[local]) {
        valid[r] = 0;
        rowEntry[r] = -1;
        continue;
      }
      rowEntry[r] = entries.bases[p] + local;
      nonNull++;
    }
    at += n;
  }
  const limit = Math.min(USER_MAX_DICT_SIZE, Math.floor(nonNull / 2));
  // the column dictionary, values in the order rows first meet them (TextDictionary numbers them so)
  const dict = new TextDictionary(USER_MAX_DICT_SIZE);
  const entryCode = new Int32Array(entries.bases[entries.parts.length]).fill(-1);
  const codes = new Int32Array(total);
  let src: Uint8Array | undefined;
  let view: DataView | undefined;
  for (let r = 0; r < total; r++) {
    const g = rowEntry[r];
    if (g < 0) {
      codes[r] = -1;
      continue;
    }
    let c = entryCode[g];
    if (c < 0) {
      const [bytes, s, e] = entries.bytes(g);
      if (bytes !== src) view = viewOf((src = bytes));
      const h = hashBytes(view!, bytes, s, e);
      c = dict.find(view!, bytes, s, e, h);
      if (c < 0) {
        if (dict.size === limit) return plain(rowEntry, valid, entries);
        c = dict.insert(bytes, s, e, h);
      }
      entryCode[g] = c;
    }
    codes[r] = c;
  }
  return {
    kind: 'dict',
    type: 'string',
    codes,
    dictBytes: dict.bytes.slice(0, dict.length),
    dictOffsets: dict.offsets.slice(0, dict.size + 1),
  };
}

/** The rows as plain UTF-8 (too many distinct values for a dictionary), copied from the entries. */
function plain(rowEntry: Int32Array, valid: Uint8Array, entries: DictionaryEntries): ColumnData {
  const n = rowEntry.length;
  const offsets = new Int32Array(n + 1);
  let size = 0;
  for (let r = 0; r < n; r++) {
    const g = rowEntry[r];
    if (g >= 0) {
      const [, s, e] = entries.bytes(g);
      size += e - s;
      if (size > 0x7fffffff) throw new RangeError('a text column is larger than 2 GiB');
    }
    offsets[r + 1] = size;
  }
  const bytes = new Uint8Array(size);
  for (let r = 0; r < n; r++) {
    const g = rowEntry[r];
    if (g < 0) continue;
    const [src, s, e] = entries.bytes(g);
    if (e - s > 32) bytes.set(src.subarray(s, e), offsets[r]);
    else for (let k = s, o = offsets[r]; k < e; k++, o++) bytes[o] = src[k];
  }
  return { kind: 'utf8', type: 'string', bytes, offsets, valid };
}

/** A batch's dictionary keys as numbers (64-bit keys read as words: one beyond 2^31 is -1, outside any dictionary). */
function keysOf(b: ArrowBatch, k: number, file: string, column: string): ArrayLike<number> {
  const v = b.values;
  if (!v || v.length < b.length)
    throw corrupt(file, column, `record batch ${k + 1} has ${v?.length ?? 0} dictionary keys for ${b.length} rows`);
  if (!(v instanceof BigInt64Array || v instanceof BigUint64Array)) return v as ArrayLike<number>;
  const w = new Int32Array(v.buffer, v.byteOffset, 2 * b.length);
  const keys = new Int32Array(b.length);
  for (let i = 0; i < b.length; i++) keys[i] = w[2 * i + 1] === 0 ? w[2 * i] : -1;
  return keys;
}

import type { ColumnData } from '../../../../schema/columnar.js';
import { USER_MAX_DICT_SIZE } from '../../columns/dictEncode.js';
import { hashBytes, viewOf } from '../../columns/hashBytes.js';
import { TextDictionary } from '../../columns/textDictionary.js';
import type { ArrowBatch } from './arrowBatch.js';
import { corrupt } from './corrupt.js';
import { DictionaryEntries, type DictionaryView } from './dictionaryEntries.js';
import { validBytes } from './validBytes.js';

/** Rows between two beats in a pass over the whole column (arrowColumn.ts). */
const BEAT_ROWS = 65_536;

/**
 * A string transfer column from checked batches (checkBatches.ts) of a dictionary-encoded
 * Arrow text column, exactly what dictEncode.ts makes of the same text row by row: dictionary-
 * coded when there are at most USER_MAX_DICT_SIZE distinct values and no more than half the non-null
 * rows, with codes in the order the VALUES are first met in the rows (unused entries absent,
 * equal values of different dictionaries or entries one code); else plain UTF-8. Entries are
 * hashed when a row first uses them, and no more once the values are too many for a dictionary.
 * One pass over the rows writes the codes (a batch without nulls over one dictionary batch with
 * no null entry: a key check and a load per row); a column that may not stay a dictionary (its
 * distinct values pass half its rows, or the cap) is built again by the two-pass path, which
 * finds every row's entry first and so knows the non-null rows before it interns. `beat` is
 * called after each batch of either pass, and every 64Ki rows of the second (arrowColumn.ts).
 * @throws {DataError} DATA_CORRUPT when a key is outside its dictionary or a dictionary is damaged.
 * @throws {RangeError} when the text is larger than 2 GiB, as the per-value path.
 * @example dictionaryColumn(batches, 't.arrow', 'agency')
 */
export function dictionaryColumn(
  batches: readonly ArrowBatch[],
  file: string,
  column: string,
  beat?: () => void,
): ColumnData {
  return codedInOnePass(batches, file, column, beat) ?? twoPasses(batches, file, column, beat);
}

/**
 * The column as dictionary codes in one pass, or null when its distinct values pass the most a
 * dictionary of all its rows may hold (half the rows, at most USER_MAX_DICT_SIZE) or half its
 * non-null rows: then twoPasses decides (plain UTF-8, or the first damaged key it meets; this
 * pass stops at the first value over that bound, before the rows after it are checked). The
 * codes are those of twoPasses: the same rows, checked the same way and in the same order, the
 * same interning in row order; only the bound differs, and a dictionary under both bounds is
 * what twoPasses returns (it goes plain only past half the non-null rows).
 * @throws {DataError} DATA_CORRUPT, as twoPasses, for the first damaged key or dictionary in row order.
 */
function codedInOnePass(
  batches: readonly ArrowBatch[],
  file: string,
  column: string,
  beat?: () => void,
): ColumnData | null {
  const entries = new DictionaryEntries(file, column);
  let total = 0;
  for (const b of batches) total += b.length;
  const bound = Math.min(USER_MAX_DICT_SIZE, Math.floor(total / 2));
  const valid = new Uint8Array(total);
  const codes = new Int32Array(total);
  const dict = new TextDictionary(USER_MAX_DICT_SIZE);
  // per column-wide entry: its column code once a row used it, else -1 (grown as dictionaries are read)
  let entryCode = new Int32Array(0);
  let nonNull = 0;
  let at = 0;
  let src: Uint8Array | undefined;
  let view: DataView | undefined;
  // interns column-wide entry g (first met at row `at + i`); -1 past the bound
  const intern = (g: number): number => {
    const [bytes, s, e] = entries.bytes(g);
    if (bytes !== src) view = viewOf((src = bytes));
    const h = hashBytes(view!, bytes, s, e);
    let c = dict.find(view!, bytes, s, e, h);
    if (c < 0) {
      if (dict.size === bound) return -1;
      c = dict.insert(bytes, s, e, h);
    }
    entryCode[g] = c;
    return c;
  };
  for (let k = 0; k < batches.length; k++) {
    const b = batches[k];
    const n = b.length;
    const { view: dv, keys } = batchKeys(b, k, entries, file, column);
    const some = validBytes(b, valid, at);
    const all = entries.bases[entries.parts.length];
    if (entryCode.length < all) {
      const grown = new Int32Array(all).fill(-1);
      grown.set(entryCode);
      entryCode = grown;
    }
    const { parts, size } = dv;
    const one = parts.length === 1 ? entries.parts[parts[0]] : null;
    if (some === n && one !== null && one.nonNull === one.n) {
      // every row holds a value, one dictionary batch whose entries all hold one: entry = base + key
      const base = entries.bases[parts[0]];
      for (let i = 0; i < n; i++) {
        const key = keys[i];
        if (!(key >= 0 && key < size)) throw badKey(file, column, i, k, key, size);
        let c = entryCode[base + key];
        if (c < 0 && (c = intern(base + key)) < 0) return null;
        codes[at + i] = c;
      }
      nonNull += n;
      at += n;
      beat?.();
      continue;
    }
    for (let i = 0; i < n; i++) {
      const r = at + i;
      const g = valid[r] ? entryAt(entries, dv, keys, i, k, file, column) : -1;
      if (g < 0) {
        valid[r] = 0; // a null row, or a row whose dictionary entry is null
        codes[r] = -1;
        continue;
      }
      let c = entryCode[g];
      if (c < 0 && (c = intern(g)) < 0) return null;
      codes[r] = c;
      nonNull++;
    }
    at += n;
    beat?.();
  }
  if (dict.size > Math.floor(nonNull / 2)) return null;
  return {
    kind: 'dict',
    type: 'string',
    codes,
    dictBytes: dict.bytes.slice(0, dict.length),
    dictOffsets: dict.offsets.slice(0, dict.size + 1),
  };
}

/** Batch k's dictionary (read and checked on first sight: DictionaryEntries.view) and its keys. */
function batchKeys(
  b: ArrowBatch,
  k: number,
  entries: DictionaryEntries,
  file: string,
  column: string,
): { view: DictionaryView; keys: ArrayLike<number> } {
  if (!b.dictionary)
    throw corrupt(file, column, `record batch ${k + 1} refers to a dictionary that the file does not hold`);
  return { view: entries.view(b.dictionary), keys: keysOf(b, k, file, column) };
}

/**
 * The column-wide entry that row i of batch k names, its key checked against the batch's
 * dictionary first, or -1 when that entry is null (the row is then null). Both passes read a row
 * this way, so they check the same keys in the same order and fail on the same first bad one.
 * @throws {DataError} DATA_CORRUPT for a key outside the dictionary.
 */
function entryAt(
  entries: DictionaryEntries,
  view: DictionaryView,
  keys: ArrayLike<number>,
  i: number,
  k: number,
  file: string,
  column: string,
): number {
  const key = keys[i];
  if (!(key >= 0 && key < view.size)) throw badKey(file, column, i, k, key, view.size);
  const j = partAt(view.parts, view.starts, key);
  const p = view.parts[j];
  const local = key - view.starts[j];
  return entries.parts[p].valid[local] ? entries.bases[p] + local : -1;
}

/** The index into a dictionary view's parts of the batch holding `key` (starts ascending). */
function partAt(parts: Int32Array, starts: Int32Array, key: number): number {
  let j = 0;
  let hi = parts.length - 1;
  while (j < hi) {
    const mid = (j + hi + 1) >> 1;
    if (starts[mid] <= key) j = mid;
    else hi = mid - 1;
  }
  return j;
}

function badKey(file: string, column: string, i: number, k: number, key: number, size: number): Error {
  return corrupt(
    file,
    column,
    `row ${i + 1} of record batch ${k + 1} has dictionary key ${key}, outside its dictionary of ${size} entries`,
  );
}

/**
 * The column in two passes: every row's column-wide entry (checking every key), then, knowing the
 * non-null rows, the codes in row order, or plain UTF-8 once the distinct values pass the limit.
 */
function twoPasses(batches: readonly ArrowBatch[], file: string, column: string, beat?: () => void): ColumnData {
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
    const { view, keys } = batchKeys(b, k, entries, file, column);
    validBytes(b, valid, at);
    for (let i = 0; i < n; i++) {
      const r = at + i;
      const g = valid[r] ? entryAt(entries, view, keys, i, k, file, column) : -1;
      rowEntry[r] = g;
      if (g < 0) valid[r] = 0;
      else nonNull++;
    }
    at += n;
    beat?.();
  }
  const limit = Math.min(USER_MAX_DICT_SIZE, Math.floor(nonNull / 2));
  // the column dictionary, values in the order rows first meet them (TextDictionary numbers them so)
  const dict = new TextDictionary(USER_MAX_DICT_SIZE);
  const entryCode = new Int32Array(entries.bases[entries.parts.length]).fill(-1);
  const codes = new Int32Array(total);
  let src: Uint8Array | undefined;
  let view: DataView | undefined;
  // in runs of BEAT_ROWS rows, with a beat after each (no test per row)
  for (let from = 0; from < total; from += BEAT_ROWS) {
    const to = Math.min(total, from + BEAT_ROWS);
    for (let r = from; r < to; r++) {
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
    beat?.();
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

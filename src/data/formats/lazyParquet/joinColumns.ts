import type { ColumnData, DictColumn, Float64Column, Utf8Column } from '../../../../schema/columnar.js';
import { hashBytes, viewOf } from '../../columns/hashBytes.js';
import { USER_MAX_DICT_SIZE } from '../../columns/dictEncode.js';
import { MAX_BYTES, TextDictionary } from '../../columns/textDictionary.js';

/**
 * One column from the decoded runs of row groups of one Parquet column, in row order (the two
 * halves columnWorkers.ts decodes on two cores). Numbers and booleans are concatenated. Text
 * parts that are all dictionary-coded are merged into one dictionary in first-seen order (each
 * part's values in its own first-seen order), the codes renumbered, and the column stays a
 * dictionary when dictEncode's rule holds for the whole (at most USER_MAX_DICT_SIZE distinct
 * values, each used twice on average): the column a one-piece decode gives. Otherwise the rows
 * become UTF-8 bytes + offsets (a part that one piece would have coded as a dictionary may then
 * stay text: the same values, in another form).
 * @throws {RangeError} when the text is larger than 2 GiB (Int32 offsets).
 * @example joinColumns([firstHalf, secondHalf])
 */
export function joinColumns(parts: ColumnData[]): ColumnData {
  if (parts.length === 1) return parts[0];
  const first = parts[0];
  if (first.kind === 'float64' || first.kind === 'bool') {
    const n = parts.reduce((k, p) => k + (p as Float64Column).values.length, 0);
    const f = first as Float64Column;
    // the first part's arrays, when they start buffers with room for every row (its worker made
    // them so: decodeLeaf's `capacity`), are the column's: only the later parts are copied
    const values = roomy(f.values, n) ?? (first.kind === 'float64' ? new Float64Array(n) : new Uint8Array(n));
    const valid = roomy(f.valid, n) ?? new Uint8Array(n);
    let at = 0;
    for (const p of parts as Float64Column[]) {
      if (values.buffer !== p.values.buffer) values.set(p.values, at);
      if (valid.buffer !== p.valid.buffer) valid.set(p.valid, at);
      at += p.values.length;
    }
    return { ...first, values, valid } as ColumnData;
  }
  if (parts.every((p) => p.kind === 'dict')) {
    const merged = mergeDicts(parts as DictColumn[]);
    if (merged) return merged;
  }
  return joinText(parts as Array<DictColumn | Utf8Column>);
}

function mergeDicts(parts: DictColumn[]): DictColumn | null {
  const total = parts.reduce((k, p) => k + p.codes.length, 0);
  const dict = new TextDictionary(USER_MAX_DICT_SIZE);
  // the first part's codes are always the merged ones (see below): in place when their buffer has room
  const codes = roomy(parts[0].codes, total) ?? new Int32Array(total);
  let nonNull = 0;
  let at = 0;
  for (const p of parts) {
    const size = p.dictOffsets.length - 1;
    const map = new Int32Array(size);
    const view = viewOf(p.dictBytes);
    for (let k = 0; k < size; k++) {
      const s = p.dictOffsets[k];
      const e = p.dictOffsets[k + 1];
      const h = hashBytes(view, p.dictBytes, s, e);
      let c = dict.find(view, p.dictBytes, s, e, h);
      if (c < 0) c = dict.insert(p.dictBytes, s, e, h);
      if (c < 0) return null;
      map[k] = c;
    }
    const src = p.codes;
    if (isIdentity(map)) {
      // the part's codes are already the merged ones (the first part's always, a later part's when
      // its values came in the same order): copied whole, only its nulls counted
      if (src.buffer !== codes.buffer) codes.set(src, at);
      let nulls = 0;
      for (let r = 0; r < src.length; r++) nulls += src[r] >>> 31;
      nonNull += src.length - nulls;
    } else
      for (let r = 0; r < src.length; r++) {
        const c = src[r];
        if (c < 0) codes[at + r] = -1;
        else {
          codes[at + r] = map[c];
          nonNull++;
        }
      }
    at += src.length;
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

/**
 * `part` widened to `n` entries in place: when it is the start (offset 0) of a plain, non-shared
 * ArrayBuffer with room for them; else null. The entries past the part are the buffer's own
 * (zeros, never written: the caller writes the later parts there).
 */
function roomy<T extends Float64Array | Int32Array | Uint8Array>(part: T, n: number): T | null {
  const buffer = part.buffer;
  if (part.byteOffset !== 0 || !(buffer instanceof ArrayBuffer)) return null;
  if ((buffer as ArrayBuffer & { resizable?: boolean }).resizable === true) return null;
  if (buffer.byteLength !== n * part.BYTES_PER_ELEMENT) return null;
  return new (part.constructor as new (b: ArrayBuffer, o: number, l: number) => T)(buffer, 0, n);
}

/** Whether `map[k] === k` for every k. */
function isIdentity(map: Int32Array): boolean {
  for (let k = 0; k < map.length; k++) if (map[k] !== k) return false;
  return true;
}

function joinText(parts: Array<DictColumn | Utf8Column>): Utf8Column {
  let rows = 0;
  let size = 0;
  for (const p of parts) {
    if (p.kind === 'utf8') {
      rows += p.valid.length;
      size += p.offsets[p.valid.length] - p.offsets[0];
    } else {
      rows += p.codes.length;
      for (let r = 0; r < p.codes.length; r++) {
        const c = p.codes[r];
        if (c >= 0) size += p.dictOffsets[c + 1] - p.dictOffsets[c];
      }
    }
  }
  if (size > MAX_BYTES) throw new RangeError('a text column is larger than 2 GiB');
  const first = parts[0];
  // the first part's offsets and validity, when its worker gave them room for every row
  // (stringSink.ts stagedText): the later parts' are written after them, the first's stay
  const roomyOffsets = first.kind === 'utf8' && first.offsets[0] === 0 ? roomy(first.offsets, rows + 1) : null;
  const roomyValid = roomyOffsets ? roomy((first as Utf8Column).valid, rows) : null;
  const inPlace = grownInPlace(first, size, roomyOffsets !== null && roomyValid !== null);
  const bytes = inPlace ?? new Uint8Array(size);
  const inPlaceRows = inPlace && roomyOffsets && roomyValid;
  const offsets = (inPlaceRows ? roomyOffsets : null) ?? new Int32Array(rows + 1);
  const valid = (inPlaceRows ? roomyValid : null) ?? new Uint8Array(rows);
  let row = 0;
  let pos = 0;
  for (const p of parts) {
    if (p.kind === 'utf8') {
      const base = p.offsets[0];
      const n = p.valid.length;
      // the first part's bytes are already where they belong when its buffer was grown
      if (!(inPlace && p === first)) bytes.set(p.bytes.subarray(base, p.offsets[n]), pos);
      if (!(inPlaceRows && p === first)) {
        for (let r = 0; r < n; r++) offsets[row + r + 1] = pos + p.offsets[r + 1] - base;
        valid.set(p.valid, row);
      }
      pos += p.offsets[n] - base;
      row += n;
    } else {
      for (let r = 0; r < p.codes.length; r++, row++) {
        const c = p.codes[r];
        if (c >= 0) {
          bytes.set(p.dictBytes.subarray(p.dictOffsets[c], p.dictOffsets[c + 1]), pos);
          pos += p.dictOffsets[c + 1] - p.dictOffsets[c];
          valid[row] = 1;
        }
        offsets[row + 1] = pos;
      }
    }
  }
  return { kind: 'utf8', type: 'string', bytes, offsets, valid };
}

/**
 * The first part's text bytes grown in place to `size`, so joining copies only the later parts:
 * a resizable buffer (stringBuilder.ts growableBytes, textStage.ts) is resized; a plain one with
 * room for them is used as it is, only when its part was made to be joined so (`made`: its offsets
 * and validity have room for every row, which only a staged first part's have: stringSink.ts
 * stagedText), so no buffer that holds anything else is ever written. Null otherwise.
 */
function grownInPlace(first: DictColumn | Utf8Column, size: number, made: boolean): Uint8Array | null {
  if (first.kind !== 'utf8' || first.offsets[0] !== 0 || first.bytes.byteOffset !== 0) return null;
  const buffer = first.bytes.buffer as ArrayBuffer & {
    resizable?: boolean;
    maxByteLength?: number;
    resize?: (n: number) => void;
  };
  if (buffer.resizable !== true) {
    if (!made || !(buffer instanceof ArrayBuffer) || buffer.byteLength < size) return null;
    return new Uint8Array(buffer, 0, size);
  }
  if (typeof buffer.resize !== 'function' || (buffer.maxByteLength ?? 0) < size) return null;
  buffer.resize(size);
  return new Uint8Array(buffer, 0, size);
}

/**
 * The data of a concatenated host column (concatColumns.ts), gathered from its parts' transfer
 * data in one pass per part: no value is made per row except where text must be re-encoded
 * (a dictionary part's entries, once each). A part without the column contributes nulls.
 */
import type { ColumnData, ColumnType } from '../../schema/columnar.js';
import { GuestError } from '../errors/guestError.js';
import { SafeMap } from '../intrinsics.js';
import { utf8Decode, utf8Encode } from '../polyfills/utf8.js';
import type { LazyColumn } from './lazyColumn.js';

/** One part: its column (undefined: the table lacks it) and the rows of it that are visible. */
export interface GatherPart {
  col: LazyColumn | undefined;
  rows: Uint32Array;
}

/**
 * The kind the parts' kinds gather into: their one kind; text (dictionary codes and UTF-8 mixed)
 * as UTF-8; null for numbers with text or booleans (such a column reads row by row).
 */
export function gatheredKind(kinds: readonly ColumnData['kind'][]): ColumnData['kind'] | null {
  let out: ColumnData['kind'] | null = null;
  for (const k of kinds) {
    if (out === null || out === k) out = k;
    else if ((out === 'dict' || out === 'utf8') && (k === 'dict' || k === 'utf8')) out = 'utf8';
    else return null;
  }
  return out ?? 'float64';
}

/** The gathered column of `total` rows. */
export function gatherColumns(type: ColumnType, parts: readonly GatherPart[], total: number): ColumnData {
  const datas = parts.map((p) => (p.col === undefined ? undefined : p.col.transfer()));
  const kind = gatheredKind(datas.flatMap((d) => (d === undefined ? [] : [d.kind])));
  if (kind === 'float64' || kind === 'bool') return gatherNumbers(kind, type, datas, parts, total);
  if (kind === 'dict') return gatherDict(datas as (Extract<ColumnData, { kind: 'dict' }> | undefined)[], parts, total);
  if (kind === 'utf8') return gatherText(datas, parts, total);
  throw new GuestError('TypeError', 'concat: the parts of a column hold values of different kinds', '');
}

function gatherNumbers(
  kind: 'float64' | 'bool',
  type: ColumnType,
  datas: readonly (ColumnData | undefined)[],
  parts: readonly GatherPart[],
  total: number,
): ColumnData {
  const values = kind === 'float64' ? new Float64Array(total) : new Uint8Array(total);
  const valid = new Uint8Array(total);
  let k = 0;
  parts.forEach(({ rows }, p) => {
    const d = datas[p] as Extract<ColumnData, { kind: 'float64' | 'bool' }> | undefined;
    if (d === undefined) return void (k += rows.length); // nulls: valid stays 0
    for (let i = 0; i < rows.length; i++, k++) {
      const r = rows[i]!;
      values[k] = d.values[r]!;
      valid[k] = d.valid[r]!;
    }
  });
  return kind === 'float64'
    ? { kind: 'float64', type: type as 'number', values: values as Float64Array, valid }
    : { kind: 'bool', type: 'boolean', values: values as Uint8Array, valid };
}

type Dict = Extract<ColumnData, { kind: 'dict' }>;

function gatherDict(datas: readonly (Dict | undefined)[], parts: readonly GatherPart[], total: number): ColumnData {
  const codes = new Int32Array(total);
  const first = datas.find((d) => d !== undefined)!;
  // parts of one table share its dictionary: codes copied as they are
  const same = datas.every(
    (d) => d === undefined || (d.dictBytes === first.dictBytes && d.dictOffsets === first.dictOffsets),
  );
  // else one merged dictionary: each part's codes remapped through a table of its dictionary's size
  const index = new SafeMap<string, number>();
  const strings: string[] = [];
  let k = 0;
  parts.forEach(({ rows }, p) => {
    const d = datas[p];
    if (d === undefined) return void codes.fill(-1, k, (k += rows.length));
    let remap: Int32Array | null = null;
    if (!same) {
      const size = d.dictOffsets.length - 1;
      remap = new Int32Array(size);
      for (let j = 0; j < size; j++) {
        const s = utf8Decode(d.dictBytes, d.dictOffsets[j], d.dictOffsets[j + 1]);
        let c = index.get(s);
        if (c === undefined) {
          index.set(s, (c = strings.length));
          strings.push(s);
        }
        remap[j] = c;
      }
    }
    const src = d.codes;
    for (let i = 0; i < rows.length; i++) {
      const c = src[rows[i]!]!;
      codes[k++] = c < 0 ? -1 : remap ? remap[c]! : c;
    }
  });
  if (same) return { kind: 'dict', type: 'string', codes, dictBytes: first.dictBytes, dictOffsets: first.dictOffsets };
  const encoded = strings.map((s) => utf8Encode(s));
  const dictOffsets = new Int32Array(strings.length + 1);
  for (let j = 0; j < encoded.length; j++) dictOffsets[j + 1] = dictOffsets[j]! + encoded[j]!.length;
  const dictBytes = new Uint8Array(dictOffsets[strings.length]!);
  encoded.forEach((e, j) => dictBytes.set(e, dictOffsets[j]!));
  return { kind: 'dict', type: 'string', codes, dictBytes, dictOffsets };
}

/** Text of any parts (UTF-8 rows or dictionary entries) into one UTF-8 column: bytes copied, never decoded. */
function gatherText(
  datas: readonly (ColumnData | undefined)[],
  parts: readonly GatherPart[],
  total: number,
): ColumnData {
  // row r of part p as [bytes, start, end], or null
  const spans = datas.map((d) => {
    if (d === undefined) return null;
    if (d.kind === 'utf8') return { bytes: d.bytes, offsets: d.offsets, at: (r: number) => (d.valid[r] ? r : -1) };
    if (d.kind === 'dict') return { bytes: d.dictBytes, offsets: d.dictOffsets, at: (r: number) => d.codes[r]! };
    throw new GuestError('TypeError', 'concat: a text column has a part that is not text', '');
  });
  let size = 0;
  parts.forEach(({ rows }, p) => {
    const s = spans[p];
    if (s)
      for (let i = 0; i < rows.length; i++) {
        const j = s.at(rows[i]!);
        if (j >= 0) size += s.offsets[j + 1]! - s.offsets[j]!;
      }
  });
  if (size > 0x7fffffff)
    throw new GuestError(
      'RangeError',
      `concat: the text column would hold ${size} bytes, more than 2 GiB`,
      'Concatenate fewer rows, or select the columns you need before concat.',
    );
  const bytes = new Uint8Array(size);
  const offsets = new Int32Array(total + 1);
  const valid = new Uint8Array(total);
  let k = 0;
  let at = 0;
  parts.forEach(({ rows }, p) => {
    const s = spans[p];
    for (let i = 0; i < rows.length; i++, k++) {
      const j = s ? s.at(rows[i]!) : -1;
      if (j >= 0) {
        const a = s!.offsets[j]!;
        const b = s!.offsets[j + 1]!;
        bytes.set(s!.bytes.subarray(a, b), at);
        at += b - a;
        valid[k] = 1;
      }
      offsets[k + 1] = at;
    }
  });
  return { kind: 'utf8', type: 'string', bytes, offsets, valid };
}

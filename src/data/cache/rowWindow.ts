import type { ColumnData } from '../../../schema/columnar.js';
import { BLOCK_BYTES } from './format.js';

/**
 * Rows [start, end) of one column read alone from the cache (CacheReader.loadWindow): a few rows
 * of a column no run has loaded yet (`head()`, `t.get(col, i)`, `objects()` of a sliced table)
 * cost their own bytes, not the column's. Numbers and booleans come as they are stored; a
 * dictionary column comes as the window's strings (utf8: the guest decodes a row when it reads
 * it). Every byte served was checked against its block's checksum by `bytes`.
 */
export interface WindowSource {
  /** Bytes [from, to) of one buffer of the column, read in whole checked blocks; a fresh copy. */
  bytes(role: string, from: number, to: number): Uint8Array;
  /** A whole buffer of the column, checked (kept by the caller for later windows). */
  dictOffsets(): Int32Array | null;
  /** The length in bytes of one buffer of the column. */
  length(role: string): number;
  corrupt(what: string): never;
}

/** The most rows one window holds. */
export const WINDOW_MAX_ROWS = 4096;

/** Blocks of dictionary bytes a window may read before it is cheaper to load the column whole (2 MiB). */
const WINDOW_DICT_BLOCKS = 32;

/** The window, or null when this column is better read whole (its dictionary entries are spread too wide). */
export function readWindow(
  kind: ColumnData['kind'],
  type: string,
  src: WindowSource,
  start: number,
  end: number,
): ColumnData | null {
  const n = end - start;
  if (kind === 'float64') {
    const values = new Float64Array(src.bytes('values', start * 8, end * 8).buffer, 0, n);
    return { kind, type: type as 'number', values, valid: src.bytes('valid', start, end) };
  }
  if (kind === 'bool')
    return { kind, type: 'boolean', values: src.bytes('values', start, end), valid: src.bytes('valid', start, end) };
  if (kind !== 'dict') return null;
  const codes = new Int32Array(src.bytes('codes', start * 4, end * 4).buffer, 0, n);
  const offsets = src.dictOffsets();
  if (!offsets) return null;
  const size = offsets.length - 1;
  const dictLength = src.length('dictBytes');
  // the entries this window shows, in the order their bytes sit in the file
  const entries = [...new Set(codes)].filter((k) => k >= 0).sort((a, b) => offsets[a]! - offsets[b]!);
  for (const k of entries) {
    if (k >= size) src.corrupt(`code ${k} outside a dictionary of ${size}`);
    const from = offsets[k]!;
    const to = offsets[k + 1]!;
    if (from < 0 || to < from || to > dictLength) src.corrupt(`dictionary entry ${k} outside its bytes`);
  }
  // entries whose blocks touch are read as one span; more blocks than WINDOW_DICT_BLOCKS in all and
  // the column is read whole instead (a window of a high-cardinality column far into the file)
  const block = (at: number) => Math.floor(at / BLOCK_BYTES);
  const spans: Array<[first: number, last: number]> = [];
  let blocks = 0;
  for (let i = 0; i < entries.length;) {
    let j = i;
    let last = block(Math.max(offsets[entries[i]!]!, offsets[entries[i]! + 1]! - 1));
    while (j + 1 < entries.length && block(offsets[entries[j + 1]!]!) <= last + 1) {
      j++;
      last = Math.max(last, block(Math.max(offsets[entries[j]!]!, offsets[entries[j]! + 1]! - 1)));
    }
    blocks += last - block(offsets[entries[i]!]!) + 1;
    if (blocks > WINDOW_DICT_BLOCKS) return null;
    spans.push([i, j]);
    i = j + 1;
  }
  const text = new Map<number, Uint8Array>();
  for (const [i, j] of spans) {
    const spanFrom = offsets[entries[i]!]!;
    let spanTo = spanFrom;
    for (let e = i; e <= j; e++) spanTo = Math.max(spanTo, offsets[entries[e]! + 1]!);
    const span = src.bytes('dictBytes', spanFrom, spanTo);
    for (let e = i; e <= j; e++) {
      const k = entries[e]!;
      text.set(k, span.subarray(offsets[k]! - spanFrom, offsets[k + 1]! - spanFrom));
    }
  }
  const rowOffsets = new Int32Array(n + 1);
  const valid = new Uint8Array(n);
  for (let r = 0; r < n; r++) {
    const k = codes[r]!;
    valid[r] = k >= 0 ? 1 : 0;
    rowOffsets[r + 1] = rowOffsets[r]! + (k >= 0 ? text.get(k)!.length : 0);
  }
  const bytes = new Uint8Array(rowOffsets[n]!);
  for (let r = 0; r < n; r++) if (codes[r]! >= 0) bytes.set(text.get(codes[r]!)!, rowOffsets[r]!);
  return { kind: 'utf8', type: 'string', bytes, offsets: rowOffsets, valid };
}

/** Rows [start, end) of a column already in memory, as readWindow serves them from the file. */
export function windowOfColumn(data: ColumnData, start: number, end: number): ColumnData | null {
  const buffers: Record<string, ArrayBufferView> =
    data.kind === 'dict'
      ? { codes: data.codes, dictBytes: data.dictBytes, dictOffsets: data.dictOffsets }
      : data.kind === 'utf8'
        ? {}
        : { values: data.values, valid: data.valid };
  const view = (role: string) => {
    const b = buffers[role];
    if (!b) throw new Error(`no ${role} buffer`);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  };
  return readWindow(
    data.kind,
    data.type,
    {
      bytes: (role, from, to) => {
        const v = view(role);
        if (from < 0 || to < from || to > v.length)
          throw new RangeError(`${role} bytes ${from}..${to} outside the column`);
        return v.slice(from, to);
      },
      dictOffsets: () => (data.kind === 'dict' ? data.dictOffsets : null),
      length: (role) => view(role).length,
      corrupt: (what) => {
        throw new Error(`column data inconsistent: ${what}`);
      },
    },
    start,
    end,
  );
}

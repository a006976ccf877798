/**
 * Columns of `concat([a, b, ...])` that keep the columnar layout and stay lazy: nothing is read at
 * concat time. A column whose every part is a host column of one kind (float64, dict, bool) becomes
 * a LazyColumn whose data, on first touch, is the parts' typed arrays gathered into one (dictionary
 * codes remapped onto a merged dictionary), so the typed fast paths apply to the result. Any other
 * column reads through to its parts row by row (`at`), still without copying.
 */
import type { ColumnData, ColumnMeta } from '../../schema/columnar.js';
import { NativeMap } from '../intrinsics.js';
import { utf8Decode, utf8Encode } from '../polyfills/utf8.js';
import { LazyColumn } from './lazyColumn.js';

/** An Arquero column: what concat's result table holds. */
export interface ColumnLike {
  length: number;
  at(row: number): unknown;
}

/** One input table's contribution: its column (undefined when it lacks the name) and visible rows. */
export interface ConcatPart {
  col: ColumnLike | undefined;
  rows: Uint32Array;
}

/** Where each output row comes from: `part[row]` indexes the parts, `src[row]` is the row there. */
export interface ConcatIndex {
  part: Uint8Array | Uint16Array | Uint32Array;
  src: Uint32Array;
  total: number;
}

/** The shared row map of a concat (built once, used by every column). */
export function concatIndex(rows: readonly Uint32Array[]): ConcatIndex {
  let total = 0;
  for (const r of rows) total += r.length;
  const part =
    rows.length < 256 ? new Uint8Array(total) : rows.length < 65536 ? new Uint16Array(total) : new Uint32Array(total);
  const src = new Uint32Array(total);
  let k = 0;
  rows.forEach((r, p) => {
    part.fill(p, k, k + r.length);
    src.set(r, k);
    k += r.length;
  });
  return { part, src, total };
}

/** The output column `name` over `parts`. */
export function concatColumn(name: string, parts: readonly ConcatPart[], index: ConcatIndex): ColumnLike {
  const first = parts[0]?.col;
  if (
    first instanceof LazyColumn &&
    first.kind !== 'utf8' &&
    parts.every((p) => p.col instanceof LazyColumn && p.col.kind === first.kind && p.col.type === first.type)
  ) {
    const meta = { name, type: first.type, kind: first.kind } as ColumnMeta;
    return new LazyColumn(meta, index.total, () =>
      gather(
        parts.map((p) => ({ data: (p.col as LazyColumn).data() as ColumnData, rows: p.rows })),
        index.total,
      ),
    );
  }
  const cols = parts.map((p) => p.col);
  const { part, src, total } = index;
  return {
    length: total,
    at(row: number) {
      const c = cols[part[row]!];
      return c === undefined ? null : c.at(src[row]!);
    },
  };
}

function gather(parts: Array<{ data: ColumnData; rows: Uint32Array }>, total: number): ColumnData {
  const d0 = parts[0]!.data;
  if (d0.kind === 'float64' || d0.kind === 'bool') {
    const values = d0.kind === 'float64' ? new Float64Array(total) : new Uint8Array(total);
    const valid = new Uint8Array(total);
    let k = 0;
    for (const { data, rows } of parts) {
      const d = data as typeof d0;
      for (let i = 0; i < rows.length; i++, k++) {
        const r = rows[i]!;
        values[k] = d.values[r]!;
        valid[k] = d.valid[r]!;
      }
    }
    return d0.kind === 'float64'
      ? { kind: 'float64', type: d0.type, values: values as Float64Array, valid }
      : { kind: 'bool', type: 'boolean', values: values as Uint8Array, valid };
  }
  if (d0.kind !== 'dict') throw new Error(`concat: cannot gather ${d0.kind} columns`);
  const codes = new Int32Array(total);
  const sameDict = parts.every(
    (p) => (p.data as typeof d0).dictBytes === d0.dictBytes && (p.data as typeof d0).dictOffsets === d0.dictOffsets,
  );
  let k = 0;
  if (sameDict) {
    for (const { data, rows } of parts) {
      const c = (data as typeof d0).codes;
      for (let i = 0; i < rows.length; i++) codes[k++] = c[rows[i]!]!;
    }
    return { kind: 'dict', type: 'string', codes, dictBytes: d0.dictBytes, dictOffsets: d0.dictOffsets };
  }
  // one merged dictionary: each part's codes remapped through a table of its dictionary's size
  const index = new NativeMap<string, number>();
  const strings: string[] = [];
  for (const { data, rows } of parts) {
    const d = data as typeof d0;
    const size = d.dictOffsets.length - 1;
    const remap = new Int32Array(size);
    for (let j = 0; j < size; j++) {
      const s = utf8Decode(d.dictBytes, d.dictOffsets[j], d.dictOffsets[j + 1]);
      let c = index.get(s);
      if (c === undefined) {
        index.set(s, (c = strings.length));
        strings.push(s);
      }
      remap[j] = c;
    }
    for (let i = 0; i < rows.length; i++) {
      const c = d.codes[rows[i]!]!;
      codes[k++] = c < 0 ? -1 : remap[c]!;
    }
  }
  const encoded = strings.map((s) => utf8Encode(s));
  const dictOffsets = new Int32Array(strings.length + 1);
  for (let j = 0; j < encoded.length; j++) dictOffsets[j + 1] = dictOffsets[j]! + encoded[j]!.length;
  const dictBytes = new Uint8Array(dictOffsets[strings.length]!);
  encoded.forEach((e, j) => dictBytes.set(e, dictOffsets[j]!));
  return { kind: 'dict', type: 'string', codes, dictBytes, dictOffsets };
}

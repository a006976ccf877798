/**
 * Columns of `concat([a, b, ...])` that keep the columnar layout and stay lazy: nothing is read at
 * concat time, not even a lazily decoded column's kind. A column whose every part is a host column
 * (a LazyColumn; a table without the column contributes nulls) becomes a LazyColumn whose data, on
 * first touch, is the parts' typed arrays gathered into one (concatGather.ts): numbers and dates
 * into one Float64Array, booleans into one Uint8Array, dictionary codes remapped onto a merged
 * dictionary, text into one UTF-8 buffer; so the typed fast paths apply to the result. Any other
 * column reads through to its parts row by row (`at`), still without copying.
 */
import type { ColumnData, ColumnMeta, ColumnType } from '../../schema/columnar.js';
import { gatherColumns, gatheredKind } from './concatGather.js';
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

/**
 * The type of the concatenated column, or null when the parts' types do not make one column:
 * integer and number make number; a date, a string or a boolean column only joins its own type.
 */
function joinedType(types: readonly ColumnType[]): ColumnType | null {
  let out: ColumnType | null = null;
  for (const t of types) {
    if (out === null || out === t) out = t;
    else if ((out === 'integer' || out === 'number') && (t === 'integer' || t === 'number')) out = 'number';
    else return null;
  }
  return out;
}

/** The output column `name` over `parts`. */
export function concatColumn(name: string, parts: readonly ConcatPart[], index: ConcatIndex): ColumnLike {
  const present = parts.filter((p) => p.col !== undefined);
  const type = present.every((p) => p.col instanceof LazyColumn)
    ? joinedType(present.map((p) => (p.col as LazyColumn).type))
    : null;
  if (type !== null) {
    const lazies = parts.map((p) => p.col as LazyColumn | undefined);
    const known = lazies.map((c) => c?.knownKind);
    // every part's kind known: decide now; else a pending kind, asked of the parts on first use
    const pending = known.some((k, i) => k === undefined && lazies[i] !== undefined);
    const kind = pending ? undefined : gatheredKind(known.filter((k) => k !== undefined));
    if (pending || kind !== null) {
      const meta = { name, type, kind: kind ?? 'utf8', ...(pending ? { kindPending: true } : {}) } as ColumnMeta;
      const gathered = () =>
        gatherColumns(
          type,
          parts.map((p, i) => ({ col: lazies[i], rows: p.rows })),
          index.total,
        );
      const kindOf = (): ColumnData['kind'] =>
        gatheredKind(lazies.flatMap((c) => (c === undefined ? [] : [c.kind]))) ?? 'utf8';
      return new LazyColumn(meta, index.total, gathered, pending ? { kindOf } : {});
    }
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

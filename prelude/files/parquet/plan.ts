/**
 * How each column of a table is written: straight from the typed arrays behind a host column
 * (award_data and the `tables` a session was given: dictionary codes, float64 values + validity,
 * UTF-8 bytes, booleans), addressed through the table's visible rows; any other column (derived,
 * reified, user arrays) from its values, converted once into the same typed forms. The Parquet
 * type follows the kind decided over every visible value, as for the other writers (columnsOf).
 */
import type { ColumnTable } from 'arquero';
import { LazyColumn } from '../../data/lazyColumn.js';
import { kindOf } from '../columnsOf.js';
import { ArrayBufferIsView, ArrayIsArray } from '../../intrinsics.js';

/** Row positions into a column's storage, in output order; null = rows 0..numRows-1. */
export type Rows = ArrayLike<number> | null;

/** A number column: DOUBLE, INT64 (every value a safe integer) or TIMESTAMP (ms, UTC). */
export interface NumPlan {
  name: string;
  kind: 'double' | 'int64' | 'timestamp';
  values: Float64Array;
  valid: Uint8Array | null;
  rows: Rows;
}
/** Integers some of which are BigInts (INT64, range-checked). */
export interface BigPlan {
  name: string;
  kind: 'bigint';
  values: ArrayLike<unknown>;
  rows: Rows;
}
export interface BoolPlan {
  name: string;
  kind: 'boolean';
  values: Uint8Array;
  valid: Uint8Array | null;
  rows: Rows;
}
/** Dictionary codes (-1 null) over UTF-8 entries `dictBytes[dictOffsets[c]..dictOffsets[c+1])`. */
export interface DictPlan {
  name: string;
  kind: 'dict';
  codes: Int32Array;
  dictBytes: Uint8Array;
  dictOffsets: Int32Array;
  rows: Rows;
}
/** UTF-8 text already encoded (a host column read whole). */
export interface Utf8Plan {
  name: string;
  kind: 'utf8';
  bytes: Uint8Array;
  offsets: Int32Array;
  valid: Uint8Array;
  rows: Rows;
}
/** Values written as text (strings; mixed values and objects through textOf); `at` reads a paged host column in place. */
export interface TextPlan {
  name: string;
  kind: 'text';
  values: ArrayLike<unknown> | null;
  at?: (row: number) => unknown;
  rows: Rows;
}
/** No value at all: a text column of nulls. */
export interface NullPlan {
  name: string;
  kind: 'null';
}

export type ColumnPlan = NumPlan | BigPlan | BoolPlan | DictPlan | Utf8Plan | TextPlan | NullPlan;

/**
 * The write plan of every column of `t` (in column order). With `valuesAsText` (CSV, which needs
 * no kinds), a column that is not a host column stays a text plan over its values, unscanned.
 */
export function planColumns(t: ColumnTable, valuesAsText = false): ColumnPlan[] {
  const rows: Rows = t.isFiltered() || t.isOrdered() ? (t.indices() as ArrayLike<number>) : null;
  const n = t.numRows();
  return t.columnNames().map((name) => {
    const col = t.column(name) as unknown;
    if (col instanceof LazyColumn) {
      const p = typedPlan(name, col, rows, n);
      if (p) return p;
    }
    // an array column (derived, reified, user data) is read in place through the rows; any other
    // column object through Arquero's copy
    const inPlace = ArrayIsArray(col) || (ArrayBufferIsView(col) && !(col instanceof DataView));
    const values = (inPlace ? col : t.array(name)) as ArrayLike<unknown>;
    if (valuesAsText) return { name, kind: 'text', values, rows: inPlace ? rows : null };
    return valuesPlan(name, values, inPlace ? rows : null, n);
  });
}

function typedPlan(name: string, col: LazyColumn, rows: Rows, n: number): ColumnPlan | null {
  const raw = col.data();
  switch (raw.kind) {
    // text with no value at all needs no scan: a text chunk of nulls is what the null plan writes
    case 'dict':
      return { name, kind: 'dict', codes: raw.codes, dictBytes: raw.dictBytes, dictOffsets: raw.dictOffsets, rows };
    case 'utf8':
      return { name, kind: 'utf8', bytes: raw.bytes, offsets: raw.offsets, valid: raw.valid, rows };
    case 'bool':
      if (!anyValid(raw.valid, rows, n)) return { name, kind: 'null' };
      return { name, kind: 'boolean', values: raw.values, valid: raw.valid, rows };
    case 'float64': {
      if (!anyValid(raw.valid, rows, n)) return { name, kind: 'null' };
      const kind = raw.type === 'date' ? 'timestamp' : allWhole(raw.values, raw.valid, rows, n) ? 'int64' : 'double';
      return { name, kind, values: raw.values, valid: raw.valid, rows };
    }
    default: // paged text: the strings of its pages (decoded by the host), read in place
      return { name, kind: 'text', values: null, at: (row) => col.at(row), rows };
  }
}

function anyValid(valid: Uint8Array, rows: Rows, n: number): boolean {
  for (let k = 0; k < n; k++) if (valid[rows ? rows[k] : k]) return true;
  return false;
}

/** Every visible value a safe integer (and not -0, which only a DOUBLE keeps). */
function allWhole(values: Float64Array, valid: Uint8Array, rows: Rows, n: number): boolean {
  for (let k = 0; k < n; k++) {
    const r = rows ? rows[k] : k;
    if (!valid[r]) continue;
    const v = values[r];
    if (!Number.isSafeInteger(v) || (v === 0 && 1 / v < 0)) return false;
  }
  return true;
}

/** A column from its values: numbers, dates and booleans into typed arrays once, in output order. */
function valuesPlan(name: string, v: ArrayLike<unknown>, rows: Rows, n: number): ColumnPlan {
  const kind = kindOf(v, rows);
  if (kind === 'null') return { name, kind: 'null' };
  if (kind === 'string' || kind === 'json') return { name, kind: 'text', values: v, rows };
  if (kind === 'integer')
    for (let k = 0; k < n; k++)
      if (typeof v[rows ? rows[k] : k] === 'bigint') return { name, kind: 'bigint', values: v, rows };
  const valid = new Uint8Array(n);
  if (kind === 'boolean') {
    const values = new Uint8Array(n);
    for (let k = 0; k < n; k++) {
      const x = v[rows ? rows[k] : k];
      if (x === null || x === undefined) continue;
      valid[k] = 1;
      values[k] = x ? 1 : 0;
    }
    return { name, kind: 'boolean', values, valid, rows: null };
  }
  const values = new Float64Array(n);
  if (kind === 'date') {
    for (let k = 0; k < n; k++) {
      const x = v[rows ? rows[k] : k];
      if (x === null || x === undefined) continue;
      const ms = (x as Date).getTime();
      if (ms !== ms) continue; // an Invalid Date is no instant: null
      valid[k] = 1;
      values[k] = ms;
    }
    return { name, kind: 'timestamp', values, valid, rows: null };
  }
  for (let k = 0; k < n; k++) {
    const x = v[rows ? rows[k] : k];
    if (x === null || x === undefined) continue;
    valid[k] = 1;
    values[k] = typeof x === 'bigint' ? Number(x) : (x as number);
  }
  return { name, kind: kind === 'integer' ? 'int64' : 'double', values, valid, rows: null };
}

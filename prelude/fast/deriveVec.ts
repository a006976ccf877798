/**
 * The values a derive on typed arrays (fast/derive.ts) computes with, one column at a time: each
 * stands for the JavaScript value Arquero's compiled expression would see at every row.
 * - `num`: a number, or null where `valid[row] === 0` (`valid` null: no nulls);
 * - `bool`: true or false;
 * - `date`: a fresh Date of `v[row]` ms (what a host date column's `at(row)` gives), or null;
 * - `codes`: `values[codes[row] + 1]` (a dictionary column: `values[0]` is null, code -1);
 * - `text`: a long text column's string or null, read a page at a time;
 * - `const`: one primitive for every row.
 */
import type { ColumnTable } from 'arquero';
import { LazyColumn } from '../data/lazyColumn.js';
import { NativeDate, SafeWeakMap } from '../intrinsics.js';
import { sourceOf } from './source.js';

export type Vec =
  | { k: 'const'; value: unknown }
  | { k: 'num'; v: Float64Array; valid: Uint8Array | null }
  | { k: 'bool'; v: Uint8Array }
  | { k: 'date'; v: Float64Array; valid: Uint8Array }
  | { k: 'codes'; codes: Int32Array; values: unknown[] }
  | { k: 'text'; name: string };

/** Evaluation state: the table, its backing row count, and its visible rows (null: all 0..n-1, ascending). */
export interface Env {
  t: ColumnTable;
  n: number;
  rows: Uint32Array | null;
}

/** Thrown to leave the fast path: Arquero's derive then runs (and gives its own answer or error). */
export const GIVE_UP = { giveUp: true } as const;

export function giveUp(): never {
  throw GIVE_UP;
}

/** Calls `f(row)` for each visible row. */
export function eachRow(env: Env, f: (row: number) => void): void {
  const { rows, n } = env;
  if (rows) for (let k = 0; k < rows.length; k++) f(rows[k]!);
  else for (let i = 0; i < n; i++) f(i);
}

/** The column `name` as a Vec, or a give-up when it is not a host column of a kind read here. */
export function columnVec(t: ColumnTable, name: string): Vec {
  const col = t.column(name) as unknown;
  if (!(col instanceof LazyColumn) || col.length !== t.totalRows()) giveUp();
  const src = sourceOf(t, name);
  if (src?.kind === 'dict') return { k: 'codes', codes: src.codes, values: [null, ...src.dict] };
  if (src?.kind === 'num') {
    if (src.type === 'date') return { k: 'date', v: src.values, valid: src.valid };
    return { k: 'num', v: src.values, valid: src.valid };
  }
  if (col.kind === 'bool') {
    const raw = col.data() as { values: Uint8Array; valid: Uint8Array };
    const codes = new Int32Array(raw.values.length);
    for (let i = 0; i < codes.length; i++) codes[i] = raw.valid[i] ? (raw.values[i] ? 1 : 0) : -1;
    return { k: 'codes', codes, values: [null, false, true] };
  }
  if (col.kind === 'utf8') return { k: 'text', name };
  return giveUp();
}

/** What `+` or a relational operator sees of a Vec: true when no row can be a string or an object but a Date. */
export function numberLike(a: Vec): boolean {
  if (a.k === 'num' || a.k === 'bool' || a.k === 'date') return true;
  if (a.k === 'const') return primitiveNumberLike(a.value);
  if (a.k === 'codes') return a.values.every(primitiveNumberLike);
  return false;
}

function primitiveNumberLike(x: unknown): boolean {
  return x === null || x === undefined || typeof x === 'number' || typeof x === 'boolean';
}

/** A Date's number (ToNumber of `new Date(ms)`): TimeClip, so out of range is NaN and -0 is 0. */
export function timeClip(ms: number): number {
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? Math.trunc(ms) + 0 : Number.NaN;
}

/**
 * ToNumber of every row (null 0, a Date its time, true 1), over all backing rows; undefined for a
 * `const` (the caller uses the scalar) and a give-up for text or strings that are not numbers' text.
 */
export function numbers(env: Env, a: Vec): Float64Array {
  const n = env.n;
  switch (a.k) {
    case 'num': {
      if (!a.valid || noNulls(a.valid)) return a.v;
      const out = new Float64Array(n);
      const { v, valid } = a;
      for (let i = 0; i < n; i++) out[i] = valid[i] ? v[i]! : 0;
      return out;
    }
    case 'bool':
      return Float64Array.from(a.v);
    case 'date': {
      const out = new Float64Array(n);
      const { v, valid } = a;
      for (let i = 0; i < n; i++) out[i] = valid[i] ? timeClip(v[i]!) : 0;
      return out;
    }
    case 'codes': {
      const lut = new Float64Array(a.values.length);
      for (let j = 0; j < lut.length; j++) {
        const x = a.values[j];
        if (typeof x === 'string' || (x !== null && typeof x === 'object')) giveUp();
        lut[j] = +(x as number);
      }
      const out = new Float64Array(n);
      const codes = a.codes;
      for (let i = 0; i < n; i++) out[i] = lut[codes[i]! + 1]!;
      return out;
    }
    default:
      return giveUp();
  }
}

const complete = new SafeWeakMap<Uint8Array, boolean>();

/** True when a host column's validity has no null (remembered per column: its arrays never change). */
export function noNulls(valid: Uint8Array): boolean {
  let all = complete.get(valid);
  if (all === undefined) complete.set(valid, (all = valid.indexOf(0) < 0));
  return all;
}

let onesCache: Uint8Array | null = null;

/** A validity of `n` ones, shared (column data is only ever read). */
export function ones(n: number): Uint8Array {
  if (onesCache === null || onesCache.length !== n) onesCache = new Uint8Array(n).fill(1);
  return onesCache;
}

/**
 * The JavaScript value of row `row` of a Vec (for the per-row operators); a Date is made fresh,
 * as the host column's `at(row)` makes one. Text is read through `textAt`.
 */
export function valueReader(a: Vec): (row: number) => unknown {
  switch (a.k) {
    case 'const': {
      const x = a.value;
      return () => x;
    }
    case 'num': {
      const { v, valid } = a;
      return valid ? (i) => (valid[i] ? v[i] : null) : (i) => v[i];
    }
    case 'bool': {
      const v = a.v;
      return (i) => v[i] === 1;
    }
    case 'date': {
      const { v, valid } = a;
      return (i) => (valid[i] ? new NativeDate(v[i]!) : null);
    }
    case 'codes': {
      const { codes, values } = a;
      return (i) => values[codes[i]! + 1];
    }
    default:
      return giveUp();
  }
}

/** Collects per-row results into a Vec: numbers and null, or booleans and null; anything else gives up. */
export class Collector {
  private v: Float64Array;
  private valid: Uint8Array;
  private kind: 'num' | 'bool' | null = null;
  private nulls = false;

  constructor(private readonly n: number) {
    this.v = new Float64Array(n);
    this.valid = new Uint8Array(n);
  }

  put(i: number, x: unknown): void {
    if (typeof x === 'number') {
      if (this.kind === 'bool') giveUp();
      this.kind = 'num';
      this.v[i] = x;
      this.valid[i] = 1;
    } else if (typeof x === 'boolean') {
      if (this.kind === 'num') giveUp();
      this.kind = 'bool';
      this.v[i] = x ? 1 : 0;
      this.valid[i] = 1;
    } else if (x === null) {
      this.nulls = true;
    } else {
      giveUp(); // undefined, a string, an object: kept for Arquero's path
    }
  }

  /** The Vec of the rows put (a row never put is null: only hidden rows are never put). */
  done(): Vec {
    if (this.kind === 'bool') {
      const codes = new Int32Array(this.n);
      for (let i = 0; i < this.n; i++) codes[i] = this.valid[i] ? this.v[i]! : -1;
      return { k: 'codes', codes, values: [null, false, true] };
    }
    return { k: 'num', v: this.v, valid: this.nulls || this.kind === null ? this.valid : allOnes(this.valid) };
  }
}

/** `valid` when some visible row is null, else null (no nulls among the rows put). */
function allOnes(valid: Uint8Array): Uint8Array | null {
  for (let i = 0; i < valid.length; i++) if (!valid[i]) return valid; // hidden rows stay null
  return null;
}

/**
 * Counting Series methods: unique, nunique, value_counts, mode, describe. A column Series delegates
 * to the table helpers (frame/valueCounts.ts) on its own table, so their fast paths apply; a computed
 * Series counts its values. value_counts and describe return keyed tables (keys as columns).
 */
import { describe } from '../frame/describe.js';
import { isNull, newTable } from '../frame/common.js';
import { countsTable, unique, value_counts, type ValueCountsOptions } from '../frame/valueCounts.js';
import type { ColumnTable } from 'arquero';
import type { Series } from './Series.js';
import { markSeriesTable } from './seriesTables.js';
import { fastCountNumbers, fastDistinctNumbers } from './fastReduce.js';
import { pendingChain } from './numberChain.js';
import { scanDistinct, typedOf } from './typed.js';

type S = Series;

/** The Series as (table, column) for the table helpers: its own table when it is a column. */
export function asTableColumn(s: S): { t: ColumnTable; col: string } {
  if (s.source) return { t: s.source.table, col: s.source.column };
  const col = s.name ?? 'value';
  return { t: newTable({ [col]: s.toArray() }), col };
}

/** Counting methods installed on Series.prototype. */
export const COUNTS: Record<string, (this: S, ...a: never[]) => unknown> = {
  unique(this: S) {
    // numbers: the distinct values in order of first appearance, missing (null, NaN) as one null
    const typed = pendingChain(this) ? undefined : fastCountNumbers(this, false);
    if (typed) {
      return typed.missing < 0 ? Array.from(typed.firsts) : withNullAt(typed.firsts, typed.missing);
    }
    const codes = pendingChain(this) ? undefined : uniqueOfCodes(this);
    if (codes) return codes;
    const { t, col } = asTableColumn(this);
    return unique(t, col);
  },
  nunique(this: S, opts?: unknown) {
    const dropna = !(opts && typeof opts === 'object' && (opts as { dropna?: unknown }).dropna === false);
    // a pending number chain (numberChain.ts) has no codes: asking would compute it
    const fast = pendingChain(this) ? undefined : distinctCodes(this);
    if (fast) return fast[0] + (dropna ? 0 : fast[1]);
    const text = pendingChain(this) ? null : scanDistinct(this);
    if (text) return text[0] + (dropna ? 0 : text[1]);
    // long text of a filtered table: the host's codes of the column, counted over the visible rows
    const coded = pendingChain(this) ? undefined : distinctCodes(this, true);
    if (coded) return coded[0] + (dropna ? 0 : coded[1]);
    const numbers = dropna ? fastDistinctNumbers(this) : undefined;
    if (numbers !== undefined) return numbers;
    const u = (COUNTS.unique as (this: S) => unknown[]).call(this);
    return dropna ? u.filter((v) => !isNull(v)).length : u.length;
  },
  value_counts(this: S, opts?: unknown) {
    const o = (
      typeof opts === 'object' && opts !== null ? opts : typeof opts === 'boolean' ? { normalize: opts } : {}
    ) as ValueCountsOptions;
    const label = o.normalize ? 'proportion' : 'count';
    const typed = fastCountNumbers(this, o.dropna !== false);
    if (typed) {
      const name = this.source ? this.source.column : (this.name ?? 'value');
      const { firsts, counts, missing } = typed;
      const keys: ArrayLike<number | null> = missing < 0 ? firsts : withNullAt(firsts, missing);
      const table = countsTable([keys], [name], counts, o);
      return markSeriesTable(table, [name], label);
    }
    const { t, col } = asTableColumn(this);
    const out = value_counts(t, col, o);
    return markSeriesTable(out, [col], o.normalize ? 'proportion' : 'count');
  },
  /** The most frequent value(s), smallest first (pandas mode), as an array. */
  mode(this: S) {
    const codes = modeOfCodes(this);
    if (codes) return codes;
    const counts = new Map<unknown, { v: unknown; n: number }>();
    for (const v of this) {
      if (isNull(v)) continue;
      const k = v instanceof Date ? v.getTime() : v;
      const e = counts.get(k);
      if (e) e.n++;
      else counts.set(k, { v, n: 1 });
    }
    let best = 0;
    for (const e of counts.values()) best = Math.max(best, e.n);
    const out = [...counts.values()].filter((e) => e.n === best).map((e) => e.v);
    return out.sort((a, b) => (a! < b! ? -1 : a! > b! ? 1 : 0));
  },
  describe(this: S, opts?: unknown) {
    const { t, col } = asTableColumn(this);
    return markSeriesTable(describe(t, [col], opts as never), ['stat'], col);
  },
};

/** The numbers with null at `k` (the missing key). */
function withNullAt(xs: Float64Array, k: number): (number | null)[] {
  const out: (number | null)[] = Array.from(xs);
  out[k] = null;
  return out;
}

/** mode() of a dictionary column from a count per code (each string counted once per row, as below); undefined otherwise. */
function modeOfCodes(s: S): string[] | undefined {
  if (pendingChain(s)) return undefined;
  const t = typedOf(s, true);
  if (!t || t.kind !== 'dict') return undefined;
  const { codes, dict, rows } = t;
  const per = new Int32Array(dict.length);
  for (let i = 0; i < s.length; i++) {
    const c = codes[rows ? rows[i]! : i]!;
    if (c >= 0) per[c]!++;
  }
  // a dictionary may hold a string twice (concatenated tables): count by the string
  const counts = new Map<string, number>();
  for (let k = 0; k < dict.length; k++) if (per[k]) counts.set(dict[k]!, (counts.get(dict[k]!) ?? 0) + per[k]!);
  let best = 0;
  for (const n of counts.values()) best = Math.max(best, n);
  const out = [...counts].filter(([, n]) => n === best).map(([v]) => v);
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * [distinct present values, 1 if some value is missing else 0] of a dictionary column, counted on
 * its codes (each dictionary string once: a code marks its string seen), or undefined.
 */
/**
 * unique() of a dictionary column from its codes: each string at its first row, null at the first
 * missing row (the order frame/valueCounts.ts `unique` gives over the values), a string once however
 * many codes hold it; undefined otherwise. No string is read per row.
 */
function uniqueOfCodes(s: S): unknown[] | undefined {
  const t = typedOf(s, true);
  if (!t || t.kind !== 'dict') return undefined;
  return firstOfCodes(t.codes, t.dict, t.rows, s.length, t.oneCodePerString === true);
}

// the loop ends its function (docs/architecture.md, "Inside the prelude")
function firstOfCodes(
  codes: ArrayLike<number>,
  dict: readonly string[],
  rows: ArrayLike<number> | null | undefined,
  n: number,
  oneCodePerString: boolean,
): unknown[] {
  const seen = new Uint8Array(dict.length);
  // a host column's codes need no set of the strings (a 1M-value column: ~1 s of hashing)
  const strings = oneCodePerString ? null : new Set<string>();
  const out: unknown[] = [];
  let missing = false;
  for (let i = 0; i < n; i++) {
    const c = codes[rows ? rows[i]! : i]!;
    if (c < 0) {
      if (!missing) {
        missing = true;
        out.push(null);
      }
    } else if (!seen[c]) {
      seen[c] = 1;
      const v = dict[c]!;
      if (strings === null) out.push(v);
      else if (!strings.has(v)) {
        strings.add(v);
        out.push(v);
      }
    }
  }
  return out;
}

function distinctCodes(s: S, counting = false): [number, number] | undefined {
  const t = typedOf(s, counting);
  if (!t || t.kind !== 'dict') return undefined;
  const { codes, dict, rows } = t;
  const seen = new Uint8Array(dict.length);
  // each loop ends its own function: code after a loop in the same function deopted the loop's
  // compiled code on every warm call (docs/architecture.md, "Inside the prelude")
  const missing = markCodes(codes, rows, s.length, seen);
  return [t.oneCodePerString === true ? countSeen(seen) : seenStrings(dict, seen).size, missing];
}

/** Marks each code present in the first `n` rows (through `rows`); 1 when one of them is null, else 0. */
function markCodes(codes: Int32Array, rows: Uint32Array | null, n: number, seen: Uint8Array): number {
  let missing = 0;
  for (let i = 0; i < n; i++) {
    const c = codes[rows ? rows[i]! : i]!;
    if (c < 0) missing = 1;
    else seen[c] = 1;
  }
  return missing;
}

/** How many codes are marked (a host column's codes: one code per string, no set of the strings needed). */
function countSeen(seen: Uint8Array): number {
  let present = 0;
  for (let k = 0; k < seen.length; k++) present += seen[k]!;
  return present;
}

/** The distinct strings among the marked codes (returned whole: a read of its size after the loop deopted it). */
function seenStrings(dict: readonly string[], seen: Uint8Array): Set<string> {
  const strings = new Set<string>();
  for (let k = 0; k < dict.length; k++) if (seen[k]) strings.add(dict[k]!);
  return strings;
}

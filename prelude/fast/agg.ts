/**
 * The prelude's `agg` (frame/groupAgg.ts) on typed arrays: for the named aggregations of
 * frame/aggFuncs.ts over host number/integer columns (sum, mean, median, min, max, count, size,
 * nunique, std, var, first, last, prod) and dictionary/date columns (count, size, nunique, first,
 * last), one pass in partition order with the same arithmetic in the same order as the
 * per-group arrays would get, so each result is the same number. Anything else: undefined.
 */
import type { ColumnTable } from 'arquero';
import { AGG_FUNCS, type AggFn } from '../frame/aggFuncs.js';
import { selectQuantiles } from '../frame/selectQuantile.js';
import { SafeSet } from '../intrinsics.js';
import { sourceOf, type Source } from './source.js';
import { orderIsConsistent } from './topN.js';
import { keptValue, unreadGrouping } from './keptGroupings.js';
import { keptFilterRows } from '../frame/keptFilterRows.js';

/** Per group index: its first row (-1 when empty), row count and each output's value. */
export interface FastAgg {
  first: Int32Array;
  count: Float64Array;
  values: Array<ArrayLike<unknown>>;
}

const NAME = new Map<AggFn, string>(Object.entries(AGG_FUNCS).map(([k, f]) => [f, k]));
const NUM_ONLY = new Set(['sum', 'mean', 'median', 'std', 'var', 'prod', 'min', 'max']);

/** Aggregates `outs` over `t`'s groups (or the whole table), or undefined when one is not recognized. */
export function fastAgg(t: ColumnTable, outs: ReadonlyArray<{ col?: string; fn: AggFn }>): FastAgg | undefined {
  try {
    return aggregate(t, outs);
  } catch {
    return undefined; // never a different answer: the plain path runs
  }
}

function aggregate(t: ColumnTable, outs: ReadonlyArray<{ col?: string; fn: AggFn }>): FastAgg | undefined {
  if (!orderIsConsistent(t)) return undefined;
  const plan: Array<{ name: string; src: Source | null; col?: string }> = [];
  for (const o of outs) {
    const name = NAME.get(o.fn);
    if (name === undefined) return undefined;
    if (o.col === undefined) {
      if (name !== 'size') return undefined;
      plan.push({ name, src: null });
      continue;
    }
    const src = sourceOf(t, o.col);
    if (!src) return undefined;
    if (NUM_ONLY.has(name) && !(src.kind === 'num' && src.type !== 'date')) return undefined;
    plan.push({ name, src, col: o.col });
  }
  const g = t.groups() as unknown as { keys: Uint32Array; size: number } | null;
  const size = g ? g.size : 1;
  // the rows of a kept filter (frame/keptFilterRows.ts): its kept index, only read, is the scan order
  const within = t.isFiltered() ? keptFilterRows(t) : undefined;
  const rows = within ? within.index : t.isOrdered() || t.isFiltered() ? (t.indices() as Uint32Array) : null;
  const m = rows ? rows.length : t.totalRows();
  // every row (or a kept filter's rows) of a kept grouping no one has read: its ids, and what an agg
  // over it computed before (every value below is only read by groupAgg, which gathers the output
  // into arrays of its own)
  const grouped = g ? unreadGrouping(g, t.totalRows()) : undefined;
  const kept = grouped && grouped.within === (rows === null ? null : (within?.words ?? 0)) ? grouped : undefined;
  const keys = kept ? kept.ids : g ? g.keys : null;
  const [first, count] = kept
    ? keptValue(kept, 'agg:first,count', null, () => firstsAndCounts(rows, keys, m, size))
    : firstsAndCounts(rows, keys, m, size);
  const values: Array<ArrayLike<unknown>> = [];
  for (const p of plan) {
    const value = () => one(t, p.name, p.src, p.col, keys, size, rows, m, count);
    // Dates are objects a run may change (first, last): never kept
    const keep = kept && (p.src === null || !(p.src.kind === 'num' && p.src.type === 'date'));
    const owner = p.src === null ? null : p.src.kind === 'dict' ? p.src.codes : p.src.values;
    values.push(keep ? keptValue(kept, `agg:${p.name}`, owner, value) : value());
  }
  return { first, count, values };
}

function firstsAndCounts(
  rows: Uint32Array | null,
  keys: Uint32Array | null,
  m: number,
  size: number,
): [Int32Array, Float64Array] {
  const first = new Int32Array(size).fill(-1);
  const count = new Float64Array(size);
  // the loop ends its own function: code after a loop in the same function deopted the loop's
  // compiled code on every warm call (docs/architecture.md, "Inside the prelude")
  firstAndCount(rows, keys, m, first, count);
  return [first, count];
}

/** Each group's first row and row count, in scan order. */
function firstAndCount(
  rows: Uint32Array | null,
  keys: Uint32Array | null,
  m: number,
  first: Int32Array,
  count: Float64Array,
): void {
  for (let j = 0; j < m; j++) {
    const i = rows ? rows[j] : j;
    const gi = keys ? keys[i] : 0;
    if (first[gi] < 0) first[gi] = i;
    count[gi]++;
  }
}

function one(
  t: ColumnTable,
  name: string,
  src: Source | null,
  colName: string | undefined,
  keys: Uint32Array | null,
  size: number,
  rows: Uint32Array | null,
  m: number,
  count: Float64Array,
): ArrayLike<unknown> {
  if (src === null || name === 'size') return count; // read, never written: typed, no copy
  const isValue =
    src.kind === 'dict'
      ? (i: number) => src.codes[i] >= 0
      : (i: number) => src.valid[i] !== 0 && src.values[i] === src.values[i];
  const col = t.column(colName!)!;
  if (name === 'count' || name === 'first' || name === 'last') {
    const n = new Float64Array(size);
    const at = new Int32Array(size).fill(-1);
    for (let j = 0; j < m; j++) {
      const i = rows ? rows[j] : j;
      if (!isValue(i)) continue;
      const gi = keys ? keys[i] : 0;
      n[gi]++;
      if (name === 'last' || at[gi] < 0) at[gi] = i;
    }
    return name === 'count' ? n : Array.from(at, (r) => (r < 0 ? null : col.at(r)));
  }
  if (name === 'nunique') {
    const sets = Array.from({ length: size }, () => new SafeSet<number>());
    const codes = src.kind === 'dict' ? src.codes : src.values;
    for (let j = 0; j < m; j++) {
      const i = rows ? rows[j] : j;
      if (isValue(i)) sets[keys ? keys[i] : 0].add(codes[i]);
    }
    return sets.map((s) => s.size);
  }
  const { values } = src as Extract<Source, { kind: 'num' }>;
  if (name === 'median') {
    // each group's values laid out together (counted, then placed), then selected in place
    const start = new Int32Array(size + 1);
    for (let j = 0; j < m; j++) {
      const i = rows ? rows[j] : j;
      if (isValue(i)) start[(keys ? keys[i] : 0) + 1]++;
    }
    for (let gi = 0; gi < size; gi++) start[gi + 1] += start[gi];
    const at = start.slice(0, size);
    const all = new Float64Array(start[size]);
    for (let j = 0; j < m; j++) {
      const i = rows ? rows[j] : j;
      if (isValue(i)) all[at[keys ? keys[i] : 0]++] = values[i];
    }
    return Array.from({ length: size }, (_, gi) => selectQuantiles(all.subarray(start[gi], start[gi + 1]), [0.5])[0]);
  }
  if (name === 'sum' || name === 'mean') {
    // the common case in one tight loop: the same additions in the same order
    const { valid } = src as Extract<Source, { kind: 'num' }>;
    const sum = new Float64Array(size);
    const cnt = new Float64Array(size);
    // the loop ends its own function: code after a loop in the same function deopted the loop's
    // compiled code on every warm call (docs/architecture.md, "Inside the prelude")
    sumCount(values, valid, rows, keys, m, sum, cnt);
    return name === 'sum' ? sum : Array.from(sum, (a, gi) => (cnt[gi] ? a / cnt[gi] : null));
  }
  const acc = new Float64Array(size).fill(name === 'prod' ? 1 : 0);
  const m2 = new Float64Array(size);
  const n = new Float64Array(size);
  const best = new Int32Array(size).fill(-1);
  for (let j = 0; j < m; j++) {
    const i = rows ? rows[j] : j;
    if (!isValue(i)) continue;
    const gi = keys ? keys[i] : 0;
    const v = values[i];
    n[gi]++;
    switch (name) {
      case 'sum':
      case 'mean':
        acc[gi] += v;
        break;
      case 'prod':
        acc[gi] *= v;
        break;
      case 'min':
        if (best[gi] < 0 || v < values[best[gi]]) best[gi] = i;
        break;
      case 'max':
        if (best[gi] < 0 || v > values[best[gi]]) best[gi] = i;
        break;
      default:
        // std, var: the sum first, as aggFuncs' sampleVariance()
        acc[gi] += v;
    }
  }
  if (name === 'std' || name === 'var') {
    // the second pass: squared deviations from each group's mean, in the same order
    const mean = acc.map((a, gi) => a / n[gi]);
    for (let j = 0; j < m; j++) {
      const i = rows ? rows[j] : j;
      if (!isValue(i)) continue;
      const gi = keys ? keys[i] : 0;
      const d = values[i] - mean[gi];
      m2[gi] += d * d;
    }
  }
  return Array.from(acc, (a, gi) => {
    switch (name) {
      case 'sum':
      case 'prod':
        return a;
      case 'mean':
        return n[gi] ? a / n[gi] : null;
      case 'min':
      case 'max':
        return best[gi] < 0 ? null : col.at(best[gi]);
      case 'var':
        return n[gi] < 2 ? null : m2[gi] / (n[gi] - 1);
      default:
        return n[gi] < 2 ? null : Math.sqrt(m2[gi] / (n[gi] - 1));
    }
  });
}

/** Per group, the sum and the count of the present values, in scan order. */
function sumCount(
  values: Float64Array,
  valid: Uint8Array,
  rows: Uint32Array | null,
  keys: Uint32Array | null,
  m: number,
  sum: Float64Array,
  cnt: Float64Array,
): void {
  for (let j = 0; j < m; j++) {
    const i = rows ? rows[j] : j;
    const v = values[i];
    if (valid[i] !== 0 && v === v) {
      const gi = keys ? keys[i] : 0;
      sum[gi] += v;
      cnt[gi]++;
    }
  }
}

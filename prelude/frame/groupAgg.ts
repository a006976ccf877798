/**
 * pandas-style aggregation over Arquero's grouping: `t.groupby('Agency').agg({ 'Award Amount': 'sum' })`.
 * Arquero's own `groupby(...).rollup(...)` is untouched; `agg` reads the grouping Arquero built.
 * Like pandas: groups with a null key are dropped (dropna=true), groups are sorted by key, and the
 * keys come back as ordinary columns (as_index=False: there is no index).
 */
import type { ColumnTable } from 'arquero';
import { GuestError } from '../errors/guestError.js';
import { aggFn, isAggName, type AggFn } from './aggFuncs.js';
import { compareValues, dtypeOf, isNull, isSummable, newTable, resolveColumn } from './common.js';
import { fastAgg, type FastAgg } from '../fast/agg.js';
import { orderByKeys, type Ranked } from '../fast/groupOrder.js';
import { dictRank, hasDictRank } from '../fast/dictRank.js';
import { groupSourceOf } from '../fast/source.js';
import { NumberKeys } from '../fast/numberKeys.js';
import { numberKeyOrder } from '../fast/groups.js';

/** One output column: name, source column (undefined for size) and function. */
interface AggOut {
  out: string;
  col?: string;
  fn: AggFn;
}

/** Options of agg(). */
export interface AggOptions {
  /** Drop groups whose key is null, like pandas. @default true */
  dropna?: boolean;
  /** Sort groups by key, like pandas. @default true */
  sort?: boolean;
}

/** Normalizes the spec forms pandas users write into output columns. */
export function aggOutputs(t: ColumnTable, spec: unknown, keys: readonly string[]): AggOut[] {
  const others = t.columnNames().filter((c) => !keys.includes(c));
  const numeric = others.filter((c) => isSummable(dtypeOf(t, c)));
  const forAll = (f: unknown, suffix: boolean): AggOut[] => {
    const { name, fn } = aggFn(f);
    const cols = ['count', 'size', 'nunique', 'first', 'last', 'min', 'max'].includes(name) ? others : numeric;
    return cols.map((c) => ({ out: suffix ? `${c}_${name}` : c, col: c, fn }));
  };
  if (typeof spec === 'string' || typeof spec === 'function') return forAll(spec, false);
  if (Array.isArray(spec)) return spec.flatMap((f) => forAll(f, true));
  if (!spec || typeof spec !== 'object') {
    throw new GuestError(
      'TypeError',
      `agg() expects a spec such as { 'Award Amount': 'sum' }, got ${String(spec)}`,
      "Examples: agg({ 'Award Amount': 'sum' }), agg({ 'Award Amount': ['sum', 'mean'] }), agg({ total: ['Award Amount', 'sum'], n: 'size' }).",
    );
  }
  const outs: AggOut[] = [];
  for (const [key, v] of Object.entries(spec as Record<string, unknown>)) {
    const isCol = t.column(key) !== undefined;
    if (Array.isArray(v) && v.length === 2 && !isAggName(v[0]) && (isAggName(v[1]) || typeof v[1] === 'function')) {
      outs.push({ out: key, col: resolveColumn(t, v[0], 'agg()'), fn: aggFn(v[1]).fn }); // named: total: ['Award Amount', 'sum']
    } else if (Array.isArray(v)) {
      const col = resolveColumn(t, key, 'agg()');
      for (const f of v) {
        const a = aggFn(f);
        outs.push({ out: `${col}_${a.name}`, col, fn: a.fn });
      }
    } else if (v && typeof v === 'object' && 'column' in v) {
      const nv = v as { column: unknown; aggfunc?: unknown };
      outs.push({ out: key, col: resolveColumn(t, nv.column, 'agg()'), fn: aggFn(nv.aggfunc ?? 'sum').fn }); // pd.NamedAgg
    } else if (!isCol && (v === 'size' || v === 'count')) {
      outs.push({ out: key, fn: aggFn('size').fn }); // n: 'size'
    } else {
      outs.push({ out: key, col: resolveColumn(t, key, 'agg()'), fn: aggFn(v).fn });
    }
  }
  return outs;
}

/**
 * Aggregates each group of `t` (or the whole table when ungrouped) into one row.
 * @example award_data.groupby('Agency').agg({ 'Award Amount': ['sum', 'mean'] })
 */
export function groupAgg(t: ColumnTable, spec: unknown, options: AggOptions = {}): ColumnTable {
  const { dropna = true, sort = true } = options;
  const g = t.groups() as unknown as { names: string[]; get: Array<(row: number) => unknown> } | null;
  const keys = g ? g.names : [];
  const outs = aggOutputs(t, spec, keys);
  const fast = fastAgg(t, outs); // typed arrays, same results (fast/agg.ts)
  if (fast && g) return byColumns(t, g, keys, outs, fast, dropna, sort);
  let groups: Array<{ rows: ArrayLike<number>; gi: number; key: unknown[] }>;
  if (fast) {
    groups = [];
    fast.first.forEach((row, gi) => {
      if (row >= 0 || !g) groups.push({ rows: [], gi, key: keys.map((_, k) => g!.get[k](row)) });
    });
  } else {
    const parts = (t.partitions() as ArrayLike<number>[]).filter((p) => p.length > 0);
    groups = parts.map((rows, gi) => ({ rows, gi, key: keys.map((_, k) => g!.get[k](rows[0])) }));
  }
  if (dropna) groups = groups.filter((gr) => !gr.key.some(isNull));
  if (sort && keys.length) groups = byNumberKey(groups) ?? groups.sort((a, b) => compareKeys(a.key, b.key));
  if (!g && groups.length === 0) groups = [{ rows: [], gi: 0, key: [] }];
  const cols: Record<string, unknown[]> = {};
  keys.forEach((k, i) => (cols[k] = groups.map((gr) => gr.key[i])));
  outs.forEach((o, j) => {
    const col = o.col === undefined ? undefined : t.column(o.col)!;
    cols[o.out] = groups.map((gr) =>
      fast ? fast.values[j][gr.gi] : o.fn(Array.from(gr.rows, col ? (r) => col.at(r) : () => null)),
    );
  });
  return newTable(cols, [...keys, ...outs.map((o) => o.out).filter((n) => !keys.includes(n))]);
}

/**
 * agg's result from fastAgg's per-group values, built column by column: the groups that have rows
 * as positions in an Int32Array, each key part read once per group into its own array, nulls
 * dropped and the keys ordered (fast/groupOrder.ts; compareKeys when that cannot) on those
 * positions. No object per group: 186,000 groups otherwise cost ~100 ms of allocation alone.
 */
function byColumns(
  t: ColumnTable,
  g: { get: Array<(row: number) => unknown> },
  keys: readonly string[],
  outs: readonly AggOut[],
  fast: FastAgg,
  dropna: boolean,
  sort: boolean,
): ColumnTable {
  const { first } = fast;
  const at = new Int32Array(first.length); // group index of each position
  // each loop below ends its own function: code after a loop in the same function deopted the
  // loop's compiled code on every warm call (docs/architecture.md, "Inside the prelude")
  let n = presentGroups(first, at);
  const byNumber = dropna && sort && keys.length === 1 ? numberKeyOrder(t, g, first, at, n) : undefined;
  if (byNumber) {
    const cols: Record<string, unknown[]> = { [keys[0]!]: byNumber.keys };
    outs.forEach((o, j) => (cols[o.out] = gather(fast.values[j]!, byNumber.groups)));
    return newTable(cols, [keys[0]!, ...outs.map((o) => o.out).filter((c) => c !== keys[0])]);
  }
  const kv = keys.map((_, k) => keyValues(g.get[k]!, first, at, n));
  if (dropna && keys.length) {
    n = dropNullKeys(kv, at, n);
    for (const a of kv) a.length = n;
  }
  let order: ArrayLike<number> | undefined;
  if (sort && keys.length) {
    order = orderByKeys(
      kv,
      n,
      keys.map((k, j) => dictKeyRanks(t, k, kv[j]!, first, at, n)),
    );
    if (!order) {
      const pos = Array.from({ length: n }, (_, i) => i); // stable, as the per-group sort
      order = pos.sort((x, y) =>
        compareKeys(
          kv.map((a) => a[x]),
          kv.map((a) => a[y]),
        ),
      );
    }
  }
  const cols: Record<string, unknown[]> = {};
  // the positions in output order, then the group index of each
  const pos = positions(order, n);
  const gis = groupsAt(at, pos, n);
  keys.forEach((k, i) => (cols[k] = gather(kv[i]!, pos)));
  outs.forEach((o, j) => (cols[o.out] = gather(fast.values[j]!, gis)));
  return newTable(cols, [...keys, ...outs.map((o) => o.out).filter((c) => !keys.includes(c))]);
}

/** Writes the index of each group that has rows into `at`, in group order; their number. */
function presentGroups(first: Int32Array, at: Int32Array): number {
  let n = 0;
  for (let gi = 0; gi < first.length; gi++) if (first[gi]! >= 0) at[n++] = gi;
  return n;
}

/** One key part per position: read from each group's first row. */
function keyValues(get: (row: number) => unknown, first: Int32Array, at: Int32Array, n: number): unknown[] {
  const a: unknown[] = []; // pushed: `new Array(n)` of this size is a slow dictionary array
  for (let i = 0; i < n; i++) a.push(get(first[at[i]!]!));
  return a;
}

/** Moves the positions whose key parts are all present to the front (kv and at); their number. */
function dropNullKeys(kv: unknown[][], at: Int32Array, n: number): number {
  let m = 0;
  for (let i = 0; i < n; i++) {
    if (kv.some((a) => isNull(a[i]))) continue;
    at[m] = at[i]!;
    for (const a of kv) a[m] = a[i];
    m++;
  }
  return m;
}

function positions(order: ArrayLike<number> | undefined, n: number): Int32Array {
  const pos = new Int32Array(n);
  for (let j = 0; j < n; j++) pos[j] = order ? order[j]! : j;
  return pos;
}

function groupsAt(at: Int32Array, pos: Int32Array, n: number): Int32Array {
  const gis = new Int32Array(n);
  for (let j = 0; j < n; j++) gis[j] = at[pos[j]!]!;
  return gis;
}

/**
 * `vals[idx[j]]` for each j, as a plain array. One loop for a Float64Array (counts, sums) and one
 * for anything else, so neither meets the other's element kinds: a loop this long that runs once
 * per call must not lose its optimised code to a type it has not seen (186,000 groups: ~10x).
 */
function gather(vals: ArrayLike<unknown>, idx: Int32Array): unknown[] {
  return vals instanceof Float64Array ? gatherNumbers(vals, idx) : gatherValues(vals, idx);
}

function gatherNumbers(vals: Float64Array, idx: Int32Array): number[] {
  const out: number[] = [];
  for (let j = 0; j < idx.length; j++) out.push(vals[idx[j]!]!);
  return out;
}

function gatherValues(vals: ArrayLike<unknown>, idx: Int32Array): unknown[] {
  const out: unknown[] = [];
  for (let j = 0; j < idx.length; j++) out.push(vals[idx[j]!]);
  return out;
}

/**
 * The ranks of a dictionary key column's value at each group position (the group's first row), from
 * the session's ranking of its dictionary (fast/dictRank.ts): undefined when the key is not a host
 * dictionary column, or when ranking its whole dictionary would cost more than sorting the few
 * values the groups hold and it is not ranked yet, or when a group's key is not the column's value
 * at its first row (a key computed by an expression under a column's name).
 */
function dictKeyRanks(
  t: ColumnTable,
  key: string,
  vals: readonly unknown[],
  first: Int32Array,
  at: Int32Array,
  n: number,
): Ranked | undefined {
  const src = groupSourceOf(t, key);
  if (src?.kind !== 'dict' || (4 * n < src.dict.length && !hasDictRank(src.dict))) return undefined;
  const rankOf = dictRank(src.dict);
  if (!rankOf) return undefined;
  const d = src.dict.length;
  const { codes } = src;
  const rank = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const c = codes[first[at[i]!]!]!;
    if (c < 0 ? !isNull(vals[i]) : vals[i] !== src.dict[c]) return undefined;
    rank[i] = c < 0 ? d : rankOf[c]!;
  }
  return { rank, card: d + 1 };
}

/**
 * Groups of one number key (none missing or NaN; distinct, as groups are) in key order: the keys
 * sorted natively as a Float64Array, each found again through the number hash, instead of a
 * comparator call per pair (186,000 groups: ~10 ms against ~200 ms). undefined otherwise.
 */
function byNumberKey<G extends { key: unknown[] }>(groups: G[]): G[] | undefined {
  const n = groups.length;
  if (n < 64 || groups[0]!.key.length !== 1) return undefined;
  const kv = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = groups[i]!.key[0];
    if (typeof x !== 'number' || x !== x) return undefined;
    kv[i] = x;
  }
  const at = new NumberKeys(n);
  for (let i = 0; i < n; i++) if (at.add(kv[i]!) !== i) return undefined; // a key twice: not groups of one key
  const sorted = kv.slice().sort();
  const out = new Array<G>(n);
  for (let j = 0; j < n; j++) out[j] = groups[at.add(sorted[j]!)]!;
  return out;
}

/** Compares two group keys: nulls last, then compareValues per key part. */
export function compareKeys(a: readonly unknown[], b: readonly unknown[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    const nx = isNull(x);
    const ny = isNull(y);
    if (nx || ny) {
      if (nx !== ny) return nx ? 1 : -1;
      continue;
    }
    const c = compareValues(x, y);
    if (c) return c;
  }
  return 0;
}

/** Group sizes (pandas `groupby(...).size()`): the keys plus a `size` column. */
export function groupSize(t: ColumnTable, options?: AggOptions): ColumnTable {
  return groupAgg(t, { size: 'size' }, options);
}

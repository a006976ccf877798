/**
 * groupby on codes: the grouping object Arquero's `groupby('A', 'B')` builds (`keys` = group index per
 * row, `rows` = first row of each group, `get` = key getters), computed in one pass over the key
 * columns' codes instead of building and hashing a key string per row. Group order is first
 * appearance in row-index order over the visible rows, exactly as Arquero scans.
 */
import type { ColumnTable } from 'arquero';
import { SafeMap, SafeWeakMap } from '../intrinsics.js';
import { keyCodes, numberRanks, type KeyCodes } from './keyCodes.js';
import { groupSourceOf, sourceOf } from './source.js';
import { createWithCount, indexFilteredRows } from '../frame/bitWords.js';
import { keptFilterRows, type KeptFilterRows } from '../frame/keptFilterRows.js';
import { keepGrouping, keptGrouping, lazyGrouping } from './keptGroupings.js';

/** Arquero's grouping object (Table#groups()). */
export interface Grouping {
  keys: Uint32Array;
  get: Array<(row: number) => unknown>;
  names: string[];
  rows: number[];
  size: number;
}

/** The groupings fastGroups made, with the column object each key read. */
const madeHere = new SafeWeakMap<object, readonly unknown[]>();
/** The groupings fastGroups made of a kept filter's rows, with that filter (for `groupedTable`). */
const madeWithin = new SafeWeakMap<object, KeptFilterRows>();

/**
 * Combined codes above this many cells, and above the table's rows, use a Map instead of a lookup
 * array (a lookup of at most one slot per row costs no more than the group ids themselves: a 20M-row
 * key of 4.9M values, the host's codes of long text, stays an array, not 20M Map lookups).
 */
const DENSE_LIMIT = 1 << 22;

/** The key codes of each named column, or undefined when one is not a host dict/float64 column. */
export function keyCodesOf(t: ColumnTable, names: readonly string[]): KeyCodes[] | undefined {
  const out: KeyCodes[] = [];
  for (const name of names) {
    const src = typeof name === 'string' ? groupSourceOf(t, name) : undefined;
    if (!src) return undefined;
    out.push(keyCodes(src));
  }
  if (out.length > 1 && out.some((k) => k.quoted)) return undefined;
  return out;
}

/**
 * The key codes of 1-3 plain column names whose combined codes fit a safe integer (the product of
 * their cardinalities <= 2^53), with that product; undefined when Arquero's own path must run.
 */
export function combinableKeys(
  t: ColumnTable,
  names: readonly string[],
): { kc: KeyCodes[]; cells: number } | undefined {
  if (names.length < 1 || names.length > 3) return undefined;
  const kc = keyCodesOf(t, names);
  if (!kc) return undefined;
  let cells = 1;
  for (const k of kc) cells *= k.card;
  return cells > Number.MAX_SAFE_INTEGER ? undefined : { kc, cells };
}

/**
 * Group ids for the rows in `rows` (null = all rows 0..n-1), numbered in the order met.
 * @returns `ids[row]` (rows not visited stay 0), `first[g]` the first row met of group g, and `size`
 */
export function assignGroups(
  kc: readonly KeyCodes[],
  n: number,
  rows: ArrayLike<number> | null,
): { ids: Uint32Array; first: number[]; size: number } {
  const ids = new Uint32Array(n);
  const first: number[] = [];
  const m = rows ? rows.length : n;
  let cells = 1;
  for (const k of kc) cells *= k.card;
  const a = kc[0].codes;
  const b = kc.length > 1 ? kc[1].codes : null;
  const c = kc.length > 2 ? kc[2].codes : null;
  const ca = kc[0].card;
  const cb = kc.length > 1 ? kc[1].card : 1;
  // each loop ends its own function: code after a loop in the same function deopted the loop's
  // compiled code on every warm call (docs/architecture.md, "Inside the prelude")
  if (cells <= DENSE_LIMIT || cells <= n) denseGroups(a, b, c, ca, cb, cells, rows, m, ids, first);
  else sparseGroups(a, b, c, ca, cb, rows, m, ids, first);
  return { ids, first, size: first.length };
}

/** assignGroups through a lookup array of every combined code. */
function denseGroups(
  a: Int32Array,
  b: Int32Array | null,
  c: Int32Array | null,
  ca: number,
  cb: number,
  cells: number,
  rows: ArrayLike<number> | null,
  m: number,
  ids: Uint32Array,
  first: number[],
): void {
  const slot = new Int32Array(cells).fill(-1);
  for (let j = 0; j < m; j++) {
    const i = rows ? rows[j] : j;
    const code = a[i] + (b ? ca * (b[i] + (c ? cb * c[i] : 0)) : 0);
    let g = slot[code];
    if (g < 0) {
      g = slot[code] = first.length;
      first.push(i);
    }
    ids[i] = g;
  }
}

/** assignGroups through a Map of the combined codes met (past DENSE_LIMIT cells). */
function sparseGroups(
  a: Int32Array,
  b: Int32Array | null,
  c: Int32Array | null,
  ca: number,
  cb: number,
  rows: ArrayLike<number> | null,
  m: number,
  ids: Uint32Array,
  first: number[],
): void {
  const slot = new SafeMap<number, number>();
  for (let j = 0; j < m; j++) {
    const i = rows ? rows[j] : j;
    const code = a[i] + (b ? ca * (b[i] + (c ? cb * c[i] : 0)) : 0);
    let g = slot.get(code);
    if (g === undefined) {
      slot.set(code, (g = first.length));
      first.push(i);
    }
    ids[i] = g;
  }
}

/**
 * The grouping of `t` by 1-3 plain column names, or undefined when Arquero's own path must run
 * (computed keys, non-host columns, more than 3 keys, a product of cardinalities past 2^53).
 */
export function fastGroups(t: ColumnTable, names: readonly string[]): Grouping | undefined {
  const keys = combinableKeys(t, names);
  if (!keys) return undefined;
  const kc = keys.kc;
  const n = t.totalRows();
  // the rows of a filter the session keeps (frame/keptFilterRows.ts): grouped as every row is
  const within = t.isFiltered() ? keptFilterRows(t) : undefined;
  if (within === undefined) indexFilteredRows(t); // the rows from the filter's words, not a search per set bit
  const rows = t.isFiltered() && within === undefined ? (t.indices(false) as Uint32Array) : null;
  const cols = names.map((name) => t.column(name)!);
  const get = cols.map((col) => (row: number) => col.at(row));
  let grouping: Grouping;
  if (rows === null) {
    // every row, or a kept filter's: the session's kept grouping, its ids copied only when someone reads them
    const words = within?.words ?? null;
    let k = keptGrouping(cols, n, words);
    if (k === undefined) {
      const made = assignGroups(kc, n, within?.index ?? null);
      k = keepGrouping(cols, n, made.ids, made.first, words);
    }
    grouping = lazyGrouping(k, get, [...names]);
    if (within !== undefined) madeWithin.set(grouping, within);
  } else {
    const { ids, first, size } = assignGroups(kc, n, rows);
    grouping = { keys: ids, get, names: [...names], rows: first, size };
  }
  madeHere.set(grouping, cols);
  return grouping;
}

/**
 * `t` grouped by `grouping` (fastGroups' answer for `t`), as `t.create({ groups })`: when it groups a
 * kept filter's rows that `t` shows, the table's row count is the kept index's length, not Arquero's
 * count of the filter's bits (a step per row).
 */
export function groupedTable(t: ColumnTable, grouping: Grouping): ColumnTable {
  const within = madeWithin.get(grouping);
  const keep = t.mask();
  if (within === undefined || keep === null) return t.create({ groups: grouping as never });
  return createWithCount(t, { groups: grouping }, keep, within.index.length);
}

/**
 * The groups of a grouping by one host number column (not dates), ordered by key with null and
 * NaN keys dropped: `groups` the group indices, `keys` each one's key as the grouping's getter
 * gives it (the value at the group's first row). What agg with dropna and sort computes from the
 * getters and compareKeys, read from the column's codes and their ranks kept for the session (a
 * native sort of the distinct values once) instead. undefined unless fastGroups made the grouping
 * from `t`'s column of that name as it still is (a derive may have replaced it).
 * `first[gi]` is group gi's first visible row (-1: no visible row), `at[0..n)` the groups to order.
 */
export function numberKeyOrder(
  t: ColumnTable,
  grouping: object,
  first: Int32Array,
  at: Int32Array,
  n: number,
): { groups: Int32Array; keys: number[] } | undefined {
  const cols = madeHere.get(grouping);
  const name = (grouping as Grouping).names[0];
  if (cols === undefined || cols.length !== 1 || name === undefined || t.column(name) !== cols[0]) return undefined;
  const src = sourceOf(t, name);
  if (src?.kind !== 'num' || src.type === 'date') return undefined;
  const kc = keyCodes(src);
  const ranks = numberRanks(kc);
  return ranks && byRank(kc.codes, ranks, src.values, first, at, n);
}

function byRank(
  codes: Int32Array,
  ranks: Int32Array,
  values: Float64Array,
  first: Int32Array,
  at: Int32Array,
  n: number,
): { groups: Int32Array; keys: number[] } | undefined {
  const slot = new Int32Array(ranks.length).fill(-1);
  let m = 0;
  for (let i = 0; i < n; i++) {
    const gi = at[i]!;
    const r = ranks[codes[first[gi]!]!]!;
    if (r < 0) continue; // a null or NaN key: dropped
    if (slot[r]! >= 0) return undefined; // two groups of one key: not this column's grouping
    slot[r] = gi;
    m++;
  }
  const groups = new Int32Array(m);
  const keys: number[] = [];
  let j = 0;
  for (let r = 0; r < slot.length; r++) {
    const gi = slot[r]!;
    if (gi < 0) continue;
    groups[j++] = gi;
    keys.push(values[first[gi]!]!);
  }
  return { groups, keys };
}

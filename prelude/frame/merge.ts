/**
 * merge (pandas joins over Arquero's join verbs) and concat (row-wise, union of columns).
 * Row order follows pandas: inner and left keep the left table's order, right keeps the right's,
 * outer sorts by key. Deviation: null keys never match (SQL semantics; pandas matches NaN to NaN).
 */
import type { ColumnTable } from 'arquero';
import { concatColumn, concatIndex, type ColumnLike } from '../data/concatColumns.js';
import { GuestError } from '../errors/guestError.js';
import { assertTable, newTable, resolveColumns } from './common.js';
import { compareKeys } from './groupAgg.js';
import { mergeLookup } from './mergeLookup.js';
import { sort_values } from './sortValues.js';
import { withColumns } from './withColumns.js';

/** Options of merge. */
export interface MergeOptions {
  on?: string | string[];
  left_on?: string | string[];
  right_on?: string | string[];
  /** @default 'inner' */
  how?: 'inner' | 'left' | 'right' | 'outer' | 'cross';
  /** Appended to overlapping non-key column names. @default ['_x', '_y'] */
  suffixes?: [string, string];
}

const VERB = { inner: 'join', left: 'join_left', right: 'join_right', outer: 'join_full' } as const;
const L = '__merge_left_row';
const R = '__merge_right_row';

/**
 * Joins two tables on key columns.
 * @example merge(award_data, agencies, { on: 'Agency', how: 'left' })
 */
export function merge(
  left: unknown,
  right: unknown,
  options: MergeOptions | string | string[] = {},
  how?: MergeOptions['how'],
): ColumnTable {
  assertTable(left, 'merge');
  assertTable(right, 'merge');
  const opts: MergeOptions = typeof options === 'string' || Array.isArray(options) ? { on: options, how } : options;
  const mode = opts.how ?? 'inner';
  const suffix = opts.suffixes ?? ['_x', '_y'];
  if (mode === 'cross') return left.cross(right, undefined, { suffix } as never);
  if (!(mode in VERB))
    throw new GuestError(
      'ValueError',
      `merge(): unknown how='${mode}'`,
      "Use how: 'inner' | 'left' | 'right' | 'outer' | 'cross'.",
    );
  let lk: string[];
  let rk: string[];
  if (opts.left_on !== undefined || opts.right_on !== undefined) {
    lk = resolveColumns(left, opts.left_on, 'merge() left_on');
    rk = resolveColumns(right, opts.right_on, 'merge() right_on');
  } else {
    const common = left.columnNames().filter((c) => right.columnNames().includes(c));
    lk = resolveColumns(left, opts.on, 'merge() on', common);
    rk = resolveColumns(right, opts.on, 'merge() on (right table)', common);
  }
  if (!lk.length || lk.length !== rk.length) {
    throw new GuestError(
      'ValueError',
      'merge(): no key columns to join on',
      "Pass { on: 'Agency' } or { left_on: 'a', right_on: 'b' }.",
    );
  }
  if (lk.length === 1 && lk[0] === rk[0] && opts.left_on === undefined) {
    const fast = mergeLookup(left, right, lk[0]!, mode, suffix);
    if (fast) return fast;
  }
  const l = withColumns(left, { [L]: (i) => i });
  const r = withColumns(right, { [R]: (i) => i });
  const joined = (l as unknown as Record<string, Function>)[VERB[mode as keyof typeof VERB]].call(
    l,
    r,
    [lk, rk],
    undefined,
    { suffix },
  ) as ColumnTable;
  const sorted = mode === 'outer' ? sortByKeys(joined, lk) : sort_values(joined, mode === 'right' ? [R, L] : [L, R]);
  const names = sorted.columnNames().filter((c) => c !== L && c !== R);
  const ordered =
    mode === 'right' ? [...lk.filter((k) => names.includes(k)), ...names.filter((c) => !lk.includes(c))] : names;
  return sorted.select(ordered);
}

function sortByKeys(t: ColumnTable, keys: string[]): ColumnTable {
  const cols = keys.map((k) => t.column(k)!);
  const key = (row: number) => cols.map((c) => c.at(row));
  return t.create({ order: ((a: number, b: number) => compareKeys(key(a), key(b)) || a - b) as never });
}

/**
 * Stacks tables row-wise; columns are the union (in order of first appearance), missing cells null.
 * @example concat([t2019, t2020])
 */
export function concat(...tables: unknown[]): ColumnTable {
  const list = tables.flat().filter((t) => t !== undefined && t !== null);
  list.forEach((t) => assertTable(t, 'concat'));
  const ts = list as ColumnTable[];
  if (!ts.length) throw new GuestError('ValueError', 'concat() needs at least one table', 'Example: concat([a, b]).');
  const names: string[] = [];
  for (const t of ts) for (const c of t.columnNames()) if (!names.includes(c)) names.push(c);
  // columnar and lazy (data/concatColumns.ts): one row map for all columns, nothing read here
  const rows = ts.map((t) => t.indices() as Uint32Array);
  const index = concatIndex(rows);
  const out: Record<string, ColumnLike> = {};
  for (const c of names)
    out[c] = concatColumn(
      c,
      ts.map((t, p) => ({ col: t.column(c) as ColumnLike | undefined, rows: rows[p]! })),
      index,
    );
  return newTable(out as never, names);
}

/**
 * Column reductions as functions and table methods: `sum(t, 'col')` / `t.sum('col')` is a number,
 * `t.sum()` an object { column: value } over numeric (and boolean) columns, `sum([1, 2])` works on
 * arrays, and on a grouped table `t.groupby('Agency').sum('Award Amount')` is a table (one row per group).
 */
import { GuestError } from '../errors/guestError.js';
import { AGG_FUNCS } from './aggFuncs.js';
import { dtypeOf, isSummable, isTable, resolveColumn, resolveColumns, values, describeType } from './common.js';
import { groupAgg } from './groupAgg.js';
import { maskCount } from './valueCounts.js';

/** The reductions installed as globals and table methods. */
export const REDUCTIONS = ['sum', 'mean', 'median', 'min', 'max', 'std', 'var', 'prod', 'first', 'last'] as const;
const ANY_TYPE = new Set(['min', 'max', 'first', 'last', 'count', 'nunique']);

/** Applies reduction `name` to a table (column / columns / grouped) or an array. */
export function reduce(name: string, x: unknown, cols?: unknown, ...rest: unknown[]): unknown {
  const fn = AGG_FUNCS[name];
  if (isTable(x)) {
    if (x.isGrouped()) {
      const targets = cols === undefined ? undefined : resolveColumns(x, cols, `${name}()`);
      return groupAgg(x, targets ? Object.fromEntries(targets.map((c) => [c, name])) : name);
    }
    if (typeof cols === 'string' || typeof cols === 'number') return fn(values(x, resolveColumn(x, cols, `${name}()`)));
    const names =
      cols === undefined
        ? x.columnNames().filter((c) => ANY_TYPE.has(name) || isSummable(dtypeOf(x, c)))
        : resolveColumns(x, cols, `${name}()`);
    const out: Record<string, unknown> = {};
    for (const c of names) {
      // a column of an isna/notna table: its true values counted on its bits
      const count = name === 'sum' || name === 'mean' ? maskCount(x, c) : undefined;
      if (count === undefined) out[c] = fn(values(x, c));
      else out[c] = name === 'sum' ? count : x.numRows() ? count / x.numRows() : null;
    }
    return out;
  }
  if (Array.isArray(x) || ArrayBuffer.isView(x)) return fn(Array.from(x as ArrayLike<unknown>));
  if ((name === 'min' || name === 'max') && (typeof x === 'number' || x instanceof Date || typeof x === 'string')) {
    return fn([x, cols, ...rest].filter((v) => v !== undefined));
  }
  throw new GuestError(
    'TypeError',
    `${name}() expects a table or an array, got ${describeType(x)}`,
    `Use ${name}(award_data, 'Award Amount'), award_data.${name}('Award Amount') or ${name}([1, 2, 3]).`,
  );
}

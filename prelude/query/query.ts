/**
 * `t.query(expr)`: pandas query strings, parsed by parse.ts (never eval'd) and compiled to a row
 * predicate over the table's columns; the rows where it is true are kept with a filter bitmap (no
 * row copy), the same path as `t.filter(mask)`.
 */
import { BitSet, type ColumnTable } from 'arquero';
import { GuestError } from '../errors/guestError.js';
import { compile } from './compile.js';
import { parseQuery } from './parse.js';

/** Options of query(). */
export interface QueryOptions {
  /** Values for @names (pandas local_dict); the session's top-level variables are found without it. */
  local_dict?: Record<string, unknown>;
}

const G = globalThis as Record<string, unknown>;

/**
 * The rows of `t` where the pandas expression `expr` is true.
 * @example award_data.query("Phase == 'Phase II' and `Award Amount` > 1e6")
 * @throws ValueError on a syntax error (with a caret under it), KeyError on an unknown column
 */
export function query(t: ColumnTable, expr: unknown, options: QueryOptions = {}): ColumnTable {
  if (typeof expr !== 'string') {
    throw new GuestError('TypeError', `query() expects a string, got ${typeof expr}`, "Example: award_data.query(\"Agency == 'Department of Energy' and `Award Year` >= 2020\"); for a function use t.filter(d => ...).");
  }
  const local = options && typeof options === 'object' ? options.local_dict ?? {} : {};
  const vars = (name: string): unknown => {
    if (Object.hasOwn(local, name)) return local[name];
    if (name in G && G[name] !== undefined) return G[name];
    throw new GuestError('NameError', `query(): the variable @${name} is not defined`,
      `Top-level const/let/var variables are visible to @names; for other values pass them: t.query(expr, { local_dict: { ${name} } }).`);
  };
  const fn = compile(expr, parseQuery(expr), t, vars);
  const keep = new BitSet(t.totalRows());
  // the whole table in storage order needs no index array: position i is row i
  const idx = !t.isFiltered() && !t.isOrdered() ? null : (t.indices() as Uint32Array);
  const n = idx ? idx.length : t.totalRows();
  for (let i = 0; i < n; i++) {
    const row = idx ? idx[i] : i;
    const v = fn(row);
    if (v === true) keep.set(row);
    else if (i === 0 && v !== false && v !== null) {
      throw new GuestError('TypeError', `query(): the expression gives ${typeof v} values, not true/false`, "A query must be a condition, e.g. \"`Award Amount` > 1e6\"; to compute a column use derive.");
    }
  }
  return t.create({ filter: keep });
}

/**
 * `t.query(expr)`: pandas query strings, parsed by parse.ts (never eval'd) and compiled to a row
 * predicate over the table's columns; the rows where it is true are kept with a filter bitmap (no
 * row copy), the same path as `t.filter(mask)`.
 */
import type { ColumnTable } from 'arquero';
import { GuestError } from '../errors/guestError.js';
import { rowsWhere } from '../series/filterByMask.js';
import { compile } from './compile.js';
import { parseQuery, type Node } from './parse.js';
import { typedLeafMask } from './typedMask.js';

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
    throw new GuestError(
      'TypeError',
      `query() expects a string, got ${typeof expr}`,
      'Example: award_data.query("Agency == \'Department of Energy\' and `Award Year` >= 2020"); for a function use t.filter(d => ...).',
    );
  }
  const local = options && typeof options === 'object' ? (options.local_dict ?? {}) : {};
  const vars = (name: string): unknown => {
    if (Object.hasOwn(local, name)) return local[name];
    if (name in G && G[name] !== undefined) return G[name];
    throw new GuestError(
      'NameError',
      `query(): the variable @${name} is not defined`,
      `Top-level const/let/var variables are visible to @names; for other values pass them: t.query(expr, { local_dict: { ${name} } }).`,
    );
  };
  const ast = parseQuery(expr);
  // the whole table in storage order needs no index array: position i is row i
  const idx = !t.isFiltered() && !t.isOrdered() ? null : (t.indices() as Uint32Array);
  const n = idx ? idx.length : t.totalRows();
  return rowsWhere(t, maskOf(ast, expr, t, vars, idx, n));
}

/**
 * The query's truth value per visible row as bytes. and/or/not combine the masks of their operands
 * (the right operand of `and` is evaluated only where the left is true, of `or` only where it is
 * false: Python's short-circuit), so each loop calls one compiled comparison: a tight, monomorphic
 * loop instead of one nested call chain per row.
 */
function maskOf(
  node: Node,
  src: string,
  t: ColumnTable,
  vars: (name: string) => unknown,
  idx: Uint32Array | null,
  n: number,
): Uint8Array {
  if (node.type === 'bool') {
    const bits = maskOf(node.left, src, t, vars, idx, n);
    const want = node.op === 'and' ? 1 : 0;
    if (node.right.type === 'bool' || node.right.type === 'not') {
      const rb = maskOf(node.right, src, t, vars, idx, n);
      for (let i = 0; i < n; i++) if (bits[i] === want) bits[i] = rb[i];
      return bits;
    }
    const typed = typedLeafMask(src, node.right, t, vars, idx, n);
    if (typed) {
      // a comparison on typed arrays has no side effect: computed for every row, kept where needed
      for (let i = 0; i < n; i++) if (bits[i] === want) bits[i] = typed[i]!;
      return bits;
    }
    const right = compile(src, node.right, t, vars);
    for (let i = 0; i < n; i++) if (bits[i] === want) bits[i] = right(idx ? idx[i] : i) === true ? 1 : 0;
    return bits;
  }
  if (node.type === 'not') {
    const bits = maskOf(node.arg, src, t, vars, idx, n);
    for (let i = 0; i < n; i++) bits[i] ^= 1;
    return bits;
  }
  const typed = typedLeafMask(src, node, t, vars, idx, n);
  if (typed) return typed;
  const fn = compile(src, node, t, vars);
  const bits = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const v = fn(idx ? idx[i] : i);
    if (v === true) bits[i] = 1;
    else if (i === 0 && v !== false && v !== null) {
      throw new GuestError(
        'TypeError',
        `query(): the expression gives ${typeof v} values, not true/false`,
        'A query must be a condition, e.g. "`Award Amount` > 1e6"; to compute a column use derive.',
      );
    }
  }
  return bits;
}

/**
 * The closure trap, fixed: `const t = 1e6; award_data.filter(d => d['Award Amount'] > t)` fails in
 * plain Arquero because table expressions are compiled and cannot see `t`. When Arquero rejects a
 * function for a free variable or a non-op call, filter and derive run the real JavaScript closure
 * row by row over a row view instead (same rows, same values as a compiled expression would give),
 * groupby computes the closure keys with that derive first, and orderby uses aq.escape. Closures
 * that also use aggregate/window ops (op.mean, op.rank, ...) cannot run row by row; they keep
 * Arquero's error, with a hint.
 */
import { BitSet, escape, parse, type ColumnTable } from 'arquero';
import { _derive } from 'arquero/src/verbs/derive.js';
import { FunctionPrototypeToString, ReflectApply, SafeSet } from '../intrinsics.js';
import { filterByColumns } from './columnScan.js';
import { rowView } from './rowView.js';
import { callsValueMethods } from './valueMethods.js';

type Fn = (d: Record<string, unknown>, $: unknown) => unknown;

const OPS = new SafeSet(
  (
    'count array_agg object_agg map_agg entries_agg any valid invalid distinct array_agg_distinct mode sum product mean average ' +
    'variance variancep stdev stdevp min max quantile median covariance covariancep corr bins row_number avg_rank dense_rank percent_rank ' +
    'rank cume_dist ntile lag lead first_value last_value nth_value fill_down fill_up'
  ).split(' '),
);

/** True when Arquero's message says the expression uses something it cannot compile. */
export function isClosureError(message: string): boolean {
  return /Invalid variable reference|Invalid function call|Variable not accessible in operator call|Invalid member expression/.test(
    message,
  );
}

/** True when the function's source calls an aggregate or window op (cannot run row by row). */
export function usesAggregateOps(fn: Function): boolean {
  let src = '';
  try {
    src = ReflectApply(FunctionPrototypeToString, fn, []) as string;
  } catch {
    return true;
  }
  for (const m of src.matchAll(/\bop\s*\.\s*([a-z_]+)\s*\(/g)) if (OPS.has(m[1])) return true;
  return false;
}

const compiles = (t: ColumnTable, value: unknown): boolean => {
  if (typeof value === 'function' && callsValueMethods(value)) return false;
  try {
    parse({ v: value } as never, { table: t } as never);
    return true;
  } catch {
    return false;
  }
};

/** filter() with a closure predicate, evaluated row by row. */
export function filterClosure(t: ColumnTable, fn: Fn): ColumnTable {
  const scanned = filterByColumns(t, fn); // the same calls on the columns' arrays, when the closure only reads d.X
  if (scanned) return scanned;
  const rv = rowView(t);
  const params = t.params();
  const n = t.totalRows();
  const bits = t.mask();
  const keep = new BitSet(n);
  if (bits) {
    for (let i = bits.next(0); i >= 0; i = bits.next(i + 1)) if (fn(rv.at(i), params)) keep.set(i);
  } else {
    for (let i = 0; i < n; ++i) if (fn(rv.at(i), params)) keep.set(i);
  }
  return t.create({ filter: keep });
}

/**
 * derive() where some values are closures: those run row by row, the rest compile as usual.
 * @returns undefined when a closure also uses aggregate/window ops (no safe fallback)
 */
export function deriveClosure(
  t: ColumnTable,
  values: Record<string, unknown>,
  options: Record<string, unknown> = {},
): ColumnTable | undefined {
  const compiled: Record<string, unknown> = {};
  const closures = new Map<string, Fn>();
  for (const [k, v] of Object.entries(values)) {
    if (typeof v === 'function' && !compiles(t, v)) {
      if (usesAggregateOps(v)) return undefined;
      closures.set(k, v as Fn);
    } else compiled[k] = v;
  }
  const parsed = parse(compiled as never, { table: t } as never) as unknown as {
    names: string[];
    exprs: Array<(r: number, d: unknown, o: unknown) => unknown>;
    ops: unknown[];
  };
  const rv = rowView(t);
  const params = t.params();
  const names: string[] = [];
  const exprs: Array<(r: number, d: unknown, o: unknown) => unknown> = [];
  for (const k of Object.keys(values)) {
    names.push(k);
    const fn = closures.get(k);
    exprs.push(fn ? (row: number) => fn(rv.at(row), params) : parsed.exprs[parsed.names.indexOf(k)]);
  }
  const dt = _derive(t, { names, exprs, ops: parsed.ops }, options);
  return options.drop || (options.before == null && options.after == null)
    ? dt
    : dt.relocate(
        Object.keys(values).filter((name) => !t.column(name)),
        options as never,
      );
}

/** groupby() keys given as closures: computed with deriveClosure, then grouped by name. */
export function groupbyClosure(
  t: ColumnTable,
  keys: unknown[],
  groupby: (this: ColumnTable, ...k: unknown[]) => ColumnTable,
): ColumnTable | undefined {
  const derived: Record<string, unknown> = {};
  const names: unknown[] = [];
  keys.flat().forEach((k, i) => {
    if (typeof k === 'function') {
      derived[`key_${i}`] = k;
      names.push(`key_${i}`);
    } else if (k && typeof k === 'object' && !Array.isArray(k)) {
      for (const [name, v] of Object.entries(k)) {
        derived[name] = v;
        names.push(name);
      }
    } else names.push(k);
  });
  const dt = deriveClosure(t, derived);
  return dt && groupby.apply(dt, names);
}

/** Wraps closure functions in aq.escape (generic fallback for orderby). */
export function escapeClosures(t: ColumnTable, args: unknown[]): unknown[] {
  return args.map((a) => (typeof a === 'function' && !compiles(t, a) && !usesAggregateOps(a) ? escape(a) : a));
}

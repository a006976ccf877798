/**
 * Installs the prelude: globals and ColumnTable methods from PRELUDE_API (every listed name must have
 * an implementation here, or boot fails), Arquero function registrations (so helpers compile inside
 * table expressions, with UTC/pandas date semantics), and the closure-trap verb wrappers.
 */
import * as aq from 'arquero';
import { ColumnTable } from 'arquero';
import { PRELUDE_API } from '../schema/preludeApi.js';
import { installVerbWrappers } from './closure/wrapVerbs.js';
import { notePureFunctions } from './fast/deriveFunctions.js';
import { noteAggregates } from './fast/aggregatesInstalled.js';
import { installColumnArrays } from './data/columnArrays.js';
import { installExactRowObjects } from './frame/exactRowObjects.js';
import { installRowObjects } from './data/rowObjects.js';
import { installRowLoop } from './data/rowLoop.js';
import { keyedArrays } from './data/keyedArrays.js';
import { keyedGets } from './data/keyedGets.js';
import { installArrayChain } from './fast/arrayChain.js';
import { installHandSort } from './fast/handSort.js';
import { chart } from './charts/chart.js';
import { plot } from './charts/plot.js';
import { drop_duplicates, dropna, fillna } from './frame/clean.js';
import { day, month, quarter, to_datetime, year } from './frame/dates.js';
import { describe } from './frame/describe.js';
import { groupAgg, groupSize } from './frame/groupAgg.js';
import { concat, merge } from './frame/merge.js';
import { columns, dtypes, head, info, len, shape, sliceRows, tail } from './frame/overview.js';
import { crosstab, pivot_table } from './frame/pivot.js';
import { REDUCTIONS, reduce } from './frame/reduce.js';
import { nlargest, nsmallest, sort_values } from './frame/sortValues.js';
import { corr, cumsum, pct_change, quantile, round, roundValue } from './frame/stats.js';
import { contains, endswith, lower, replace, split, startswith, strip, upper } from './frame/strings.js';
import { isna, notna, nunique, unique, value_counts } from './frame/valueCounts.js';
import { display, makeConsole, print } from './output/print.js';
import { to_arrow, to_csv, to_json, to_parquet } from './output/toFiles.js';
import { save_chart } from './output/saveChart.js';
import { ObjectDefineProperty } from './intrinsics.js';
import { installSeries } from './series/installSeries.js';
import { markSeriesTable } from './series/seriesTables.js';

type AnyFn = (...args: any[]) => unknown;

/** Implementations of the API names that take a table first (global `f(t, ...)` and method `t.f(...)`). */
function implementations(): Record<string, unknown> {
  const impl: Record<string, unknown> = {
    aq,
    op: aq.op,
    print,
    display,
    chart,
    plot,
    head,
    tail,
    shape,
    columns,
    dtypes,
    info,
    describe,
    len,
    value_counts,
    nunique,
    unique,
    isna,
    notna,
    sort_values,
    nlargest,
    nsmallest,
    groupby: (t: ColumnTable, ...keys: unknown[]) => t.groupby(...(keys as never[])),
    agg: (t: ColumnTable, spec: unknown, opts?: object) => groupAgg(t, spec, opts),
    size: (t: ColumnTable) => groupSize(t),
    quantile,
    corr,
    cumsum,
    pct_change,
    pivot_table,
    crosstab,
    merge,
    concat,
    drop_duplicates,
    fillna,
    dropna,
    round,
    contains,
    startswith,
    endswith,
    lower,
    upper,
    strip,
    split,
    replace,
    to_datetime,
    year,
    month,
    day,
    quarter,
    to_csv,
    to_parquet,
    to_arrow,
    to_json,
    save_chart,
  };
  for (const r of REDUCTIONS) impl[r] = (x: unknown, cols?: unknown, ...rest: unknown[]) => reduce(r, x, cols, ...rest);
  return impl;
}

function define(target: object, name: string, desc: PropertyDescriptor): void {
  ObjectDefineProperty(target, name, { configurable: true, ...desc });
}

/**
 * Installs globals and table methods; `extra` are globals from boot (award_data, describeData).
 * @throws if an API entry has no implementation (a stale api.ts)
 */
export function install(extra: Record<string, unknown>): void {
  const impl = { ...implementations(), ...extra };
  const proto = ColumnTable.prototype as unknown as Record<string, unknown>;
  installVerbWrappers(proto);
  installColumnArrays(proto);
  installExactRowObjects(proto);
  for (const entry of PRELUDE_API) {
    const f = impl[entry.name];
    if (!(entry.name in impl)) throw new Error(`prelude: no implementation for API entry '${entry.name}'`);
    if (entry.global) define(globalThis, entry.name, { value: f, writable: true, enumerable: false });
    if (entry.table === 'method') {
      define(proto, entry.name, {
        value: function (this: ColumnTable, ...args: unknown[]) {
          return (f as AnyFn)(this, ...args);
        },
        writable: true,
      });
    } else if (entry.table === 'getter' && entry.name !== 'size') {
      define(proto, entry.name, {
        get(this: ColumnTable) {
          return (f as AnyFn)(this);
        },
      });
    }
  }
  // t.size: Arquero's row count, but callable on a grouped table (pandas groupby(...).size())
  define(proto, 'size', {
    get(this: ColumnTable) {
      // marked as a keyed Series (seriesTables.ts), so `.sort_values({ ascending: false })` sorts the sizes
      return this.isGrouped() ? () => markSeriesTable(groupSize(this), this.groups().names, 'size') : this.numRows();
    },
  });
  // t.print(n) / t.print({ limit }) keep Arquero's arguments, with pandas-style output
  define(proto, 'print', {
    value: function (this: ColumnTable, o?: number | { limit?: number }) {
      const n = typeof o === 'number' ? o : o && typeof o === 'object' ? o.limit : undefined;
      print(n === undefined ? this : this.slice(0, n));
      return this;
    },
    writable: true,
  });
  // t.slice keeps award_data's lazy columns (a filter mask instead of a copy) on ungrouped tables
  const slice = proto.slice as (this: ColumnTable, s?: number, e?: number) => ColumnTable;
  define(proto, 'slice', {
    value: function (this: ColumnTable, s?: number, e?: number) {
      return sliceRows(this, slice, s, e);
    },
    writable: true,
  });
  // t.concat(other) unions columns like pandas; t.rename({ columns: {...} }) accepts the pandas form
  define(proto, 'concat', {
    value: function (this: ColumnTable, ...others: unknown[]) {
      return concat([this, ...others.flat()]);
    },
    writable: true,
  });
  const rename = proto.rename as AnyFn;
  define(proto, 'rename', {
    value: function (this: ColumnTable, ...args: unknown[]) {
      const a = args[0] as { columns?: unknown } | undefined;
      const pandas =
        args.length === 1 &&
        a &&
        typeof a === 'object' &&
        Object.keys(a).length === 1 &&
        a.columns &&
        typeof a.columns === 'object' &&
        !this.column('columns');
      return rename.apply(this, pandas ? [a!.columns] : args);
    },
    writable: true,
  });
  define(globalThis, 'console', { value: makeConsole(), writable: true, enumerable: false });
  // column access (t['col'], t.col) yields a Series; masks, query, groupby(...)['col'] (series/)
  installSeries(proto, impl);
  // objects(), tolist() and row loops through the session's row cache (wraps the methods above)
  installRowObjects(proto);
  // the entry rewritten row loops call (src/runtime/prepare/rowLoops.ts)
  installRowLoop(keyedArrays, keyedGets);
  // the entry rewritten sorts and Math.min/max spreads call (src/runtime/prepare/sortCalls.ts)
  installHandSort();
  // the entry rewritten chains on t.array(col) call (src/runtime/prepare/arrayChains.ts)
  installArrayChain();
  registerArqueroFunctions();
  notePureFunctions(); // what a derive on typed arrays may call once per entry (fast/deriveFunctions.ts)
  noteAggregates(); // what the fast rollup computes by name (fast/aggregatesInstalled.ts)
}

/** Helpers usable inside compiled table expressions; date parts in UTC, month/quarter 1-based. */
function registerArqueroFunctions(): void {
  const add = (name: string, fn: AnyFn) => aq.addFunction(name, fn, { override: true });
  add('contains', contains as AnyFn);
  add('strip', strip);
  add('len', len);
  add('to_datetime', (x: unknown) => to_datetime(x));
  add('parse_date', (x: unknown) => to_datetime(x));
  add('year', year);
  add('month', month);
  add('day', day);
  add('quarter', quarter);
  add('isna', (x: unknown) => isna(x));
  add('notna', (x: unknown) => notna(x));
  add('round', (x: unknown, d?: number) => roundValue(x, d ?? 0));
  // Arquero's local-time date functions, pinned to UTC (the host runs TZ=UTC, this makes it explicit)
  const o = aq.op as unknown as Record<string, AnyFn>;
  for (const name of [
    'date',
    'dayofyear',
    'dayofweek',
    'hours',
    'minutes',
    'seconds',
    'milliseconds',
    'week',
    'datetime',
    'format_date',
  ]) {
    const utc = o[name === 'format_date' ? 'format_utcdate' : name === 'datetime' ? 'utcdatetime' : `utc${name}`];
    if (utc) add(name, utc);
  }
}

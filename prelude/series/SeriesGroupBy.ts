/**
 * `t.groupby(keys)['col']` (and `t.groupby(keys)[['a', 'b']]`): pandas' column selection on a
 * grouped table. Every aggregation returns a table with the keys as columns (sorted, missing keys
 * dropped, as frame/groupAgg.ts does), then the value column named like pandas names it: the column
 * (`.sum()`), the function (`.agg(['sum', 'mean'])`), `size` or `count`/`proportion`.
 * Results with one value column are marked as keyed Series (seriesTables.ts).
 */
import type { ColumnTable } from 'arquero';
import { GuestError } from '../errors/guestError.js';
import { aggFn, quantileSorted } from '../frame/aggFuncs.js';
import { groupAgg, groupSize } from '../frame/groupAgg.js';
import { newTable } from '../frame/common.js';
import { groupValueCounts } from './groupValueCounts.js';
import { Series } from './Series.js';
import { markSeriesTable } from './seriesTables.js';

const NAMED = [
  'sum',
  'mean',
  'median',
  'min',
  'max',
  'std',
  'var',
  'count',
  'nunique',
  'first',
  'last',
  'prod',
] as const;

/** A column selection of a grouped table. */
export class SeriesGroupBy {
  constructor(
    private readonly t: ColumnTable,
    private readonly cols: readonly string[],
    private readonly single: boolean,
  ) {}

  private keys(): string[] {
    return ((this.t.groups() as unknown as { names: string[] } | null)?.names ?? []).slice();
  }

  private run(fn: unknown, label?: string): ColumnTable {
    const spec: Record<string, unknown> = {};
    for (const c of this.cols) spec[c] = [c, fn];
    const out = groupAgg(this.t, spec);
    return this.single && !label ? markSeriesTable(out, this.keys(), this.cols[0]) : out;
  }

  /** agg('sum') | agg(['sum', 'mean']) | agg(fn): one column per function (pandas names them by function). */
  agg(spec: unknown): ColumnTable {
    if (!Array.isArray(spec))
      return this.run(
        typeof spec === 'function'
          ? (vs: unknown[]) => (spec as (s: Series) => unknown)(Series.of(vs, this.cols[0]))
          : spec,
      );
    const named: Record<string, unknown> = {};
    for (const c of this.cols) {
      for (const f of spec) {
        const { name } = aggFn(f);
        const fn = typeof f === 'function' ? (vs: unknown[]) => (f as (s: Series) => unknown)(Series.of(vs, c)) : f;
        named[this.single ? name : `${c}_${name}`] = [c, fn];
      }
    }
    return groupAgg(this.t, named);
  }

  aggregate(spec: unknown): ColumnTable {
    return this.agg(spec);
  }
  size(): ColumnTable {
    return markSeriesTable(groupSize(this.t), this.keys(), 'size');
  }
  quantile(q: unknown = 0.5): ColumnTable {
    return this.run((vs: unknown[]) =>
      quantileSorted(
        vs.filter((v): v is number => typeof v === 'number' && v === v).sort((a, b) => a - b),
        Number(q),
      ),
    );
  }
  /** apply(fn): fn gets each group's values as a Series and returns one value. */
  apply(fn: unknown): ColumnTable {
    if (typeof fn !== 'function')
      throw new GuestError(
        'TypeError',
        'groupby(...)[col].apply() expects a function',
        "Example: t.groupby('Agency')['Award Amount'].apply(s => s.max() - s.min()).",
      );
    return this.run((vs: unknown[]) => (fn as (s: Series) => unknown)(Series.of(vs, this.cols[0])));
  }

  /** Counts of each value within each group: keys, the column, then `count` (or `proportion`). */
  value_counts(opts: { normalize?: boolean; ascending?: boolean } = {}): ColumnTable {
    const keys = this.keys();
    const col = this.cols[0]!;
    const value = opts.normalize ? 'proportion' : 'count';
    const out = groupValueCounts(this.t, keys, col, opts);
    return markSeriesTable(newTable(out, [...keys, col, value]), [...keys, col], value);
  }
}

for (const name of NAMED) {
  Object.defineProperty(SeriesGroupBy.prototype, name, {
    value: function (this: SeriesGroupBy) {
      return (this as unknown as { run(f: unknown): ColumnTable }).run(name);
    },
    writable: true,
    configurable: true,
  });
}

/**
 * pivot_table and crosstab. Rows: one per distinct index key (sorted, null keys dropped); columns:
 * one per distinct `columns` key (sorted), named by the key (`2019`), prefixed by the value column
 * when there are several values (`Award Amount_2019`) and by the function when there are several
 * aggfuncs (`sum_Award Amount_2019`). Default aggfunc 'mean' as in pandas. margins add an 'All'
 * row and column aggregated from the raw values.
 */
import type { ColumnTable } from 'arquero';
import { AGG_FUNCS, aggFn } from './aggFuncs.js';
import { assertTable, dtypeOf, isNull, isNumericDtype, newTable, resolveColumns } from './common.js';
import { compareKeys } from './groupAgg.js';
import { formatDate } from '../format/cells.js';
import { fastBuckets } from '../fast/pivot.js';
import { sourceOf } from '../fast/source.js';

/** Options of pivot_table. */
export interface PivotOptions {
  index: string | string[];
  columns?: string | string[];
  values?: string | string[];
  /** @default 'mean' */
  aggfunc?: unknown;
  fill_value?: unknown;
  margins?: boolean;
  /** @default 'All' */
  margins_name?: string;
}

const label = (v: unknown) => (v instanceof Date ? formatDate(v, v.getTime() % 86400000 !== 0) : String(v));

/**
 * Spreadsheet-style pivot.
 * @example pivot_table(award_data, { index: 'Agency', columns: 'Phase', values: 'Award Amount', aggfunc: 'sum', fill_value: 0 })
 */
export function pivot_table(
  t: unknown,
  options: PivotOptions | string | string[],
  columns?: unknown,
  values?: unknown,
  aggfunc?: unknown,
): ColumnTable {
  assertTable(t, 'pivot_table');
  const o: PivotOptions =
    typeof options === 'string' || Array.isArray(options)
      ? { index: options, columns: columns as string, values: values as string, aggfunc }
      : options;
  const idx = resolveColumns(t, o.index, 'pivot_table() index');
  const ckeys = o.columns === undefined ? [] : resolveColumns(t, o.columns, 'pivot_table() columns');
  const vals =
    o.values === undefined
      ? t.columnNames().filter((c) => !idx.includes(c) && !ckeys.includes(c) && isNumericDtype(dtypeOf(t, c)))
      : resolveColumns(t, o.values, 'pivot_table() values');
  const funcs = (Array.isArray(o.aggfunc) ? o.aggfunc : [o.aggfunc ?? 'mean']).map(aggFn);
  const allName = o.margins_name ?? 'All';

  // bucket backing rows by (row key, column key)
  // on key codes, the same maps (fast/pivot.ts); margin lists only where read: `rk|*` when there
  // are no column keys or margins are on, `*|ck` and `*|*` for the margins row
  const fast = fastBuckets(t, idx, ckeys, Boolean(o.margins) || ckeys.length === 0, Boolean(o.margins));
  const rowKeys = fast?.rowKeys ?? new Map<string, unknown[]>();
  const colKeys = fast?.colKeys ?? new Map<string, unknown[]>();
  const plainCells = new Map<string, number[]>();
  const cells: ReadonlyMap<string, ArrayLike<number>> = fast?.cells ?? plainCells;
  const icols = idx.map((c) => t.column(c)!);
  const ccols = ckeys.map((c) => t.column(c)!);
  const push = (k: string, r: number) => {
    const a = plainCells.get(k);
    if (a) a.push(r);
    else plainCells.set(k, [r]);
  };
  if (!fast) {
    t.scan((r) => {
      const rk = icols.map((c) => c.at(r!));
      const ck = ccols.map((c) => c.at(r!));
      if (rk.some(isNull) || ck.some(isNull)) return;
      const rs = JSON.stringify(rk.map(keyOf));
      const cs = JSON.stringify(ck.map(keyOf));
      if (!rowKeys.has(rs)) rowKeys.set(rs, rk);
      if (!colKeys.has(cs)) colKeys.set(cs, ck);
      push(`${rs}|${cs}`, r!);
      push(`${rs}|*`, r!);
      push(`*|${cs}`, r!);
      push('*|*', r!);
    });
  }
  const rows = [...rowKeys].sort((a, b) => compareKeys(a[1], b[1]));
  const cols = [...colKeys].sort((a, b) => compareKeys(a[1], b[1]));
  if (o.margins) rows.push(['*', idx.map((_, i) => (i === 0 ? allName : ''))]);

  const out: Record<string, unknown[]> = {};
  idx.forEach((c, i) => (out[c] = rows.map(([, k]) => k[i])));
  const names = [...idx];
  for (const f of funcs) {
    for (const v of vals) {
      const vcol = t.column(v)!;
      const src = sourceOf(t, v);
      const typed = src && src.kind === 'num' && src.type !== 'date' ? src : undefined;
      const targets: Array<[string, string]> = ckeys.length
        ? cols.map(([cs, ck]) => [cs, ck.map(label).join('_')])
        : [['*', v]];
      if (o.margins && ckeys.length) targets.push(['*', allName]);
      for (const [cs, name] of targets) {
        const full = [funcs.length > 1 ? f.name : '', ckeys.length && vals.length > 1 ? v : '', name]
          .filter(Boolean)
          .join('_');
        // a named aggregation (not a function of the same name) reads the rows without their values
        const builtin = f.fn === AGG_FUNCS[f.name];
        out[full] = rows.map(([rs]) => {
          const rr = cells.get(`${rs}|${cs}`);
          if (!rr) return o.fill_value ?? null;
          if (builtin && f.name === 'size') return rr.length;
          const fast = typed && builtin ? typedAgg(f.name, typed.values, typed.valid, rr) : undefined;
          return fast !== undefined ? fast : f.fn(Array.from(rr, (r) => vcol.at(r)));
        });
        if (!names.includes(full)) names.push(full);
      }
    }
  }
  return newTable(out, names);
}

/**
 * sum, mean, count, size, min or max of a number column's rows `rr`, read from its Float64Array:
 * the values and order AGG_FUNCS would see (missing and NaN skipped), without an array of them.
 * undefined for any other aggregation.
 */
function typedAgg(
  name: string,
  values: Float64Array,
  valid: Uint8Array,
  rr: ArrayLike<number>,
): number | null | undefined {
  if (name !== 'sum' && name !== 'mean' && name !== 'count' && name !== 'min' && name !== 'max') return undefined;
  let sum = 0;
  let n = 0;
  let best = 0;
  for (let k = 0; k < rr.length; k++) {
    const r = rr[k]!;
    const x = values[r]!;
    if (!valid[r] || x !== x) continue;
    if (n === 0 || (name === 'min' ? x < best : x > best)) best = x;
    sum += x;
    n++;
  }
  if (name === 'sum') return sum;
  if (name === 'count') return n;
  if (n === 0) return null;
  return name === 'mean' ? sum / n : best;
}

function keyOf(v: unknown): unknown {
  return v instanceof Date ? `D${v.getTime()}` : v;
}

/**
 * Frequency table of two (or more) columns; `normalize`: true/'all', 'index' (rows sum to 1) or 'columns'.
 * @example crosstab(award_data, 'Agency', 'Phase')
 */
export function crosstab(
  t: unknown,
  index: unknown,
  columns: unknown,
  options: {
    normalize?: boolean | 'all' | 'index' | 'columns';
    margins?: boolean;
    values?: string;
    aggfunc?: unknown;
  } = {},
): ColumnTable {
  assertTable(t, 'crosstab');
  const aggfunc = options.values ? (options.aggfunc ?? 'sum') : 'size';
  const pt = pivot_table(t, {
    index: index as string,
    columns: columns as string,
    values: options.values ?? resolveColumns(t, index, 'crosstab()')[0],
    aggfunc,
    fill_value: options.values ? null : 0,
  });
  const idx = resolveColumns(t, index, 'crosstab()');
  let table = pt;
  if (options.normalize) {
    const valueCols = pt.columnNames().filter((c) => !idx.includes(c));
    const grid = valueCols.map((c) => pt.array(c) as number[]);
    const n = pt.numRows();
    const rowSum = Array.from({ length: n }, (_, i) => grid.reduce((s, col) => s + (col[i] ?? 0), 0));
    const colSum = grid.map((col) => col.reduce((s, v) => s + (v ?? 0), 0));
    const total = colSum.reduce((a, b) => a + b, 0);
    const mode = options.normalize === true ? 'all' : options.normalize;
    const out: Record<string, unknown[]> = {};
    idx.forEach((c) => (out[c] = pt.array(c) as unknown[]));
    valueCols.forEach(
      (c, j) =>
        (out[c] = grid[j].map(
          (v, i) => (v ?? 0) / (mode === 'index' ? rowSum[i] : mode === 'columns' ? colSum[j] : total),
        )),
    );
    table = newTable(out, pt.columnNames());
  }
  if (options.margins) table = addMargins(table, idx);
  return table;
}

function addMargins(t: ColumnTable, idx: string[]): ColumnTable {
  const valueCols = t.columnNames().filter((c) => !idx.includes(c));
  const out: Record<string, unknown[]> = {};
  for (const c of t.columnNames()) out[c] = (t.array(c) as unknown[]).slice();
  out.All = Array.from({ length: t.numRows() }, (_, i) => valueCols.reduce((s, c) => s + Number(out[c][i] ?? 0), 0));
  idx.forEach((c, i) => out[c].push(i === 0 ? 'All' : ''));
  for (const c of [...valueCols, 'All']) out[c].push(out[c].reduce((s: number, v) => s + Number(v ?? 0), 0));
  return newTable(out, [...t.columnNames(), 'All']);
}

/**
 * The prelude's API list: the single source of truth for what install() puts on globalThis and on
 * Arquero's ColumnTable prototype, for docs/prelude.md and for the host's tool description.
 * Pure data (imports nothing), so the host may import it.
 */

/** How a name is exposed. */
export interface ApiEntry {
  name: string;
  /** Call signature as shown to a model. */
  sig: string;
  /** One line. */
  doc: string;
  /** Installed as a global. */
  global: boolean;
  /** Installed on tables: as a method, as a getter (pandas properties), or not. */
  table: 'method' | 'getter' | false;
  group:
    'data' | 'output' | 'explore' | 'count' | 'sort' | 'aggregate' | 'reshape' | 'clean' | 'string' | 'date' | 'math';
}

const e = (
  group: ApiEntry['group'],
  name: string,
  sig: string,
  doc: string,
  table: ApiEntry['table'] = 'method',
  global = true,
): ApiEntry => ({ name, sig, doc, global, table, group });

/** Everything the prelude installs, in documentation order. */
export const PRELUDE_API: readonly ApiEntry[] = [
  e('data', 'award_data', 'award_data', 'the SBIR/STTR awards as an Arquero table (columns load on first use)', false),
  e('data', 'aq', 'aq', 'the Arquero namespace (aq.table, aq.from, aq.escape, aq.desc, ...)', false),
  e('data', 'op', 'op', 'Arquero table-expression functions (op.sum, op.mean, op.year, ...)', false),
  e(
    'data',
    'describeData',
    'describeData()',
    "data card: rows, each column's type, nulls, distinct values, top values or range",
    false,
  ),
  e('output', 'print', 'print(...values)', 'print to stdout; tables render like pandas', 'method'),
  e('output', 'display', 'display(tableOrChart)', 'add a table (or chart) to the result without ending the run', false),
  e(
    'output',
    'chart',
    'chart(vegaLiteSpec | { data, layout })',
    'add a Vega-Lite (data: a table or rows) or Plotly chart to the result',
    false,
  ),
  e(
    'output',
    'plot',
    'plot.bar(t, x, y?) | plot.line(t, x, y) | plot.hist(t, col) | plot.scatter(t, x, y)',
    'one-call charts; options { title, color, bins, horizontal }',
    false,
  ),
  e(
    'output',
    'to_csv',
    "to_csv(t, name = 'result.csv', { escapeFormulas: true })",
    'save the table as a CSV file of the run (result.files / --out / MCP resource); formula text gets a leading quote',
  ),
  e(
    'output',
    'to_parquet',
    "to_parquet(t, name = 'result.parquet', { compression: 'none' | 'snappy' })",
    'save the table as a Parquet file of the run (integers INT64, dates UTC timestamps; uncompressed unless snappy)',
  ),
  e('output', 'to_arrow', "to_arrow(t, name = 'result.arrow')", 'save the table as an Arrow IPC file of the run'),
  e(
    'output',
    'to_json',
    "to_json(t, name = 'result.json')",
    'save the table as JSON rows (NDJSON when the name ends in .ndjson)',
  ),
  e(
    'output',
    'save_chart',
    "save_chart(chart, name = 'chart.svg')",
    'save a chart (from chart() or plot.*) as an SVG file of the run',
    false,
  ),
  e('explore', 'head', 'head(t, n = 5)', 'first n rows (per group on a grouped table)'),
  e('explore', 'tail', 'tail(t, n = 5)', 'last n rows'),
  e('explore', 'shape', 'shape(t) | t.shape', '[rows, columns]', 'getter'),
  e('explore', 'columns', 'columns(t) | t.columns', 'column names', 'getter'),
  e('explore', 'dtypes', 'dtypes(t) | t.dtypes', '{ column: number|integer|string|date|boolean|object }', 'getter'),
  e('explore', 'info', 'info(t)', 'print non-null counts and dtypes'),
  e(
    'explore',
    'describe',
    "describe(t, cols?, { include: 'all' })",
    'count/mean/std/min/quartiles/max (numbers), count/unique/top/freq (text)',
  ),
  e('explore', 'len', 'len(x)', 'rows of a table, length of a string/array', false),
  e(
    'count',
    'value_counts',
    'value_counts(t, col | cols, { normalize, dropna, ascending })',
    'table of values and `count` (or `proportion`), most frequent first',
  ),
  e('count', 'nunique', 'nunique(t, col?)', 'distinct non-null values (number, or object per column)'),
  e('count', 'unique', 'unique(t, col)', 'distinct values in order of appearance'),
  e('count', 'isna', 'isna(t | value)', 'boolean table (t.isna().sum() counts nulls per column) or boolean'),
  e('count', 'notna', 'notna(t | value)', 'opposite of isna'),
  e(
    'sort',
    'sort_values',
    'sort_values(t, by, { ascending })',
    'sort by columns; ascending may be per key; nulls last',
  ),
  e('sort', 'nlargest', 'nlargest(t, n, col)', 'n rows with the largest values'),
  e('sort', 'nsmallest', 'nsmallest(t, n, col)', 'n rows with the smallest values'),
  e(
    'aggregate',
    'groupby',
    "groupby(t, keys) | t.groupby('Agency')",
    "Arquero grouping; then .agg({...}), .size(), .sum('col'), or Arquero's .rollup({...})",
    false,
  ),
  e(
    'aggregate',
    'agg',
    "t.groupby(k).agg({ col: 'sum' | ['sum', 'mean'], name: [col, fn] })",
    'one row per group, keys as columns, sorted, null keys dropped; fns: sum mean median min max count size nunique std var first last prod',
    'method',
    false,
  ),
  e(
    'aggregate',
    'size',
    't.groupby(k).size()',
    'rows per group (column `size`); on an ungrouped table t.size is the row count',
    'getter',
    false,
  ),
  e('aggregate', 'sum', 'sum(t, col?) | sum(array)', 'sum skipping nulls (0 when empty); per group on a grouped table'),
  e('aggregate', 'mean', 'mean(t, col?) | mean(array)', 'mean skipping nulls'),
  e('aggregate', 'median', 'median(t, col?)', 'median skipping nulls'),
  e('aggregate', 'min', 'min(t, col?) | min(array)', 'smallest non-null value'),
  e('aggregate', 'max', 'max(t, col?) | max(array)', 'largest non-null value'),
  e('aggregate', 'std', 'std(t, col?)', 'sample standard deviation (ddof=1)'),
  e('aggregate', 'var', 'var(t, col?)', 'sample variance (ddof=1)'),
  e('aggregate', 'prod', 'prod(t, col?)', 'product skipping nulls'),
  e('aggregate', 'first', 'first(t, col?)', 'first non-null value (per group when grouped)'),
  e('aggregate', 'last', 'last(t, col?)', 'last non-null value'),
  e('aggregate', 'quantile', 'quantile(t, col, q = 0.5)', 'linear-interpolated quantile; q may be an array'),
  e('aggregate', 'corr', 'corr(t, a?, b?)', 'Pearson correlation of two columns, or matrix of numeric columns'),
  e('aggregate', 'cumsum', 'cumsum(t, cols?)', 'cumulative sums in table order (within groups)'),
  e('aggregate', 'pct_change', 'pct_change(t, cols?, { periods })', 'change from the previous row (within groups)'),
  e(
    'reshape',
    'pivot_table',
    "pivot_table(t, { index, columns, values, aggfunc: 'mean', fill_value, margins })",
    'spreadsheet pivot',
  ),
  e('reshape', 'crosstab', 'crosstab(t, index, columns, { normalize, margins })', 'frequency table'),
  e(
    'reshape',
    'merge',
    "merge(left, right, { on | left_on + right_on, how: 'inner'|'left'|'right'|'outer' })",
    'pandas join',
  ),
  e('reshape', 'concat', 'concat([t1, t2])', 'stack rows; union of columns'),
  e('clean', 'drop_duplicates', "drop_duplicates(t, subset?, { keep: 'first'|'last'|false })", 'remove repeated rows'),
  e('clean', 'fillna', 'fillna(t, value | { col: value })', 'replace nulls'),
  e('clean', 'dropna', 'dropna(t, { subset, how })', 'drop rows with nulls'),
  e('math', 'round', 'round(x | t, decimals = 0)', 'round half to even (numbers, arrays, table columns)'),
  e(
    'string',
    'contains',
    'contains(s, pattern, { case, regex, na })',
    'pandas str.contains for one value (use inside filter/derive)',
    false,
  ),
  e('string', 'startswith', 'startswith(s, prefix)', 'null-safe', false),
  e('string', 'endswith', 'endswith(s, suffix)', 'null-safe', false),
  e('string', 'lower', 'lower(s)', 'null-safe lowercase', false),
  e('string', 'upper', 'upper(s)', 'null-safe uppercase', false),
  e('string', 'strip', 'strip(s)', 'trim whitespace', false),
  e('string', 'split', 'split(s, sep)', 'array of parts ([] for null)', false),
  e('string', 'replace', 'replace(s, pattern, replacement)', 'null-safe String.replace', false),
  e(
    'date',
    'to_datetime',
    'to_datetime(x) | to_datetime(t, col)',
    'UTC Date from YYYY-MM-DD, M/D/YYYY, ISO, ms; null if unparseable',
    false,
  ),
  e('date', 'year', 'year(date)', 'UTC year', false),
  e('date', 'month', 'month(date)', 'UTC month 1-12', false),
  e('date', 'day', 'day(date)', 'UTC day of month', false),
  e('date', 'quarter', 'quarter(date)', 'UTC quarter 1-4', false),
];

/** Names installed as globals (what user code can call directly). */
export const GLOBAL_NAMES: readonly string[] = PRELUDE_API.filter((a) => a.global).map((a) => a.name);

/**
 * Hints for common failures of LLM-written code, written for the model that must fix it.
 * Data: pattern -> hint, one walk. The prelude's own errors carry their hint (GuestError).
 */
import { didYouMean } from './didYouMean.js';

/** pandas names the prelude does not implement, with what to write instead. */
export const PANDAS_ALTERNATIVES: Readonly<Record<string, string>> = {
  loc: "loc is for tables and Series: t.loc(mask) or t.loc[mask] keeps the rows where a boolean Series is true (mask = t['Award Amount'].gt(1e6)); t.loc(mask, ['a', 'b']) also picks columns.",
  iloc: 'iloc is for tables and Series: t.iloc[0] is row 0 as an object, s.iloc[0] the first value; take rows with t.slice(start, end) or t.head(n).',
  at: "Read a cell with t.get('col', row).",
  iat: "Read a cell with t.get('col', row).",
  apply:
    "Compute per row with t.derive({ new_col: d => ... }) (any JavaScript works inside; d['Col'] is the row's value).",
  map: 'Compute per row with t.derive({ new_col: d => ... }).',
  applymap: 'Compute per row with t.derive({ new_col: d => ... }).',
  astype: 'Convert with derive: t.derive({ x: d => Number(d.x) }) or to_datetime(d.x) for dates.',
  reset_index:
    'Tables have no index: groupby(...).agg(...) already returns the keys as columns, so reset_index() is not needed.',
  set_index: 'Tables have no index; keep the key as a column (sort with sort_values, look rows up with filter).',
  sort_index: "Tables have no index; sort with t.sort_values('col') or t.orderby('col').",
  to_csv: "Save a table as a CSV file with to_csv(t, 'name.csv') (a table method too); t.toCSV() gives CSV text.",
  to_dict: "Use t.objects() for an array of row objects, or t.array('col') for one column.",
  to_list: "tolist()/to_list() are Series methods: t['col'].tolist() (or t.array('col')).",
  tolist: "tolist()/to_list() are Series methods: t['col'].tolist() (or t.array('col')).",
  to_json: "Save a table as a JSON file with to_json(t, 'name.json'); t.objects() gives row objects.",
  iterrows: 'Iterate rows with for (const row of t.objects()) { ... }.',
  itertuples: 'Iterate rows with for (const row of t.objects()) { ... }.',
  query:
    'query() is a table method: award_data.query("Agency == \'DOD\' and `Award Amount` > 1e6") (or t.filter(d => ...)).',
  plot: 'Use plot.bar(t, x, y), plot.line, plot.hist or plot.scatter (or chart(vegaLiteSpec)).',
  resample:
    "Derive the period first, then group: t.derive({ year: d => year(d['Proposal Award Date']) }).groupby('year').agg({...}).",
  sum: "JavaScript arrays have no .sum(): use sum(arr) or arr.reduce((a, b) => a + b, 0); for a column use t.sum('col').",
  mean: "JavaScript arrays have no .mean(): use mean(arr); for a column use t.mean('col').",
  max: "Use max(arr) or t.max('col').",
  min: "Use min(arr) or t.min('col').",
  value_counts: "Use value_counts(t, 'col') (or t.value_counts('col')) on a table, not on an array.",
  str: ".str belongs to a Series (a column): t['Award Title'].str.contains('quantum', { case: false }); inside a row function use contains(d['Award Title'], 'quantum').",
  dt: ".dt belongs to a Series of dates: t['Proposal Award Date'].dt.year; inside a row function use year(d.x), month(d.x).",
  isin: "isin is a Series method: t.filter(t.Agency.isin(['DOD', 'NASA'])); for a plain array use arr.includes(x).",
  between: "between is a Series method: t.filter(t['Award Year'].between(2010, 2015)).",
  unique: "Use unique(t, 'col') (or t.unique('col')).",
  nunique: "Use nunique(t, 'col') (or t.nunique('col')).",
  len: 'Use len(x) or t.numRows().',
  columns: 'columns is a property: t.columns (or t.columnNames()).',
  shape: 'shape is a property: t.shape gives [rows, columns].',
  dtypes: 'dtypes is a property: t.dtypes.',
};

const SERIES_METHODS = new Set([
  'sum',
  'mean',
  'median',
  'max',
  'min',
  'count',
  'str',
  'dt',
  'value_counts',
  'unique',
  'nunique',
  'tolist',
  'to_list',
  'values',
  'std',
  'describe',
  'isna',
  'fillna',
  'astype',
  'apply',
  'map',
  'round',
  'quantile',
  'cumsum',
  'plot',
  'head',
  'sort_values',
  'contains',
  'lower',
  'year',
  'month',
]);

const UNDEFINED_NAMES: Readonly<Record<string, string>> = {
  pd: "There is no pandas here. Use the prelude functions on Arquero tables, e.g. value_counts(award_data, 'Agency'), award_data.groupby('Agency').agg({ 'Award Amount': 'sum' }).",
  pandas: 'There is no pandas here; use the prelude functions (value_counts, groupby().agg, describe, ...).',
  np: 'There is no numpy; use Math.*, op.* inside table expressions, or prelude helpers (sum, mean, quantile, round).',
  numpy: 'There is no numpy; use Math.*, op.*, or prelude helpers (sum, mean, quantile, round).',
  df: 'The data is already loaded as the Arquero table award_data.',
  data: 'The data is already loaded as the Arquero table award_data.',
  awards: 'The data is already loaded as the Arquero table award_data.',
  require: 'require/import are not available: award_data, aq (Arquero), op and the prelude helpers are already global.',
  fetch: 'There is no network access; all data is in award_data.',
  process: 'There is no process object in the sandbox.',
  fs: 'There is no file system in the sandbox; all data is in award_data.',
  setTimeout: 'Timers are not available; the code runs to completion synchronously (or with await on promises).',
  d: "d is only defined inside table expressions, e.g. award_data.filter(d => d.Agency === 'DOD').",
};

/**
 * A hint for an error name + message, or undefined.
 * @param globals names defined in the guest's global scope (for "did you mean" on ReferenceErrors)
 */
export function hintFor(name: string, message: string, globals: readonly string[] = []): string | undefined {
  let m: RegExpMatchArray | null;
  if (
    (m = message.match(/Invalid variable reference: "([^"]*)"/)) ||
    (m = message.match(/Variable not accessible in operator call: "([^"]*)"/))
  ) {
    const v = m[1];
    return (
      `Table expressions are compiled and cannot see JavaScript variables such as \`${v}\`. ` +
      `Pass the value as a parameter: \`table.params({ ${v} }).rollup({ ... ${v} ... })\` (inside, \`${v}\` or \`$.${v}\` reads it), ` +
      `or compute per-row values with derive/filter first (those accept closures).`
    );
  }
  if ((m = message.match(/Invalid function call: "([^"]*)"/))) {
    return (
      `Only op.* functions and registered helpers can be called inside compiled table expressions (got \`${m[1]}\`). ` +
      'Compute the value per row with derive first (derive/filter accept any JavaScript function), then aggregate the new column.'
    );
  }
  if (/Escaped functions are not valid as rollup or pivot values/.test(message)) {
    return "rollup/pivot need op.* aggregates (op.sum(d.x), op.mean(d.x), op.count()); use groupby(...).agg({ col: 'sum' }) for pandas-style aggregation.";
  }
  if ((m = message.match(/^(?:\S+\.)?(\w+) is not a function/)) || (m = message.match(/\.(\w+) is not a function/))) {
    const alt = PANDAS_ALTERNATIVES[m[1]];
    if (alt) return alt;
  }
  if ((m = message.match(/Cannot read propert(?:y|ies) of (?:undefined|null) \(reading '([^']+)'\)/))) {
    if (SERIES_METHODS.has(m[1])) {
      return (
        `.${m[1]} was read on undefined: t['col'] and t.col give a Series only for an existing column, and names are exact (case, spaces). ` +
        `Check the name against t.columns, e.g. award_data['Award Amount'].${m[1]}().`
      );
    }
  }
  if (name === 'ReferenceError' && (m = message.match(/^(\S+) is not defined/))) {
    const known = UNDEFINED_NAMES[m[1]];
    if (known) return known;
    const guess = didYouMean(m[1], globals);
    if (guess) return `Did you mean \`${guess}\`?`;
  }
  if (/Illegal return statement/.test(message))
    return 'A top-level return is not allowed here: end the code with an expression (its value is the result) or assign `result = ...`.';
  if (/await is only valid/.test(message))
    return 'Top-level await is not enabled for this run; remove await (the data helpers are synchronous).';
  if ((m = message.match(/Identifier '([^']+)' has already been declared/))) {
    return `Top-level const/let persist between runs of a session; \`${m[1]}\` exists already. Use another name, or reassign it without const/let.`;
  }
  return undefined;
}

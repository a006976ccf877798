/**
 * Wires the Series into the prelude: methods and properties on Series.prototype, the `.str`/`.dt`
 * accessors, the Series-aware table methods, column access on every table, and the global helpers
 * (`sum(s)`, `len(s)`, `value_counts(s)`, ...) accepting a Series. Called once by install().
 */
import { AGGREGATES } from './aggregates.js';
import { installColumnAccess } from './columnAccess.js';
import { installSeriesMaskAccess } from './seriesMaskAccess.js';
import { COMPARE } from './compare.js';
import { CONVERT, PROPERTIES } from './convert.js';
import { COUNTS } from './counts.js';
import { DateMethods } from './dtAccessor.js';
import { ELEMENTWISE } from './elementwise.js';
import { INDEXERS, ORDER } from './order.js';
import { Series } from './Series.js';
import { StringMethods } from './strAccessor.js';
import { installTableMethods } from './tableMethods.js';

type AnyFn = (...args: unknown[]) => unknown;

/** Global helpers that take a table or array first and get a Series form: fn(s, ...) -> s.method(...). */
const GLOBAL_FORMS: Record<string, string> = {
  sum: 'sum',
  mean: 'mean',
  median: 'median',
  min: 'min',
  max: 'max',
  std: 'std',
  var: 'var',
  prod: 'prod',
  first: 'first',
  last: 'last',
  len: 'length',
  value_counts: 'value_counts',
  unique: 'unique',
  nunique: 'nunique',
  isna: 'isna',
  notna: 'notna',
  round: 'round',
  quantile: 'quantile',
  cumsum: 'cumsum',
  pct_change: 'pct_change',
  head: 'head',
  tail: 'tail',
  fillna: 'fillna',
  dropna: 'dropna',
  sort_values: 'sort_values',
  nlargest: 'nlargest',
  nsmallest: 'nsmallest',
  describe: 'describe',
  to_datetime: 'astype',
};

function defineAll(target: object, methods: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(methods))
    Object.defineProperty(target, name, { value, writable: true, configurable: true });
}

/** Installs everything; `tableProto` is ColumnTable.prototype with the prelude's methods already on it. */
export function installSeries(tableProto: Record<string, unknown>, globals: Record<string, unknown>): void {
  const proto = Series.prototype as unknown as Record<string, unknown>;
  defineAll(proto, { ...AGGREGATES, ...ELEMENTWISE, ...COMPARE, ...COUNTS, ...ORDER, ...CONVERT });
  for (const [name, get] of Object.entries({ ...PROPERTIES, ...INDEXERS }))
    Object.defineProperty(proto, name, { get, configurable: true });
  Object.defineProperty(proto, 'str', {
    get(this: Series) {
      return new StringMethods(this);
    },
    configurable: true,
  });
  Object.defineProperty(proto, 'dt', {
    get(this: Series) {
      return new DateMethods(this);
    },
    configurable: true,
  });
  installTableMethods(tableProto);
  installColumnAccess();
  installSeriesMaskAccess();
  for (const [name, method] of Object.entries(GLOBAL_FORMS)) {
    const f = globals[name] as AnyFn | undefined;
    if (typeof f !== 'function') continue;
    const wrapped = {
      [name](...args: unknown[]) {
        const s = args[0];
        if (!(s instanceof Series)) return f(...args);
        if (name === 'to_datetime') return (s as unknown as { astype(t: string): unknown }).astype('datetime64[ns]');
        const m = (s as unknown as Record<string, unknown>)[method];
        return typeof m === 'function' ? (m as AnyFn).apply(s, args.slice(1)) : m;
      },
    }[name];
    Object.defineProperty(globalThis, name, { value: wrapped, writable: true, configurable: true, enumerable: false });
  }
}

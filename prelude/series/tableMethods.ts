/**
 * pandas habits on tables that need the Series: `t.loc(mask)` / `t.loc[mask]`, `t.filter(mask)`,
 * `t.iloc[i]`, `t.query(expr)`, `t.groupby(series)`, `t.reset_index()`, `t.to_dict()`, and the
 * keyed-Series behaviours of marked tables (seriesTables.ts): sort_values()/nlargest() without a
 * column, idxmax, index, values, tolist. Each wraps the method already on the prototype (the prelude's
 * or Arquero's) and calls it unchanged when no Series is involved.
 */
import type { ColumnTable } from 'arquero';
import { GuestError } from '../errors/guestError.js';
import { compareValues, isNull, resolveColumns } from '../frame/common.js';
import { withColumns } from '../frame/withColumns.js';
import { query } from '../query/query.js';
import { filterByMask } from './filterByMask.js';
import { indexer } from './indexer.js';
import { Series } from './Series.js';
import { keepMark, seriesMark } from './seriesTables.js';

type Fn = (this: ColumnTable, ...args: unknown[]) => unknown;
type Proto = Record<string, unknown>;

const isOptions = (x: unknown) =>
  x === undefined ||
  typeof x === 'boolean' ||
  (typeof x === 'object' && x !== null && !Array.isArray(x) && !(x instanceof Series));

function define(proto: Proto, name: string, value: Fn): void {
  Object.defineProperty(proto, name, { value, writable: true, configurable: true });
}

function getter(proto: Proto, name: string, get: (t: ColumnTable) => unknown): void {
  // a column of that name wins (t.index / t.values on a table that has such a column)
  Object.defineProperty(proto, name, {
    get(this: ColumnTable) {
      return this.column(name) !== undefined ? Series.column(this, name) : get(this);
    },
    configurable: true,
  });
}

function wrap(proto: Proto, name: string, make: (orig: Fn) => Fn): void {
  const orig = proto[name] as Fn | undefined;
  if (typeof orig === 'function') define(proto, name, make(orig));
}

/** The row `i` of `t` as an object (negative from the end). */
function rowAt(t: ColumnTable, i: number): Record<string, unknown> {
  const n = t.numRows();
  const k = i < 0 ? n + i : i;
  if (!(k >= 0 && k < n))
    throw new GuestError('IndexError', `Row ${i} is out of bounds for a table of ${n} rows`, `Use 0..${n - 1}.`);
  return t.object(k) as Record<string, unknown>;
}

function loc(t: ColumnTable, rows: unknown, cols?: unknown): unknown {
  let out: ColumnTable;
  if (rows instanceof Series || (Array.isArray(rows) && rows.every((v) => typeof v === 'boolean')))
    out = filterByMask(t, rows as Series, 't.loc()');
  else if (typeof rows === 'function') out = t.filter(rows as never) as ColumnTable;
  else if (rows === undefined || rows === null || rows === ':') out = t;
  else if (typeof rows === 'string' && t.column(rows) !== undefined) {
    throw new GuestError(
      'TypeError',
      `t.loc['${rows}'] selects rows, not a column`,
      `Use t['${rows}'] for the column, or t.loc(mask, '${rows}') for some rows of it.`,
    );
  } else if (typeof rows === 'number')
    return cols === undefined ? rowAt(t, rows) : t.get(resolveColumns(t, cols, 't.loc()')[0], rows);
  else
    throw new GuestError(
      'TypeError',
      `t.loc() takes a boolean mask (a Series), got ${typeof rows}`,
      "Example: t.loc(t['Award Amount'].gt(1e6)) or t.loc(mask, ['Agency', 'Award Amount']).",
    );
  if (cols === undefined) return out;
  if (typeof cols === 'string') return Series.column(out, resolveColumns(out, cols, 't.loc()')[0]);
  return out.select(resolveColumns(out, cols, 't.loc()'));
}

function keyedIdx(t: ColumnTable, sign: 1 | -1): unknown {
  const mark = seriesMark(t);
  if (!mark) {
    const out: Record<string, unknown> = {};
    for (const c of t.columnNames())
      out[c] = (Series.column(t, c) as unknown as { idxmax(): unknown; idxmin(): unknown })[
        sign > 0 ? 'idxmax' : 'idxmin'
      ]();
    return out;
  }
  const vals = t.array(mark.value) as ArrayLike<unknown>;
  let best = -1;
  for (let i = 0; i < vals.length; i++)
    if (!isNull(vals[i]) && (best < 0 || compareValues(vals[i], vals[best]) * sign > 0)) best = i;
  if (best < 0) return null;
  const key = mark.keys.map((k) => (t.array(k) as ArrayLike<unknown>)[best]);
  return key.length === 1 ? key[0] : key;
}

function keysOf(t: ColumnTable): unknown[] {
  const mark = seriesMark(t);
  if (!mark) return Array.from({ length: t.numRows() }, (_, i) => i);
  const cols = mark.keys.map((k) => t.array(k) as ArrayLike<unknown>);
  return Array.from({ length: t.numRows() }, (_, i) => (cols.length === 1 ? cols[0][i] : cols.map((c) => c[i])));
}

function toDict(t: ColumnTable, orient: unknown): unknown {
  const mark = seriesMark(t);
  if (mark && mark.keys.length === 1 && orient === undefined) {
    const k = t.array(mark.keys[0]) as ArrayLike<unknown>;
    const v = t.array(mark.value) as ArrayLike<unknown>;
    const o: Record<string, unknown> = {};
    for (let i = 0; i < k.length; i++) o[String(k[i])] = v[i];
    return o;
  }
  if (orient === 'records') return t.objects();
  const o: Record<string, unknown> = {};
  for (const c of t.columnNames()) {
    const vals = Array.from(t.array(c) as ArrayLike<unknown>);
    o[c] = orient === 'list' ? vals : Object.fromEntries(vals.map((v, i) => [String(i), v]));
  }
  return o;
}

/** Groupby keys given as Series become columns named after them (pandas `groupby(s.dt.year)`). */
function groupbyWithSeries(t: ColumnTable, keys: unknown[]): { table: ColumnTable; keys: unknown[] } {
  const flat = keys.flat();
  if (!flat.some((k) => k instanceof Series)) return { table: t, keys };
  const idx = t.indices() as Uint32Array;
  const cols: Record<string, (row: number) => unknown> = {};
  const names = flat.map((k, i) => {
    if (!(k instanceof Series)) return k;
    if (k.length !== idx.length)
      throw new GuestError(
        'ValueError',
        `groupby(): the key Series has ${k.length} values but the table has ${idx.length} rows`,
        'Group by a Series computed from the same table.',
      );
    const byRow = new Array<unknown>(t.totalRows()).fill(null);
    for (let j = 0; j < idx.length; j++) byRow[idx[j]] = k.get(j);
    const name = k.name ?? `key_${i}`;
    cols[name] = (row) => byRow[row];
    return name;
  });
  return { table: withColumns(t, cols), keys: names };
}

/** Installs the Series-aware table methods on ColumnTable.prototype. */
export function installTableMethods(proto: Proto): void {
  wrap(
    proto,
    'filter',
    (orig) =>
      function (this: ColumnTable, ...args: unknown[]) {
        return args[0] instanceof Series ? filterByMask(this, args[0], 't.filter()') : orig.apply(this, args);
      },
  );
  wrap(
    proto,
    'groupby',
    (orig) =>
      function (this: ColumnTable, ...args: unknown[]) {
        const { table, keys } = groupbyWithSeries(this, args);
        return orig.apply(table, keys);
      },
  );
  for (const name of ['sort_values', 'nlargest', 'nsmallest']) {
    wrap(
      proto,
      name,
      (orig) =>
        function (this: ColumnTable, ...args: unknown[]) {
          const mark = seriesMark(this);
          if (mark && name === 'sort_values' && isOptions(args[0]))
            return keepMark(this, orig.call(this, mark.value, args[0] ?? {}));
          if (
            mark &&
            name !== 'sort_values' &&
            args[1] === undefined &&
            typeof args[0] !== 'string' &&
            !Array.isArray(args[0])
          )
            return keepMark(this, orig.call(this, args[0] ?? 5, mark.value));
          return keepMark(this, orig.apply(this, args));
        },
    );
  }
  for (const name of ['head', 'tail', 'slice', 'round', 'orderby', 'sort_index']) {
    wrap(
      proto,
      name,
      (orig) =>
        function (this: ColumnTable, ...args: unknown[]) {
          return keepMark(this, orig.apply(this, args));
        },
    );
  }
  define(proto, 'sort_index', function (this: ColumnTable, o?: unknown) {
    const mark = seriesMark(this);
    if (!mark) return this;
    const asc = typeof o === 'boolean' ? o : ((o as { ascending?: boolean } | undefined)?.ascending ?? true);
    return keepMark(this, (proto.sort_values as Fn).call(this, mark.keys, { ascending: asc }));
  });
  define(proto, 'query', function (this: ColumnTable, expr: unknown, opts?: unknown) {
    return query(this, expr, opts as never);
  });
  define(proto, 'reset_index', function (this: ColumnTable, o?: unknown) {
    const mark = seriesMark(this);
    const name = (o as { name?: unknown } | undefined)?.name;
    if (mark && typeof name === 'string') return this.rename({ [mark.value]: name });
    return this;
  });
  // pandas aliases of the table helpers
  if (typeof proto.isna === 'function') define(proto, 'isnull', proto.isna as Fn);
  if (typeof proto.notna === 'function') define(proto, 'notnull', proto.notna as Fn);
  define(proto, 'to_frame', function (this: ColumnTable) {
    return this;
  });
  define(proto, 'to_dict', function (this: ColumnTable, orient?: unknown) {
    return toDict(this, typeof orient === 'object' && orient ? (orient as { orient?: unknown }).orient : orient);
  });
  define(proto, 'idxmax', function (this: ColumnTable) {
    return keyedIdx(this, 1);
  });
  define(proto, 'idxmin', function (this: ColumnTable) {
    return keyedIdx(this, -1);
  });
  define(proto, 'tolist', function (this: ColumnTable) {
    const mark = seriesMark(this);
    return mark
      ? Array.from(this.array(mark.value) as ArrayLike<unknown>)
      : this.objects().map((o) => Object.values(o as object));
  });
  define(proto, 'to_list', proto.tolist as Fn);
  // Arquero's own values(name) iterator stays on plain tables (code written for Arquero calls it);
  // a keyed Series table (groupby(k)['col'].sum()) gives its values as pandas' .values does.
  const arqueroValues = proto.values as Fn | undefined;
  getter(proto, 'values', (t) =>
    seriesMark(t) || typeof arqueroValues !== 'function' ? (proto.tolist as Fn).call(t) : arqueroValues.bind(t),
  );
  getter(proto, 'index', keysOf);
  getter(proto, 'empty', (t) => t.numRows() === 0);
  getter(proto, 'loc', (t) => indexer((rows, cols) => loc(t, rows, cols)));
  getter(proto, 'iloc', (t) =>
    indexer((i) => {
      const mark = seriesMark(t);
      const n = t.numRows();
      if (Array.isArray(i))
        return filterByMask(
          t,
          Array.from({ length: n }, (_, k) => i.includes(k) || i.includes(k - n)),
          't.iloc[]',
        );
      const k = Number(i);
      if (!Number.isInteger(k))
        throw new GuestError(
          'TypeError',
          `t.iloc[] takes a row position, got ${String(i)}`,
          'Example: t.iloc[0], t.iloc[-1], t.iloc([0, 1]); a cell: t.get(col, row).',
        );
      return mark ? (t.array(mark.value) as ArrayLike<unknown>)[k < 0 ? n + k : k] : rowAt(t, k);
    }),
  );
}

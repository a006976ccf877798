/**
 * `t['col']` and `t.col` on every Arquero table. Tables are not wrapped: a Proxy is inserted as the
 * prototype of Arquero's Table.prototype (in front of Object.prototype), so it is consulted only for
 * names that neither the table nor its class defines. Methods, Arquero's internals and `instanceof`
 * are untouched, and every table any verb returns has column access with no extra work.
 * The Proxy answers, in order:
 *   a column name           -> a Series over the column (a SeriesGroupBy on a grouped table);
 *   a boolean-mask token    -> the filtered table (`t[mask]`, see maskRegistry.ts);
 *   'a,b' (from t[['a','b']]) -> the table with those columns (a multi-column SeriesGroupBy if grouped);
 *   a key of a keyed Series table -> its value (`totals['Department of Defense']`);
 * and an assignment `t['new'] = series` (or an array, or one value) adds a column (setColumn.ts).
 * Anything else reads through to Object.prototype as before. `then` is never a column, so awaiting a
 * table stays harmless. Guest code already runs in this realm: the Proxy is not a way out of it.
 */
import { Table, type ColumnTable } from 'arquero';
import { ObjectGetPrototypeOf } from '../intrinsics.js';
import { filterByMask } from './filterByMask.js';
import { maskFromToken } from './maskRegistry.js';
import { Series } from './Series.js';
import { SeriesGroupBy } from './SeriesGroupBy.js';
import { seriesMark } from './seriesTables.js';
import { isColumnValue, setColumn } from './setColumn.js';

const NEVER_COLUMNS = new Set([
  'then',
  'toJSON',
  'constructor',
  '__proto__',
  'asymmetricMatch',
  'nodeType',
  '$$typeof',
]);

function columnOf(t: ColumnTable, key: string): unknown {
  if (t.column(key) !== undefined) return t.isGrouped() ? new SeriesGroupBy(t, [key], true) : Series.column(t, key);
  const mask = maskFromToken(key);
  if (mask) return filterByMask(t, mask as Series, `t[mask]`);
  if (key.includes(',')) {
    const names = key.split(',');
    if (names.every((n) => t.column(n) !== undefined))
      return t.isGrouped() ? new SeriesGroupBy(t, names, false) : t.select(names);
  }
  const mark = seriesMark(t);
  if (mark && mark.keys.length === 1) {
    const keys = t.array(mark.keys[0]) as ArrayLike<unknown>;
    for (let i = 0; i < keys.length; i++) {
      if (String(keys[i]) === key) return (t.array(mark.value) as ArrayLike<unknown>)[i];
    }
  }
  return undefined;
}

/** Puts the column-access Proxy behind Table.prototype (idempotent). */
export function installColumnAccess(): void {
  const proto = Table.prototype as object;
  const parent = ObjectGetPrototypeOf(proto) as object;
  if ((parent as { __sbirtoolsColumns?: boolean }).__sbirtoolsColumns) return;
  const proxy = new Proxy(parent, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && prop === '__sbirtoolsColumns') return true;
      if (typeof prop !== 'string' || prop in target || NEVER_COLUMNS.has(prop) || !(receiver instanceof Table))
        return Reflect.get(target, prop, receiver);
      return columnOf(receiver as ColumnTable, prop);
    },
    // t['new'] = series: an assignment of a column value to a name no table defines adds a column.
    // Arquero's own fields (`_data`, `_names`, caches) start with '_' and are set while a table is
    // built or used: they always pass through as ordinary properties.
    set(target, prop, value, receiver) {
      if (
        typeof prop === 'string' &&
        prop[0] !== '_' &&
        !(prop in target) &&
        !NEVER_COLUMNS.has(prop) &&
        receiver instanceof Table &&
        Object.hasOwn(receiver as object, '_data') &&
        isColumnValue(value)
      ) {
        setColumn(receiver as ColumnTable, prop, value);
        return true;
      }
      return Reflect.set(target, prop, value, receiver);
    },
  });
  Object.setPrototypeOf(proto, proxy);
}

/**
 * A row object for closures that Arquero could not compile: `d['Award Amount']` reads the column at
 * the current row through a getter (so lazy columns load only when used), and reading a column that
 * does not exist throws a KeyError with "did you mean". One view is reused for every row.
 */
import type { ColumnTable } from 'arquero';
import { unknownColumn } from '../errors/didYouMean.js';
import { ObjectCreate, ObjectDefineProperty, ObjectPrototype } from '../intrinsics.js';

/** A reusable row object and the function that points it at a row. */
export interface RowView {
  view: Record<string, unknown>;
  at(row: number): Record<string, unknown>;
}

/** Builds the row view of `t` (columns of the backing data, read by row index). */
export function rowView(t: ColumnTable): RowView {
  let cur = 0;
  const names = t.columnNames();
  const unknown = new Proxy(ObjectCreate(null) as object, {
    get(_target, prop) {
      if (typeof prop === 'symbol') return undefined;
      if (prop in ObjectPrototype) return (ObjectPrototype as unknown as Record<string, unknown>)[prop];
      if (prop === 'then' || prop === 'toJSON' || prop === 'inspect') return undefined;
      throw unknownColumn(prop, names, 'a table expression');
    },
    has: () => false,
  });
  const view = ObjectCreate(unknown) as Record<string, unknown>;
  for (const name of names) {
    const col = t.column(name)!;
    ObjectDefineProperty(view, name, { get: () => col.at(cur), enumerable: true, configurable: false });
  }
  return { view, at: (row) => ((cur = row), view) };
}

/** Replace or add columns while keeping a table's filter, grouping and order (no row copy). */
import type { ColumnTable } from 'arquero';

/**
 * A table with columns computed per backing row: `make(col name) -> (row) -> value` over all
 * `totalRows()` rows, so an active filter/order/grouping stays valid.
 * @example withColumns(t, { x2: (row) => t.column('x').at(row) * 2 })
 */
export function withColumns(t: ColumnTable, cols: Record<string, (row: number) => unknown>): ColumnTable {
  const n = t.totalRows();
  const data: Record<string, unknown> = { ...(t.data() as Record<string, unknown>) };
  const names = t.columnNames().slice();
  for (const [name, f] of Object.entries(cols)) {
    const arr = new Array(n);
    for (let i = 0; i < n; i++) arr[i] = f(i);
    data[name] = arr;
    if (!names.includes(name)) names.push(name);
  }
  return t.create({ data: data as never, names });
}

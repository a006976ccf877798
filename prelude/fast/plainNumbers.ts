/**
 * A table column held as a plain array of numbers (a group-by's sums, a Series made into a table)
 * read as the typed data of a host number column, so the top-n and null-filter paths that work on
 * award_data's Float64Arrays also answer `groupby(...)[col].sum().nlargest(5)` without a comparator
 * call per row. One pass over the array; any value that is not a number, null or undefined (text,
 * a Date, a boolean, a bigint) leaves the column to the plain path.
 */
import type { ColumnTable } from 'arquero';
import { NativeArray } from '../intrinsics.js';
import type { NumSource } from './source.js';

/**
 * The column `name` of `t` as values + validity (null and undefined invalid, NaN kept as NaN),
 * or undefined when it is not a plain array of numbers.
 * @example plainNumberSource(newTable({ s: [3, null, 1] }, ['s']), 's') // values [3, 0, 1], valid [1, 0, 1]
 */
export function plainNumberSource(t: ColumnTable, name: string): NumSource | undefined {
  const col = t.column(name) as unknown;
  if (!NativeArray.isArray(col)) return undefined;
  const xs = col as readonly unknown[];
  const n = xs.length;
  const values = new Float64Array(n);
  const valid = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const v = xs[i];
    if (typeof v === 'number') {
      values[i] = v;
      valid[i] = 1;
    } else if (v !== null && v !== undefined) return undefined;
  }
  return { kind: 'num', type: 'number', values, valid };
}

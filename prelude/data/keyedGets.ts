/**
 * The `get` form of a scalar accumulation loop (src/runtime/prepare/scalarLoops.ts `getLoop`, session 20):
 *   let n = 0; const rows = t.numRows();
 *   for (let i = 0; i < rows; i++) if (t.get('Agency', i) === 'Department of Defense') n++;
 * runs as `if (!__sbirtools_rowLoop.gets(spec, [n], t, rows, ['Agency'])) for (...) ...` (the bound
 * `null` for `i < t.numRows()`; the table a global's name when the program declares none: its value
 * is then read here, a data property only). Answered from the columns when `t` is a host table whose
 * `get`, `column`, `numRows`, `isFiltered` and `isOrdered` are the installed ones (each row's `get`
 * would then read the column's value at that row and run no code of the run's), unfiltered and
 * unordered, the bound an integer from 0 to its row count, and every column a number or dictionary
 * column (no Dates: `get` makes one per row); else false, with nothing read, and the loop runs as written.
 */
import type { ColumnTable } from 'arquero';
import { ArrayIsArray, ObjectGetOwnPropertyDescriptor } from '../intrinsics.js';
import { columnSource, type Source } from '../fast/source.js';
import { hostTableMethods } from './columnArrays.js';
import { keyedLoop } from './keyedLoop.js';
import { LazyColumn } from './lazyColumn.js';

/** `__sbirtools_rowLoop.gets(spec, target, table, bound, names)`: true when the loop was answered into `target`. */
export function keyedGets(spec: unknown, target: unknown, table: unknown, bound: unknown, names: unknown): boolean {
  let t = table;
  if (typeof table === 'string') {
    // a global the loop reads at every row: a data property holds the same value at each read
    const d = ObjectGetOwnPropertyDescriptor(globalThis, table);
    if (d === undefined || !('value' in d)) return false;
    t = d.value;
  }
  if (!hostTableMethods(t) || !ArrayIsArray(names)) return false;
  const tt = t as ColumnTable;
  if (tt.isFiltered() || tt.isOrdered()) return false;
  const rows = tt.numRows();
  const n = bound === null ? rows : bound;
  if (typeof n !== 'number' || n % 1 !== 0 || n < 0 || n > rows) return false;
  const srcs: Source[] = [];
  for (let k = 0; k < names.length; k++) {
    const name = names[k] as unknown;
    if (typeof name !== 'string') return false;
    const col = tt.column(name) as unknown;
    if (!(col instanceof LazyColumn) || col.type === 'date' || col.length !== rows) return false;
    const src = columnSource(col);
    if (src === undefined) return false;
    srcs[k] = src;
  }
  return keyedLoop(spec, target, srcs, null, n);
}

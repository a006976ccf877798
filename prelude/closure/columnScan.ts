/**
 * The row-by-row filter of a closure (closure/fallback.ts) in a tight loop: when the closure reads
 * its row only as `d.X` (closure/rowReads.ts), it is called once per visible row, in row order, as
 * before, but on one plain object whose fields are set from the columns' arrays
 * (fast/columnChunks.ts: text pages of the session's cache, cached value arrays) instead of the
 * view whose getters call `column.at(row)` for every read. `d => d.Abstract.length > 5000`,
 * `d => d.Abstract && d.Abstract.toLowerCase().includes('laser')`,
 * `d => d['Award Amount'] > limit && d.Agency === 'DOD'`, `({ Abstract }) => re.test(Abstract)`.
 * Same calls, same values, same order, so the same rows, the same side effects and the same
 * first error as the view.
 */
import { BitSet, type ColumnTable } from 'arquero';
import { columnChunks } from '../fast/columnChunks.js';
import { rowReads } from './rowReads.js';

type Fn = (d: Record<string, unknown>, $: unknown) => unknown;

/** The filtered table, or undefined when the closure's row use or a column does not allow the scan. */
export function filterByColumns(t: ColumnTable, fn: Fn): ColumnTable | undefined {
  const names = rowReads(fn);
  if (!names || names.length === 0 || names.length > 8) return undefined;
  for (const name of names) if (name === '__proto__' || !t.column(name)) return undefined; // the view throws its KeyError
  const chunks = columnChunks(t, names);
  if (!chunks) return undefined;
  const params = t.params();
  const bits = t.mask();
  const n = t.totalRows();
  const keep = new BitSet(n);
  // one row object with a fixed shape, its fields in the closure's read order
  const d: Record<string, unknown> = {};
  for (const name of names) d[name] = undefined;
  const m = names.length;
  const n0 = names[0];
  chunks((lo, hi, arrays, offsets) => {
    const a0 = arrays[0];
    const o0 = offsets[0];
    let i = bits ? bits.next(lo) : lo;
    while (i >= 0 && i < hi) {
      d[n0] = a0[i - o0];
      for (let k = 1; k < m; k++) d[names[k]] = arrays[k][i - offsets[k]];
      if (fn(d, params)) keep.set(i);
      i = bits ? bits.next(i + 1) : i + 1;
    }
  });
  return t.create({ filter: keep });
}

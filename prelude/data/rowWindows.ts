/**
 * A few rows of a column no run has loaded yet, read from the host a window at a time
 * (bridge.fetchRowWindow): `head(award_data)`, `t.get(col, i)` or `objects()` of a sliced table read
 * one row of many columns, and each such column used to be fetched and decoded whole (a printed
 * head of award_data moved every column, 200 ms on the full file). After MAX_WINDOWS windows, or
 * when the host has no window for it, the column is loaded whole as before (lazyColumn.ts). A
 * window reads exactly what the whole column would: the same numbers, null, a fresh Date per read,
 * booleans, and a dictionary column's strings.
 */
import type { ColumnData } from '../../schema/columnar.js';
import { MathMin, NativeDate, SafeMap } from '../intrinsics.js';
import { utf8Decode } from '../polyfills/utf8.js';

/** Rows [start, end) of one column, or null when the host cannot read them alone. */
export type FetchWindow = (start: number, end: number) => ColumnData | null;

const WINDOW_SHIFT = 8;
/** Rows per window. */
export const WINDOW_ROWS = 1 << WINDOW_SHIFT;
/** Windows read before the column is loaded whole (4096 rows). */
const MAX_WINDOWS = 16;

/** What `read` returns when the column should be loaded whole instead. */
export const WHOLE: unique symbol = Symbol('whole column');

type Getter = (row: number) => unknown;

export class RowWindows {
  private readonly windows = new SafeMap<number, Getter>();

  constructor(
    private readonly fetch: FetchWindow,
    private readonly length: number,
    private readonly isDate: boolean,
  ) {}

  /** The value at `row` (an integer in 0..length-1), or WHOLE: load the column whole. */
  read(row: number): unknown {
    const w = row >> WINDOW_SHIFT;
    let get = this.windows.get(w);
    if (get === undefined) {
      if (this.windows.size >= MAX_WINDOWS) return WHOLE;
      const start = w << WINDOW_SHIFT;
      const end = MathMin(this.length, start + WINDOW_ROWS);
      const data = this.fetch(start, end);
      const made = data === null ? null : getterOf(data, end - start, this.isDate);
      if (made === null) return WHOLE;
      this.windows.set(w, (get = made));
    }
    return get(row & (WINDOW_ROWS - 1));
  }
}

/** A getter over a window's rows (0..n-1), or null when the data is not a window of n rows. */
function getterOf(c: ColumnData, n: number, isDate: boolean): Getter | null {
  if (c.kind === 'float64' && c.values.length === n && c.valid.length === n) {
    const { values, valid } = c;
    return isDate ? (i) => (valid[i] ? new NativeDate(values[i]!) : null) : (i) => (valid[i] ? values[i] : null);
  }
  if (c.kind === 'bool' && c.values.length === n && c.valid.length === n) {
    const { values, valid } = c;
    return (i) => (valid[i] ? values[i] !== 0 : null);
  }
  if (c.kind === 'utf8' && c.valid.length === n && c.offsets.length === n + 1) {
    const { bytes, offsets, valid } = c;
    const cache = new Array<string | null | undefined>(n);
    return (i) => {
      let s = cache[i];
      if (s === undefined) cache[i] = s = valid[i] ? utf8Decode(bytes, offsets[i], offsets[i + 1]) : null;
      return s;
    };
  }
  return null;
}

/**
 * A table's row order under sort_values by host columns (frame/sortValues.ts), without a comparator
 * call per pair: Arquero sorts the row index with the comparator the first time the order is read
 * (`indices()`: 0.5 s for award_data by 'Award Amount', 2.2 s by 'Company'). Here the visible rows,
 * in row order, are sorted stably by the last key, then by each key before it (a least-significant
 * key first sort), each key's values read from the typed column: numbers and dates as float64,
 * strings as their dictionary rank (fast/dictRank.ts). Missing values (null, NaN) go last (or first)
 * for each key whatever its direction, and equal rows keep row order: the comparator's answer.
 *
 * The order is lent to the sorted table as its `_index` (Arquero's cached row index), computed when
 * first read, as frame/keptFilterRows.ts lends a kept filter's index: the first read (Arquero's
 * `indices()`, `scan()`, a fast path) sorts and turns the accessor into a plain data property, as an
 * assignment does with the value assigned. A key that is not a host column (or a date column holding
 * an invalid date, which the comparator finds equal to every date) leaves the index to Arquero.
 */
import type { ColumnTable } from 'arquero';
import { ObjectDefineProperty } from '../intrinsics.js';
import { dictRank } from './dictRank.js';
import { sourceOf, type Source } from './source.js';
import { sortedPositions } from './stableOrder.js';

/**
 * Gives `out` (`t` ordered by sort_values' comparator over `names`) its row index on first read, sorted
 * by sortedRows; a table whose `_index` is already set (or absent) is left alone.
 */
export function lendSortedIndex(
  out: ColumnTable,
  t: ColumnTable,
  names: readonly string[],
  asc: readonly boolean[],
  nullsFirst: boolean,
): void {
  const holder = out as unknown as { _index?: Uint32Array | null };
  if (holder._index !== null || !names.length) return;
  let own: Uint32Array | null | undefined;
  const settle = (v: unknown): void => {
    own = v as Uint32Array | null;
    try {
      ObjectDefineProperty(out, '_index', { value: v, writable: true, enumerable: true, configurable: true });
    } catch {
      // a frozen or sealed table: its accessor keeps answering the value settled
    }
  };
  ObjectDefineProperty(out, '_index', {
    get(): Uint32Array | null {
      // null: Arquero sorts with the comparator and assigns its index (the setter below)
      if (own === undefined) settle(sortedRows(t, names, asc, nullsFirst) ?? null);
      return own!;
    },
    set(v: unknown) {
      settle(v);
    },
    enumerable: true,
    configurable: true,
  });
}

/**
 * The visible rows of `t` sorted by its columns `names` (each ascending or not), missing values last
 * or first, ties in row order; undefined when a key is not a host number, date or dictionary column.
 * @example sortedRows(award_data, ['Agency', 'Award Amount'], [true, false], false)
 */
export function sortedRows(
  t: ColumnTable,
  names: readonly string[],
  asc: readonly boolean[],
  nullsFirst: boolean,
): Uint32Array | undefined {
  const sources: Source[] = [];
  for (const n of names) {
    const src = sourceOf(t, n);
    if (src === undefined) return undefined;
    sources.push(src);
  }
  let order = new Uint32Array(t.numRows());
  visibleAscending(t, order);
  for (let k = names.length - 1; k >= 0; k--) {
    const keys = new Float64Array(order.length);
    const src = sources[k]!;
    if (src.kind === 'dict') {
      const rank = dictRank(src.dict);
      if (rank === undefined) return undefined; // two entries hold one string: Arquero's sort
      codeKeys(src.codes, rank, order, keys);
    } else if (!numberKeys(src.values, src.valid, src.type === 'date', order, keys)) return undefined;
    const pos = sortedPositions(keys, asc[k] !== false, nullsFirst);
    const next = new Uint32Array(order.length);
    permuted(order, pos, next);
    order = next;
  }
  return order;
}

// Each loop over the rows ends its function (docs/architecture.md, "Inside the prelude").

/** out = the rows `t` shows, in row order. */
function visibleAscending(t: ColumnTable, out: Uint32Array): void {
  const bits = t.mask();
  if (bits) for (let i = bits.next(0), k = 0; i >= 0; i = bits.next(i + 1)) out[k++] = i;
  else for (let i = 0; i < out.length; i++) out[i] = i;
}

function codeKeys(codes: Int32Array, rank: Int32Array, order: Uint32Array, keys: Float64Array): void {
  for (let j = 0; j < order.length; j++) {
    const c = codes[order[j]!]!;
    keys[j] = c < 0 ? NaN : rank[c]!;
  }
}

/** keys[j] = the value of row order[j] (missing as NaN); false at a date column's invalid date. */
function numberKeys(
  values: Float64Array,
  valid: Uint8Array,
  date: boolean,
  order: Uint32Array,
  keys: Float64Array,
): boolean {
  for (let j = 0; j < order.length; j++) {
    const r = order[j]!;
    const x = values[r]!;
    if (valid[r] === 0) keys[j] = NaN;
    else if (x === x) keys[j] = x;
    else if (date) return false;
    else keys[j] = NaN;
  }
  return true;
}

function permuted(order: Uint32Array, pos: Uint32Array, out: Uint32Array): void {
  for (let j = 0; j < pos.length; j++) out[j] = order[pos[j]!]!;
}

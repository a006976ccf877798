/**
 * sort_values / nlargest / nsmallest. Sorting sets Arquero's row order (no copy, lazy columns stay
 * lazy): numbers sort numerically, dates by time, strings by code unit; nulls/NaN go last whatever
 * the direction (pandas na_position='last'); the sort is stable.
 */
import { BitSet, type ColumnTable } from 'arquero';
import { GuestError } from '../errors/guestError.js';
import { assertTable, compareValues, isNull, resolveColumns } from './common.js';
import { noteOrderColumns } from '../fast/topN.js';
import { plainNumberSource } from '../fast/plainNumbers.js';
import { sourceOf } from '../fast/source.js';
import { lendSortedIndex } from '../fast/sortedRows.js';

/** Options of sort_values. */
export interface SortOptions {
  /** One flag, or one per key. @default true */
  ascending?: boolean | boolean[];
  /** Where nulls go. @default 'last' */
  na_position?: 'last' | 'first';
}

/**
 * Sorts by one or more columns.
 * @example award_data.sort_values('Award Amount', { ascending: false })
 * @example sort_values(award_data, ['Agency', 'Award Amount'], { ascending: [true, false] })
 */
export function sort_values(t: unknown, by: unknown, options: SortOptions | boolean = {}): ColumnTable {
  assertTable(t, 'sort_values');
  if (by && typeof by === 'object' && !Array.isArray(by) && 'by' in by)
    return sort_values(t, (by as { by: unknown }).by, by as SortOptions);
  if (by === undefined)
    throw new GuestError(
      'TypeError',
      'sort_values() needs the column(s) to sort by',
      "Example: sort_values(award_data, 'Award Amount', { ascending: false }).",
    );
  const opts = typeof options === 'boolean' ? { ascending: options } : options;
  const names = resolveColumns(t, by, 'sort_values()');
  const asc = names.map((_, i) =>
    Array.isArray(opts.ascending) ? (opts.ascending[i] ?? true) : (opts.ascending ?? true),
  );
  const nullsFirst = opts.na_position === 'first';
  const cols = names.map((n) => t.column(n)!);
  const cmp = (a: number, b: number) => {
    for (let k = 0; k < cols.length; k++) {
      const x = cols[k].at(a);
      const y = cols[k].at(b);
      const nx = isNull(x);
      const ny = isNull(y);
      if (nx || ny) {
        if (nx !== ny) return (nx ? 1 : -1) * (nullsFirst ? -1 : 1);
        continue;
      }
      const c = compareValues(x, y);
      if (c) return asc[k] ? c : -c;
    }
    return a - b; // stable
  };
  const out = t.create({ order: cmp as never });
  // the row index, when read, sorted on the typed columns instead of by `cmp` (fast/sortedRows.ts)
  lendSortedIndex(out, t, names, asc, nullsFirst);
  // head(n) may then take the top-n path
  noteOrderColumns(out, t, names, { desc: !asc[0], nulls: nullsFirst ? 'first' : 'last' });
  return out;
}

function nExtreme(name: string, t: unknown, n: unknown, cols: unknown, ascending: boolean): ColumnTable {
  assertTable(t, name);
  if (typeof n === 'string' || Array.isArray(n)) [n, cols] = [cols ?? 5, n]; // nlargest(t, 'col', 5)
  const names = resolveColumns(t, cols, `${name}()`);
  if (!names.length)
    throw new GuestError('TypeError', `${name}() needs a column`, `Example: ${name}(award_data, 5, 'Award Amount').`);
  return head(sort_values(filterValid(t, names[0]), names, { ascending }), Number(n ?? 5));
}

/** Rows of `t` where column `name` is not null (a filter mask: no copy). */
function filterValid(t: ColumnTable, name: string): ColumnTable {
  const keep = new BitSet(t.totalRows());
  const src = sourceOf(t, name) ?? plainNumberSource(t, name);
  if (src) {
    // the same rows as the scan below, from the typed data: no value and no call per row
    // (a date column's NaN is an invalid Date, a value; a number column's NaN is missing)
    const ok =
      src.kind === 'dict'
        ? (r: number) => src.codes[r]! >= 0
        : src.type === 'date'
          ? (r: number) => src.valid[r] === 1
          : (r: number) => src.valid[r] === 1 && src.values[r] === src.values[r];
    const bits = t.mask();
    if (bits) {
      for (let r = bits.next(0); r >= 0; r = bits.next(r + 1)) if (ok(r)) keep.set(r);
    } else {
      for (let r = 0, m = t.totalRows(); r < m; r++) if (ok(r)) keep.set(r);
    }
    return t.create({ filter: keep });
  }
  const col = t.column(name)!;
  t.scan((r) => {
    if (!isNull(col.at(r!))) keep.set(r!);
  });
  return t.create({ filter: keep });
}

function head(t: ColumnTable, n: number): ColumnTable {
  return t.slice(0, n);
}

/** The n rows with the largest values (nulls excluded, ties keep the first). @example nlargest(award_data, 5, 'Award Amount') */
export function nlargest(t: unknown, n: unknown = 5, cols?: unknown): ColumnTable {
  return nExtreme('nlargest', t, n, cols, false);
}

/** The n rows with the smallest values. @example award_data.nsmallest(3, 'Award Amount') */
export function nsmallest(t: unknown, n: unknown = 5, cols?: unknown): ColumnTable {
  return nExtreme('nsmallest', t, n, cols, true);
}

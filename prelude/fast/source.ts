/**
 * Raw access for the fast paths: the typed arrays behind a host column (dictionary codes, float64
 * values + validity), and the visible rows of a table. Only award_data's lazily fetched columns
 * (data/lazyColumn.ts) qualify; any other column (user arrays, derived values) returns undefined
 * and the caller keeps Arquero's path.
 */
import type { ColumnTable } from 'arquero';
import { LazyColumn, dictStrings } from '../data/lazyColumn.js';
import { knownDictRank } from './dictRank.js';

/** A dictionary-coded string column: `codes[row]` indexes `dict`, -1 is null; one code per distinct string. */
export interface DictSource {
  kind: 'dict';
  codes: Int32Array;
  dict: readonly string[];
}

/** A float64 column of type number/integer/date: `valid[row] === 0` is null. */
export interface NumSource {
  kind: 'num';
  type: 'number' | 'integer' | 'date';
  values: Float64Array;
  valid: Uint8Array;
}

/** The raw data of a column a fast path can use. */
export type Source = DictSource | NumSource;

/** The typed data of `t`'s column `name`, or undefined when it is not a host dict/float64 column. */
export function sourceOf(t: ColumnTable, name: string): Source | undefined {
  const col = t.column(name) as unknown;
  return col instanceof LazyColumn ? columnSource(col) : undefined;
}

/**
 * sourceOf for the paths that group or count a column (group-by keys, value_counts, unique,
 * distinct counts of a filtered table): long text read in pages is read as the dictionary codes
 * the host builds from its bytes (LazyColumn.hostCodes: one pass on the host, kept for the session)
 * instead of a string per row; any other column as sourceOf reads it.
 */
export function groupSourceOf(t: ColumnTable, name: string): Source | undefined {
  const col = t.column(name) as unknown;
  if (!(col instanceof LazyColumn)) return undefined;
  const raw = col.textPaged ? col.hostCodes() : null;
  if (raw === null) return columnSource(col);
  const d = dictStrings(raw);
  const dict = d.all();
  // the host's order of the entries (absent when some entry is outside the BMP): no sort of them here
  const ranks = (raw as { ranks?: unknown }).ranks;
  if (ranks instanceof Int32Array) knownDictRank(dict, ranks);
  return { kind: 'dict', codes: d.canonical(raw.codes), dict };
}

/** The typed data of a host column, or undefined when it is neither dictionary nor float64 (text read in pages, booleans). */
export function columnSource(col: LazyColumn): Source | undefined {
  const raw = col.data();
  if (raw.kind === 'dict') {
    // one code per string, as every fast path assumes (data/dictStrings.ts)
    const d = dictStrings(raw);
    return { kind: 'dict', codes: d.canonical(raw.codes), dict: d.all() };
  }
  if (raw.kind === 'float64' && (raw.type === 'number' || raw.type === 'integer' || raw.type === 'date')) {
    return { kind: 'num', type: raw.type, values: raw.values, valid: raw.valid };
  }
  return undefined;
}

/**
 * The visible rows of `t` in scan order: table order when `ordered` and the table is ordered, else
 * ascending row index (what Arquero's scan without order visits). null means every row 0..n-1.
 */
export function visibleRows(t: ColumnTable, ordered: boolean): Uint32Array | null {
  if (ordered && t.isOrdered()) return t.indices() as Uint32Array;
  if (!t.isFiltered()) return null;
  return t.indices(false) as Uint32Array;
}

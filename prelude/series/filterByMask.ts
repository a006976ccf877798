/**
 * Filters a table with a boolean Series (`t.filter(mask)`, `t.loc(mask)`, `t[mask]`). A mask as long
 * as the table's visible rows applies position by position (the usual case: the mask was computed
 * from the same table); otherwise it applies by label (pandas aligns on the index: a mask from
 * award_data applied to a filtered award_data). Missing mask values drop the row. No row is copied:
 * the result is the same table with a filter bitmap.
 */
import { BitSet, type ColumnTable } from 'arquero';
import { GuestError } from '../errors/guestError.js';
import { Series } from './Series.js';
import { keepStorageRows } from '../frame/bitWords.js';
import { keptRowsWhere } from './maskKept.js';

/** The rows of `t` where `mask` is true. */
export function filterByMask(t: ColumnTable, mask: Series | readonly unknown[], where: string): ColumnTable {
  const m = mask instanceof Series ? mask : Series.of(mask as unknown[]);
  if (!m.isBoolean()) {
    throw new GuestError(
      'TypeError',
      `${where} needs a boolean mask, but got a Series of ${m.dtypeName} values (column '${m.name ?? ''}')`,
      "Build the mask with a comparison: t['Award Amount'].gt(1e6), t.Agency.eq('DOD'), t.Phase.isin([...]), t['Award Title'].str.contains('x').",
    );
  }
  // a mask the session keeps (maskKept.ts): its kept words and index
  const kept = keptRowsWhere(t, m);
  if (kept) return kept;
  const bits = m.view?.kind === 'bool' ? m.view.bits : null;
  const whole = !t.isFiltered() && !t.isOrdered();
  if (bits && m.length === (whole ? t.totalRows() : t.numRows())) return rowsWhere(t, bits);
  const keep = new BitSet(t.totalRows());
  if (whole && m.length === t.totalRows()) {
    // the whole table in storage order: position i is row i (no index array)
    for (let i = 0; i < m.length; i++) if (m.at0(i) === true) keep.set(i);
    return t.create({ filter: keep });
  }
  const idx = t.indices() as Uint32Array;
  if (m.length === idx.length) {
    for (let i = 0; i < idx.length; i++) if (m.at0(i) === true) keep.set(idx[i]);
  } else if (m.labels || m.length === t.totalRows()) {
    const byLabel = new Map<number, boolean>();
    for (let i = 0; i < m.length; i++) byLabel.set(m.label(i), m.get(i) === true);
    let matched = 0;
    for (let i = 0; i < idx.length; i++) {
      const v = byLabel.get(idx[i]);
      if (v !== undefined) matched++;
      if (v) keep.set(idx[i]);
    }
    // like pandas: a mask must cover every row it filters (an unalignable mask is an error, not a guess)
    if (matched !== idx.length) throw lengthError(where, m.length, idx.length);
  } else {
    throw lengthError(where, m.length, idx.length);
  }
  return t.create({ filter: keep });
}

/**
 * The rows of `t` whose byte in `bits` (one per visible row, in table order) is 1, as a filter
 * bitmap. The whole table in storage order fills the bitmap 32 rows at a time and gets its row
 * index from the bytes at once.
 */
export function rowsWhere(t: ColumnTable, bits: Uint8Array): ColumnTable {
  if (!t.isFiltered() && !t.isOrdered()) return keepStorageRows(t, bits);
  const keep = new BitSet(t.totalRows());
  const idx = t.indices() as Uint32Array;
  for (let i = 0; i < idx.length; i++) if (bits[i]) keep.set(idx[i]);
  return t.create({ filter: keep });
}

function lengthError(where: string, got: number, want: number): GuestError {
  return new GuestError(
    'ValueError',
    `${where}: the mask has ${got} values but the table has ${want} rows`,
    'Build the mask from the same table you filter: const t2 = award_data.filter(...); t2.filter(t2.Phase.eq("Phase II")).',
  );
}

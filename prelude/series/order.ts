/**
 * Positional Series methods: head/tail, sorting, nlargest/nsmallest and the pandas indexers
 * (`s.iloc[0]`, `s.iloc(0)`, `s.loc[label]`, `s.at[label]`, `s.iat[0]`). Sorting is stable, missing
 * values go last, and labels travel with their values.
 */
import { GuestError } from '../errors/guestError.js';
import { compareValues, isNull } from '../frame/common.js';
import { Series } from './Series.js';
import { filterNumbers } from './filterNumbers.js';
import { indexer } from './indexer.js';
import { fastSortValues, fastTopPositions } from './fastOrder.js';

type S = Series;

/** The positions in `s` picked by `pos` (a list of positions). */
export function take(s: S, pos: readonly number[]): S {
  return Series.of(
    pos.map((i) => s.get(i)),
    s.name,
    pos.map((i) => s.label(i)),
    s.dtypeName,
  );
}

/** The stable order of `s`'s positions by value, by the comparator (a Series with no typed view). */
function sortPositions(s: S, ascending: boolean, naFirst = false): number[] {
  const pos = Array.from({ length: s.length }, (_, i) => i);
  const vals = s.toArray();
  return pos.sort((a, b) => {
    const x = vals[a];
    const y = vals[b];
    const nx = isNull(x);
    const ny = isNull(y);
    if (nx || ny) return nx === ny ? a - b : (nx ? 1 : -1) * (naFirst ? -1 : 1);
    const c = compareValues(x, y);
    return c ? (ascending ? c : -c) : a - b;
  });
}

function sortOptions(o: unknown): { ascending: boolean; naFirst: boolean } {
  if (typeof o === 'boolean') return { ascending: o, naFirst: false };
  const opts = (o && typeof o === 'object' ? o : {}) as { ascending?: unknown; na_position?: unknown };
  return {
    ascending: opts.ascending === undefined ? true : Boolean(opts.ascending),
    naFirst: opts.na_position === 'first',
  };
}

function labelPosition(s: S, label: unknown): number {
  const n = Number(label);
  if (!s.labels) return Number.isInteger(n) && n >= 0 && n < s.length ? n : -1;
  for (let i = 0; i < s.length; i++) if (s.labels[i] === n) return i;
  return -1;
}

function byLabel(s: S, label: unknown): unknown {
  if (label instanceof Series) return (s as unknown as { filter(m: S): S }).filter(label);
  if (Array.isArray(label))
    return take(
      s,
      label.map((l) => labelPosition(s, l)).filter((p) => p >= 0),
    );
  const p = labelPosition(s, label);
  if (p < 0)
    throw new GuestError(
      'KeyError',
      `Label ${String(label)} is not in the Series' index`,
      'Labels are the row positions of the original table; use s.iloc[i] for positions.',
    );
  return s.get(p);
}

function byPosition(s: S, i: unknown): unknown {
  if (Array.isArray(i)) return take(s, i.map(Number));
  const n = Number(i);
  if (!Number.isInteger(n) || n >= s.length || n < -s.length)
    throw new GuestError(
      'IndexError',
      `Position ${String(i)} is out of bounds for a Series of length ${s.length}`,
      `Use 0..${s.length - 1} (or negative positions from the end).`,
    );
  return s.get(n);
}

/** Ordering and indexing methods installed on Series.prototype. */
export const ORDER: Record<string, (this: S, ...a: never[]) => unknown> = {
  head(this: S, n?: unknown) {
    const k = Number(n ?? 5);
    const end = k < 0 ? Math.max(0, this.length + k) : Math.min(this.length, k);
    return take(
      this,
      Array.from({ length: end }, (_, i) => i),
    );
  },
  tail(this: S, n?: unknown) {
    const k = Math.min(this.length, Number(n ?? 5));
    return take(
      this,
      Array.from({ length: Math.max(0, k) }, (_, i) => this.length - k + i),
    );
  },
  sort_values(this: S, o?: unknown) {
    const { ascending, naFirst } = sortOptions(o);
    return fastSortValues(this, ascending, naFirst) ?? take(this, sortPositions(this, ascending, naFirst));
  },
  sort_index(this: S, o?: unknown) {
    const { ascending } = sortOptions(o);
    const pos = Array.from({ length: this.length }, (_, i) => i).sort(
      (a, b) => (this.label(a) - this.label(b)) * (ascending ? 1 : -1),
    );
    return take(this, pos);
  },
  nlargest(this: S, n?: unknown) {
    const f = fastTopPositions(this, Number(n ?? 5), true);
    if (f) return take(this, f);
    return take(
      this,
      sortPositions(this, false)
        .filter((i) => !isNull(this.get(i)))
        .slice(0, Number(n ?? 5)),
    );
  },
  nsmallest(this: S, n?: unknown) {
    const f = fastTopPositions(this, Number(n ?? 5), false);
    if (f) return take(this, f);
    return take(
      this,
      sortPositions(this, true)
        .filter((i) => !isNull(this.get(i)))
        .slice(0, Number(n ?? 5)),
    );
  },
  /** Keeps the positions where a boolean mask (Series or array) is true. */
  filter(this: S, mask: unknown) {
    const m = mask instanceof Series ? mask : Array.isArray(mask) ? Series.of(mask) : null;
    if (typeof mask === 'function')
      return take(
        this,
        Array.from({ length: this.length }, (_, i) => i).filter((i) => (mask as (v: unknown) => unknown)(this.get(i))),
      );
    if (!m || m.length !== this.length)
      throw new GuestError(
        'TypeError',
        'Series.filter() expects a boolean mask of the same length, or a function',
        's.filter(s.gt(0)) or s.filter(v => v > 0).',
      );
    return (
      filterNumbers(this, m) ??
      take(
        this,
        Array.from({ length: this.length }, (_, i) => i).filter((i) => m.get(i) === true),
      )
    );
  },
  sample(this: S, n?: unknown) {
    const pos = Array.from({ length: this.length }, (_, i) => i);
    for (let i = pos.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [pos[i], pos[j]] = [pos[j], pos[i]];
    }
    return take(this, pos.slice(0, Number(n ?? 1)));
  },
};

/** The pandas indexers as getters: callable (`s.iloc(0)`) and indexable (`s.iloc[0]`). */
export const INDEXERS: Record<string, (this: S) => unknown> = {
  iloc(this: S) {
    return indexer((i) => byPosition(this, i));
  },
  iat(this: S) {
    return indexer((i) => byPosition(this, i));
  },
  loc(this: S) {
    return indexer((l) => byLabel(this, l));
  },
  at(this: S) {
    return indexer((l) => byLabel(this, l));
  },
};

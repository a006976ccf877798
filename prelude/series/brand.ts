/**
 * How the rest of the prelude recognizes a Series without importing it (format/, serialize/ and
 * output/ sit below series/): a WeakSet of real instances, so guest objects cannot pose as one, and
 * the three things those layers need from it.
 */
import type { ColumnTable } from 'arquero';

/** What print, the serializer and the result need from a Series. */
export interface SeriesView {
  /** pandas-like text (what print shows). */
  text(): string;
  /** The values, at most `max` of them. */
  head(max: number): { toArray(): unknown[] };
  /** The Series as a one-column table (its result form). */
  to_frame(): ColumnTable;
  readonly length: number;
}

const instances = new WeakSet<object>();

/** Records a Series instance (called by its constructor). */
export function brandSeries(s: object): void {
  instances.add(s);
}

/** True for a Series built by the prelude. */
export function isSeries(x: unknown): x is SeriesView {
  return typeof x === 'object' && x !== null && instances.has(x);
}

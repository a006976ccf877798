/**
 * How a column read in parts (csvInParts.ts) is finished the way one pass over the whole file
 * would finish it. Each part first tells what it saw ({@link PartSummary}); the whole column's
 * type and dictionary limit are decided from every part's summary ({@link PartDecision}); then
 * each part encodes its rows by that decision, and the parts are joined (joinColumns.ts).
 */
import type { ColumnData, Utf8Column } from '../../../schema/columnar.js';
import type { DictCodes } from '../columns/dictEncode.js';

/** What one part saw of a column. */
export interface PartSummary {
  /** Cells that are not null. */
  nonNull: number;
  /** An inferred column: which types every non-null cell of the part still parses as. */
  infer?: { num: boolean; allInt: boolean; date: boolean; bool: boolean };
  /**
   * A text column's bitmap of its distinct values (distinctSketch.ts): when the parts' maps prove
   * more distinct values than a dictionary may hold, no part hashes its values for one.
   */
  sketch?: Uint32Array | null;
}

/** How every part encodes its rows of the column. */
export type PartDecision =
  /** A column typed by its SBIR spec: the part's own typed arrays. */
  | { as: 'typed' }
  /** An inferred column that is numbers (`integer`: every one whole), dates or booleans in every part. */
  | { as: 'number'; integer: boolean }
  | { as: 'date' }
  | { as: 'boolean' }
  /** Text: dictionary-coded when the whole column has at most `dictLimit` distinct values (null: never). */
  | { as: 'text'; dictLimit: number | null };

/** The total of the parts' non-null cells. */
export function totalNonNull(parts: readonly PartSummary[]): number {
  return parts.reduce((n, p) => n + p.nonNull, 0);
}

/**
 * A part's rows of a text column that may be dictionary-coded: its UTF-8, and its codes (null when
 * the part alone has more distinct values than the whole column may).
 */
export interface PartText {
  kind: 'part-text';
  text: Utf8Column;
  coded: DictCodes | null;
}

/** What a part hands over for one column. */
export type PartColumn = ColumnData | PartText;

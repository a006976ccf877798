import type { ArrowBatch, ArrowDictionary } from './arrowBatch.js';
import { checkBatches } from './checkBatches.js';
import { textBatch, type TextBatch } from './textBatch.js';
import { textRow } from './textRow.js';

/** One dictionary as its record batches see it: its entry count and where each of its dictionary batches starts. */
export interface DictionaryView {
  size: number;
  /** Part (index into DictionaryEntries.parts) of each dictionary batch, in order. */
  parts: Int32Array;
  /** The dictionary's first entry in each of those parts (key space), plus `size` at the end. */
  starts: Int32Array;
}

/**
 * The entries of every text dictionary of one column, numbered once across them all: each
 * dictionary batch is read and checked once (a delta dictionary shares its first batches with the
 * dictionary it extends; a replacement brings new ones), and entry `g` of the column is entry
 * `g - bases[p]` of part p.
 * @example const e = new DictionaryEntries('t.arrow', 'agency'); const view = e.view(batch.dictionary);
 */
export class DictionaryEntries {
  /** The dictionary batches read so far. */
  readonly parts: TextBatch[] = [];
  /** bases[p]: the column-wide number of part p's first entry; one more entry at the end: the total. */
  bases: number[] = [0];
  private byBatch = new Map<ArrowBatch, number>();
  private byDictionary = new Map<ArrowDictionary, DictionaryView>();
  private fixed = new Map<number, Uint8Array>();

  constructor(
    private readonly file: string,
    private readonly column: string,
  ) {}

  /** A dictionary's view, its batches read and checked on first sight. @throws {DataError} DATA_CORRUPT for a damaged dictionary batch. */
  view(dict: ArrowDictionary): DictionaryView {
    let v = this.byDictionary.get(dict);
    if (v) return v;
    const parts = new Int32Array(dict.data.length);
    const starts = new Int32Array(dict.data.length + 1);
    dict.data.forEach((batch, i) => {
      let p = this.byBatch.get(batch);
      if (p === undefined) {
        const label = `${this.column} (dictionary)`;
        checkBatches([batch], [batch.length], this.file, label);
        const tb = textBatch(batch, 0, this.file, label);
        p = this.parts.push(tb) - 1;
        this.bases.push(this.bases[p] + tb.n);
        this.byBatch.set(batch, p);
      }
      parts[i] = p;
      starts[i + 1] = starts[i] + this.parts[p].n;
    });
    v = { size: starts[dict.data.length], parts, starts };
    this.byDictionary.set(dict, v);
    return v;
  }

  /** The part holding column-wide entry g. */
  partOf(g: number): number {
    let lo = 0;
    let hi = this.parts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.bases[mid] <= g) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Entry g's bytes as the per-value path stores them: [src, start, end). */
  bytes(g: number): [Uint8Array, number, number] {
    const p = this.partOf(g);
    const tb = this.parts[p];
    const i = g - this.bases[p];
    if (tb.clean) return [tb.values, tb.offsets[i], tb.offsets[i + 1]];
    let b = this.fixed.get(g);
    if (!b) this.fixed.set(g, (b = textRow(tb, i)));
    return [b, 0, b.length];
  }
}

/**
 * An Arquero column (`{ length, at(row) }`) whose data is fetched from the host on first access.
 *
 * Arquero's Table constructor spreads the column map (`{ ...columns }`), which would invoke getters,
 * so laziness lives in the column object, not in the map: `award_data` is built from LazyColumns
 * and every derived table shares them. Decoded representations (documented in docs/prelude.md):
 * - float64 'number' | 'integer': the Float64Array itself when no value is null, else a JS array with null;
 * - float64 'date': Date objects (UTC ms) or null;
 * - dict: the dictionary is decoded once, rows map codes to those strings (code -1 is null);
 * - utf8: strings decoded per row on first access and cached (long text such as Abstract is never decoded
 *   in bulk); with bridge.fetchColumnRange, fetched in pages of rows too (data/pagedText.ts);
 * - bool: true / false / null.
 */
import type { ColumnData, ColumnMeta, ColumnType } from '../../schema/columnar.js';
import type { CardColumnData } from '../card/dataCard.js';
import { utf8Decode } from '../polyfills/utf8.js';
import { NativeDate } from '../intrinsics.js';
import { pagedText, type FetchRange } from './pagedText.js';

/** Reads one column's data from the host (bridge.fetchColumn). */
export type ColumnFetcher = () => ColumnData;

type Getter = (row: number) => unknown;

/** A lazily fetched and decoded column of a host table. */
export class LazyColumn {
  /** Number of rows (known from the table metadata, no fetch needed). */
  readonly length: number;
  /** The logical type from the host schema, reported by `dtypes`. */
  readonly type: ColumnType;
  readonly name: string;
  private getter: Getter | null = null;
  private raw: ColumnData | null = null;
  private readonly paged: ReturnType<typeof pagedText> | null;

  constructor(meta: ColumnMeta, numRows: number, private readonly fetch: ColumnFetcher, fetchRange?: FetchRange) {
    this.name = meta.name;
    this.type = meta.type;
    this.length = numRows;
    this.paged = meta.kind === 'utf8' && fetchRange ? pagedText(numRows, fetchRange) : null;
    if (this.paged) this.getter = this.paged.get;
  }

  /** The data in transfer form for describeData() (paged text stays paged). */
  data(): CardColumnData {
    if (this.paged) return { kind: 'utf8-pages', type: this.type, pages: this.paged.pages, text: this.paged.text };
    if (this.raw === null) this.load();
    return this.raw!;
  }

  /** The value at `row` (Arquero's column interface). */
  at(row: number): unknown {
    return (this.getter ?? this.load())(row);
  }

  *[Symbol.iterator](): Iterator<unknown> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }

  /** All values as an array (Arquero calls this for Arrow export). */
  toArray(): unknown[] {
    const out = new Array(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.at(i);
    return out;
  }

  private load(): Getter {
    const raw = this.fetch();
    this.raw = raw;
    this.getter = decode(raw, this.length);
    return this.getter;
  }
}

function decode(c: ColumnData, n: number): Getter {
  switch (c.kind) {
    case 'float64':
      return decodeFloat(c.values, c.valid, c.type === 'date', n);
    case 'dict': {
      const size = c.dictOffsets.length - 1;
      const dict = new Array<string>(size);
      for (let k = 0; k < size; k++) dict[k] = utf8Decode(c.dictBytes, c.dictOffsets[k], c.dictOffsets[k + 1]);
      const codes = c.codes;
      return (row) => {
        const k = codes[row];
        return k < 0 || k === undefined ? null : dict[k];
      };
    }
    case 'utf8': {
      // per-row decode with a cache: undefined = not decoded yet, null = null value
      const cache = new Array<string | null | undefined>(n);
      const { bytes, offsets, valid } = c;
      return (row) => {
        let s = cache[row];
        if (s === undefined) {
          if (row < 0 || row >= n || row !== (row | 0)) return undefined;
          s = valid[row] ? utf8Decode(bytes, offsets[row], offsets[row + 1]) : null;
          cache[row] = s;
        }
        return s;
      };
    }
    case 'bool': {
      const { values, valid } = c;
      return (row) => (row >= 0 && row < n ? (valid[row] ? values[row] !== 0 : null) : undefined);
    }
  }
}

function decodeFloat(values: Float64Array, valid: Uint8Array, isDate: boolean, n: number): Getter {
  let allValid = !isDate;
  if (allValid) for (let i = 0; i < n; i++) if (!valid[i]) { allValid = false; break; }
  if (allValid) return (row) => values[row];
  const arr = new Array<unknown>(n);
  for (let i = 0; i < n; i++) arr[i] = valid[i] ? (isDate ? new NativeDate(values[i]) : values[i]) : null;
  return (row) => arr[row];
}

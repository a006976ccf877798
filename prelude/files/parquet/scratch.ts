/**
 * Buffers reused for every column chunk of one file (sized for one row group), so writing a
 * chunk allocates nothing per row: validity, value staging for DOUBLE/INT64 and the page body.
 */
import { ByteSink } from './byteSink.js';

/** What an encoder returns besides the bytes it put in `values`. */
export interface Encoded {
  /** How many of the chunk's rows are null. */
  nulls: number;
  /** PLAIN (0) or RLE_DICTIONARY (8) for the data page. */
  encoding: number;
  /** The dictionary page's entries (PLAIN), when the chunk is dictionary-encoded with a value. */
  dictEntries?: number;
  /** Statistics (PLAIN bytes of the type), when cheap and well defined. */
  min?: Uint8Array;
  max?: Uint8Array;
}

/** Scratch space for chunks of at most `rows` rows. */
export class Scratch {
  /** 1 = the row has a value, 0 = null, per row of the chunk. */
  readonly valid: Uint8Array;
  readonly f64: Float64Array;
  /** The same bytes as f64, as 32-bit halves (INT64 written as lo/hi pairs). */
  readonly i32: Int32Array;
  readonly big: BigInt64Array;
  readonly codes: Int32Array;
  /** The data page's values (after the levels). */
  readonly values: ByteSink;
  /** The definition levels. */
  readonly levels = new ByteSink(1 << 12);
  /** A dictionary page's entries. */
  readonly dict = new ByteSink(1 << 12);

  constructor(rows: number) {
    this.valid = new Uint8Array(rows);
    this.f64 = new Float64Array(rows);
    this.i32 = new Int32Array(this.f64.buffer);
    this.big = new BigInt64Array(this.f64.buffer);
    this.codes = new Int32Array(rows);
    // a number chunk's size: text chunks grow it further, once per file
    this.values = new ByteSink(rows * 8 + 1024);
  }

  /** Empties the page buffers for the next chunk (capacity kept). */
  reset(): void {
    this.values.pos = 0;
    this.levels.pos = 0;
    this.dict.pos = 0;
  }
}

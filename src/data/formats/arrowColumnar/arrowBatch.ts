/**
 * What the columnar Arrow path reads of one flechette batch (a column's values from one record
 * batch): the decoded buffers as typed-array views into the file, nothing extracted per value.
 * flechette builds these views from the file's own lengths and offsets without checking them
 * against each other; checkBatch.ts does, before anything reads them.
 */
export interface ArrowBatch {
  /** Rows, from the file's field node (any number until checked). */
  length: number;
  /** Nulls, from the file's field node; 0 means flechette ignores the bitmap, and so does this path. */
  nullCount: number;
  /** Validity bitmap: bit i of byte i >> 3, least significant bit first; possibly empty. */
  validity?: Uint8Array;
  /** Fixed-width values (numbers, bit-packed booleans, dictionary keys) or the bytes of text. */
  values?: ArrayBufferView & ArrayLike<number | bigint>;
  /** Text offsets: rows + 1 entries (Int32Array; BigInt64Array for LargeUtf8). */
  offsets?: Int32Array | BigInt64Array;
  /** For a dictionary-encoded batch: the dictionary current when its record batch was read. */
  dictionary?: ArrowDictionary;
}

/** A dictionary as flechette keeps it: a column whose batches are the dictionary batches read so far (delta batches appended). */
export interface ArrowDictionary {
  data: readonly ArrowBatch[];
}

/**
 * Bounds on decoding one user table file (Parquet, Arrow, JSON). Files are decoded in a worker
 * thread under these caps (decodeInWorker.ts); the numbers are checked BEFORE a page is inflated,
 * from the file's own headers, and again on what the decoder actually produced.
 */
export interface DecodeCaps {
  /** Largest accepted file (or upload), in bytes. @default 512 MiB */
  maxInputBytes: number;
  /** Most bytes all pages of the file may inflate to, together. @default 2 GiB */
  maxDecodedBytes: number;
  /** Most bytes one page may inflate to. @default 256 MiB */
  maxPageBytes: number;
  /** Most rows of one table. @default 50,000,000 */
  maxRows: number;
  /** Most columns of one table. @default 10,000 */
  maxColumns: number;
  /** Longest column name, in characters. @default 4096 */
  maxColumnNameChars: number;
  /** Most cells (rows x columns) of a JSON/NDJSON table, whose rows may each name other keys. @default 200,000,000 */
  maxJsonCells: number;
  /** Deepest nesting of arrays and objects in a JSON/NDJSON file (the rows' array is level 1). @default 64 */
  maxJsonDepth: number;
  /** Wall-clock budget of one decode; the worker is terminated past it. @default 120,000 */
  timeoutMs: number;
  /** Old-generation heap of the decode worker, in MiB. @default 2048 */
  heapMb: number;
}

/** The default caps (see each field). */
export const DEFAULT_DECODE_CAPS: Readonly<DecodeCaps> = Object.freeze({
  maxInputBytes: 512 * 1024 * 1024,
  maxDecodedBytes: 2 * 1024 * 1024 * 1024,
  maxPageBytes: 256 * 1024 * 1024,
  maxRows: 50_000_000,
  maxColumns: 10_000,
  maxColumnNameChars: 4096,
  maxJsonCells: 200_000_000,
  maxJsonDepth: 64,
  timeoutMs: 120_000,
  heapMb: 2048,
});

import { z } from 'zod';
import { DatasetInfoSchema } from '../../../schema/result.js';

/**
 * The binary columnar cache ("SBTC"), little-endian:
 *
 * | offset | bytes | field |
 * |---|---|---|
 * | 0 | 8 | magic `SBTCACHE` |
 * | 8 | 4 | format version ({@link CACHE_VERSION}) |
 * | 12 | 4 | header length H |
 * | 16 | 4 | CRC-32 of the header |
 * | 20 | 4 | reserved, 0 |
 * | 24 | H | header: UTF-8 JSON ({@link CacheHeaderSchema}) |
 * | ... | | column buffers, each at an 8-byte aligned offset listed in the header, each followed by its block table |
 *
 * A buffer's block table (at its `crcs` offset, 8-byte aligned) is one checksum (u32) per
 * {@link BLOCK_BYTES} block of the buffer, the last block short: blockSum.ts in version 3, CRC-32
 * in version 2 (~4x the CPU to check). A block is checked alone, so a page of a long text column
 * read by itself is verified before it is served (version 1 had one CRC-32 per buffer, so a range
 * read alone could not be checked).
 *
 * One column is read with one `readSync` per buffer, without touching the others.
 */
export const CACHE_MAGIC = Buffer.from('SBTCACHE', 'latin1');
/** Bump on any change of layout or of what ingest produces; older files are rebuilt. */
export const CACHE_VERSION = 3;
/**
 * Versions a reader opens: 3, and 2 (the same layout with CRC-32 block checksums), so a data
 * folder built with format 2 (`sbirtools build-data`, a folder of format 1) still reads. A cache
 * of version 2 next to a CSV is rebuilt all the same (its blocks cost ~4x as much to check).
 */
export const READ_VERSIONS: readonly number[] = [2, 3];
export { BLOCK_BYTES, blockCount } from './blocks.js';
export const PREFIX_BYTES = 24;

const BufferRefSchema = z.object({
  offset: z.number().int().nonnegative(),
  length: z.number().int().nonnegative(),
  /** Where the buffer's block table starts: ceil(length / BLOCK_BYTES) block checksums, u32 little-endian. */
  crcs: z.number().int().nonnegative(),
});
export type BufferRef = z.infer<typeof BufferRefSchema>;

export { ROLES } from './roles.js';

const ColumnEntrySchema = z.object({
  name: z.string(),
  type: z.enum(['number', 'integer', 'date', 'string', 'boolean']),
  kind: z.enum(['float64', 'dict', 'utf8', 'bool']),
  buffers: z.record(z.string(), BufferRefSchema),
  /**
   * utf8 columns: the rows whose UTF-16 length (`units`) exceeds their characters (`chars`), as
   * [row, units - chars] in row order (a row with characters outside the BMP). With it a `units`
   * question is answered from the `chars` buffer; absent (a cache written before it, or a column
   * with more than {@link MAX_WIDE_ROWS} such rows) the units are counted from the text.
   */
  wideRows: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().positive()])).optional(),
  /**
   * utf8 columns: the distinct byte strings (hex) of the rows of at most {@link SHORT_BYTES} bytes,
   * which the column's {@link SHORT_ROLE} buffer numbers from 1. Absent (a cache written before it,
   * or a column with more than {@link MAX_SHORT_VALUES} such strings): no such buffer.
   */
  shortValues: z.array(z.string().regex(/^(?:[0-9a-f]{2}){0,16}$/)).optional(),
});
export type ColumnEntry = z.infer<typeof ColumnEntrySchema>;

export const CacheHeaderSchema = z.object({
  /** Identity of the source CSV this cache was built from (see identity.ts). */
  key: z.string(),
  /** Total size of the cache file: a shorter file is truncated. */
  fileBytes: z.number().int().positive(),
  name: z.string(),
  numRows: z.number().int().nonnegative(),
  info: DatasetInfoSchema,
  /** The IngestReport of the build (kept as JSON). */
  report: z.record(z.string(), z.unknown()),
  columns: z.array(ColumnEntrySchema),
});
export type CacheHeader = z.infer<typeof CacheHeaderSchema>;

/**
 * The extra buffer of a utf8 column in this cache (beside its ROLES buffers): Int32 characters
 * (code points, as textScan's `len` counts them) per row, -1 for a null row, so a length question
 * reads 4 bytes a row instead of the text.
 */
export const CHARS_ROLE = 'chars';

/**
 * The second cache-only buffer of a utf8 column: one byte per row, k >= 1 when the row's bytes are
 * entry k - 1 of the column's `shortValues` (a row of at most SHORT_BYTES bytes), 0 for a null or
 * longer row. An equality with a short literal (`d.Abstract === 'N/A'`) is then answered from
 * 1 byte a row instead of the text: a row that decodes to the literal is never longer in UTF-8 bytes.
 */
export const SHORT_ROLE = 'short';
/** Longest row (bytes) the short index holds. */
export const SHORT_BYTES = 16;
/** Most distinct short strings a column's index holds (one byte per row, 0 reserved). */
export const MAX_SHORT_VALUES = 255;

/** Most rows a column's `wideRows` lists; a column with more is written without it. */
export const MAX_WIDE_ROWS = 1024;

/** Rounds up to a multiple of 8. */
export const align8 = (n: number): number => Math.ceil(n / 8) * 8;

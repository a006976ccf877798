import { z } from 'zod';
import { DatasetInfoSchema } from '../../../schema/result.js';

/** File name of the manifest that marks a folder as a built data folder (every format). */
export const DATA_DIR_MANIFEST = 'sbirtools-data.json';
/** The `format` field of a format-2 manifest. */
export const PACK_FORMAT = 'sbirtools-data';
/** Bump on any change of layout or of what ingest produces; readers refuse other versions. */
export const PACK_VERSION = 2;

const BufferSchema = z.object({
  /** Where the buffer's stored (compressed) bytes start in the column file. */
  offset: z.number().int().nonnegative(),
  /** Stored bytes. */
  length: z.number().int().nonnegative(),
  /** Bytes once inflated: the typed array's byte length. */
  rawLength: z.number().int().nonnegative(),
  codec: z.enum(['gzip', 'none']),
  /**
   * A long buffer (PAGED_MIN_BYTES and up) is stored as independent gzip members of `pageRaw`
   * bytes each (the last one shorter), so its pages inflate in parallel: the stored length of each.
   * Absent: one gzip stream. The concatenation is still one valid gzip file (a reader that ignores
   * this field inflates it in one pass).
   */
  pages: z.array(z.number().int().positive()).optional(),
  /** Bytes of every page but the last once inflated (with `pages`). */
  pageRaw: z.number().int().positive().optional(),
});
export type PackBuffer = z.infer<typeof BufferSchema>;

const ColumnSchema = z.object({
  name: z.string(),
  type: z.enum(['number', 'integer', 'date', 'string', 'boolean']),
  kind: z.enum(['float64', 'dict', 'utf8', 'bool']),
  /** Relative path of the column file: `columns/<NN>.col`, never outside the folder. */
  file: z.string().regex(/^columns\/[0-9]{2,4}\.col$/),
  /** Size of the column file. */
  bytes: z.number().int().nonnegative(),
  /** SHA-256 (hex) of the whole column file. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  buffers: z.record(z.string(), BufferSchema),
});
export type PackColumn = z.infer<typeof ColumnSchema>;

/** The format-2 manifest (docs/dataset.md "On-disk layout"). */
export const PackManifestSchema = z.object({
  format: z.literal(PACK_FORMAT),
  v: z.literal(PACK_VERSION),
  /** Identity of the source CSV (the binary cache's key). */
  key: z.string(),
  name: z.string(),
  numRows: z.number().int().nonnegative(),
  info: DatasetInfoSchema,
  report: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  /** The codec the builder used (a buffer may still be stored `none`). */
  codec: z.enum(['gzip']),
  columns: z.array(ColumnSchema),
});
export type PackManifest = z.infer<typeof PackManifestSchema>;

/** Buffer roles per column kind, in file order (the binary cache's roles). */
export { ROLES } from '../cache/roles.js';

/**
 * A manifest's text parsed and checked, or why not (the caller words the error: local folder or URL).
 * @example const m = parseManifest(text); if (typeof m === 'string') throw ...;
 */
export function parseManifest(text: string): PackManifest | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return `not JSON (${(err as Error).message})`;
  }
  const v = (json as { v?: unknown; format?: unknown } | null)?.v;
  if ((json as { format?: unknown } | null)?.format !== PACK_FORMAT || v !== PACK_VERSION)
    return `format ${JSON.stringify(v)}, this version of sbirtools reads format ${PACK_VERSION}`;
  const parsed = PackManifestSchema.safeParse(json);
  if (!parsed.success)
    return `malformed (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`;
  const names = new Set<string>();
  for (const c of parsed.data.columns) {
    if (names.has(c.name)) return `column ${JSON.stringify(c.name)} listed twice`;
    names.add(c.name);
    for (const b of Object.values(c.buffers)) {
      if (b.offset + b.length > c.bytes) return `a buffer of column ${JSON.stringify(c.name)} lies outside its file`;
      if ((b.pages === undefined) !== (b.pageRaw === undefined) || (b.pages && b.codec !== 'gzip'))
        return `a buffer of column ${JSON.stringify(c.name)} has a malformed page list`;
      if (
        b.pages &&
        b.pageRaw &&
        (pageSum(b.pages) !== b.length || b.pages.length !== Math.ceil(b.rawLength / b.pageRaw))
      )
        return `the pages of a buffer of column ${JSON.stringify(c.name)} do not add up to the buffer`;
    }
  }
  return parsed.data;
}

const pageSum = (pages: number[]) => pages.reduce((n, p) => n + p, 0);

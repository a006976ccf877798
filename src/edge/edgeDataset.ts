import { gunzip as gunzipInJs } from 'hyparquet-compressors/src/gzip.js';
import type { ColumnData, TableMeta } from '../../schema/columnar.js';
import type { DatasetInfo } from '../../schema/result.js';
import { columnFromBuffers } from '../data/pack/columnFromBuffers.js';
import { DATA_DIR_MANIFEST, parseManifest, type PackColumn, type PackManifest } from '../data/pack/manifest.js';
import type { TableProvider } from '../runtime/engines/engineSession.js';
import { DataFetchError, type FolderSource } from './folderSource.js';
import { SbirtoolsError } from '../core/errors.js';

const MB = 1048576;

/** An error a guest sees when it reaches a column the edge cannot hold. */
export class ColumnTooLargeError extends SbirtoolsError {
  constructor(message: string) {
    super('COLUMN_TOO_LARGE', message);
  }
}

/**
 * award_data of a built data folder (`sbirtools build-data`, format 2: a manifest and one gzip'd
 * file per column; docs/dataset.md) for a runtime where a column cannot be read synchronously when
 * the guest first touches it: `prepare(names)` fetches the column files a run will read, checks
 * each against the manifest's size and SHA-256 (Web Crypto), inflates its buffers with
 * `DecompressionStream`, then the provider serves them from memory. A column larger than
 * `maxColumnBytes` once inflated is never fetched; touching it is a COLUMN_TOO_LARGE error naming
 * the column, its size and the limit.
 */
export class EdgeDataset {
  private readonly columns = new Map<string, ColumnData>();
  private readonly byName: Map<string, PackColumn>;
  private loadedBytes = 0;

  private constructor(
    private readonly source: FolderSource,
    private readonly header: PackManifest,
    readonly maxColumnBytes: number,
    readonly maxHeldBytes: number,
  ) {
    this.byName = new Map(header.columns.map((c) => [c.name, c]));
  }

  /** Fetch and check the folder's manifest. @throws {DataFetchError} */
  static async open(
    source: FolderSource,
    maxColumnBytes: number,
    maxHeldBytes = 2 * maxColumnBytes,
  ): Promise<EdgeDataset> {
    const manifest = parseManifest(new TextDecoder().decode(await source.read(DATA_DIR_MANIFEST)));
    if (typeof manifest === 'string') {
      throw new DataFetchError(
        `${source.name}${DATA_DIR_MANIFEST} is not a data folder manifest this version reads: ${manifest}. Rebuild the folder with \`sbirtools build-data\` and upload it as is.`,
      );
    }
    return new EdgeDataset(source, manifest, maxColumnBytes, maxHeldBytes);
  }

  get info(): DatasetInfo {
    return this.header.info;
  }

  get meta(): TableMeta {
    return {
      name: 'award_data',
      numRows: this.header.numRows,
      columns: this.header.columns.map(({ name, type, kind }) => ({ name, type, kind })),
    };
  }

  /** Bytes of a column once inflated (all its buffers): what it takes in memory. */
  columnBytes(name: string): number {
    const entry = this.byName.get(name);
    return entry ? Object.values(entry.buffers).reduce((n, b) => n + b.rawLength, 0) : 0;
  }

  /** The columns among `names` (all when null) that are too large for this runtime. */
  tooLarge(names: string[] | null): string[] {
    return (names ?? [...this.byName.keys()]).filter(
      (n) => this.byName.has(n) && this.columnBytes(n) > this.maxColumnBytes,
    );
  }

  /** The message for a column over the limit. */
  tooLargeMessage(name: string): string {
    return (
      `Column '${name}' of award_data is ${(this.columnBytes(name) / MB).toFixed(1)} MB; on the edge (Cloudflare Workers and Vercel Edge, 128 MB per isolate) ` +
      `a column may hold at most ${(this.maxColumnBytes / MB).toFixed(0)} MB. Use the numeric and categorical columns here, ` +
      `or run this question on a Node function (sbirtools bundle --target lambda|vercel|node), which reads long text page by page.`
    );
  }

  /**
   * Fetch the columns among `names` (all that fit when null) not held yet, in parallel. Columns of
   * earlier runs stay cached for the next request while all of them fit in `maxHeldBytes`; past
   * that, those this run does not name are dropped first, and a column that still does not fit is
   * not fetched (touching it is the COLUMN_TOO_LARGE error).
   */
  async prepare(names: string[] | null): Promise<void> {
    const candidates = (names ?? [...this.byName.keys()]).filter(
      (n) => this.byName.has(n) && this.columnBytes(n) <= this.maxColumnBytes,
    );
    const keep = new Set(candidates);
    const missing = candidates.filter((n) => !this.columns.has(n));
    const need = missing.reduce((sum, n) => sum + this.columnBytes(n), 0);
    if (this.loadedBytes + need > this.maxHeldBytes) {
      for (const name of [...this.columns.keys()]) {
        if (keep.has(name)) continue;
        this.columns.delete(name);
        this.loadedBytes -= this.columnBytes(name);
      }
    }
    let budget = this.maxHeldBytes - this.loadedBytes;
    const fetch: string[] = [];
    for (const n of missing) {
      if (this.columnBytes(n) > budget) continue;
      budget -= this.columnBytes(n);
      fetch.push(n);
    }
    await Promise.all(fetch.map(async (n) => this.columns.set(n, await this.fetchColumn(n))));
  }

  /** The table as a session sees it: columns fetched by prepare(), or a clear error. */
  provider(): TableProvider {
    return {
      meta: this.meta,
      loadColumn: (name) => {
        const hit = this.columns.get(name);
        if (hit) return hit;
        if (!this.byName.has(name))
          throw Object.assign(new Error(`award_data has no column '${name}'`), { code: 'COLUMN_NOT_FOUND' });
        if (this.columnBytes(name) > this.maxColumnBytes) throw new ColumnTooLargeError(this.tooLargeMessage(name));
        if (this.byName.size > this.columns.size && this.loadedBytes + this.columnBytes(name) > this.maxHeldBytes) {
          throw new ColumnTooLargeError(
            `Column '${name}' of award_data did not fit: on the edge (128 MB per isolate) a run holds at most ${(this.maxHeldBytes / MB).toFixed(0)} MB of columns. Select the columns you need first (award_data.select('A', 'B')).`,
          );
        }
        // named only at run time (d[name]): not fetched before the run, and it cannot be fetched mid-run
        throw new ColumnTooLargeError(
          `Column '${name}' was not loaded before the run: on the edge, name the columns you use as string literals (d['${name}'] or '${name}').`,
        );
      },
    };
  }

  private async fetchColumn(name: string): Promise<ColumnData> {
    const entry = this.byName.get(name)!;
    const where = `${this.source.name}${entry.file} (column '${name}')`;
    const file = await this.source.read(entry.file);
    if (file.byteLength !== entry.bytes)
      throw new DataFetchError(
        `${where}: ${file.byteLength} bytes, the manifest says ${entry.bytes} (a partial or changed upload).`,
      );
    if ((await sha256Hex(file)) !== entry.sha256)
      throw new DataFetchError(
        `${where} does not match the manifest's SHA-256: the file was changed or damaged; upload the folder again.`,
      );
    const raw: Record<string, Uint8Array> = {};
    for (const [role, b] of Object.entries(entry.buffers)) {
      const stored = file.subarray(b.offset, b.offset + b.length);
      raw[role] = b.codec === 'none' ? stored : await gunzip(stored, b.rawLength, where);
      if (raw[role]!.byteLength !== b.rawLength)
        throw new DataFetchError(
          `${where}: ${role} is ${raw[role]!.byteLength} bytes once inflated, expected ${b.rawLength}.`,
        );
    }
    const col = columnFromBuffers(entry, this.header.numRows, raw);
    if (typeof col === 'string') throw new DataFetchError(`${where}: ${col}.`);
    this.loadedBytes += this.columnBytes(name);
    return col;
  }

  /** Bytes of columns held in memory. */
  get heldBytes(): number {
    return this.loadedBytes;
  }
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * gzip -> bytes (no node:zlib on the edge), refusing more than `rawLength`: with the Web's
 * DecompressionStream where the platform has it (Workers), else a JavaScript inflate (Vercel's
 * Edge Runtime lists no Compression Streams). The file was checked against the manifest's SHA-256 first.
 */
async function gunzip(stored: Uint8Array, rawLength: number, where: string): Promise<Uint8Array> {
  if (typeof DecompressionStream !== 'function') {
    try {
      return gunzipInJs(stored, new Uint8Array(rawLength));
    } catch (err) {
      throw new DataFetchError(`${where}: a buffer does not inflate (${(err as Error).message}).`);
    }
  }
  const out = new Uint8Array(rawLength);
  let at = 0;
  try {
    const reader = new Blob([stored as Uint8Array<ArrayBuffer>])
      .stream()
      .pipeThrough(new DecompressionStream('gzip'))
      .getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (at + value.byteLength > rawLength) {
        await reader.cancel();
        throw new DataFetchError(`${where}: a buffer inflates past its ${rawLength} bytes.`);
      }
      out.set(value, at);
      at += value.byteLength;
    }
  } catch (err) {
    if (err instanceof DataFetchError) throw err;
    throw new DataFetchError(`${where}: a buffer does not inflate (${(err as Error).message}).`);
  }
  return at === rawLength ? out : out.subarray(0, at);
}

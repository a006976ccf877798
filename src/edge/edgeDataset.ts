import type { ColumnData, TableMeta } from '../../schema/columnar.js';
import type { DatasetInfo } from '../../schema/result.js';
import { crc32Table } from '../data/cache/crc32Table.js';
import type { TableProvider } from '../runtime/tableProviders.js';
import { DataFetchError, type ByteSource } from './byteSource.js';

/** The part of the SBTC header (src/data/cache/format.ts) the edge reads. */
interface Header {
  name: string;
  numRows: number;
  info: DatasetInfo;
  columns: { name: string; type: ColumnData['type']; kind: ColumnData['kind']; buffers: Record<string, { offset: number; length: number; crc: number }> }[];
}

const MAGIC = 'SBTCACHE';
const VERSION = 1;
const PREFIX_BYTES = 24;
const MB = 1048576;

/** An error a guest sees when it reaches a column the edge cannot hold. */
export class ColumnTooLargeError extends Error {
  override readonly name = 'ColumnTooLargeError';
  readonly code = 'COLUMN_TOO_LARGE';
}

/**
 * award_data of a built data file (`sbirtools build-data`'s award_data.sbtc) read by byte ranges,
 * for a runtime where a column cannot be read synchronously when the guest first touches it:
 * `prepare(names)` fetches the columns a run will read (checksum-verified), then the provider
 * serves them from memory. A column over `maxColumnBytes` is never fetched; touching it is a
 * COLUMN_TOO_LARGE error naming the column, its size and the limit.
 */
export class EdgeDataset {
  private readonly columns = new Map<string, ColumnData>();
  private readonly byName: Map<string, Header['columns'][number]>;
  private loadedBytes = 0;

  private constructor(
    private readonly source: ByteSource,
    private readonly header: Header,
    readonly maxColumnBytes: number,
    readonly maxHeldBytes: number,
  ) {
    this.byName = new Map(header.columns.map((c) => [c.name, c]));
  }

  /** Read and check the file's prefix and header (two range reads). */
  static async open(source: ByteSource, maxColumnBytes: number, maxHeldBytes = 2 * maxColumnBytes): Promise<EdgeDataset> {
    const prefix = await source.read(0, PREFIX_BYTES);
    const view = new DataView(prefix.buffer, prefix.byteOffset, prefix.byteLength);
    const magic = new TextDecoder().decode(prefix.subarray(0, 8));
    if (magic !== MAGIC) throw new DataFetchError(`${source.name} is not a built data file (no SBTCACHE magic). Point it at the award_data.sbtc of a folder written by \`sbirtools build-data\`.`);
    if (view.getUint32(8, true) !== VERSION) throw new DataFetchError(`${source.name} is data format ${view.getUint32(8, true)}; this sbirtools reads ${VERSION}. Rebuild it with this version's \`sbirtools build-data\`.`);
    const headerBytes = await source.read(PREFIX_BYTES, view.getUint32(12, true));
    if (crc32Table(headerBytes) !== view.getUint32(16, true)) throw new DataFetchError(`${source.name}: the header's checksum does not match (a damaged or partial upload).`);
    return new EdgeDataset(source, JSON.parse(new TextDecoder().decode(headerBytes)) as Header, maxColumnBytes, maxHeldBytes);
  }

  get info(): DatasetInfo {
    return this.header.info;
  }

  get meta(): TableMeta {
    return { name: 'award_data', numRows: this.header.numRows, columns: this.header.columns.map(({ name, type, kind }) => ({ name, type, kind })) };
  }

  /** Bytes of a column in the file (all its buffers). */
  columnBytes(name: string): number {
    const entry = this.byName.get(name);
    return entry ? Object.values(entry.buffers).reduce((n, b) => n + b.length, 0) : 0;
  }

  /** The columns among `names` (all when null) that are too large for this runtime. */
  tooLarge(names: string[] | null): string[] {
    return (names ?? [...this.byName.keys()]).filter((n) => this.byName.has(n) && this.columnBytes(n) > this.maxColumnBytes);
  }

  /** The message for a column over the limit. */
  tooLargeMessage(name: string): string {
    return (
      `Column '${name}' of award_data is ${(this.columnBytes(name) / MB).toFixed(1)} MB; on the edge (Cloudflare Workers, 128 MB per isolate) ` +
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
    const candidates = (names ?? [...this.byName.keys()]).filter((n) => this.byName.has(n) && this.columnBytes(n) <= this.maxColumnBytes);
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
        if (!this.byName.has(name)) throw Object.assign(new Error(`award_data has no column '${name}'`), { code: 'COLUMN_NOT_FOUND' });
        if (this.columnBytes(name) > this.maxColumnBytes) throw new ColumnTooLargeError(this.tooLargeMessage(name));
        if (this.byName.size > this.columns.size && this.loadedBytes + this.columnBytes(name) > this.maxHeldBytes) {
          throw new ColumnTooLargeError(
            `Column '${name}' of award_data did not fit: on the edge (128 MB per isolate) a run holds at most ${(this.maxHeldBytes / MB).toFixed(0)} MB of columns. Select the columns you need first (award_data.select('A', 'B')).`,
          );
        }
        // named only at run time (d[name]): not fetched before the run, and it cannot be fetched mid-run
        throw new ColumnTooLargeError(`Column '${name}' was not loaded before the run: on the edge, name the columns you use as string literals (d['${name}'] or '${name}').`);
      },
    };
  }

  private async fetchColumn(name: string): Promise<ColumnData> {
    const entry = this.byName.get(name)!;
    const b = async (role: string): Promise<ArrayBuffer> => {
      const ref = entry.buffers[role];
      if (!ref) throw new DataFetchError(`${this.source.name}: column '${name}' has no ${role} buffer (a damaged file).`);
      const bytes = await this.source.read(ref.offset, ref.length);
      if (crc32Table(bytes) !== ref.crc) throw new DataFetchError(`${this.source.name}: column '${name}' (${role}) does not match its checksum; the file is damaged or was changed during the read.`);
      this.loadedBytes += bytes.byteLength;
      // a copy at offset 0 of its own buffer, so typed views of any width line up
      return bytes.slice().buffer;
    };
    const kind = entry.kind;
    if (kind === 'float64') return { kind, type: entry.type as 'number', values: new Float64Array(await b('values')), valid: new Uint8Array(await b('valid')) };
    if (kind === 'bool') return { kind, type: 'boolean', values: new Uint8Array(await b('values')), valid: new Uint8Array(await b('valid')) };
    if (kind === 'utf8') return { kind, type: 'string', bytes: new Uint8Array(await b('bytes')), offsets: new Int32Array(await b('offsets')), valid: new Uint8Array(await b('valid')) };
    return { kind: 'dict', type: 'string', codes: new Int32Array(await b('codes')), dictBytes: new Uint8Array(await b('dictBytes')), dictOffsets: new Int32Array(await b('dictOffsets')) };
  }

  /** Bytes of columns held in memory. */
  get heldBytes(): number {
    return this.loadedBytes;
  }
}

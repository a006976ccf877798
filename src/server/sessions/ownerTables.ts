import { createHash } from 'node:crypto';
import type { ColumnarTable } from '../../../schema/columnar.js';
import { decodeInWorker } from '../../sandbox/tables.js';
import { encodeTable } from '../../sandbox/tables.js';
import { SbirtoolsError } from '../../core/errors.js';
import { sharedOrLocal } from '../limits/sharedOrLocal.js';
import type { SharedStore, StoredTableInfo } from '../store/sharedStore.js';

/** Decoded tables a replica keeps (by fingerprint), so a session opening does not decode again. */
const KEEP_DECODED = 32;
/** Owners whose last known table set a replica keeps, for runs while the store is down or slow. */
const KEEP_SETS = 1000;

/** An owner's added tables at one moment: their schemas and the version every cell records. */
export interface TableSet {
  /** '' when the owner added none; else a hash of every (name, fingerprint) pair. */
  version: string;
  infos: StoredTableInfo[];
}

/**
 * The tables API keys add through `add_table` on `sbirtools serve`. A table is stored once in the
 * shared store as an Arrow IPC file of the decoded table (so every replica gets the same typed
 * columns whatever the upload's format), listed per owner with its schema, and decoded at most
 * once per replica, in the hardened decode worker.
 */
export class OwnerTables {
  private readonly decoded = new Map<string, ColumnarTable>();
  private readonly lastSets = new Map<string, TableSet>();

  constructor(
    private readonly store: SharedStore,
    private readonly ttlMs: number,
  ) {}

  /** Store `table` as `owner`'s table of its name (replacing one of the same name). */
  async add(owner: string, table: ColumnarTable): Promise<StoredTableInfo> {
    const bytes = encodeTable(table.columns, 'arrow');
    const sha = createHash('sha256').update(bytes).digest('hex');
    const info: StoredTableInfo = {
      name: table.name,
      sha,
      numRows: table.numRows,
      columns: table.columns.map((c) => ({ name: c.name, type: c.type })),
    };
    await this.store.putTable(owner, info, bytes, this.ttlMs);
    this.keep(sha, table);
    return info;
  }

  /** `owner`'s tables now (refreshes their TTL). */
  async current(owner: string): Promise<TableSet> {
    const infos = await this.store.tableIndex(owner, this.ttlMs);
    const version = infos.length
      ? createHash('sha256')
          .update(infos.map((t) => `${t.name}\u0000${t.sha}`).join('\u0001'))
          .digest('hex')
          .slice(0, 32)
      : '';
    const set = { version, infos };
    this.lastSets.delete(owner);
    this.lastSets.set(owner, set);
    if (this.lastSets.size > KEEP_SETS) this.lastSets.delete(this.lastSets.keys().next().value!);
    return set;
  }

  /**
   * For a run that needs nothing else from the store (one without a session): `owner`'s tables,
   * or, when the store fails or takes over `waitMs`, the set this replica saw last (none when it
   * saw none; `stale` then says so). A down or slow Redis so never stops or slows such runs.
   */
  async currentOrLast(owner: string, waitMs: number): Promise<TableSet & { stale?: boolean }> {
    const { value, local } = await sharedOrLocal(
      () => this.current(owner),
      async () => this.lastSets.get(owner) ?? { version: '', infos: [] },
      waitMs,
    );
    return local ? { ...value, stale: true } : value;
  }

  /**
   * The decoded tables of a set, by name (for a sandbox's `tables`).
   * @throws {SbirtoolsError} STORE_UNAVAILABLE when a table's bytes expired or cannot be decoded.
   */
  async decode(owner: string, set: TableSet): Promise<Record<string, ColumnarTable>> {
    const out: Record<string, ColumnarTable> = {};
    for (const info of set.infos) {
      let table = this.decoded.get(info.sha);
      if (!table) {
        const bytes = await this.store.tableBytes(owner, info.sha);
        if (!bytes || createHash('sha256').update(bytes).digest('hex') !== info.sha) {
          throw new SbirtoolsError(
            'STORE_UNAVAILABLE',
            `The table '${info.name}' added with add_table is no longer in the shared store (expired or damaged). Add it again with add_table.`,
          );
        }
        table = await decodeInWorker(info.name, bytes, `table '${info.name}'`, 'arrow');
        this.keep(info.sha, table);
      }
      out[info.name] = table.name === info.name ? table : { ...table, name: info.name };
    }
    return out;
  }

  private keep(sha: string, table: ColumnarTable): void {
    this.decoded.delete(sha);
    this.decoded.set(sha, table);
    if (this.decoded.size > KEEP_DECODED) this.decoded.delete(this.decoded.keys().next().value!);
  }
}

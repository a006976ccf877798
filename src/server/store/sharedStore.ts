/** `{ now, seed }` a cell ran with: replaying it with the same pair gives the same clock and randomness. */
export interface CellDeterminism {
  now: number;
  seed: number;
}

/**
 * One cell of a session as the shared store keeps it: what ran, with which clock and seed, and the
 * hashes of what came out. A replica that does not hold the session replays these in order and
 * compares each hash before it runs a new cell.
 */
export interface Cell {
  /** Random id; a holder remembers the ids it applied, so it can tell how far behind it is. */
  id: string;
  code: string;
  deterministic: CellDeterminism;
  ok: boolean;
  errorType?: string;
  valueHash: string;
  stdoutHash: string;
  /** Version of the owner's added tables the cell ran with (absent: none); another version resets the session. */
  tables?: string;
  /** A marker, not a run: the state was reset here (a limit disposed the isolate); never replayed. */
  reset?: boolean;
}

/**
 * A table an owner added (MCP `add_table` through `sbirtools serve`), as the store lists it: the
 * schema for tool descriptions and resources, and the fingerprint of its stored bytes (an Arrow IPC
 * file of the decoded table) that every replica decodes once and keeps.
 */
export interface StoredTableInfo {
  name: string;
  /** SHA-256 of the stored bytes (hex). */
  sha: string;
  numRows: number;
  columns: Array<{ name: string; type: string }>;
}

/** A stored answer of an idempotent request. */
export interface StoredAnswer {
  /** Hash of the request body: a retry with another body under the same key is refused. */
  fingerprint: string;
  status: number;
  body: string;
  /** Whether the code ran (true), or never started (false). */
  ran: boolean;
}

/**
 * What replicas share: sessions' cells, idempotent answers, leases (per-session and per-request
 * locks), rate-limit windows, per-identity budgets and run slots, and the tables owners added.
 * A call that cannot reach the store throws StoreUnavailableError (`STORE_UNAVAILABLE`). Small values with TTLs, never objects (an isolate cannot be
 * shared; its history can). `createMemoryStore()` for one replica, `createRedisStore()` for many.
 */
export interface SharedStore {
  readonly kind: 'memory' | 'redis';
  /** Create an empty session owned by `owner`; false when it already exists. */
  createSession(owner: string, id: string, ttlMs: number): Promise<boolean>;
  /** True when `owner` has a session `id`; refreshes its TTL. */
  touchSession(owner: string, id: string, ttlMs: number): Promise<boolean>;
  /** The session ids of `owner`. */
  listSessions(owner: string): Promise<string[]>;
  /** Forget a session and its cells; false when it did not exist. */
  deleteSession(owner: string, id: string): Promise<boolean>;
  /** The session's cells, in order. */
  cells(owner: string, id: string): Promise<Cell[]>;
  /** Drop every cell (the session's state was reset). */
  clearCells(owner: string, id: string): Promise<void>;
  /** Append a cell and, in the same atomic step, store an idempotent answer. */
  appendCell(
    owner: string,
    id: string,
    cell: Cell,
    answer?: { key: string; value: StoredAnswer; ttlMs: number },
  ): Promise<void>;
  /** Add or replace `owner`'s table `info.name` with its bytes; both live `ttlMs` from their last use. */
  putTable(owner: string, info: StoredTableInfo, bytes: Uint8Array, ttlMs: number): Promise<void>;
  /** `owner`'s tables (sorted by name), refreshing their TTL: every run reads this. */
  tableIndex(owner: string, ttlMs: number): Promise<StoredTableInfo[]>;
  /** The stored bytes of `owner`'s table with fingerprint `sha`, or undefined when expired. */
  tableBytes(owner: string, sha: string): Promise<Uint8Array | undefined>;
  /** Store an idempotent answer of a run without a session. */
  putAnswer(key: string, value: StoredAnswer, ttlMs: number): Promise<void>;
  getAnswer(key: string): Promise<StoredAnswer | undefined>;
  /** Take the lease `name` for `ttlMs` when free; the token to renew or release it, or undefined when taken. */
  acquireLease(name: string, ttlMs: number): Promise<string | undefined>;
  /** Extend a lease we hold; false when it was lost (expired and taken). */
  renewLease(name: string, token: string, ttlMs: number): Promise<boolean>;
  releaseLease(name: string, token: string): Promise<void>;
  /** Count one hit in the fixed window `name` of `windowMs`; the count so far and ms until it resets. */
  hit(name: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
  /**
   * Spend `cost` from the budget `name`: at most `limit` spends in any `windowMs` (a sliding
   * window, so no double burst at a window's edge). Atomic: of a burst, exactly the first `limit`
   * pass, whichever replica they reach. `retryMs`: when the oldest spend leaves the window.
   */
  spend(
    name: string,
    limit: number,
    windowMs: number,
    cost?: number,
  ): Promise<{ ok: boolean; used: number; retryMs: number }>;
  /** Take one of the `limit` slots `name` for `ttlMs` (atomic); its token, or undefined when all are taken. */
  acquireSlot(name: string, limit: number, ttlMs: number): Promise<string | undefined>;
  /** Extend a slot we hold; false when it expired. */
  renewSlot(name: string, token: string, ttlMs: number): Promise<boolean>;
  releaseSlot(name: string, token: string): Promise<void>;
  /** True when the store answers. */
  ping(): Promise<boolean>;
  /** Disconnect. Idempotent. */
  close(): Promise<void>;
}

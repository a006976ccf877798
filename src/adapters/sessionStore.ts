import { LIMIT_KEYS, resolveLimits, type Limits } from '../../schema/limits.js';
import type { RunResult } from '../../schema/result.js';
import { run, createSandbox, type RunOptions, type Sandbox } from '../sandbox/sandbox.js';
import { SbirtoolsError, SbirtoolsValidationError } from '../core/errors.js';
import type { Pool } from '../sandbox/pool.js';
import type { SandboxOptions } from '../sandbox/options.js';
import { emptyResult } from '../sandbox/precheck.js';
import { withCapsules, type RunFn } from '../capsule/withCapsules.js';
import { validateOptions } from '../sandbox/options.js';

/** Options of createSessionStore(). */
export interface SessionStoreOptions {
  /** Options of every sandbox (preset, limits, dataPath, tables...). */
  sandbox?: Omit<SandboxOptions, 'pool' | 'deterministic'>;
  /** Run on this pool's holder processes (from createPool()). */
  pool?: Pool;
  /** Close a session after this long without a run. @default 600000 (10 min) */
  idleTimeoutMs?: number;
  /** Most sessions open at once; at the cap the least recently used idle one is closed. @default 16 */
  maxSessions?: number;
  /** Append a capsule record of every run to this JSONL file. */
  capsuleLog?: string;
  /** Also keep each run's outputs (stdout, value, tables, chart SVGs, error) in the capsule log, for `sbirtools view`. @default false */
  capsuleOutputs?: boolean;
  /** Give every run a fresh recorded `{ now, seed }` (replayable). @default false */
  deterministic?: boolean;
  /**
   * Open one sandbox as soon as the store is created, for the first run to take: that run (a new
   * session's or a one-shot) then finds its data loaded and its isolate built, and warmed in the
   * idle time before it (docs/architecture.md "Spare isolates and the warm-up"). On for `sbirtools
   * mcp` (serveStdio), whose first call follows the client's start by the model's thinking; a
   * standby opened before addTable() is closed unused. @default false
   */
  standby?: boolean;
}

interface Entry {
  id: string;
  box: Promise<Sandbox>;
  run: Promise<RunFn>;
  inflight: number;
  lastUsed: number;
  timer?: NodeJS.Timeout;
}

/**
 * Sessions keyed by a caller-given id (an MCP client's or a model's `session_id`), with idle expiry
 * and a cap; runs without an id are one-shot. Shared by the MCP server and the tool adapters.
 */
export class SessionStore {
  private readonly sessions = new Map<string, Entry>();
  private readonly closing = new Set<Promise<void>>();
  private readonly oneShot: RunFn;
  private readonly idleMs: number;
  private readonly max: number;
  private closed = false;
  /** Tables added after creation (MCP add_table): merged into every sandbox opened from now on. */
  private added: Record<string, NonNullable<SandboxOptions['tables']>[string]> = {};
  /** Sessions opened before the last addTable(): reopened (state lost) on their next run. */
  private stale = new Set<Entry>();
  /** The limits every run gets (validated when the store is created). */
  readonly limits: Limits;
  /** The sandbox opened ahead for the first run (`standby` option), until a run takes it or it goes stale. */
  private standby: { box: Promise<Sandbox>; added: SessionStore['added'] } | undefined;

  constructor(private readonly options: SessionStoreOptions = {}) {
    this.idleMs = positive('idleTimeoutMs', options.idleTimeoutMs ?? 600_000);
    this.max = positive('maxSessions', options.maxSessions ?? 16);
    if (options.standby !== undefined && typeof options.standby !== 'boolean')
      throw new SbirtoolsValidationError(
        `Expected the \`standby\` option to be true or false, got \`${String(options.standby)}\``,
      );
    const sandbox = options.sandbox ?? {};
    try {
      this.limits = resolveLimits(sandbox.preset, Object.fromEntries(LIMIT_KEYS.map((k) => [k, sandbox[k]])));
    } catch (err) {
      const issues = (err as { issues?: Array<{ message: string }> }).issues;
      throw new SbirtoolsValidationError(issues ? issues.map((i) => i.message).join('; ') : (err as Error).message);
    }
    // The cast: run()'s type intersects SandboxOptions.deterministic (boolean) with RunOptions'
    // ({ now, seed }); run() itself accepts either, and we only ever pass the object.
    const base: RunFn = (code, o) => {
      const merged = { ...this.sandboxOptions(), ...o } as Parameters<typeof run>[1];
      return options.pool ? options.pool.run(code, merged) : run(code, merged);
    };
    this.oneShot = this.wrap(base);
    if (options.standby) this.standby = this.openStandby();
  }

  private openStandby(): { box: Promise<Sandbox>; added: SessionStore['added'] } {
    const { pool } = this.options;
    const sandbox = this.sandboxOptions();
    const box = pool ? pool.createSandbox(sandbox) : createSandbox(sandbox);
    // a standby that fails to open is dropped at the first run, which opens its own and reports the error
    box.catch(() => undefined);
    return { box, added: this.added };
  }

  /**
   * The standby sandbox, once (the `standby` option): undefined when there is none, it failed to
   * open or it was opened before the last addTable() (then closed unused).
   */
  private async takeStandby(): Promise<Sandbox | undefined> {
    const standby = this.standby;
    this.standby = undefined;
    if (!standby) return undefined;
    const box = await standby.box.catch(() => undefined);
    if (!box) return undefined;
    if (standby.added === this.added) return box;
    await box.close();
    return undefined;
  }

  /** Sessions open now, and how many are running code. */
  stats(): { open: number; busy: number; maxSessions: number } {
    const busy = [...this.sessions.values()].filter((e) => e.inflight > 0).length;
    return { open: this.sessions.size, busy, maxSessions: this.max };
  }

  /**
   * Run code in the session `sessionId` (created on first use), or one-shot without an id.
   * All sessions busy at the cap -> a `QUEUE_FULL` result, not an exception.
   * @throws {SbirtoolsError} `SESSIONS_CLOSED` after close().
   */
  async run(
    code: string,
    opts: { sessionId?: string; signal?: AbortSignal; onOutput?: RunOptions['onOutput'] } = {},
  ): Promise<RunResult> {
    if (this.closed) throw new SbirtoolsError('SESSIONS_CLOSED', 'The session store is closed: create a new one.');
    const signal = {
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.onOutput ? { onOutput: opts.onOutput } : {}),
    };
    if (opts.sessionId === undefined) {
      const box = this.standby ? await this.takeStandby() : undefined;
      if (!box) return this.oneShot(code, signal);
      try {
        return await this.wrap(box)(code, signal);
      } finally {
        await box.close();
      }
    }
    const existing = this.sessions.get(opts.sessionId);
    if (existing && this.stale.has(existing) && existing.inflight === 0) await this.drop(existing);
    const entry = this.sessions.get(opts.sessionId) ?? this.open(opts.sessionId);
    if (!entry) return this.allBusy(opts.sessionId);
    entry.inflight++;
    clearTimeout(entry.timer);
    try {
      const runFn = await entry.run;
      return await runFn(code, signal);
    } catch (err) {
      // A session that failed to open is forgotten, so the next call tries again.
      if (
        this.sessions.get(entry.id) === entry &&
        !(await entry.box.then(
          () => true,
          () => false,
        ))
      )
        this.sessions.delete(entry.id);
      throw err;
    } finally {
      entry.inflight--;
      entry.lastUsed = Date.now();
      if (entry.inflight === 0 && this.sessions.get(entry.id) === entry) {
        entry.timer = setTimeout(() => this.expire(entry), this.idleMs).unref();
      }
    }
  }

  /**
   * Add (or replace) a table for every run from now on: one-shot runs and new sessions see it at
   * once; sessions opened before are reopened on their next run, so their variables are lost.
   * @throws {SbirtoolsValidationError} for a bad name or table (checked like the `tables` option).
   */
  addTable(name: string, table: NonNullable<SandboxOptions['tables']>[string]): void {
    validateOptions({ tables: { [name]: table } });
    this.added = { ...this.added, [name]: table };
    for (const e of this.sessions.values()) this.stale.add(e);
  }

  /** Name, rows and column types of every added table that is decoded (Parquet, Arrow, JSON, CSV via add_table). */
  tableSchemas(): TableSchema[] {
    return Object.entries(this.added).flatMap(([name, t]) =>
      isSchema(t) ? [{ name, numRows: t.numRows, columns: t.columns }] : [],
    );
  }

  /** The tables added with addTable(), by name. */
  addedTables(): Record<string, NonNullable<SandboxOptions['tables']>[string]> {
    return { ...this.added };
  }

  private sandboxOptions(): Omit<SandboxOptions, 'pool' | 'deterministic'> {
    const sandbox = this.options.sandbox ?? {};
    return Object.keys(this.added).length ? { ...sandbox, tables: { ...sandbox.tables, ...this.added } } : sandbox;
  }

  /** Close one session now. Idempotent. */
  async closeSession(id: string): Promise<void> {
    const entry = this.sessions.get(id);
    if (entry) await this.drop(entry);
  }

  /** Close every session (waits for runs in flight). Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    const standby = this.standby;
    this.standby = undefined;
    if (standby) await standby.box.then((b) => b.close()).catch(() => undefined);
    await Promise.all([...this.sessions.values()].map((e) => this.drop(e)));
    await Promise.all([...this.closing]);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private open(id: string): Entry | undefined {
    if (this.sessions.size >= this.max) {
      const idle = [...this.sessions.values()].filter((e) => e.inflight === 0).sort((a, b) => a.lastUsed - b.lastUsed);
      if (!idle[0]) return undefined;
      void this.drop(idle[0]);
    }
    const { pool } = this.options;
    const sandbox = this.sandboxOptions();
    const standby = this.standby ? this.takeStandby() : undefined;
    const box = standby
      ? standby.then((b) => b ?? (pool ? pool.createSandbox(sandbox) : createSandbox(sandbox)))
      : pool
        ? pool.createSandbox(sandbox)
        : createSandbox(sandbox);
    const entry: Entry = { id, box, run: box.then((b) => this.wrap(b, id)), inflight: 0, lastUsed: Date.now() };
    entry.run.catch(() => undefined);
    this.sessions.set(id, entry);
    return entry;
  }

  private wrap(target: Sandbox | RunFn, session?: string): RunFn {
    const { capsuleLog, capsuleOutputs, deterministic, sandbox } = this.options;
    if (!capsuleLog && !deterministic) return typeof target === 'function' ? target : (code, o) => target.run(code, o);
    return withCapsules(target, {
      path: capsuleLog,
      deterministic,
      outputs: capsuleOutputs === true,
      ...(session ? { session } : {}),
      ...(sandbox?.preset ? { preset: sandbox.preset } : {}),
    });
  }

  private expire(entry: Entry): void {
    if (entry.inflight === 0 && this.sessions.get(entry.id) === entry) void this.drop(entry);
  }

  private drop(entry: Entry): Promise<void> {
    if (this.sessions.get(entry.id) === entry) this.sessions.delete(entry.id);
    this.stale.delete(entry);
    clearTimeout(entry.timer);
    const done = entry.box.then(
      (b) => b.close(),
      () => undefined,
    );
    this.closing.add(done);
    void done.finally(() => this.closing.delete(done));
    return done;
  }

  private allBusy(id: string): RunResult {
    return emptyResult(this.limits, {
      type: 'QUEUE_FULL',
      message: `All ${this.max} sessions are busy running code, so session "${id}" cannot be opened now.`,
      hint: 'Retry when a run finishes, reuse the session_id of an open session, or omit session_id for a one-off run.',
    });
  }
}

function positive(name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
    throw new SbirtoolsValidationError(
      `Expected the \`${name}\` option to be a positive integer, got \`${String(v)}\``,
    );
  }
  return v;
}

/**
 * Create a session store.
 * @throws {SbirtoolsValidationError} for a bad preset, limit, idleTimeoutMs, maxSessions or standby.
 * @example
 * await using sessions = createSessionStore({ maxSessions: 4 });
 * await sessions.run('const n = award_data.numRows()', { sessionId: 'a' });
 * (await sessions.run('n', { sessionId: 'a' })).value;
 */
export function createSessionStore(options: SessionStoreOptions = {}): SessionStore {
  return new SessionStore(options);
}

/** What a line about a table needs: a decoded table, or a stored table's schema (serve's added tables). */
export interface TableSchema {
  name: string;
  numRows: number;
  columns: ReadonlyArray<{ name: string; type: string }>;
}

function isSchema(t: unknown): t is TableSchema {
  const o = t as Partial<TableSchema> | null;
  return typeof o === 'object' && o !== null && typeof o.numRows === 'number' && Array.isArray(o.columns);
}

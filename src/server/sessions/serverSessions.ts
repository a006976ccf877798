import { randomUUID } from 'node:crypto';
import type { Tracer } from '@opentelemetry/api';
import type { PresetName } from '../../../schema/limits.js';
import type { RunResult } from '../../../schema/result.js';
import { appendCapsule } from '../../capsule/capsuleLog.js';
import { capsuleRecordFor } from '../../capsule/capsuleRecordFor.js';
import { freshDeterminism } from '../../capsule/determinism.js';
import { recordOutputs } from '../../capsule/recordOutputs.js';
import type { SandboxOptions } from '../../sandbox/options.js';
import type { Pool } from '../../sandbox/pool.js';
import type { Sandbox } from '../../sandbox/sandbox.js';
import type { Cell, SharedStore, StoredAnswer } from '../store/sharedStore.js';
import type { ColumnarTable } from '../../../schema/columnar.js';
import type { StoredTableInfo } from '../store/sharedStore.js';
import { codeRan } from './cellOutcome.js';
import { OwnerTables, type TableSet } from './ownerTables.js';
import { recordRun } from './recordRun.js';
import { withSessionHint } from './sessionHint.js';
import { tracedRun } from './tracedRun.js';
import { replayCells, type ReplayCaps } from './replayCells.js';
import { withLease } from './withLease.js';

/** Options of ServerSessions. */
export interface ServerSessionsOptions {
  store: SharedStore;
  pool: Pool;
  sandbox: Omit<SandboxOptions, 'pool' | 'deterministic'>;
  /** A session nobody used for this long is forgotten by the store. */
  sessionTtlMs: number;
  /** Isolates this replica keeps for sessions; the least recently used idle one is closed past it. */
  maxLocalSessions: number;
  caps: ReplayCaps;
  /** Longest a run waits for its session (another request of the same session is running). */
  lockWaitMs: number;
  capsuleLog?: string;
  /** Also keep each run's outputs in its capsule record (for the viewer). @default false */
  capsuleOutputs?: boolean;
  /** OpenTelemetry tracer for `sbirtools.run` spans (from @opentelemetry/api; no-op unless an SDK is registered). */
  tracer?: Tracer;
  /** Longest a run without a session waits for the store before using what this replica knows. @default 1000 */
  storeWaitMs?: number;
  /** Called after every run (metrics, logs, a viewer's record). */
  observe?: (event: RunEvent) => void;
}

/** What observe() gets after a run. */
export interface RunEvent {
  owner: string;
  sessionId?: string;
  code: string;
  run: SessionRun;
  ms: number;
}

/** One run through ServerSessions. */
export interface SessionRun {
  result: RunResult;
  /** The code started executing (false: rejected before it ran, e.g. QUEUE_FULL or a syntax error). */
  ran: boolean;
  /** Cells replayed first to rebuild the session on this replica. */
  replayedCells: number;
  replayMs: number;
  /** Why the session was reset before this run, when it was. */
  resetReason?: string;
}

/** An idempotent answer to store with the run, atomically with its cell. */
export interface AnswerSlot {
  key: string;
  fingerprint: string;
  ttlMs: number;
}

/** Options of one run. */
export interface RunRequest {
  sessionId?: string;
  /** Create the session on first use (MCP tools), instead of answering not found (REST). */
  create?: boolean;
  signal?: AbortSignal;
  answer?: AnswerSlot;
  /** Receives what the code prints while it runs (MCP progress, REST event streams). */
  onOutput?: (stream: 'stdout' | 'stderr', text: string) => void;
  /** 'low': the caller is over its fair share; the code runs in the low-priority holder (budget.ts). */
  priority?: 'low';
}

interface Local {
  box: Sandbox;
  /** Version of the owner's added tables this isolate was opened with. */
  tables: string;
  /** Ids of the store's cells this isolate has applied, in order. */
  applied: string[];
  /** In the low-priority holder. */
  low: boolean;
  lastUsed: number;
  busy: boolean;
}

/**
 * Sessions of a server, owned by API keys. The isolate of a session lives on one replica; its
 * history (cells with their `{ now, seed }` and result hashes) lives in the shared store. A replica
 * whose isolate is behind the history (or that has none) replays the missing cells first and checks
 * every hash; a difference or a cap resets the session and the result says so (`sessionReset`).
 */
export class ServerSessions {
  private readonly local = new Map<string, Local>();
  private readonly tables: OwnerTables;

  constructor(private readonly o: ServerSessionsOptions) {
    this.tables = new OwnerTables(o.store, o.sessionTtlMs);
  }

  /**
   * Add (or replace) a table for every run of `owner` from now on, on every replica. Sessions
   * that ran code before start over at their next run (`sessionReset`): their history was built
   * with the earlier tables.
   */
  addTable(owner: string, table: ColumnarTable): Promise<StoredTableInfo> {
    return this.tables.add(owner, table);
  }

  /** The schemas of `owner`'s added tables. */
  async tableInfos(owner: string): Promise<StoredTableInfo[]> {
    return (await this.tables.current(owner)).infos;
  }

  /** Isolates held on this replica. */
  get localCount(): number {
    return this.local.size;
  }

  /** A new empty session of `owner`; its id. */
  async create(owner: string): Promise<string> {
    const id = randomUUID();
    await this.o.store.createSession(owner, id, this.o.sessionTtlMs);
    return id;
  }

  list(owner: string): Promise<string[]> {
    return this.o.store.listSessions(owner);
  }

  /** Forget a session everywhere (this replica's isolate now; others notice at their next run). */
  async remove(owner: string, id: string): Promise<boolean> {
    await this.dropLocal(`${owner}:${id}`);
    return this.o.store.deleteSession(owner, id);
  }

  /**
   * Run `code` in `owner`'s session `sessionId` (one-shot without one). An unknown session is
   * created when `create`, else the answer is undefined (not found).
   */
  async run(owner: string, code: string, opts: RunRequest): Promise<SessionRun | undefined> {
    const sessionId = opts.sessionId;
    return tracedRun(
      this.o.tracer,
      sessionId,
      () => this.runInner(owner, code, opts),
      (run, ms) => this.o.observe?.({ owner, ...(sessionId ? { sessionId } : {}), code, run, ms }),
    );
  }

  private async runInner(owner: string, code: string, opts: RunRequest): Promise<SessionRun | undefined> {
    const { store } = this.o;
    if (opts.sessionId === undefined) {
      // an idempotent run stores its answer and so needs the store anyway; others must not wait on it
      const set = opts.answer
        ? await this.tables.current(owner)
        : await this.tables.currentOrLast(owner, this.o.storeWaitMs ?? 1000);
      const result = await this.o.pool.run(code, {
        ...(await this.sandboxFor(owner, set)),
        ...(opts.priority ? { priority: opts.priority } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.onOutput ? { onOutput: opts.onOutput } : {}),
      });
      if ('stale' in set && set.stale)
        result.stderr += `sbirtools: the shared store did not answer in time, so this run used the tables this replica knew (${set.infos.length ? set.infos.map((t) => t.name).join(', ') : 'none added with add_table'}).\n`;
      // QUEUE_FULL is not an answer to keep: the retry must get a chance to run
      if (opts.answer && result.error?.type !== 'QUEUE_FULL')
        await store.putAnswer(opts.answer.key, answerOf(opts.answer, result), opts.answer.ttlMs);
      await this.capsule(owner, code, result);
      return { result, ran: codeRan(result), replayedCells: 0, replayMs: 0 };
    }
    const id = opts.sessionId;
    if (!(await store.touchSession(owner, id, this.o.sessionTtlMs))) {
      if (!opts.create) return undefined;
      await store.createSession(owner, id, this.o.sessionTtlMs);
    }
    const lease = `session:${owner}:${id}`;
    return withLease(store, lease, { waitMs: this.o.lockWaitMs, ...(opts.signal ? { signal: opts.signal } : {}) }, () =>
      this.runHeld(owner, id, code, opts),
    );
  }

  private async runHeld(
    owner: string,
    id: string,
    code: string,
    opts: Pick<RunRequest, 'signal' | 'answer' | 'onOutput' | 'priority'>,
  ): Promise<SessionRun> {
    const { store } = this.o;
    const full = `${owner}:${id}`;
    const set = await this.tables.current(owner);
    let cells = await store.cells(owner, id);
    let resetReason: string | undefined;
    // cells that ran with another set of added tables cannot be replayed as they ran
    if (cells.some((c) => !c.reset && (c.tables ?? '') !== set.version)) {
      resetReason =
        'tables were added with add_table after its earlier runs (a session starts over with the new tables)';
      await store.clearCells(owner, id);
      await this.dropLocal(full);
      cells = [];
    }
    let local = this.local.get(full);
    // the session follows its caller's lane (FairScheduler: in past twice the others' average run
    // time, out at their average), rebuilt from its history in the other holder at the caller's cost
    const low = opts.priority === 'low';
    if (local && (!isPrefix(local.applied, cells) || local.tables !== set.version || local.low !== low)) {
      await this.dropLocal(full);
      local = undefined;
    }
    local ??= await this.openLocal(full, owner, set, low);
    const missing = cells.slice(local.applied.length);
    const replay = await replayCells(
      local.box,
      missing.filter((c) => !c.reset),
      local.applied.filter((_, i) => !cells[i]!.reset).length,
      this.o.caps,
    );
    if (replay.ok) local.applied.push(...missing.map((c) => c.id));
    else {
      resetReason = `its history could not be rebuilt on this replica: ${replay.reason}`;
      await store.clearCells(owner, id);
      await this.dropLocal(full);
      local = await this.openLocal(full, owner, set, low);
    }
    // A reset marker last in the history: a limit disposed the isolate at the previous run.
    const afterReset = !resetReason && cells.length > 0 && cells[cells.length - 1]!.reset === true;
    const deterministic = freshDeterminism();
    const time = new Date().toISOString();
    local.busy = true;
    const result = await local.box
      .run(code, {
        deterministic,
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.onOutput ? { onOutput: opts.onOutput } : {}),
      })
      .finally(() => {
        local.busy = false;
        local.lastUsed = Date.now();
      });
    if (resetReason || afterReset) result.sessionReset = true;
    if (resetReason)
      result.stderr += `sbirtools: this session was reset before this run because ${resetReason}. Variables from earlier runs are gone: recreate them.\n`;
    withSessionHint(result, id);
    const answer = opts.answer
      ? { key: opts.answer.key, value: answerOf(opts.answer, result), ttlMs: opts.answer.ttlMs }
      : undefined;
    let applied: string[] | undefined;
    try {
      applied = await recordRun(
        store,
        owner,
        id,
        { code, deterministic, result, applied: local.applied, tables: set.version },
        answer,
      );
    } catch (err) {
      // the isolate ran a cell the history does not have (the store failed): keeping it would run
      // that cell twice after the client's retry; the next run rebuilds from the history instead
      await this.dropLocal(full);
      throw err;
    }
    // undefined: a limit disposed the isolate; the next run, on any replica, rebuilds from the history alone
    if (applied) local.applied = applied;
    else await this.dropLocal(full);
    await this.capsule(
      owner,
      code,
      result,
      { id: full, seq: cells.filter((c) => !c.reset).length + 1 },
      deterministic,
      time,
    );
    return {
      result,
      ran: codeRan(result),
      replayedCells: replay.cells,
      replayMs: replay.ms,
      ...(resetReason ? { resetReason } : {}),
    };
  }

  /** The sandbox options of `owner`'s runs: the server's, plus the owner's added tables. */
  private async sandboxFor(owner: string, set: TableSet): Promise<Omit<SandboxOptions, 'pool' | 'deterministic'>> {
    if (!set.infos.length) return this.o.sandbox;
    return { ...this.o.sandbox, tables: { ...this.o.sandbox.tables, ...(await this.tables.decode(owner, set)) } };
  }

  private async openLocal(full: string, owner: string, set: TableSet, low: boolean): Promise<Local> {
    if (this.local.size >= this.o.maxLocalSessions) {
      const oldest = [...this.local.entries()]
        .filter(([, l]) => !l.busy)
        .sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0];
      // an evicted session is not lost: its history is in the store and any replica rebuilds it
      if (oldest) await this.dropLocal(oldest[0]);
    }
    const box = await this.o.pool.createSandbox({
      ...(await this.sandboxFor(owner, set)),
      ...(low ? { priority: 'low' as const } : {}),
    });
    const entry: Local = { box, tables: set.version, applied: [], lastUsed: Date.now(), busy: false, low };
    this.local.set(full, entry);
    return entry;
  }

  private async dropLocal(full: string): Promise<void> {
    const entry = this.local.get(full);
    if (!entry) return;
    this.local.delete(full);
    await entry.box.close().catch(() => undefined);
  }

  private async capsule(
    owner: string,
    code: string,
    result: RunResult,
    session?: { id: string; seq: number },
    deterministic?: { now: number; seed: number },
    time = new Date().toISOString(),
  ): Promise<void> {
    if (!this.o.capsuleLog) return;
    const preset = this.o.sandbox.preset as PresetName | undefined;
    const record = capsuleRecordFor(code, result, {
      time,
      key: owner,
      ...(session ? { session } : {}),
      ...(preset ? { preset } : {}),
      ...(deterministic ? { deterministic } : {}),
    });
    if (this.o.capsuleOutputs) record.outputs = await recordOutputs(result);
    await appendCapsule(this.o.capsuleLog, record);
  }

  /** Close every isolate of this replica (the histories stay in the store). Idempotent. */
  async close(): Promise<void> {
    await Promise.all([...this.local.keys()].map((k) => this.dropLocal(k)));
  }
}

function isPrefix(applied: string[], cells: Cell[]): boolean {
  return applied.length <= cells.length && applied.every((id, i) => cells[i]!.id === id);
}

function answerOf(slot: AnswerSlot, result: RunResult): StoredAnswer {
  return {
    fingerprint: slot.fingerprint,
    status: result.error?.type === 'QUEUE_FULL' ? 503 : 200,
    body: JSON.stringify(result),
    ran: codeRan(result),
  };
}

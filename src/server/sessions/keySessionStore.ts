import type { Limits } from '../../../schema/limits.js';
import type { RunResult } from '../../../schema/result.js';
import { SessionStore, type TableSchema } from '../../adapters/sessionStore.js';
import { SbirtoolsValidationError } from '../../core/errors.js';
import { validateOptions } from '../../sandbox/options.js';
import type { SandboxOptions } from '../../sandbox/options.js';
import { emptyResult } from '../../sandbox/precheck.js';
import type { ColumnarTable } from '../../../schema/columnar.js';
import type { ServerSessions } from './serverSessions.js';
import { LeaseTimeoutError } from './withLease.js';

/**
 * One API key's view of the server's sessions, shaped as the SessionStore the MCP tools use:
 * `session_id`s are names inside this key's space (created on first use), so a key never reaches
 * another key's session even by guessing its name.
 */
export class KeySessionStore extends SessionStore {
  private schemas: TableSchema[] = [];

  constructor(
    private readonly shared: ServerSessions,
    private readonly owner: string,
    sandbox: Omit<SandboxOptions, 'pool' | 'deterministic'>,
    private readonly request: {
      /** 'low': this request's caller is over its fair share; its code runs at low CPU priority. */
      priority?: 'low';
      /** Receives each run's CPU time (the budget charges it to the caller). */
      charge?: (cpuMs: number) => void;
    } = {},
  ) {
    super({ sandbox });
  }

  override async run(code: string, opts: Parameters<SessionStore['run']>[1] = {}): Promise<RunResult> {
    try {
      const done = await this.shared.run(this.owner, code, {
        ...opts,
        create: true,
        ...(this.request.priority ? { priority: this.request.priority } : {}),
      });
      this.request.charge?.(done!.result.stats.cpuMs);
      return done!.result;
    } catch (err) {
      if (err instanceof LeaseTimeoutError) return sessionBusy(this.limits, opts.sessionId ?? '');
      throw err;
    }
  }

  /** Read this key's added tables (their schemas) from the shared store; call before serving a request. */
  async load(): Promise<this> {
    this.schemas = await this.shared.tableInfos(this.owner);
    return this;
  }

  override tableSchemas(): TableSchema[] {
    return [...this.schemas];
  }

  /**
   * Add a decoded table for this key on every replica (ServerSessions.addTable): one-shot runs and
   * sessions see it from their next run; sessions that ran code before start over.
   * @throws {SbirtoolsValidationError} for a bad name, or a table that is not decoded (columnar).
   */
  override async addTable(name: string, table: NonNullable<SandboxOptions['tables']>[string]): Promise<void> {
    validateOptions({ tables: { [name]: table } });
    const t = table as Partial<ColumnarTable>;
    if (typeof t !== 'object' || t === null || !Array.isArray(t.columns) || typeof t.numRows !== 'number') {
      throw new SbirtoolsValidationError(
        `table ${name}: the server keeps decoded tables only (what add_table makes from a file)`,
      );
    }
    const info = await this.shared.addTable(this.owner, { ...(t as ColumnarTable), name });
    this.schemas = [...this.schemas.filter((s) => s.name !== name), info];
  }

  override async closeSession(id: string): Promise<void> {
    await this.shared.remove(this.owner, id);
  }

  /** The server owns the sessions: closing one connection's view closes nothing. */
  override async close(): Promise<void> {}
}

/** The answer when a session stayed busy with another request: the code never started. */
export function sessionBusy(limits: Limits, id: string): RunResult {
  return emptyResult(limits, {
    type: 'QUEUE_FULL',
    message: `Session "${id}" is busy running another request, so this code never started.`,
    hint: 'Wait for the other call on this session_id to answer, then send this code again.',
  });
}

import type { Limits } from '../../../schema/limits.js';
import type { RunResult } from '../../../schema/result.js';
import { SessionStore } from '../../adapters/sessionStore.js';
import type { SandboxOptions } from '../../runtime/options.js';
import { emptyResult } from '../../runtime/precheck.js';
import type { ServerSessions } from './serverSessions.js';
import { LeaseTimeoutError } from './withLease.js';

/**
 * One API key's view of the server's sessions, shaped as the SessionStore the MCP tools use:
 * `session_id`s are names inside this key's space (created on first use), so a key never reaches
 * another key's session even by guessing its name.
 */
export class KeySessionStore extends SessionStore {
  constructor(
    private readonly shared: ServerSessions,
    private readonly owner: string,
    sandbox: Omit<SandboxOptions, 'pool' | 'deterministic'>,
  ) {
    super({ sandbox });
  }

  override async run(code: string, opts: { sessionId?: string; signal?: AbortSignal } = {}): Promise<RunResult> {
    try {
      const done = await this.shared.run(this.owner, code, { ...opts, create: true });
      return done!.result;
    } catch (err) {
      if (err instanceof LeaseTimeoutError) return sessionBusy(this.limits, opts.sessionId ?? '');
      throw err;
    }
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

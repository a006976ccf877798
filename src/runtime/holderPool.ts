import { HolderExitedError, HolderProcess } from './holderProcess.js';
import { emptyOutcome, type Backend } from './backend.js';
import type { GuestRunRequest, RawRunOutcome, SessionSpec } from './protocol.js';
import type { DatasetInfo } from '../../schema/result.js';

/** How long past its deadline a run may go before its holder is SIGKILLed (deadline + 1 s is the promise). */
export const KILL_GRACE_MS = 500;
/** Holder RSS above (sum of session limits x this + base) is killed from the host side. */
const RSS_KILL_FACTOR = 2;
const RSS_BASE_BYTES = 512 * 1048576;
const RSS_POLL_MS = 50;

interface Assignment {
  holder: HolderProcess;
  spec: SessionSpec;
  dataset: DatasetInfo | undefined;
}

/**
 * Holder processes that sessions are spread over (fewest sessions first). Watches each run from
 * the host: a holder that overruns a deadline by KILL_GRACE_MS, or whose RSS passes its budget,
 * is SIGKILLed; its sessions are reopened on a fresh holder at their next run (`sessionReset`).
 */
export class HolderPool implements Backend {
  private readonly holders: Array<HolderProcess | undefined>;
  private readonly sessions = new Map<string, Assignment>();

  constructor(readonly size = 1) {
    this.holders = new Array(size).fill(undefined);
  }

  async open(id: string, spec: SessionSpec): Promise<{ dataset: DatasetInfo | undefined }> {
    const holder = this.pick();
    holder.sessions++;
    try {
      const { dataset } = await holder.request<{ dataset: DatasetInfo | undefined }>({ op: 'open', sessionId: id, spec });
      this.sessions.set(id, { holder, spec, dataset });
      return { dataset };
    } catch (err) {
      holder.sessions--;
      throw err;
    }
  }

  async run(id: string, req: GuestRunRequest, signal?: AbortSignal): Promise<RawRunOutcome & { reset: boolean }> {
    let a = this.sessions.get(id);
    if (!a) throw new Error(`no open session ${id}`);
    let reset = false;
    if (a.holder.exited) {
      // Its holder died (another session's catastrophe, or a kill): rebuild the session elsewhere.
      await this.open(id, a.spec);
      a = this.sessions.get(id)!;
      reset = true;
    }
    const holder = a.holder;
    const started = performance.now();
    const deadline = setTimeout(() => holder.kill(`a run passed its ${req.timeoutMs} ms deadline`), req.timeoutMs + KILL_GRACE_MS);
    const budget = sessionBudget(this.sessionsOn(holder));
    const rssWatch = setInterval(() => {
      const rss = holder.rssBytes();
      if (rss !== undefined && rss > budget) holder.kill('its memory passed the limit');
    }, RSS_POLL_MS);
    const onAbort = () => void holder.request({ op: 'abort', sessionId: id }).catch(() => undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const out = await holder.request<RawRunOutcome & { reset: boolean }>({ op: 'run', sessionId: id, run: req });
      return { ...out, reset: reset || out.reset };
    } catch (err) {
      if (!(err instanceof HolderExitedError)) throw err;
      const wall = performance.now() - started;
      const killedByDeadline = err.reason === 'killed' && /deadline/.test(err.message);
      const status = killedByDeadline ? 'timeout' : err.reason === 'crash' ? 'internal' : 'memory';
      return { ...emptyOutcome(status, err.message, Math.round(wall)), reset };
    } finally {
      clearTimeout(deadline);
      clearInterval(rssWatch);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  async close(id: string): Promise<void> {
    const a = this.sessions.get(id);
    if (!a) return;
    this.sessions.delete(id);
    a.holder.sessions--;
    if (!a.holder.exited) await a.holder.request({ op: 'close', sessionId: id }).catch(() => undefined);
  }

  async liveIsolates(): Promise<number> {
    let n = 0;
    for (const h of this.holders) {
      if (h && !h.exited) n += (await h.request<{ liveIsolates: number }>({ op: 'stats' }).catch(() => ({ liveIsolates: 0 }))).liveIsolates;
    }
    return n;
  }

  /** Pids of the live holder processes (tests use them to kill a holder from outside). */
  pids(): number[] {
    return this.holders.filter((h): h is HolderProcess => !!h && !h.exited).map((h) => h.pid!);
  }

  async shutdown(): Promise<void> {
    this.sessions.clear();
    await Promise.all(
      this.holders.map(async (h) => {
        if (!h) return;
        h.shutdown();
        const timer = setTimeout(() => h.kill('shutdown took too long'), 2_000);
        await h.closed();
        clearTimeout(timer);
      }),
    );
    this.holders.fill(undefined);
  }

  private sessionsOn(holder: HolderProcess): SessionSpec[] {
    return [...this.sessions.values()].filter((a) => a.holder === holder).map((a) => a.spec);
  }

  private pick(): HolderProcess {
    let best = -1;
    for (let i = 0; i < this.holders.length; i++) {
      const h = this.holders[i];
      if (!h || h.exited) {
        this.holders[i] = new HolderProcess();
        return this.holders[i]!;
      }
      if (best < 0 || h.sessions < this.holders[best]!.sessions) best = i;
    }
    return this.holders[best]!;
  }
}

function sessionBudget(specs: SessionSpec[]): number {
  const limits = specs.reduce((sum, s) => sum + s.limits.memoryLimitMb * 1048576, 0);
  return RSS_BASE_BYTES + limits * RSS_KILL_FACTOR;
}

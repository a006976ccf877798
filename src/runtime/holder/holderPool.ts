import { HolderExitedError, HolderProcess } from './holderProcess.js';
import { emptyOutcome, type Backend } from './backend.js';
import { SbirtoolsValidationError } from '../../core/errors.js';
import type { OutputListener, SessionPriority, SourceRunRequest, SessionSpec } from './protocol.js';
import type { RawRunOutcome } from '../../../schema/outcome.js';
import type { DatasetInfo } from '../../../schema/result.js';

/** How long past its deadline a run may go before its holder is SIGKILLed (deadline + 1 s is the promise). */
export const KILL_GRACE_MS = 500;
/**
 * The host-side memory backstop: a holder whose RSS grows during runs by more than this multiple
 * of their limits (plus the slack) is SIGKILLed. The holder's own watchdog (sessionHost.ts) is the
 * tight one: it disposes at 1.5x and ends itself at 1.7x, and it can tell the columns it loads
 * for the guest (up to ~370 MB for the full dataset) from guest memory. From outside, the host
 * cannot, hence the slack; this only catches a holder too busy or too broken to police itself.
 */
const RSS_KILL_FACTOR = 2;
const RSS_SLACK_BYTES = 512 * 1048576;
const RSS_POLL_MS = 25;

/**
 * `nice` of the low-priority holder by default: the kernel's weight for nice 10 is ~1/10 of nice
 * 0's, so a busy low-priority isolate gets ~9% of a core that an ordinary run also wants.
 */
export const LOW_PRIORITY_NICE = 10;

interface Assignment {
  holder: HolderProcess;
  spec: SessionSpec;
  dataset: DatasetInfo | undefined;
  priority: SessionPriority;
}

/**
 * Holder processes that sessions are spread over (fewest sessions first). Watches each run from
 * the host: a holder that overruns a deadline by KILL_GRACE_MS, or whose RSS passes its budget,
 * is SIGKILLed; its sessions are reopened on a fresh holder at their next run (`sessionReset`).
 * Sessions opened with priority 'low' live in one more holder, started on first use at CPU
 * priority `lowNice` (`nice`): the kernel gives the other holders' runs the cores first.
 */
export class HolderPool implements Backend {
  private readonly holders: Array<HolderProcess | undefined>;
  /** The low-priority lane (one process, started on first use). */
  private low: HolderProcess | undefined;
  private readonly sessions = new Map<string, Assignment>();
  /** Memory limits (bytes) of the runs in flight on each holder, and its RSS when they began. */
  /** Per holder: the memory limits of its runs in flight, its RSS and table memory when they started. */
  private readonly inFlight = new Map<
    HolderProcess,
    { limits: number; baseline: number; runs: number; tables: number }
  >();

  /**
   * @param lowNice the `nice` of the low-priority holder (1-19); 0: 'low' sessions share the ordinary holders.
   * @param warmSpares whether the holders warm their spare isolates (undefined: SBIRTOOLS_WARM_SPARES=1 turns it on, else off).
   */
  constructor(
    readonly size = 1,
    readonly lowNice = LOW_PRIORITY_NICE,
    private readonly warmSpares?: boolean,
  ) {
    this.holders = new Array(size).fill(undefined);
  }

  async open(
    id: string,
    spec: SessionSpec,
    priority: SessionPriority = 'normal',
  ): Promise<{ dataset: DatasetInfo | undefined }> {
    const holder = priority === 'low' && this.lowNice > 0 ? this.pickLow() : this.pick();
    holder.sessions++;
    try {
      const { dataset } = await holder.request<{ dataset: DatasetInfo | undefined }>({
        op: 'open',
        sessionId: id,
        spec,
      });
      this.sessions.set(id, { holder, spec, dataset, priority });
      return { dataset };
    } catch (err) {
      holder.sessions--;
      throw err;
    }
  }

  async run(
    id: string,
    req: SourceRunRequest,
    signal?: AbortSignal,
    onOutput?: OutputListener,
  ): Promise<RawRunOutcome & { reset: boolean }> {
    // checked before any timer exists: a bad signal must not leave a deadline or a watch behind
    if (signal !== undefined && !(signal instanceof AbortSignal)) {
      throw new SbirtoolsValidationError(
        `Expected the \`signal\` option to be an AbortSignal, got \`${signal === null ? 'null' : typeof signal}\``,
      );
    }
    let a = this.sessions.get(id);
    if (!a) throw new Error(`no open session ${id}`);
    let reset = false;
    if (a.holder.exited || a.holder.retiring) {
      // Its holder died or is dying (another session's catastrophe, or a kill): rebuild the
      // session elsewhere; its state is gone, which the result says (sessionReset).
      a.holder.sessions--;
      await this.open(id, a.spec, a.priority);
      a = this.sessions.get(id)!;
      reset = true;
    }
    const holder = a.holder;
    const started = performance.now();
    const deadline = setTimeout(
      () => holder.kill(`a run passed its ${req.timeoutMs} ms deadline`, 'timeout'),
      req.timeoutMs + KILL_GRACE_MS,
    );
    const limit = a.spec.limits.memoryLimitMb * 1048576;
    // The RSS baseline is read at the first poll, not here: reading /proc costs ~20 µs on every
    // run's path, and growth in the first poll interval is covered by RSS_SLACK_BYTES and by
    // the holder's own watchdog (10 ms polls, baseline taken before the run).
    const flight = this.inFlight.get(holder) ?? { limits: 0, baseline: -1, runs: 0, tables: 0 };
    flight.limits += limit;
    flight.runs++;
    this.inFlight.set(holder, flight);
    const rssWatch = setInterval(() => {
      // a table column decoded for the run grows the holder for the table, not for the run (tableMemory.ts)
      if (holder.tableDecoding) return;
      const rss = holder.rssBytes();
      if (rss !== undefined && flight.baseline < 0) {
        flight.baseline = rss;
        flight.tables = holder.tableGrownBytes;
      } else if (
        rss !== undefined &&
        rss - flight.baseline - (holder.tableGrownBytes - flight.tables) >
          flight.limits * RSS_KILL_FACTOR + RSS_SLACK_BYTES
      ) {
        holder.kill(
          `its memory grew ${Math.round((rss - flight.baseline - (holder.tableGrownBytes - flight.tables)) / 1048576)} MB during runs limited to ${Math.round(flight.limits / 1048576)} MB`,
          'memory',
        );
      }
    }, RSS_POLL_MS);
    const onAbort = () => void holder.request({ op: 'abort', sessionId: id }).catch(() => undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (onOutput) holder.outputListeners.set(id, onOutput);
    try {
      const out = await holder.request<RawRunOutcome & { reset: boolean }>({
        op: 'run',
        sessionId: id,
        run: onOutput ? { ...req, streamOutput: true } : req,
      });
      return { ...out, reset: reset || out.reset };
    } catch (err) {
      if (!(err instanceof HolderExitedError)) throw err;
      const wall = performance.now() - started;
      const status = err.reason === 'timeout' ? 'timeout' : err.reason === 'memory' ? 'memory' : 'internal';
      return { ...emptyOutcome(status, err.message, Math.round(wall)), reset };
    } finally {
      clearTimeout(deadline);
      clearInterval(rssWatch);
      signal?.removeEventListener('abort', onAbort);
      if (holder.outputListeners.get(id) === onOutput) holder.outputListeners.delete(id);
      flight.limits -= limit;
      if (--flight.runs === 0) this.inFlight.delete(holder);
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
    for (const h of [...this.holders, this.low]) {
      if (h && !h.exited)
        n += (await h.request<{ liveIsolates: number }>({ op: 'stats' }).catch(() => ({ liveIsolates: 0 })))
          .liveIsolates;
    }
    return n;
  }

  /** Start the first holder process now (its start-up overlaps the caller's work). */
  prewarm(): void {
    if (!this.holders[0] || this.holders[0].exited) this.holders[0] = new HolderProcess(0, this.warmSpares);
  }

  /** Pids of the live ordinary holder processes (tests use them to kill a holder from outside). */
  pids(): number[] {
    return this.holders.filter((h): h is HolderProcess => !!h && !h.exited).map((h) => h.pid!);
  }

  async shutdown(): Promise<void> {
    this.sessions.clear();
    await Promise.all(
      [...this.holders, this.low].map(async (h) => {
        if (!h) return;
        h.shutdown();
        const timer = setTimeout(() => h.kill('shutdown took too long'), 2_000);
        await h.closed();
        clearTimeout(timer);
      }),
    );
    this.holders.fill(undefined);
    this.low = undefined;
  }

  private pickLow(): HolderProcess {
    if (!this.low || this.low.exited || this.low.retiring) this.low = new HolderProcess(this.lowNice, this.warmSpares);
    return this.low;
  }

  private pick(): HolderProcess {
    let best = -1;
    for (let i = 0; i < this.holders.length; i++) {
      const h = this.holders[i];
      if (!h || h.exited || h.retiring) {
        this.holders[i] = new HolderProcess(0, this.warmSpares);
        return this.holders[i]!;
      }
      if (best < 0 || h.sessions < this.holders[best]!.sessions) best = i;
    }
    return this.holders[best]!;
  }
}

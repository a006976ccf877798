import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { FRAMED_MARKER, frameDecoder, OrderedInbox, writeFrame } from './frameChannel.js';
import { holderEntryPath } from '../../core/paths.js';
import { mallocEnv, passedEnv } from './holderEnv.js';
import { SbirtoolsError } from '../../core/errors.js';
import type { HolderEvent, HolderReply, HolderRequest, OutputListener } from './protocol.js';
import { noteEngineFallback } from '../engines/engineFallback.js';
import { DATA_ERROR_CODES, DataError, type DataErrorCode } from '../../data/errors.js';

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };
type Req = HolderRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/**
 * What a run in flight gets when its holder dies: the host's deadline kill ('timeout'), a memory
 * kill or an out-of-memory death ('memory'), or anything else ('crash': an abort, a kill from
 * outside, a catastrophe that is not about memory).
 */
export type HolderExitKind = 'timeout' | 'memory' | 'crash';

/** After a holder reports a catastrophe, how long it may take to reply and exit before the host kills it. */
const RETIRE_GRACE_MS = 2_500;

/** Signs of a V8/isolated-vm out-of-memory death in the holder's stderr (or its catastrophe report). */
const OOM_SIGNS =
  /out of memory|out-of-memory|heap limit|Allocation failed|is_heap_oom|CALL_AND_RETRY_LAST|Last few GCs/i;

/** The holder died: crashed (fatal OOM, abort), was killed by a watchdog, or exited. */
export class HolderExitedError extends SbirtoolsError {
  constructor(
    message: string,
    readonly reason: HolderExitKind,
  ) {
    super('HOLDER_EXITED', message);
    this.name = 'HolderExitedError';
  }
}

/**
 * Host-side handle of one holder process. The process gets a minimal environment (no host
 * secrets; the few settings it reads pass, and glibc's malloc returns freed buffers: holderEnv.ts), TZ=UTC (dates never depend on the host's zone) and `--no-node-snapshot` (needed by
 * isolated-vm on Node >= 20), and is unref'd while idle so it never keeps the host alive.
 */
/**
 * Whether this process turned zod's JIT off (bin/sbirtools.js does for a one-shot `run`): the
 * holder then does too (the holder bundle's banner reads SBIRTOOLS_ZOD_JITLESS before zod loads).
 */
function zodJitless(): boolean {
  return (globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig?.jitless === true;
}

/**
 * Whether this process answers one question and exits (bin/sbirtools.js sets it for `run`): its
 * holder then boots no spare isolates (a spare's boot, ~30-40 ms on this thread, could start
 * between the session's open and its first run and delay it; nothing would ever use the spare).
 */
function oneShot(): boolean {
  return (globalThis as { __sbirtoolsOneShot?: boolean }).__sbirtoolsOneShot === true;
}

/** The holder's end of the frame channel (frameChannel.ts): its stdio slot, so its fd there. */
const CHANNEL_FD = 4;

/**
 * Whether host and holder talk JSON IPC plus the frame channel: on Node. Bun and Deno keep Node's
 * advanced IPC alone, as before: their extra stdio pipes and `net.Socket({ fd })` were never tested.
 */
function frameChannel(): boolean {
  return !process.versions.bun && !process.versions.deno;
}

export class HolderProcess {
  private readonly child: ChildProcess;
  /** The frame socket to the holder (frameChannel.ts); undefined: Node's advanced IPC carries everything. */
  private readonly pipe: Socket | undefined;
  private readonly pending = new Map<number, Pending>();
  /** The holder said it is ready (`ready` resolved). */
  private isReady = false;
  /** Whether updateRef last ref'd the process's handles (undefined: never set, so the first call sets them). */
  private refed: boolean | undefined;
  /** Who receives a streaming run's output, by session id (one run per session at a time). */
  readonly outputListeners = new Map<string, OutputListener>();
  private nextId = 1;
  private waitingForReady = 0;
  private readonly exitWaiters: Array<() => void> = [];
  private stderrTail = '';
  private killReason: { message: string; kind: HolderExitKind } | undefined;
  readonly ready: Promise<void>;
  /** The process is gone (set as soon as its exit is seen). */
  exited = false;
  /** Its exit was fully handled: runs in flight were told why (see exitError). */
  private exitHandled = false;
  /** Set when the holder reported a catastrophe: it is about to exit and takes no new work. */
  retiring: string | undefined;
  sessions = 0;

  /**
   * @param nice a CPU scheduling priority (1-19) the holder lowers itself to at start (lowerPriority.ts); 0 leaves it.
   * @param warmSpares whether the holder warms its spare isolates (warmSessions.ts); undefined: the
   *   host's SBIRTOOLS_WARM_SPARES decides (passed on; `1` turns it on), else off.
   */
  constructor(
    readonly nice = 0,
    warmSpares?: boolean,
  ) {
    const framed = frameChannel();
    this.child = fork(holderEntryPath(), [], {
      execArgv: ['--no-node-snapshot'],
      serialization: framed ? 'json' : 'advanced',
      env: {
        TZ: 'UTC',
        LANG: 'C.UTF-8',
        ...mallocEnv(),
        ...passedEnv(),
        ...(zodJitless() ? { SBIRTOOLS_ZOD_JITLESS: '1' } : {}),
        ...(oneShot() ? { SBIRTOOLS_NO_SPARES: '1' } : {}),
        ...(nice > 0 ? { SBIRTOOLS_HOLDER_NICE: String(nice) } : {}),
        ...(warmSpares === undefined ? {} : { SBIRTOOLS_WARM_SPARES: warmSpares ? '1' : '0' }),
        ...(framed ? { SBIRTOOLS_HOLDER_CHANNEL_FD: String(CHANNEL_FD) } : {}),
      },
      stdio: framed ? ['ignore', 'ignore', 'pipe', 'ipc', 'pipe'] : ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.pipe = framed ? (this.child.stdio[CHANNEL_FD] as Socket) : undefined;
    // a holder that died mid-write: its exit, not the socket's error, tells the runs in flight
    this.pipe?.on('error', () => undefined);
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-4096);
    });
    this.ready = new Promise((resolve, reject) => {
      const onMessage = (msg: HolderReply | HolderEvent) => {
        if ('event' in msg) {
          if (msg.event === 'ready') {
            this.isReady = true;
            resolve();
          } else if (msg.event === 'output') this.outputListeners.get(msg.sessionId)?.(msg.stream, msg.text);
          else if (msg.event === 'catastrophe') {
            reject(new Error(msg.message));
            this.retire(msg.message);
          } else if (msg.event === 'engine-fallback') noteEngineFallback(msg.reason);
          else if (msg.event === 'table-memory') {
            this.tableDecoding = msg.decoding;
            this.tableGrownBytes = msg.grownBytes;
          }
          return;
        }
        const p = this.pending.get(msg.id);
        if (!p) return;
        this.pending.delete(msg.id);
        this.updateRef();
        if (msg.ok) p.resolve(msg.data);
        else p.reject(reviveError(msg.error));
      };
      const inbox = new OrderedInbox((msg) => onMessage(msg as HolderReply | HolderEvent));
      this.child.on('message', (msg: unknown) => inbox.message(msg));
      this.pipe?.on(
        'data',
        frameDecoder((msg) => inbox.frame(msg)),
      );
      this.child.on('exit', (code, signal) => {
        // No new work from now on (a session that lived here is reopened elsewhere, sessionReset).
        this.exited = true;
        // Give stderr a moment to drain so an OOM message is seen ('close' does not always come).
        let handled = false;
        const done = () => {
          if (handled) return;
          handled = true;
          const err = this.exitError(code, signal);
          reject(err);
          for (const p of this.pending.values()) p.reject(err);
          this.pending.clear();
          this.exitHandled = true;
          this.exitWaiters.splice(0).forEach((w) => w());
        };
        const stderr = this.child.stderr;
        if (!stderr || stderr.readableEnded || stderr.destroyed) return done();
        stderr.once('end', done);
        stderr.once('close', done);
        setTimeout(done, 200).unref();
      });
      this.child.on('error', (err) => reject(err));
    });
    this.ready.catch(() => undefined);
    this.updateRef();
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Send one request; rejects with HolderExitedError if the holder dies first. */
  async request<T>(req: Req): Promise<T> {
    // once ready, `ready` can no longer reject: a request then goes out in this turn, not a microtask later
    if (!this.isReady) {
      this.waitingForReady++;
      this.updateRef();
      try {
        await this.ready;
      } finally {
        this.waitingForReady--;
      }
    }
    if (this.exited) throw new HolderExitedError('the sandbox process has exited', 'crash');
    if (this.retiring && req.op !== 'close' && req.op !== 'stats') {
      throw new HolderExitedError(
        `the sandbox process is shutting down after an unrecoverable error (${this.retiring})`,
        'crash',
      );
    }
    const id = this.nextId++;
    const promise = new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.updateRef();
    const msg = { ...req, id } as HolderRequest;
    // only a run goes as JSON: an open's spec may hold a columnar table's typed arrays
    if (this.pipe && msg.op !== 'run') {
      writeFrame(this.pipe, msg);
      this.child.send(FRAMED_MARKER);
    } else this.child.send(msg);
    return promise as Promise<T>;
  }

  /**
   * SIGKILL: the only thing that ends a builtin that ignores termination. `kind` is what the runs
   * in flight are told (TIMEOUT for a deadline kill, MEMORY_LIMIT for a memory kill).
   */
  kill(reason: string, kind: HolderExitKind = 'crash'): void {
    this.killReason ??= { message: reason, kind };
    if (!this.exited) this.child.kill('SIGKILL');
  }

  /**
   * The holder lost an isolate (fatal OOM, a builtin that ignored termination): it replies to
   * what is in flight and exits by itself; new work goes elsewhere, and it is killed if it lingers.
   */
  private retire(message: string): void {
    if (this.retiring || this.exited) return;
    this.retiring = message;
    setTimeout(
      () =>
        this.kill(
          `it did not exit after an unrecoverable error (${message})`,
          OOM_SIGNS.test(message) ? 'memory' : 'crash',
        ),
      RETIRE_GRACE_MS,
    ).unref();
  }

  /** A table column is being decoded for a run (the holder grows for the table then, not for the run). */
  tableDecoding = false;
  /** What the holder grew by while decoding table columns for runs, in bytes (tableMemory.ts). */
  tableGrownBytes = 0;

  /** Resident memory of the holder in bytes (Linux /proc), or undefined where unknown. */
  rssBytes(): number | undefined {
    try {
      const pages = Number(readFileSync(`/proc/${this.child.pid}/statm`, 'utf8').split(' ')[1]);
      return pages * 4096;
    } catch {
      return undefined;
    }
  }

  /** Wait until the process is gone (after kill or close). */
  async closed(): Promise<void> {
    if (this.exitHandled) return;
    // Keep the host's event loop alive until the exit is seen: an unref'd child whose exit is
    // awaited would otherwise let the host's loop run dry mid-shutdown.
    this.waitingForReady++;
    this.updateRef();
    try {
      await new Promise<void>((resolve) => this.exitWaiters.push(resolve));
    } finally {
      this.waitingForReady--;
    }
  }

  /** Disconnect: the holder disposes its isolates and exits. */
  shutdown(): void {
    if (!this.exited && this.child.connected) this.child.disconnect();
  }

  private updateRef(): void {
    // Keep the host alive only while requests are in flight; the handles are touched only on a change
    // (a run would otherwise ref them three times, natively, and unref them once)
    const wanted = this.pending.size > 0 || this.waitingForReady > 0;
    if (wanted === this.refed) return;
    this.refed = wanted;
    const channel = (this.child as unknown as { channel?: { ref?(): void; unref?(): void } }).channel; // Bun's channel has neither
    const stderr = this.child.stderr as unknown as { ref?(): void; unref?(): void } | null;
    if (wanted) {
      this.child.ref();
      channel?.ref?.();
      stderr?.ref?.();
      this.pipe?.ref();
    } else {
      this.child.unref();
      channel?.unref?.();
      stderr?.unref?.();
      this.pipe?.unref();
    }
  }

  private exitError(code: number | null, signal: NodeJS.Signals | null): HolderExitedError {
    if (this.killReason)
      return new HolderExitedError(`the sandbox process was killed: ${this.killReason.message}`, this.killReason.kind);
    const oom = OOM_SIGNS.test(this.stderrTail) || OOM_SIGNS.test(this.retiring ?? '');
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    if (oom) return new HolderExitedError(`the sandbox process ran out of memory (${how})`, 'memory');
    const why = this.retiring ? `: ${this.retiring}` : '';
    return new HolderExitedError(`the sandbox process crashed (${how})${why}`, 'crash');
  }
}

/**
 * A holder's error reply as the caller's typed error: the data layer's failures (bad CSV, missing
 * file, corrupt cache) cross IPC as { code, message } and become DataError again, so
 * `err instanceof DataError` holds for the caller as documented (docs/errors.md).
 */
function reviveError(e: {
  code: string;
  message: string;
  hint?: string;
  host?: string;
  path?: string;
  status?: number;
}): Error {
  if ((DATA_ERROR_CODES as readonly string[]).includes(e.code)) {
    const { code, message, ...rest } = e;
    return new DataError(code as DataErrorCode, message, rest);
  }
  return Object.assign(new Error(e.message), { code: e.code });
}

import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { holderEntryPath } from './paths.js';
import type { HolderEvent, HolderReply, HolderRequest } from './protocol.js';

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };
type Req = HolderRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** The holder died: crashed (fatal OOM, abort), was killed by a watchdog, or exited. */
export class HolderExitedError extends Error {
  readonly code = 'HOLDER_EXITED';
  constructor(message: string, readonly reason: 'killed' | 'oom' | 'crash') {
    super(message);
    this.name = 'HolderExitedError';
  }
}

/**
 * Host-side handle of one holder process. The process gets a minimal environment (no host
 * secrets), TZ=UTC (dates never depend on the host's zone) and `--no-node-snapshot` (needed by
 * isolated-vm on Node >= 20), and is unref'd while idle so it never keeps the host alive.
 */
export class HolderProcess {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private waitingForReady = 0;
  private readonly exitWaiters: Array<() => void> = [];
  private stderrTail = '';
  private killReason: string | undefined;
  readonly ready: Promise<void>;
  exited = false;
  sessions = 0;

  constructor() {
    this.child = fork(holderEntryPath(), [], {
      execArgv: ['--no-node-snapshot'],
      serialization: 'advanced',
      env: { TZ: 'UTC', LANG: 'C.UTF-8' },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-4096);
    });
    this.ready = new Promise((resolve, reject) => {
      this.child.on('message', (msg: HolderReply | HolderEvent) => {
        if ('event' in msg) {
          if (msg.event === 'ready') resolve();
          else if (msg.event === 'catastrophe') reject(new Error(msg.message));
          return;
        }
        const p = this.pending.get(msg.id);
        if (!p) return;
        this.pending.delete(msg.id);
        this.updateRef();
        if (msg.ok) p.resolve(msg.data);
        else p.reject(Object.assign(new Error(msg.error.message), { code: msg.error.code }));
      });
      this.child.on('exit', (code, signal) => {
        // Give stderr a moment to drain so an OOM message is seen ('close' does not always come).
        const done = () => {
          if (this.exited) return;
          this.exited = true;
          const err = this.exitError(code, signal);
          reject(err);
          for (const p of this.pending.values()) p.reject(err);
          this.pending.clear();
          this.exitWaiters.splice(0).forEach((w) => w());
        };
        this.child.stderr?.once('close', done);
        setTimeout(done, 200);
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
    this.waitingForReady++;
    this.updateRef();
    try {
      await this.ready;
    } finally {
      this.waitingForReady--;
    }
    if (this.exited) throw new HolderExitedError('the sandbox process has exited', 'crash');
    const id = this.nextId++;
    const promise = new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.updateRef();
    this.child.send({ ...req, id } as HolderRequest);
    return promise as Promise<T>;
  }

  /** SIGKILL: the only thing that ends a builtin that ignores termination. */
  kill(reason: string): void {
    this.killReason ??= reason;
    if (!this.exited) this.child.kill('SIGKILL');
  }

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
    if (this.exited) return;
    await new Promise<void>((resolve) => this.exitWaiters.push(resolve));
  }

  /** Disconnect: the holder disposes its isolates and exits. */
  shutdown(): void {
    if (!this.exited && this.child.connected) this.child.disconnect();
  }

  private updateRef(): void {
    // Keep the host alive only while requests are in flight.
    const channel = (this.child as unknown as { channel?: { ref(): void; unref(): void } }).channel;
    const stderr = this.child.stderr as unknown as { ref?(): void; unref?(): void } | null;
    if (this.pending.size > 0 || this.waitingForReady > 0) {
      this.child.ref();
      channel?.ref();
      stderr?.ref?.();
    } else {
      this.child.unref();
      channel?.unref();
      stderr?.unref?.();
    }
  }

  private exitError(code: number | null, signal: NodeJS.Signals | null): HolderExitedError {
    if (this.killReason) return new HolderExitedError(`the sandbox process was killed: ${this.killReason}`, 'killed');
    const oom = /out of memory|heap limit|Allocation failed/i.test(this.stderrTail);
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    return new HolderExitedError(
      oom ? `the sandbox process ran out of memory (${how})` : `the sandbox process crashed (${how})`,
      oom ? 'oom' : 'crash',
    );
  }
}

/**
 * Entry point of a holder process: the child that holds isolates, so that a fatal V8 error, an
 * abort or a builtin that ignores termination kills this process and never the host. Speaks the
 * protocol in protocol.ts over Node IPC: JSON for a run and its reply, with what carries typed
 * arrays or is large sent as a V8 clone on the frame socket the host opened (frameChannel.ts), or
 * advanced serialization for everything where the host opened none (Bun, Deno).
 */
import { writeSync } from 'node:fs';
import { Socket } from 'node:net';
import { FRAMED_MARKER, frameDecoder, JSON_MAX_UNITS, OrderedInbox, writeFrame } from './frameChannel.js';
import { SessionHost } from './sessionHost.js';
import { loadEngine } from '../engines/isolated-vm/loadIsolatedVm.js';
import { relayEngineFallback } from '../engines/engineFallback.js';
import { setCatastropheHandler } from '../engines/isolated-vm/isolatedVmSession.js';
import type { HolderEvent, HolderReply, HolderRequest } from './protocol.js';
import { outputCoalescer } from './outputCoalescer.js';
import { tableMemory } from '../../data/formats/lazyParquet/tableMemory.js';
import { lowerPriority } from './lowerPriority.js';

// A low-priority holder (HolderPool's lane for callers over their fair share): lowered before
// isolated-vm starts its threads, which then inherit the priority.
const nice = Number(process.env.SBIRTOOLS_HOLDER_NICE ?? 0);
if (Number.isInteger(nice) && nice > 0 && nice < 20) lowerPriority(nice);

/** After a catastrophe, how long replies still in flight may take before the process ends anyway. */
const LAST_REPLIES_MS = 2_000;

const host = new SessionHost();
let inflight = 0;
let lost: string | undefined;

const channelFd = Number(process.env.SBIRTOOLS_HOLDER_CHANNEL_FD);
const pipe =
  Number.isInteger(channelFd) && channelFd > 2
    ? new Socket({ fd: channelFd, readable: true, writable: true })
    : undefined;
// the host is gone: the IPC channel's disconnect ends this process (below)
pipe?.on('error', () => undefined);

/** @param framed the message may hold typed arrays or is large: it goes as a V8 clone on the frame socket. */
function send(msg: HolderReply | HolderEvent, sent?: () => void, framed = false): void {
  if (!process.connected) return sent?.();
  if (framed && pipe) {
    // the frame first: the host delivers it when the marker comes, in IPC's order. Sent only once
    // both are out: a holder that ends itself after its last reply (die) must not cut a frame short.
    let left = 2;
    const one = () => {
      if (--left === 0) sent?.();
    };
    writeFrame(pipe, msg, one);
    process.send!(FRAMED_MARKER, undefined, {}, one);
  } else process.send!(msg, undefined, {}, () => sent?.());
}

/** A reply that goes as a frame: anything but a run's, and a run's with saved files or a large outcome. */
function framedReply(req: HolderRequest, data: unknown): boolean {
  if (req.op !== 'run') return true;
  const o = data as { files?: unknown[]; outcomeJson?: string; stdout?: string; stderr?: string } | null;
  return (
    o === null ||
    o.files !== undefined ||
    (o.outcomeJson?.length ?? 0) + (o.stdout?.length ?? 0) + (o.stderr?.length ?? 0) > JSON_MAX_UNITS
  );
}

/**
 * SIGKILL ourselves: the only end that cannot hang. process.exit() waits for isolate threads,
 * and a thread stuck in a builtin or parked by isolated-vm after a fatal OOM never finishes.
 */
function die(): void {
  process.kill(process.pid, 'SIGKILL');
}

// isolated-vm lost control of an isolate (fatal OOM, a script that failed to terminate) or the
// memory watchdog saw the process outgrow its runs: this process cannot be trusted to recover.
// The stderr line lets the host classify the exit (out of memory -> MEMORY_LIMIT); the event goes
// out before any later reply, so the host retires this holder before it sends it more work.
setCatastropheHandler((message, kind) => {
  if (lost) return;
  lost = message;
  try {
    writeSync(2, `\nsbirtools holder: ${kind === 'oom' ? 'out of memory' : 'isolate did not stop'}: ${message}\n`);
  } catch {
    // stderr closed: the exit itself still tells the host
  }
  send({ event: 'catastrophe', message: `${kind}: ${message}` });
  // A fatal OOM parks the isolate's thread for good: end now. A stuck builtin: first let the
  // run that found it reply (its TIMEOUT or MEMORY_LIMIT is already decided), then end.
  if (kind === 'oom' || inflight === 0) die();
  setTimeout(die, LAST_REPLIES_MS).unref();
});

async function handle(req: HolderRequest): Promise<unknown> {
  switch (req.op) {
    case 'open':
      return host.open(req.sessionId, req.spec);
    case 'run': {
      if (!req.run.streamOutput) return host.run(req.sessionId, req.run);
      const sessionId = req.sessionId;
      const out = outputCoalescer((stream, text) => send({ event: 'output', sessionId, stream, text }));
      try {
        return await host.run(sessionId, req.run, out.write);
      } finally {
        out.flush(); // sent before the reply: IPC keeps the order
      }
    }
    case 'abort':
      host.abort(req.sessionId);
      return null;
    case 'close':
      host.close(req.sessionId);
      return null;
    case 'stats':
      return { liveIsolates: host.liveIsolates, rss: process.memoryUsage.rss() };
  }
}

function onRequest(req: HolderRequest): void {
  inflight++;
  const replied = () => {
    inflight--;
    if (lost && inflight === 0) die();
  };
  handle(req).then(
    (data) => send({ id: req.id, ok: true, data }, replied, framedReply(req, data)),
    (err: unknown) => {
      const e = err as {
        code?: string;
        message?: string;
        hint?: unknown;
        host?: unknown;
        path?: unknown;
        status?: unknown;
      };
      // a failed remote fetch keeps its host, path and status across IPC (DATA_FETCH_FAILED)
      const where = {
        ...(typeof e?.host === 'string' ? { host: e.host } : {}),
        ...(typeof e?.path === 'string' ? { path: e.path } : {}),
        ...(typeof e?.status === 'number' ? { status: e.status } : {}),
      };
      send(
        {
          id: req.id,
          ok: false,
          error: {
            code: e?.code ?? 'INTERNAL_ERROR',
            message: String(e?.message ?? err),
            ...(typeof e?.hint === 'string' ? { hint: e.hint } : {}),
            ...where,
          },
        },
        replied,
      );
    },
  );
}
const inbox = new OrderedInbox((req) => onRequest(req as HolderRequest));
process.on('message', (msg: unknown) => inbox.message(msg));
pipe?.on(
  'data',
  frameDecoder((req) => inbox.frame(req)),
);

// The host closed the channel (it exited or closed the sandbox): nothing may outlive it.
process.on('disconnect', () => {
  if (lost) return die();
  host.closeAll();
  process.exit(0);
});

// Load isolated-vm now (its start-up overlaps the host's work). When no build loads here (Node 26
// without 7.x, Bun, Deno, a host without native addons), the holder still serves QuickJS sessions:
// a session that asks for isolated-vm gets the EngineLoadError at open, 'auto' falls back.
let engine: string;
try {
  const { name, version } = loadEngine();
  engine = `${name}@${version}`;
} catch (err) {
  engine = `quickjs (no isolated-vm: ${String(err instanceof Error ? err.message : err).slice(0, 200)})`;
}
relayEngineFallback((reason) => send({ event: 'engine-fallback', reason }));
// the host's memory guard (holderPool.ts) counts lazily decoded columns as table memory, not a run's
tableMemory.listener = (state) => send({ event: 'table-memory', ...state });
send({ event: 'ready', pid: process.pid, engine });

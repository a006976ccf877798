/**
 * Entry point of a holder process: the child that holds isolates, so that a fatal V8 error, an
 * abort or a builtin that ignores termination kills this process and never the host. Speaks the
 * protocol in protocol.ts over Node IPC (advanced serialization: typed arrays cross as copies).
 */
import { SessionHost } from './sessionHost.js';
import { loadEngine } from './engine.js';
import type { HolderEvent, HolderReply, HolderRequest } from './protocol.js';

const host = new SessionHost();

function send(msg: HolderReply | HolderEvent): void {
  if (process.connected) process.send!(msg);
}

async function handle(req: HolderRequest): Promise<unknown> {
  switch (req.op) {
    case 'open':
      return host.open(req.sessionId, req.spec);
    case 'run':
      return host.run(req.sessionId, req.run);
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

process.on('message', (req: HolderRequest) => {
  handle(req).then(
    (data) => send({ id: req.id, ok: true, data }),
    (err: unknown) => {
      const e = err as { code?: string; message?: string };
      send({ id: req.id, ok: false, error: { code: e?.code ?? 'INTERNAL_ERROR', message: String(e?.message ?? err) } });
    },
  );
});

// The host closed the channel (it exited or closed the sandbox): nothing may outlive it.
process.on('disconnect', () => {
  host.closeAll();
  process.exit(0);
});

try {
  const { name, version } = loadEngine();
  send({ event: 'ready', pid: process.pid, engine: `${name}@${version}` });
} catch (err) {
  send({ event: 'catastrophe', message: String(err instanceof Error ? err.message : err) });
  process.exit(70);
}

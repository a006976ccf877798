import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LogSource } from './logSource.js';

const HEARTBEAT_MS = 15_000;

/** GET /events handler plus close() (ends every open stream). */
export type EventsRoute = ((req: IncomingMessage, res: ServerResponse) => void) & { close(): Promise<void> };

/**
 * Server-sent events: while at least one page listens, the log is checked every `pollMs` and each
 * page gets `event: runs` when lines were appended (it then fetches /fragment, which applies its
 * own session filter, so the event carries no data from the log).
 * @example const events = eventsRoute(log, 500, headers); events(req, res);
 */
export function eventsRoute(log: LogSource, pollMs: number, headers: Record<string, string>): EventsRoute {
  const clients = new Set<ServerResponse>();
  let timer: NodeJS.Timeout | undefined;
  let beat: NodeJS.Timeout | undefined;
  let closed = false;
  const send = (text: string) => clients.forEach((c) => c.write(text));
  const tick = async () => {
    timer = undefined;
    try {
      if (await log.refresh()) send('event: runs\ndata: {}\n\n');
    } catch {
      // an unreadable log stays as it was; the next tick tries again
    }
    if (clients.size && !closed) timer = setTimeout(tick, pollMs).unref();
  };
  const route = ((req: IncomingMessage, res: ServerResponse) => {
    if (closed) {
      res.writeHead(503, headers).end();
      return;
    }
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
    res.write('retry: 2000\n\n');
    clients.add(res);
    req.on('close', () => {
      clients.delete(res);
      if (!clients.size) stop();
    });
    timer ??= setTimeout(tick, pollMs).unref();
    beat ??= setInterval(() => send(': ping\n\n'), HEARTBEAT_MS).unref();
  }) as EventsRoute;
  function stop() {
    if (timer) clearTimeout(timer);
    if (beat) clearInterval(beat);
    timer = beat = undefined;
  }
  route.close = async () => {
    closed = true;
    stop();
    for (const c of clients) c.end();
    clients.clear();
  };
  return route;
}

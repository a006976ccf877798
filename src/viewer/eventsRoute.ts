import type { LogSource } from './logSource.js';

const HEARTBEAT_MS = 15_000;
const encoder = new TextEncoder();

/** GET /events as a Fetch handler, plus close() (ends every open stream). */
export type EventsRoute = ((request: Request, headers: Record<string, string>) => Response) & {
  close(): Promise<void>;
};

/**
 * Server-sent events: while at least one page listens, the log is checked every `pollMs` and each
 * page gets `event: runs` when lines were appended (it then fetches /fragment, which applies its
 * own session filter, so the event carries no data from the log).
 * @example const events = eventsRoute(log, 500); return events(request, headers);
 */
export function eventsRoute(log: LogSource, pollMs: number): EventsRoute {
  const clients = new Set<ReadableStreamDefaultController<Uint8Array>>();
  let timer: NodeJS.Timeout | undefined;
  let beat: NodeJS.Timeout | undefined;
  let closed = false;
  const send = (text: string) => {
    const bytes = encoder.encode(text);
    for (const c of clients) {
      try {
        c.enqueue(bytes);
      } catch {
        clients.delete(c); // the stream is gone
      }
    }
  };
  const tick = async () => {
    timer = undefined;
    try {
      if (await log.refresh()) send('event: runs\ndata: {}\n\n');
    } catch {
      // an unreadable log stays as it was; the next tick tries again
    }
    if (clients.size && !closed) timer = setTimeout(tick, pollMs).unref();
  };
  function stop() {
    if (timer) clearTimeout(timer);
    if (beat) clearInterval(beat);
    timer = beat = undefined;
  }
  const drop = (c: ReadableStreamDefaultController<Uint8Array>) => {
    clients.delete(c);
    if (!clients.size) stop();
  };
  const route = ((request: Request, headers: Record<string, string>) => {
    if (closed) return new Response(null, { status: 503, headers });
    let self: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        self = controller;
        controller.enqueue(encoder.encode('retry: 2000\n\n'));
        clients.add(controller);
        request.signal.addEventListener('abort', () => drop(controller), { once: true });
      },
      cancel() {
        drop(self);
      },
    });
    timer ??= setTimeout(tick, pollMs).unref();
    beat ??= setInterval(() => send(': ping\n\n'), HEARTBEAT_MS).unref();
    return new Response(body, {
      status: 200,
      headers: { ...headers, 'content-type': 'text/event-stream; charset=utf-8' },
    });
  }) as EventsRoute;
  route.close = async () => {
    closed = true;
    stop();
    for (const c of clients) {
      try {
        c.close();
      } catch {
        // already closed
      }
    }
    clients.clear();
  };
  return route;
}

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename } from 'node:path';
import type { CapsuleRecord } from '../capsule/capsuleRecord.js';
import { contentSecurityPolicy } from './contentSecurityPolicy.js';
import type { SafeHtml } from './html.js';
import { LogSource, type LogEntry } from './logSource.js';
import { lastLineOf, renderPage, renderSessionList } from './renderPage.js';
import { renderRun } from './renderRun.js';
import { groupSessions, sessionOf } from './sessions.js';
import { replayRoute, type ReplayRunner } from './replayRoute.js';
import { eventsRoute } from './eventsRoute.js';

/** Options of createViewerHandler(). */
export interface ViewerOptions {
  /** The capsule log (JSONL) to show. It need not exist yet. */
  logPath: string;
  /** Which records this request may see, e.g. only the sessions of the caller's API key. @default every record */
  sessionFilter?: (record: CapsuleRecord, req: IncomingMessage) => boolean;
  /** URL prefix the handler is mounted under, e.g. '/ui' (requests may arrive with or without it). @default '' */
  prefix?: string;
  /** Host headers accepted (DNS-rebinding guard), e.g. ['127.0.0.1:8080']. @default any */
  allowedHosts?: string[];
  /** The replay action: false turns it off; a function replaces the default (replayCapsule on logPath). @default on */
  replay?: boolean | ReplayRunner;
  /** How often the log is checked for new runs while a page listens, in ms. @default 500 */
  pollMs?: number;
}

/** A node request handler for the viewer, plus close() to end live streams and stop watching. */
export type ViewerHandler = ((req: IncomingMessage, res: ServerResponse) => void) & { close(): Promise<void> };

const HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY', 'cache-control': 'no-store', 'cross-origin-resource-policy': 'same-origin' };

/** Send a JSON answer with the viewer's security headers. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { ...HEADERS, 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/**
 * The live viewer as a node (req, res) handler, mountable under a prefix (`sbirtools view` serves it
 * on loopback; `serve` mounts it at /ui behind its API key with a per-key sessionFilter). Routes:
 * GET / (page; ?session=<id>), GET /events (server-sent events on new runs), GET /fragment?after=N
 * (new cells as JSON), POST /replay {line} (re-run a record; needs the page's token header).
 * It only reads the log; the one thing that runs code is replay.
 * @example http.createServer(createViewerHandler({ logPath: 'runs.jsonl' })).listen(0, '127.0.0.1')
 */
export function createViewerHandler(options: ViewerOptions): ViewerHandler {
  const log = new LogSource(options.logPath);
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  const token = randomBytes(18).toString('base64url');
  const filter = options.sessionFilter;
  const cache = new Map<number, SafeHtml>();
  let generation = log.generation;
  const events = eventsRoute(log, options.pollMs ?? 500, HEADERS);
  const replay = options.replay === false ? undefined : replayRoute(log, typeof options.replay === 'function' ? options.replay : undefined, filter, token);

  const visible = (req: IncomingMessage): LogEntry[] => log.entries.filter((e) => (filter ? !!e.record && filter(e.record, req) : true));
  async function cell(e: LogEntry): Promise<SafeHtml> {
    if (generation !== log.generation) (cache.clear(), (generation = log.generation));
    let c = cache.get(e.line);
    if (!c) cache.set(e.line, (c = await renderRun(e, { mode: 'live', replay: !!replay })));
    return c;
  }
  async function cells(entries: LogEntry[]): Promise<SafeHtml[]> {
    const out: SafeHtml[] = [];
    for (const e of [...entries].reverse()) out.push(await cell(e)); // newest first
    return out;
  }

  async function page(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    await log.refresh();
    const all = visible(req);
    const selected = url.searchParams.get('session') ?? undefined;
    const shown = selected === undefined ? all : all.filter((e) => sessionOf(e) === selected);
    const nonce = randomBytes(16).toString('base64');
    const body = renderPage({
      mode: 'live', title: 'sbirtools runs', logName: basename(options.logPath), sessions: groupSessions(all), ...(selected !== undefined ? { selected } : {}),
      cells: await cells(shown), count: all.length, lastLine: lastLineOf(all), nonce, base: `${prefix}/`, token, generatedAt: new Date().toISOString(),
    });
    res.writeHead(200, { ...HEADERS, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': contentSecurityPolicy(nonce, 'live') });
    res.end(body);
  }

  async function fragment(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    await log.refresh();
    const after = Number(url.searchParams.get('after') ?? '0');
    const all = visible(req);
    const last = lastLineOf(all);
    if (!Number.isFinite(after) || after > last) return sendJson(res, 200, { reset: true }); // the log was rotated
    const selected = url.searchParams.get('session') ?? undefined;
    const fresh = all.filter((e) => e.line > after && (selected === undefined || sessionOf(e) === selected));
    const runs = (await cells(fresh)).map((c) => c.value.replace('class="sb-run"', 'class="sb-run sb-new"')).join('');
    sendJson(res, 200, { runs, sessions: renderSessionList(groupSessions(all), selected, `${prefix}/`, all.length).value, lastLine: last, count: all.length });
  }

  const handler = ((req: IncomingMessage, res: ServerResponse) => {
    const route = async () => {
      if (options.allowedHosts && !options.allowedHosts.includes(req.headers.host ?? '')) return sendJson(res, 421, { error: { type: 'BAD_HOST', message: 'This viewer answers only on its own address.' } });
      const url = new URL(req.url ?? '/', 'http://viewer.invalid');
      let path = url.pathname;
      if (prefix && (path === prefix || path.startsWith(`${prefix}/`))) path = path.slice(prefix.length);
      if (path === '' && prefix) {
        res.writeHead(308, { ...HEADERS, location: `${prefix}/${url.search}` });
        return res.end();
      }
      const method = req.method ?? 'GET';
      if (path === '/replay') return replay ? (method === 'POST' ? replay(req, res) : sendJson(res, 405, { error: { type: 'METHOD_NOT_ALLOWED', message: 'POST a JSON body {"line": N}.' } })) : sendJson(res, 404, { error: { type: 'NOT_FOUND', message: 'Replay is turned off in this viewer.' } });
      if (method !== 'GET' && method !== 'HEAD') return sendJson(res, 405, { error: { type: 'METHOD_NOT_ALLOWED', message: `${method} is not allowed here; the viewer only reads.` } });
      if (path === '/') return page(req, res, url);
      if (path === '/events') return events(req, res);
      if (path === '/fragment') return fragment(req, res, url);
      return sendJson(res, 404, { error: { type: 'NOT_FOUND', message: `No page at ${path}.` } });
    };
    route().catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { type: 'INTERNAL_ERROR', message: 'The viewer failed to render this page.' } });
      else res.destroy();
      process.emitWarning(`sbirtools viewer: ${(err as Error)?.stack ?? String(err)}`);
    });
  }) as ViewerHandler;
  handler.close = () => events.close();
  return handler;
}

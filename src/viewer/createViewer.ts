import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import type { CapsuleRecord } from '../capsule/capsuleRecord.js';
import { contentSecurityPolicy } from './contentSecurityPolicy.js';
import { eventsRoute } from './eventsRoute.js';
import { fullText } from './fullText.js';
import { html, type SafeHtml } from './html.js';
import { LIVE_PAGE_BYTES, LIVE_PAGE_RUNS, TEXT_FIELDS, type TextField } from './renderLimits.js';
import { LogSource, type LogEntry } from './logSource.js';
import { lastLineOf, renderPage, renderSessionList } from './renderPage.js';
import { renderRun } from './renderRun.js';
import { replayRoute, type ReplayRunner } from './replayRoute.js';
import { jsonResponse, SECURITY_HEADERS } from './respond.js';
import { groupSessions, sessionOf } from './sessions.js';

/** Options of createViewer(). */
export interface ViewerCoreOptions {
  /** The capsule log (JSONL) to show. It need not exist yet. */
  logPath: string;
  /** URL prefix the viewer is mounted under, e.g. '/ui' (requests may arrive with or without it). @default '' */
  prefix?: string;
  /** Host headers accepted (DNS-rebinding guard), e.g. ['127.0.0.1:8080']. @default any */
  allowedHosts?: string[];
  /** The replay action: false turns it off; a function replaces the default (replayCapsule on logPath). @default on */
  replay?: boolean | ReplayRunner;
  /** How often the log is checked for new runs while a page listens, in ms. @default 500 */
  pollMs?: number;
}

/** What one request may see: e.g. `(r) => r.key === keyId` on a server with API keys. @default every record */
export interface ViewerScope {
  filter?: (record: CapsuleRecord) => boolean;
}

/** The viewer as a Fetch handler (Request -> Response), plus close() to end live streams. */
export interface Viewer {
  fetch(request: Request, scope?: ViewerScope): Promise<Response>;
  /** Paths it answers, relative to the prefix: '/', '/events', '/fragment', '/text', '/replay'. */
  readonly paths: readonly string[];
  close(): Promise<void>;
}

/** Rendered cells kept in memory (oldest dropped first). */
const CACHE_CELLS = 2000;

/** A positive whole-number query parameter (a log line), or undefined. */
function lineParam(url: URL, name: string): number | undefined {
  const v = url.searchParams.get(name);
  return v !== null && /^[1-9][0-9]{0,15}$/.test(v) ? Number(v) : undefined;
}

const notFound = (message: string) => jsonResponse(404, { error: { type: 'NOT_FOUND', message } });

/**
 * The live viewer as a Fetch handler, for any server: `sbirtools view` serves it on loopback
 * (through createViewerHandler); a service mounts it under a prefix and passes each request's
 * scope (only its caller's sessions). Routes: GET / (page; ?session=<id>), GET /events
 * (server-sent events on new runs), GET /fragment?after=N (new cells as JSON), POST /replay
 * {line} (re-run a record; needs the page's token header). It only reads the log; the one thing
 * that runs code is replay.
 * @example const viewer = createViewer({ logPath: 'runs.jsonl', prefix: '/ui' }); return viewer.fetch(request, { filter: (r) => r.key === keyId });
 */
export function createViewer(options: ViewerCoreOptions): Viewer {
  const log = new LogSource(options.logPath);
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  const base = `${prefix}/`;
  const token = randomBytes(18).toString('base64url');
  const cache = new Map<number, SafeHtml>();
  // a cut field links to its full text (GET /text, same scope as the page)
  const more = (line: number, field: TextField) =>
    html`<a href="${base}text?line=${line}&amp;field=${field}" target="_blank" rel="noopener noreferrer">full text</a>`;
  let generation = log.generation;
  const events = eventsRoute(log, options.pollMs ?? 500);
  const replay =
    options.replay === false
      ? undefined
      : replayRoute(log, typeof options.replay === 'function' ? options.replay : undefined, token);

  const visible = (scope?: ViewerScope): LogEntry[] =>
    scope?.filter ? log.entries.filter((e) => !!e.record && scope.filter!(e.record)) : log.entries;
  async function cell(e: LogEntry): Promise<SafeHtml> {
    if (generation !== log.generation) {
      cache.clear();
      generation = log.generation;
    }
    // a record never changes once written, so its cell is rendered once (and kept while recent)
    let c = cache.get(e.line);
    if (!c) {
      cache.set(e.line, (c = await renderRun(e, { mode: 'live', replay: !!replay, more })));
      if (cache.size > CACHE_CELLS) cache.delete(cache.keys().next().value!);
    }
    return c;
  }
  async function cells(entries: LogEntry[]): Promise<SafeHtml[]> {
    const out: SafeHtml[] = [];
    for (const e of [...entries].reverse()) out.push(await cell(e)); // newest first
    return out;
  }
  /**
   * One page of runs, newest first, from just below `before`: at most LIVE_PAGE_RUNS runs and
   * LIVE_PAGE_BYTES of cells (always at least one run), then a "Show older runs" button that
   * loads the next page. A session of ten thousand runs opens as fast as one of fifty.
   */
  async function pageOf(
    entries: LogEntry[],
    before: number | undefined,
    session: string | undefined,
  ): Promise<SafeHtml[]> {
    const out: SafeHtml[] = [];
    let bytes = 0;
    let i = entries.length - 1;
    while (i >= 0 && before !== undefined && entries[i]!.line >= before) i--;
    for (; i >= 0 && out.length < LIVE_PAGE_RUNS; i--) {
      const c = await cell(entries[i]!);
      if (out.length && bytes + c.value.length > LIVE_PAGE_BYTES) break;
      bytes += c.value.length;
      out.push(c);
    }
    if (i >= 0) {
      const next = entries[i + 1]!.line;
      const query = `before=${next}${session !== undefined ? `&session=${encodeURIComponent(session.slice(0, 2000))}` : ''}`;
      out.push(
        html`<div class="sb-older" data-before="${next}"><button type="button" class="sb-older-btn">Show older runs (${(i + 1).toLocaleString('en-US')} more)</button> <a href="${base}?${query}">or open them as a page</a></div>`,
      );
    }
    return out;
  }

  async function page(url: URL, scope?: ViewerScope): Promise<Response> {
    await log.refresh();
    const all = visible(scope);
    const selected = url.searchParams.get('session') ?? undefined;
    const shown = selected === undefined ? all : all.filter((e) => sessionOf(e) === selected);
    const nonce = randomBytes(16).toString('base64');
    const body = renderPage({
      mode: 'live',
      title: 'sbirtools runs',
      logName: basename(options.logPath),
      sessions: groupSessions(all),
      ...(selected !== undefined ? { selected } : {}),
      cells: await pageOf(shown, lineParam(url, 'before'), selected),
      count: all.length,
      lastLine: lastLineOf(all),
      nonce,
      base,
      token,
      generatedAt: new Date().toISOString(),
    });
    return new Response(body, {
      status: 200,
      headers: {
        ...SECURITY_HEADERS,
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': contentSecurityPolicy(nonce, 'live'),
      },
    });
  }

  async function fragment(url: URL, scope?: ViewerScope): Promise<Response> {
    await log.refresh();
    const all = visible(scope);
    const before = lineParam(url, 'before');
    if (before !== undefined) {
      // the next page of older runs ("Show older runs")
      const selected = url.searchParams.get('session') ?? undefined;
      const shown = selected === undefined ? all : all.filter((e) => sessionOf(e) === selected);
      return jsonResponse(200, { older: (await pageOf(shown, before, selected)).map((c) => c.value).join('') });
    }
    const after = Number(url.searchParams.get('after') ?? '0');
    const last = lastLineOf(all);
    if (!Number.isFinite(after) || after > last) return jsonResponse(200, { reset: true }); // the log was rotated
    const selected = url.searchParams.get('session') ?? undefined;
    const fresh = all.filter((e) => e.line > after && (selected === undefined || sessionOf(e) === selected));
    const runs = (await cells(fresh)).map((c) => c.value.replace('class="sb-run"', 'class="sb-run sb-new"')).join('');
    return jsonResponse(200, {
      runs,
      sessions: renderSessionList(groupSessions(all), selected, base, all.length).value,
      lastLine: last,
      count: all.length,
    });
  }

  /** GET /text?line=N&field=F: the whole text of a field a page cut, as plain text the browser will not run. */
  async function text(url: URL, scope?: ViewerScope): Promise<Response> {
    await log.refresh();
    const line = lineParam(url, 'line');
    const field = url.searchParams.get('field') ?? '';
    if (!(TEXT_FIELDS as readonly string[]).includes(field))
      return jsonResponse(400, {
        error: { type: 'VALIDATION_ERROR', message: `field must be one of ${TEXT_FIELDS.join(', ')}.` },
      });
    const entry = line === undefined ? undefined : visible(scope).find((e) => e.line === line);
    const body = entry?.record ? fullText(entry.record, field as TextField) : undefined;
    if (body === undefined) return notFound(`No ${field} for a run on line ${line ?? '?'}.`);
    return new Response(body, {
      status: 200,
      headers: {
        ...SECURITY_HEADERS,
        'content-type': 'text/plain; charset=utf-8',
        'content-security-policy': "sandbox; default-src 'none'",
      },
    });
  }

  async function route(request: Request, scope?: ViewerScope): Promise<Response> {
    if (options.allowedHosts && !options.allowedHosts.includes(request.headers.get('host') ?? ''))
      return jsonResponse(421, {
        error: { type: 'BAD_HOST', message: 'This viewer answers only on its own address.' },
      });
    const url = new URL(request.url);
    let path = url.pathname;
    if (prefix && (path === prefix || path.startsWith(`${prefix}/`))) path = path.slice(prefix.length);
    if (path === '' && prefix)
      return new Response(null, { status: 308, headers: { ...SECURITY_HEADERS, location: `${base}${url.search}` } });
    const method = request.method;
    if (path === '/replay') {
      if (!replay) return notFound('Replay is turned off in this viewer.');
      return method === 'POST'
        ? replay(request, scope?.filter)
        : jsonResponse(
            405,
            { error: { type: 'METHOD_NOT_ALLOWED', message: 'POST a JSON body {"line": N}.' } },
            { allow: 'POST' },
          );
    }
    if (method !== 'GET' && method !== 'HEAD')
      return jsonResponse(
        405,
        { error: { type: 'METHOD_NOT_ALLOWED', message: `${method} is not allowed here; the viewer only reads.` } },
        { allow: 'GET' },
      );
    if (path === '/') return page(url, scope);
    if (path === '/events') return events(request, SECURITY_HEADERS);
    if (path === '/fragment') return fragment(url, scope);
    if (path === '/text') return text(url, scope);
    return notFound(`No page at ${path}.`);
  }

  return {
    paths: ['/', '/events', '/fragment', '/text', '/replay'],
    fetch: async (request, scope) => {
      try {
        return await route(request, scope);
      } catch (err) {
        process.emitWarning(`sbirtools viewer: ${(err as Error)?.stack ?? String(err)}`);
        return jsonResponse(500, {
          error: { type: 'INTERNAL_ERROR', message: 'The viewer failed to render this page.' },
        });
      }
    },
    close: () => events.close(),
  };
}

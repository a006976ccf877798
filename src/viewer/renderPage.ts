import { contentSecurityPolicy } from './contentSecurityPolicy.js';
import { html, trusted, type SafeHtml } from './html.js';
import type { LogEntry } from './logSource.js';
import { PAGE_SCRIPT } from './pageScript.js';
import { PAGE_STYLE } from './pageStyle.js';
import type { SessionView } from './sessions.js';

/** Everything renderPage() draws. */
export interface PageInput {
  /** `live`: the viewer (sidebar, live updates, replay); `report`: one static self-contained file. */
  mode: 'live' | 'report';
  title: string;
  /** The log's file name, shown in the header. */
  logName: string;
  /** Sessions for the sidebar (live) and the summary (report), newest first. */
  sessions: SessionView[];
  /** The session shown (live: undefined shows every run). */
  selected?: string;
  /** Run cells already rendered by renderRun, in display order. */
  cells: SafeHtml[];
  /** Number of runs the page covers. */
  count: number;
  /** Highest log line covered (live updates ask for what comes after it). */
  lastLine: number;
  /** Per-response random nonce for the CSP. */
  nonce: string;
  /** Live: URL prefix of the viewer's routes, ending with '/'. */
  base?: string;
  /** Live: the token the replay request must carry (stops cross-site POSTs). */
  token?: string;
  generatedAt: string;
}

/** A session id as shown (an id from the log can be any length). */
const label = (s: SessionView) =>
  s.id === '' ? 'Runs without a session' : s.id.length > 200 ? `${s.id.slice(0, 200)}…` : s.id;

/** Most sessions the sidebar lists (newest first). */
export const MAX_SESSIONS_LISTED = 500;

/** The sidebar's session list (also sent alone on live updates). */
export function renderSessionList(
  sessions: SessionView[],
  selected: string | undefined,
  base: string,
  total: number,
): SafeHtml {
  const link = (href: string, current: boolean, title: SafeHtml | string, sub: string) =>
    html`<li><a href="${href}"${current ? html` aria-current="page"` : ''}>${title}<small>${sub}</small></a></li>`;
  // bounded: a log with a hundred thousand sessions, or a megabyte-long session id, keeps a small list
  const shown = sessions.slice(0, MAX_SESSIONS_LISTED);
  return html`${link(base, selected === undefined, 'All runs', `${total} run${total === 1 ? '' : 's'}`)}${shown.map(
    (s) =>
      link(
        `${base}?session=${encodeURIComponent(s.id.slice(0, 2000))}`,
        selected === s.id,
        label(s),
        `${s.runs.length} run${s.runs.length === 1 ? '' : 's'}${s.errors ? ` · ${s.errors} failed` : ''}${s.synthetic ? ' · synthetic' : ''} · ${s.lastTime.slice(0, 19).replace('T', ' ')}`,
      ),
  )}${sessions.length > shown.length ? html`<li class="sb-more">… ${(sessions.length - shown.length).toLocaleString('en-US')} older sessions not listed</li>` : ''}`;
}

/**
 * The one render function of the viewer and the report: a whole HTML document with the run cells,
 * its CSS and script inline under a per-response nonce, and (for a report) the CSP in a <meta>
 * so the file keeps it wherever it is opened.
 * @example res.end(renderPage({ mode: 'report', cells, ... }))
 */
export function renderPage(p: PageInput): string {
  const live = p.mode === 'live';
  const base = p.base ?? './';
  const empty = html`<div class="sb-empty">${live ? 'No runs yet. Runs appear here as they are appended to the log (sbirtools run --capsule-log … --capsule-outputs).' : 'This session has no runs.'}</div>`;
  const side = live
    ? html`<nav class="sb-side" aria-label="Sessions"><h2>Sessions</h2><ul id="sb-sessions">${renderSessionList(p.sessions, p.selected, base, p.count)}</ul></nav>`
    : '';
  const synthetic = p.sessions.some((s) => s.synthetic);
  const doc = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
${live ? '' : html`<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(p.nonce, 'report')}">`}
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${p.title}</title>
<style nonce="${p.nonce}">${trusted(PAGE_STYLE)}</style>
</head>
<body class="sb-${p.mode}" data-mode="${p.mode}" data-last-line="${p.lastLine}"${live ? html` data-base="${base}" data-token="${p.token ?? ''}"${p.selected !== undefined ? html` data-session="${p.selected}"` : ''}` : ''}>
<header class="sb-top"><h1>${p.title}</h1><span class="sb-meta">${p.logName} · <span id="sb-count">${p.count}</span> run${p.count === 1 ? '' : 's'}${live ? ' · live' : ` · generated ${p.generatedAt.slice(0, 19).replace('T', ' ')} UTC`}</span>${synthetic && !live ? html` <span class="sb-badge sb-synth">SYNTHETIC data: not real SBIR awards</span>` : ''}</header>
<div class="sb-layout">${side}<main class="sb-main" id="sb-runs">${p.cells.length ? p.cells : empty}</main></div>
<script nonce="${p.nonce}">${trusted(PAGE_SCRIPT)}</script>
</body></html>
`;
  return doc.value;
}

/** Highest line among entries (0 for none). */
export const lastLineOf = (entries: LogEntry[]): number => entries.reduce((m, e) => Math.max(m, e.line), 0);

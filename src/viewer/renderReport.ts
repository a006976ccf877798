import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { html, type SafeHtml } from './html.js';
import { LogSource } from './logSource.js';
import { lastLineOf, renderPage } from './renderPage.js';
import { REPORT_LIMITS, REPORT_MAX_BYTES, type RenderLimits } from './renderLimits.js';
import { renderRun } from './renderRun.js';
import { groupSessions, sessionOf } from './sessions.js';
import { SbirtoolsError } from '../core/errors.js';

/** Options of renderReport(). */
export interface ReportOptions {
  /** The session to export ('' = the runs without a session). @default the only session of the log */
  session?: string;
  /** Export every run of the log instead of one session. @default false */
  all?: boolean;
  /** Page title. @default 'sbirtools report: <session>' */
  title?: string;
  /**
   * Size bound of the report in bytes: runs are added oldest first while they fit, and a note at
   * the end says how many were left out and how to see them. @default REPORT_MAX_BYTES (4 MiB)
   */
  maxBytes?: number;
  /** Bounds of each run's parts (text, code, tables, charts). @default REPORT_LIMITS */
  limits?: RenderLimits;
  /** How the log is named in the "full text" notes (a path the reader can pass to the CLI). @default the log's file name */
  logName?: string;
}

/** Thrown when the log is missing or the report's session cannot be chosen (the message lists the sessions). */
export class ReportError extends SbirtoolsError {
  override readonly name = 'ReportError';
  constructor(message: string, options?: ErrorOptions) {
    super('REPORT_FAILED', message, options);
  }
}

/** Bytes the page around the cells takes (style, script, header), with room to spare. */
const FRAME_BYTES = 64 * 1024;

/** A run in brief, when its full cell would pass what is left of the report's bound. */
const COMPACT_LIMITS: RenderLimits = {
  textChars: 2_000,
  codeChars: 5_000,
  codeLines: 100,
  messageChars: 1_000,
  tableChars: 10_000,
  tables: 1,
  charts: 0,
  svgBytes: 0,
  runBytes: 64 * 1024,
};

const shortId = (id: string) => (id.length > 200 ? `${id.slice(0, 200)}…` : id);

/**
 * One self-contained HTML file for a session of a capsule log, read like a notebook: each run's
 * code, then its outputs, oldest first. CSS, script and SVG are inline and its CSP (in a <meta>)
 * forbids every request, so it opens offline and leaks nothing. It stays within `maxBytes`: every
 * text, table and chart of a run is cut to REPORT_LIMITS with a visible note naming the command
 * that prints the full text (`sbirtools report <log> --line N --field stdout -o -`), and runs past
 * the bound are left out with a note.
 * @throws {ReportError} when the log does not exist, when `session` is not in the log, or it is omitted and the log has several sessions.
 * @throws {Error} when the log cannot be read.
 * @example await writeFile('report.html', await renderReport('runs.jsonl', { session: 'abc' }));
 */
export async function renderReport(logPath: string, options: ReportOptions = {}): Promise<string> {
  if (!existsSync(logPath))
    throw new ReportError(`${logPath} does not exist; write one with --capsule-log <file> --capsule-outputs.`);
  const log = new LogSource(logPath);
  await log.refresh();
  const sessions = groupSessions(log.entries);
  const names =
    sessions
      .slice(0, 50)
      .map((s) => (s.id === '' ? '"" (runs without a session)' : shortId(s.id)))
      .join(', ') + (sessions.length > 50 ? `, and ${sessions.length - 50} more` : '') || 'none';
  let chosen = sessions;
  if (!options.all) {
    if (options.session === undefined && sessions.length > 1)
      throw new ReportError(
        `${logPath} has ${sessions.length} sessions; choose one with --session <id> (or --all): ${names}.`,
      );
    if (options.session !== undefined) chosen = sessions.filter((s) => s.id === options.session);
    if (options.session !== undefined && chosen.length === 0)
      throw new ReportError(`${logPath} has no session '${shortId(options.session)}'; its sessions: ${names}.`);
  }
  const ids = new Set(chosen.map((s) => s.id));
  const entries = log.entries.filter((e) => ids.has(sessionOf(e)));
  const maxBytes = options.maxBytes ?? REPORT_MAX_BYTES;
  const logName = options.logName ?? basename(logPath);
  const more = (line: number, field: string): SafeHtml =>
    html`full text: <code>sbirtools report ${logName} --line ${line} --field ${field} -o -</code>`;
  const cells: SafeHtml[] = [];
  let used = FRAME_BYTES;
  let included = 0;
  for (const e of entries) {
    // one at a time: SVG sanitizing is CPU-bound
    let cell = await renderRun(e, { mode: 'report', limits: options.limits ?? REPORT_LIMITS, more });
    let bytes = Buffer.byteLength(cell.value);
    if (used + bytes > maxBytes) {
      // too large for what is left: the run in brief (its code, a little of each output) if that fits
      cell = await renderRun(e, { mode: 'report', limits: COMPACT_LIMITS, more });
      bytes = Buffer.byteLength(cell.value);
      if (used + bytes > maxBytes) break;
    }
    used += bytes;
    cells.push(cell);
    included++;
  }
  if (included < entries.length) {
    const next = entries[included]!; // runs are kept oldest first, so the rest follows this line
    cells.push(
      html`<div class="sb-note sb-left-out">${(entries.length - included).toLocaleString('en-US')} of ${entries.length.toLocaleString('en-US')} runs (log line ${next.line} on) are not in this report: it reached its size bound of ${maxBytes.toLocaleString('en-US')} bytes. See them with <code>sbirtools view ${logName}</code>, or write a larger report with <code>--max-bytes</code>.</div>`,
    );
  }
  const one = chosen.length === 1 ? chosen[0]! : undefined;
  const title =
    options.title ??
    `sbirtools report: ${options.all || !one ? 'all runs' : one.id === '' ? 'runs without a session' : `session ${shortId(one.id)}`}`;
  return renderPage({
    mode: 'report',
    title,
    logName,
    sessions: chosen,
    cells,
    count: entries.length,
    lastLine: lastLineOf(entries),
    nonce: randomBytes(16).toString('base64'),
    generatedAt: new Date().toISOString(),
  });
}

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { LogSource } from './logSource.js';
import { lastLineOf, renderPage } from './renderPage.js';
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
}

/** Thrown when the log is missing or the report's session cannot be chosen (the message lists the sessions). */
export class ReportError extends SbirtoolsError {
  override readonly name = 'ReportError';
  constructor(message: string, options?: ErrorOptions) {
    super('REPORT_FAILED', message, options);
  }
}

/**
 * One self-contained HTML file for a session of a capsule log, read like a notebook: each run's
 * code, then its outputs, oldest first. CSS, script and SVG are inline and its CSP (in a <meta>)
 * forbids every request, so it opens offline and leaks nothing.
 * @throws {ReportError} when the log does not exist, when `session` is not in the log, or it is omitted and the log has several sessions.
 * @throws {Error} when the log cannot be read.
 * @example await writeFile('report.html', await renderReport('runs.jsonl', { session: 'abc' }));
 */
export async function renderReport(logPath: string, options: ReportOptions = {}): Promise<string> {
  if (!existsSync(logPath)) throw new ReportError(`${logPath} does not exist; write one with --capsule-log <file> --capsule-outputs.`);
  const log = new LogSource(logPath);
  await log.refresh();
  const sessions = groupSessions(log.entries);
  const names = sessions.map((s) => (s.id === '' ? '"" (runs without a session)' : s.id)).join(', ') || 'none';
  let chosen = sessions;
  if (!options.all) {
    if (options.session === undefined && sessions.length > 1) throw new ReportError(`${logPath} has ${sessions.length} sessions; choose one with --session <id> (or --all): ${names}.`);
    if (options.session !== undefined) chosen = sessions.filter((s) => s.id === options.session);
    if (options.session !== undefined && chosen.length === 0) throw new ReportError(`${logPath} has no session '${options.session}'; its sessions: ${names}.`);
  }
  const ids = new Set(chosen.map((s) => s.id));
  const entries = log.entries.filter((e) => ids.has(sessionOf(e)));
  const cells = [];
  for (const e of entries) cells.push(await renderRun(e, { mode: 'report' })); // one at a time: SVG sanitizing is CPU-bound
  const one = chosen.length === 1 ? chosen[0]! : undefined;
  const title = options.title ?? `sbirtools report: ${options.all || !one ? 'all runs' : one.id === '' ? 'runs without a session' : `session ${one.id}`}`;
  return renderPage({
    mode: 'report',
    title,
    logName: basename(logPath),
    sessions: chosen,
    cells,
    count: entries.length,
    lastLine: lastLineOf(entries),
    nonce: randomBytes(16).toString('base64'),
    generatedAt: new Date().toISOString(),
  });
}

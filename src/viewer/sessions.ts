import type { LogEntry } from './logSource.js';

/** A session of the log: its runs in file order. Runs without a session share the id ''. */
export interface SessionView {
  id: string;
  runs: LogEntry[];
  /** Time of its newest run (ISO-8601). */
  lastTime: string;
  errors: number;
  synthetic: boolean;
}

/** The session id an entry belongs to ('' for runs without a session and for unreadable lines). */
export const sessionOf = (e: LogEntry): string => e.record?.session?.id ?? '';

/**
 * Group entries into sessions, newest first (by their latest run). Unreadable lines go with the
 * runs without a session, so they stay visible.
 * @example groupSessions(log.entries)[0].id
 */
export function groupSessions(entries: LogEntry[]): SessionView[] {
  const byId = new Map<string, SessionView>();
  for (const e of entries) {
    const id = sessionOf(e);
    let s = byId.get(id);
    if (!s) byId.set(id, (s = { id, runs: [], lastTime: '', errors: 0, synthetic: false }));
    s.runs.push(e);
    const time = e.record?.time ?? '';
    if (time > s.lastTime) s.lastTime = time;
    if (!e.record || !e.record.result.ok) s.errors++;
    if (e.record?.dataset?.synthetic) s.synthetic = true;
  }
  return [...byId.values()].sort((a, b) =>
    b.lastTime > a.lastTime ? 1 : b.lastTime < a.lastTime ? -1 : b.runs.at(-1)!.line - a.runs.at(-1)!.line,
  );
}

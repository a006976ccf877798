import { timingSafeEqual } from 'node:crypto';
import { replayCapsule, type ReplayReport } from '../capsule/replay.js';
import type { CapsuleRecord } from '../capsule/capsuleRecord.js';
import type { LogSource } from './logSource.js';
import { jsonResponse } from './respond.js';

/** Re-runs the record on a line of the log (default: replayCapsule on the log file). */
export type ReplayRunner = (line: number) => Promise<ReplayReport>;

const MAX_BODY_BYTES = 1024;
const MAX_WAITING = 4;

const fail = (status: number, type: string, message: string) => jsonResponse(status, { error: { type, message } });

function sameToken(given: string | null, token: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * POST /replay `{ "line": N }`: re-run one record of the log (only one the request may see) and
 * answer whether it reproduces. The request must carry the page's token in `x-sbirtools-viewer`,
 * so another site cannot make the browser start runs. One replay at a time; a few may wait.
 * @example replayRoute(log, undefined, token)(request, filter)
 */
export function replayRoute(log: LogSource, runner: ReplayRunner | undefined, token: string) {
  const run: ReplayRunner = runner ?? ((line) => replayCapsule(log.path, { line }));
  let queue: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  return async (request: Request, filter: ((r: CapsuleRecord) => boolean) | undefined): Promise<Response> => {
    if (!sameToken(request.headers.get('x-sbirtools-viewer'), token))
      return fail(403, 'FORBIDDEN', 'Replay needs the x-sbirtools-viewer header of the viewer page.');
    const text = await request.text();
    if (Buffer.byteLength(text) > MAX_BODY_BYTES)
      return fail(413, 'BODY_TOO_LARGE', `The body must be at most ${MAX_BODY_BYTES} bytes: {"line": N}.`);
    let line: unknown;
    try {
      line = (JSON.parse(text) as { line?: unknown }).line;
    } catch {
      return fail(400, 'BAD_REQUEST', 'The body must be JSON: {"line": N}.');
    }
    if (typeof line !== 'number' || !Number.isSafeInteger(line) || line < 1)
      return fail(400, 'BAD_REQUEST', `"line" must be a positive whole number, got ${JSON.stringify(line)}.`);
    await log.refresh();
    const entry = log.entries.find((e) => e.line === line && e.record && (!filter || filter(e.record)));
    if (!entry) return fail(404, 'NOT_FOUND', `No run on line ${line} of this log.`);
    if (waiting >= MAX_WAITING) return fail(429, 'BUSY', 'Other replays are running; try again when they finish.');
    waiting++;
    const job = queue.then(() => run(line as number));
    queue = job.catch(() => undefined);
    try {
      const r = await job;
      return jsonResponse(200, {
        line: r.line,
        match: r.match,
        stdoutMatch: r.stdoutMatch,
        valueMatch: r.valueMatch,
        errorTypeMatch: r.errorTypeMatch,
        datasetMatch: r.datasetMatch,
        preludeMatch: r.preludeMatch,
        replayedBefore: r.replayedBefore,
        notes: r.notes,
        ok: r.result.ok,
        errorType: r.result.error?.type ?? null,
      });
    } catch (err) {
      return fail(500, 'REPLAY_FAILED', `The replay could not run: ${(err as Error).message}`);
    } finally {
      waiting--;
    }
  };
}

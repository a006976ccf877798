import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { replayCapsule, type ReplayReport } from '../capsule/replay.js';
import type { CapsuleRecord } from '../capsule/capsuleRecord.js';
import type { LogSource } from './logSource.js';

/** Re-runs the record on a line of the log (default: replayCapsule on the log file). */
export type ReplayRunner = (line: number) => Promise<ReplayReport>;

const MAX_BODY_BYTES = 1024;
const MAX_WAITING = 4;

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(JSON.stringify(body));
}

const fail = (res: ServerResponse, status: number, type: string, message: string) => send(res, status, { error: { type, message } });

function sameToken(given: string | string[] | undefined, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * POST /replay `{ "line": N }`: re-run one record of the log (only one the request may see) and
 * answer whether it reproduces. The request must carry the page's token in `x-sbirtools-viewer`,
 * so another site cannot make the browser start runs. One replay at a time; a few may wait.
 * @example replayRoute(log, undefined, undefined, token)(req, res)
 */
export function replayRoute(log: LogSource, runner: ReplayRunner | undefined, filter: ((r: CapsuleRecord, req: IncomingMessage) => boolean) | undefined, token: string) {
  const run: ReplayRunner = runner ?? ((line) => replayCapsule(log.path, { line }));
  let queue: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!sameToken(req.headers['x-sbirtools-viewer'], token)) return fail(res, 403, 'FORBIDDEN', 'Replay needs the x-sbirtools-viewer header of the viewer page.');
    const body = await readBody(req);
    if (body === undefined) return fail(res, 413, 'BODY_TOO_LARGE', `The body must be at most ${MAX_BODY_BYTES} bytes: {"line": N}.`);
    let line: unknown;
    try {
      line = (JSON.parse(body) as { line?: unknown }).line;
    } catch {
      return fail(res, 400, 'BAD_REQUEST', 'The body must be JSON: {"line": N}.');
    }
    if (typeof line !== 'number' || !Number.isSafeInteger(line) || line < 1) return fail(res, 400, 'BAD_REQUEST', `"line" must be a positive whole number, got ${JSON.stringify(line)}.`);
    await log.refresh();
    const entry = log.entries.find((e) => e.line === line && e.record && (!filter || filter(e.record, req)));
    if (!entry) return fail(res, 404, 'NOT_FOUND', `No run on line ${line} of this log.`);
    if (waiting >= MAX_WAITING) return fail(res, 429, 'BUSY', 'Other replays are running; try again when they finish.');
    waiting++;
    const job = queue.then(() => run(line as number));
    queue = job.catch(() => undefined);
    try {
      const r = await job;
      send(res, 200, { line: r.line, match: r.match, stdoutMatch: r.stdoutMatch, valueMatch: r.valueMatch, errorTypeMatch: r.errorTypeMatch, datasetMatch: r.datasetMatch, preludeMatch: r.preludeMatch, replayedBefore: r.replayedBefore, notes: r.notes, ok: r.result.ok, errorType: r.result.error?.type ?? null });
    } catch (err) {
      fail(res, 500, 'REPLAY_FAILED', `The replay could not run: ${(err as Error).message}`);
    } finally {
      waiting--;
    }
  };
}

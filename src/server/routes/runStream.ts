import type { RunResult } from '../../../schema/result.js';
import type { RequestContext } from '../context.js';
import type { ServerApp } from '../serverApp.js';
import { runResultHttp } from '../../sandbox/http.js';

/** How often a streamed run sends a `progress` event, in ms. */
export const STREAM_PROGRESS_MS = 1000;

const encoder = new TextEncoder();

/** One Server-Sent Event: its name and one `data:` line of JSON (`data` already JSON when a string is marked raw). */
function event(name: string, data: unknown, raw = false): Uint8Array {
  return encoder.encode(`event: ${name}\ndata: ${raw ? (data as string) : JSON.stringify(data)}\n\n`);
}

/**
 * `POST /v1/run` with `Accept: text/event-stream`: the run as Server-Sent Events. `progress`
 * (`{ elapsedMs }`) every second while it runs; `stdout` and `stderr` (`{ text }`) as the code
 * prints (joined about every 100 ms), within the run's output cap (`maxOutputBytes`, as in the
 * JSON answer; the cut marker is streamed too); and last
 * `result`: `{ status, codeRan, result }` with the RunResult, or `{ status, error }` (e.g. 404 for
 * an unknown session_id). Closing the stream (or the connection) cancels the run. An
 * `Idempotency-Key` is not honored on a stream (a retry runs the code again).
 */
export function runStream(ctx: RequestContext, app: ServerApp, input: { code: string; session_id?: string }): Response {
  const cancel = new AbortController();
  const onAbort = () => cancel.abort();
  ctx.request.signal.addEventListener('abort', onAbort, { once: true });
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const stopAll = () => {
    clearInterval(timer);
    ctx.request.signal.removeEventListener('abort', onAbort);
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (name: string, data: unknown, raw = false) => {
        try {
          controller.enqueue(event(name, data, raw));
        } catch {
          // the stream is closed (the client left): nothing more to say
        }
      };
      // a comment first: proxies and clients see the stream open before the first event
      controller.enqueue(encoder.encode(': sbirtools run\n\n'));
      timer = setInterval(
        () => send('progress', { elapsedMs: Math.round(performance.now() - started) }),
        STREAM_PROGRESS_MS,
      );
      timer.unref();
      void (async () => {
        try {
          let streamed = false;
          const onOutput = (stream: 'stdout' | 'stderr', text: string) => {
            streamed = true;
            send(stream, { text });
          };
          const done = await app.sessions.run(ctx.keyId, input.code, {
            ...(input.session_id ? { sessionId: input.session_id } : {}),
            signal: cancel.signal,
            onOutput,
            ...(ctx.priority ? { priority: ctx.priority } : {}),
          });
          if (!done) {
            send('result', {
              status: 404,
              codeRan: false,
              error: {
                type: 'SESSION_NOT_FOUND',
                message: `This API key has no session "${input.session_id}" (closed, expired, or never created); the code never started.`,
                hint: 'Create a session with POST /v1/sessions and pass its session_id, or omit session_id for a one-off run.',
              },
            });
            return;
          }
          const result: RunResult = done.result;
          ctx.cpuMs = (ctx.cpuMs ?? 0) + result.stats.cpuMs;
          if (result.error) ctx.log.errorType = result.error.type;
          // output that was not streamed (a replayed or never-started run) comes whole before the result
          if (!streamed && result.stdout) send('stdout', { text: result.stdout });
          if (!streamed && result.stderr) send('stderr', { text: result.stderr });
          // the one run -> HTTP mapping gives the status and the JSON body (files as base64)
          const answer = runResultHttp(result);
          send('result', `{"status":${answer.status},"codeRan":${done.ran},"result":${answer.body}}`, true);
        } catch (err) {
          app.onError(err);
          send('result', {
            status: 500,
            codeRan: false,
            error: {
              type: 'INTERNAL_ERROR',
              message:
                'The server failed to run the code. Retry; if it keeps failing, the operator should check the server logs.',
            },
          });
        } finally {
          stopAll();
          try {
            controller.close();
          } catch {
            // already closed by the client
          }
        }
      })();
    },
    cancel() {
      // the client closed the stream: that is the cancel
      cancel.abort();
      stopAll();
    },
  });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
  });
}

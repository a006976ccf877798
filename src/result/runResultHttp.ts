import type { RunResult } from '../../schema/result.js';

/** A run's HTTP answer as plain data: what a Fetch `Response`, a Lambda proxy result or node:http is built from. */
export interface RunHttpAnswer {
  /** 200, or 503 for QUEUE_FULL (nothing ran: retry). A guest error is still a 200: it is a result. */
  status: number;
  headers: Record<string, string>;
  /** The RunResult as JSON; each saved file's bytes as `base64` (JSON has no bytes). */
  body: string;
}

/**
 * The one mapping of a run result to HTTP, shared by createHandler (Fetch), `sbirtools serve`'s
 * `POST /v1/run` and the Lambda adapter: status 200 (503 with `retry-after: 1` for QUEUE_FULL),
 * `cache-control: no-store`, a JSON body whose files carry their bytes as `base64`.
 * `headers` are added last (e.g. `sbirtools-code-ran`).
 * @example const { status, headers, body } = runResultHttp(await box.run(code));
 */
export function runResultHttp(result: RunResult, headers: Record<string, string> = {}): RunHttpAnswer {
  const busy = result.error?.type === 'QUEUE_FULL';
  return {
    status: busy ? 503 : 200,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      ...(busy ? { 'retry-after': '1' } : {}),
      ...headers,
    },
    body: JSON.stringify(runResultJson(result)),
  };
}

/**
 * {@link runResultHttp} as a Fetch API `Response`.
 * @example return runResultResponse(result, { 'sbirtools-code-ran': 'true' });
 */
export function runResultResponse(result: RunResult, headers: Record<string, string> = {}): Response {
  const answer = runResultHttp(result, headers);
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/** The result as JSON can carry it: a saved file's Uint8Array becomes `base64`. */
function runResultJson(result: RunResult): RunResult {
  if (!result.files?.length) return result;
  return {
    ...result,
    files: result.files.map(({ bytes, ...file }) => ({
      ...file,
      ...(bytes ? { base64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') } : {}),
    })),
  };
}

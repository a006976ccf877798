/** The JSON body of every answer that is not a RunResult (the same shape as createHandler's). */
export interface ErrorBody {
  error: { type: string; message: string; hint?: string };
}

/**
 * A JSON answer with `cache-control: no-store`.
 * @example return json({ ok: true });
 */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

/**
 * An error answer `{ error: { type, message, hint? } }`, written for whoever must fix the request.
 * @example return fail(404, 'NOT_FOUND', 'No route GET /x.');
 */
export function fail(
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
  hint?: string,
): Response {
  const body: ErrorBody = { error: { type, message, ...(hint ? { hint } : {}) } };
  return json(body, status, headers);
}

import type { z } from 'zod';

/**
 * Parse a run request body (`{"code": "..."}` and, per schema, `session_id`): the data, or a
 * message for a 400 that says what to send instead. Shared by createHandler() and `sbirtools serve`.
 * @example const parsed = parseRunBody(text, HandlerRequestSchema); if (!parsed.ok) return fail(400, parsed.message);
 */
export function parseRunBody<T>(
  text: string,
  schema: z.ZodType<T>,
): { ok: true; data: T } | { ok: false; message: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {
      ok: false,
      message: 'The request body is not valid JSON. Send {"code": "<JavaScript>"} with Content-Type: application/json.',
    };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, data: parsed.data };
  const missing = !json || typeof json !== 'object' || !('code' in json);
  return {
    ok: false,
    message: missing
      ? 'The body has no `code`: send {"code": "<JavaScript>"}.'
      : parsed.error.issues.map((i) => i.message).join('; '),
  };
}

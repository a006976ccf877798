/**
 * A request body as text, or undefined when it is over `max` bytes. Stops reading as soon as it is
 * over and trusts no Content-Length beyond refusing one that is already too large: the count is of
 * bytes received.
 * @example const text = await readBody(request, 1_048_576); // undefined -> answer 413
 */
export async function readBody(request: Request, max: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > max) return undefined;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  // (no Buffer: the edge worker reads bodies here too)
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all);
}

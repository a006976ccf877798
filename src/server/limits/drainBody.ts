import type { IncomingMessage } from 'node:http';

/**
 * After an answer was sent before the body was read (413, 408, 401...), read and drop what is
 * left of the body, at most `maxBytes`, so the client (still sending) reads the answer instead
 * of a reset; past that, or when the body stalls `idleMs`, close the connection. Called only once
 * the answer is flushed.
 */
export function drainBody(
  req: IncomingMessage,
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  idleMs: number,
): void {
  if (req.complete || req.destroyed) return;
  const close = () => void req.socket.destroy();
  if (!body || body.locked) return close();
  const reader = body.getReader();
  let seen = 0;
  void (async () => {
    let timer: NodeJS.Timeout | undefined;
    try {
      for (;;) {
        timer = setTimeout(close, idleMs);
        const { done, value } = await reader.read();
        clearTimeout(timer);
        if (done) return;
        seen += value.byteLength;
        if (seen > maxBytes) return close();
      }
    } catch {
      close();
    } finally {
      clearTimeout(timer);
    }
  })();
}

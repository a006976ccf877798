import type { ServerResponse } from 'node:http';

/**
 * Write a Fetch response body to a `node:http` response, holding at most one chunk in this
 * process (each write waits for the socket to drain). A reader that takes more than
 * `writeTimeoutMs` to accept a chunk is dropped: the socket is destroyed, which aborts the
 * request's signal and so cancels its run. Other connections never wait on it.
 * @example await writeResponse(res, response.body, 15_000);
 */
export async function writeResponse(
  res: ServerResponse,
  body: ReadableStream<Uint8Array>,
  writeTimeoutMs: number,
  onDropped?: () => void,
): Promise<void> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!res.write(value) && !(await drained(res, writeTimeoutMs))) {
        if (!res.destroyed) onDropped?.();
        res.destroy();
        return;
      }
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    // a dropped reader stops the producer (an event stream, a run's output) as well
    reader.cancel().catch(() => undefined);
  }
}

/** True once `res` drains; false after `ms` without draining, or when it closes first. */
function drained(res: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => finish(true);
    const onClose = () => finish(false);
    const timer = setTimeout(() => finish(false), ms);
    res.once('drain', onDrain);
    res.once('close', onClose);
  });
}

/**
 * `response` with `done` called once its body has been sent whole, or the client stopped reading
 * it (a stream the client cancels); at once for a response without a body. For what must last as
 * long as a streamed answer (a run slot held while its events stream).
 * @example return bodyDone(await next(), release);
 */
export function bodyDone(response: Response, done: () => void): Response {
  if (!response.body) {
    done();
    return response;
  }
  let called = false;
  const once = () => {
    if (!called) {
      called = true;
      done();
    }
  };
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done: end } = await reader.read();
        if (end) {
          controller.close();
          once();
        } else controller.enqueue(value);
      } catch (err) {
        controller.error(err);
        once();
      }
    },
    async cancel(reason) {
      once();
      await reader.cancel(reason).catch(() => undefined);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

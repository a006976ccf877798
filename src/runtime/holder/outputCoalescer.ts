import type { OutputListener } from './protocol.js';

/** How long written output may wait before it is sent, in ms. */
export const OUTPUT_FLUSH_MS = 100;
/** Characters that make a pending piece go out at once. */
const FLUSH_CHARS = 16 * 1024;

/**
 * Output gathered into few messages: pieces of the same stream are joined and sent every 100 ms,
 * or as soon as 16k characters wait; `flush()` sends the rest (before the run's reply, so the
 * events arrive first). Bounded by the run's output cap, which the text passed in already obeys.
 * @example const c = outputCoalescer((s, t) => send({ event: 'output', sessionId, stream: s, text: t })); ...; c.flush();
 */
export function outputCoalescer(emit: OutputListener): { write: OutputListener; flush(): void } {
  let stream: 'stdout' | 'stderr' | undefined;
  let text = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (stream && text) {
      try {
        emit(stream, text);
      } catch {
        // a listener's failure is its own: it never reaches the guest or the run's answer
      }
    }
    stream = undefined;
    text = '';
  };
  return {
    write(s, t) {
      if (stream !== undefined && s !== stream) flush();
      stream = s;
      text += t;
      if (text.length >= FLUSH_CHARS) flush();
      else timer ??= setTimeout(flush, OUTPUT_FLUSH_MS);
    },
    flush,
  };
}

import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';

/** How often a long run reports progress, in ms (the first report comes after one interval). */
export const PROGRESS_INTERVAL_MS = 1000;
/** Most characters of new output one progress message carries (the rest waits for the result). */
export const MAX_PROGRESS_MESSAGE_CHARS = 2000;

/**
 * Progress notifications for one tool call whose request carried a `progressToken`: every
 * second while the run lasts, `notifications/progress` with an increasing `progress` (seconds
 * elapsed) and a `message` with the output printed since the last one (coalesced, cut to
 * 2,000 characters) or "running for N s". Nothing is sent without a token. `stop()` ends it.
 * @example const p = progressReporter(extra._meta?.progressToken, extra.sendNotification); try { ... } finally { p.stop(); }
 */
export function progressReporter(
  token: string | number | undefined,
  send: (n: ServerNotification) => Promise<void>,
  intervalMs = PROGRESS_INTERVAL_MS,
): { active: boolean; output(text: string): void; stop(): void } {
  if (token === undefined) return { active: false, output: () => undefined, stop: () => undefined };
  const started = performance.now();
  let pending = '';
  let dropped = 0;
  let step = 0;
  const timer = setInterval(() => {
    step++;
    const seconds = Math.round((performance.now() - started) / 1000);
    let message = `running for ${seconds} s`;
    if (pending) {
      message =
        pending.length > MAX_PROGRESS_MESSAGE_CHARS
          ? `${pending.slice(0, MAX_PROGRESS_MESSAGE_CHARS)}… [${pending.length - MAX_PROGRESS_MESSAGE_CHARS} more characters in the result]`
          : pending;
      if (dropped)
        message += `\n… [${dropped} characters of earlier output not shown here; all of it is in the result]`;
      pending = '';
      dropped = 0;
    }
    send({ method: 'notifications/progress', params: { progressToken: token, progress: step, message } }).catch(
      () => undefined,
    );
  }, intervalMs);
  timer.unref();
  return {
    active: true,
    output(text) {
      // bounded: at most one message's worth waits; the rest is counted, and arrives with the result
      const room = MAX_PROGRESS_MESSAGE_CHARS + 1 - pending.length;
      if (room > 0) pending += text.slice(0, room);
      dropped += Math.max(0, text.length - Math.max(0, room));
    },
    stop: () => clearInterval(timer),
  };
}

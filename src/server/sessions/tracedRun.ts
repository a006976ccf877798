import type { Tracer } from '@opentelemetry/api';
import type { RunResult } from '../../../schema/result.js';

/**
 * Run `fn` inside an OpenTelemetry span `sbirtools.run` (session, ok, error type, wall/CPU ms,
 * replayed cells; error status when the host failed). A no-op tracer unless an SDK is registered.
 * `done` gets the run and its latency in ms. Without a tracer, just runs `fn`.
 */
export async function tracedRun<R extends { result: RunResult; replayedCells: number }>(
  tracer: Tracer | undefined,
  sessionId: string | undefined,
  fn: () => Promise<R | undefined>,
  done: (run: R, ms: number) => void,
): Promise<R | undefined> {
  if (!tracer) {
    const started = performance.now();
    const run = await fn();
    if (run) done(run, performance.now() - started);
    return run;
  }
  return tracer.startActiveSpan('sbirtools.run', async (span) => {
    const started = performance.now();
    try {
      if (sessionId) span.setAttribute('sbirtools.session', sessionId);
      const run = await fn();
      if (run) {
        const { result } = run;
        span.setAttributes({
          'sbirtools.ok': result.ok,
          'sbirtools.wall_ms': result.stats.wallMs,
          'sbirtools.cpu_ms': result.stats.cpuMs,
          'sbirtools.replay_cells': run.replayedCells,
        });
        if (result.error) span.setAttribute('sbirtools.error_type', result.error.type);
        done(run, performance.now() - started);
      }
      return run;
    } catch (err) {
      span.setStatus({ code: 2 /* SpanStatusCode.ERROR */, message: (err as Error).message });
      throw err;
    } finally {
      span.end();
    }
  });
}

import { SpanStatusCode, trace } from '@opentelemetry/api';
import { packageInfo } from '../../capsule/packageInfo.js';
import type { SessionRun } from './serverSessions.js';

/**
 * Run `fn` inside an OpenTelemetry span `sbirtools.run` (session, ok, error type, wall/CPU ms,
 * replayed cells; error status when the host failed). A no-op tracer unless an SDK is registered.
 * `done` gets the run and its latency in ms.
 */
export async function tracedRun(sessionId: string | undefined, fn: () => Promise<SessionRun | undefined>, done: (run: SessionRun, ms: number) => void): Promise<SessionRun | undefined> {
  const tracer = trace.getTracer('sbirtools', packageInfo().version);
  return tracer.startActiveSpan('sbirtools.run', async (span) => {
    const started = performance.now();
    try {
      if (sessionId) span.setAttribute('sbirtools.session', sessionId);
      const run = await fn();
      if (run) {
        const { result } = run;
        span.setAttributes({ 'sbirtools.ok': result.ok, 'sbirtools.wall_ms': result.stats.wallMs, 'sbirtools.cpu_ms': result.stats.cpuMs, 'sbirtools.replay_cells': run.replayedCells });
        if (result.error) span.setAttribute('sbirtools.error_type', result.error.type);
        done(run, performance.now() - started);
      }
      return run;
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    } finally {
      span.end();
    }
  });
}

import type { Registry } from 'prom-client';
import type { RunEvent } from './sessions/serverSessions.js';

/** The server's Prometheus metrics, on a private registry (never prom-client's global one). */
export interface ServerMetrics {
  registry: Registry;
  request(route: string, method: string, status: number): void;
  run(event: RunEvent): void;
  limited(reason: string): void;
  /** A client that read none of its answer within the write timeout was dropped. */
  slowReader(): void;
}

/**
 * Create the metrics. `gauges` are read at scrape time: sessions held here, runs queued and
 * running in the pool, holder processes replaced since start, refusals held (RefusalPacer).
 */
export async function createMetrics(gauges: {
  openSessions: () => number;
  queueDepth: () => number;
  activeRuns: () => number;
  holderRestarts: () => number;
  refusalsHeld: () => number;
}): Promise<ServerMetrics> {
  // loaded with the server, not with the library
  const { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } = await import('prom-client');
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'sbirtools_' });
  const requests = new Counter({
    name: 'sbirtools_http_requests_total',
    help: 'HTTP requests by route and status.',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  });
  const runs = new Counter({
    name: 'sbirtools_runs_total',
    help: 'Runs by outcome (ok, error) and error type.',
    labelNames: ['outcome', 'error_type'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'sbirtools_run_duration_seconds',
    help: 'Run latency, including any replay.',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const replayed = new Counter({
    name: 'sbirtools_replayed_cells_total',
    help: 'Cells replayed to rebuild sessions that another replica held.',
    registers: [registry],
  });
  const resets = new Counter({
    name: 'sbirtools_session_resets_total',
    help: 'Sessions reset because their history could not be rebuilt (divergence or a cap).',
    registers: [registry],
  });
  const limitedCount = new Counter({
    name: 'sbirtools_rate_limited_total',
    help: 'Requests refused by the budget (429) or the fair queue (503), by reason.',
    labelNames: ['reason'],
    registers: [registry],
  });
  const slowReaders = new Counter({
    name: 'sbirtools_slow_readers_dropped_total',
    help: 'Connections dropped because the client read none of its answer within the write timeout.',
    registers: [registry],
  });
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  gauge('sbirtools_open_sessions', 'Session isolates held by this replica.', gauges.openSessions);
  gauge('sbirtools_queue_depth', 'Runs waiting for a slot in the holder pool.', gauges.queueDepth);
  gauge('sbirtools_active_runs', 'Runs executing in the holder pool.', gauges.activeRuns);
  gauge(
    'sbirtools_holder_restarts',
    'Holder processes replaced since start (killed for a limit or crashed).',
    gauges.holderRestarts,
  );
  gauge(
    'sbirtools_refusals_held',
    'Refusals (429) held until the Retry-After their caller came back before.',
    gauges.refusalsHeld,
  );
  return {
    registry,
    request: (route, method, status) => requests.inc({ route, method, status: String(status) }),
    run(event) {
      const { result } = event.run;
      runs.inc({ outcome: result.ok ? 'ok' : 'error', error_type: result.error?.type ?? '' });
      latency.observe(event.ms / 1000);
      if (event.run.replayedCells) replayed.inc(event.run.replayedCells);
      if (event.run.resetReason) resets.inc();
    },
    limited: (reason) => limitedCount.inc({ reason }),
    slowReader: () => slowReaders.inc(),
  };
}

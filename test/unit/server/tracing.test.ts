import { trace, type Span, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type SbirtoolsServer } from '../../../src/server/createServer.js';

interface Recorded {
  name: string;
  attributes: Record<string, unknown>;
  status?: { code: number };
  ended: boolean;
}

/** A minimal tracer provider standing in for a deployer's OpenTelemetry SDK. */
function recordingProvider(spans: Recorded[]): TracerProvider {
  const tracer = {
    startActiveSpan(name: string, ...args: unknown[]) {
      const fn = args[args.length - 1] as (span: Span) => unknown;
      const rec: Recorded = { name, attributes: {}, ended: false };
      spans.push(rec);
      const span = {
        setAttribute: (k: string, v: unknown) => ((rec.attributes[k] = v), span),
        setAttributes: (a: Record<string, unknown>) => (Object.assign(rec.attributes, a), span),
        setStatus: (s: { code: number }) => ((rec.status = s), span),
        end: () => void (rec.ended = true),
      };
      return fn(span as unknown as Span);
    },
  } as unknown as Tracer;
  return { getTracer: () => tracer };
}

describe('createServer: OpenTelemetry spans', () => {
  const spans: Recorded[] = [];
  let server: SbirtoolsServer;
  beforeAll(async () => {
    trace.setGlobalTracerProvider(recordingProvider(spans));
    server = await createServer({ port: 0, log: false });
  });
  afterAll(async () => {
    await server?.close();
    trace.disable();
  });

  it('emits a span per request and per run, with the error type and timings, all ended', async () => {
    const res = await server.fetch(
      new Request('http://127.0.0.1/v1/run', { method: 'POST', body: JSON.stringify({ code: 'null.x' }) }),
    );
    expect(res.status).toBe(200);
    const run = spans.find((s) => s.name === 'sbirtools.run')!;
    expect(run.attributes).toMatchObject({
      'sbirtools.ok': false,
      'sbirtools.error_type': 'RUNTIME_ERROR',
      'sbirtools.replay_cells': 0,
    });
    expect(typeof run.attributes['sbirtools.wall_ms']).toBe('number');
    const request = spans.find((s) => s.name === 'sbirtools.request' && s.attributes['url.path'] === '/v1/run')!;
    expect(request.attributes['http.request.method']).toBe('POST');
    expect(spans.every((s) => s.ended)).toBe(true);
  });
});

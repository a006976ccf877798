import { trace, type Context, type Span, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../../src/mcp/createMcpServer.js';
import { traceContextFrom } from '../../../src/mcp/traceContext.js';
import { shutdown } from '../../../src/index.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';

/** Records each span's name and the trace/span id of the parent context it was started in. */
function recordingProvider(
  spans: Array<{ name: string; parent?: { traceId: string; spanId: string } }>,
): TracerProvider {
  const tracer = {
    startActiveSpan(name: string, ...args: unknown[]) {
      const fn = args[args.length - 1] as (span: Span) => unknown;
      const ctx = args.length >= 3 ? (args[1] as Context) : undefined;
      const parent = ctx ? trace.getSpanContext(ctx) : undefined;
      spans.push({ name, ...(parent ? { parent: { traceId: parent.traceId, spanId: parent.spanId } } : {}) });
      const span = { setAttribute: () => span, setAttributes: () => span, setStatus: () => span, end: () => undefined };
      return fn(span as unknown as Span);
    },
  } as unknown as Tracer;
  return { getTracer: () => tracer };
}

afterAll(async () => {
  trace.disable();
  await shutdown();
});

describe('W3C trace context from params._meta', () => {
  it('parses traceparent (and tracestate), ignoring malformed or all-zero ids', async () => {
    const ctx = await traceContextFrom({ traceparent: `00-${TRACE}-${PARENT}-01`, tracestate: 'vendor=x' });
    expect(trace.getSpanContext(ctx)).toMatchObject({ traceId: TRACE, spanId: PARENT, traceFlags: 1, isRemote: true });
    expect(trace.getSpanContext(ctx)!.traceState?.get('vendor')).toBe('x');
    for (const bad of [
      'nonsense',
      `00-${'0'.repeat(32)}-${PARENT}-01`,
      `ff-${TRACE}-${PARENT}-01`,
      `00-${TRACE}-${'0'.repeat(16)}-01`,
    ]) {
      expect(trace.getSpanContext(await traceContextFrom({ traceparent: bad }))).toBeUndefined();
    }
    expect(trace.getSpanContext(await traceContextFrom(undefined))).toBeUndefined();
  });

  it("continues the caller's trace: run_analysis's span has the request's traceparent as its parent", async () => {
    const spans: Array<{ name: string; parent?: { traceId: string; spanId: string } }> = [];
    trace.setGlobalTracerProvider(recordingProvider(spans));
    const app = await createMcpServer({ description: 'test' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await app.connect(serverSide);
    const client = new Client({ name: 'trace-test', version: '1.0.0' });
    await client.connect(clientSide);
    const res = await client.callTool({
      name: 'run_analysis',
      arguments: { code: '6 * 7' },
      _meta: { traceparent: `00-${TRACE}-${PARENT}-01` },
    });
    expect((res.structuredContent as { value: unknown }).value).toBe(42);
    expect(spans.find((s) => s.name === 'sbirtools.tool_call')?.parent).toEqual({ traceId: TRACE, spanId: PARENT });
    await client.close();
    await app.close();
  });
});

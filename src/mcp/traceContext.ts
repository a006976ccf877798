import type { Context } from '@opentelemetry/api';

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * The OpenTelemetry context a request's W3C trace context continues: `params._meta.traceparent`
 * (and `tracestate`), as MCP clients send it. Through the registered propagator when the deployer
 * set one up, else parsed here (so spans join the caller's trace with only `@opentelemetry/api`).
 * An absent or malformed `traceparent` gives the active context unchanged.
 * @example await context.with(await traceContextFrom(extra._meta), () => run())
 */
export async function traceContextFrom(meta: Record<string, unknown> | undefined): Promise<Context> {
  const { context, propagation, trace, createTraceState } = await import('@opentelemetry/api');
  const active = context.active();
  const parent = typeof meta?.traceparent === 'string' ? meta.traceparent.trim().toLowerCase() : undefined;
  if (!parent) return active;
  const carrier = {
    traceparent: parent,
    ...(typeof meta?.tracestate === 'string' ? { tracestate: meta.tracestate } : {}),
  };
  const extracted = propagation.extract(active, carrier);
  if (trace.getSpanContext(extracted)) return extracted;
  const m = TRACEPARENT.exec(parent);
  // version ff is invalid, and all-zero ids mean "no trace" (W3C Trace Context, section 3.2)
  if (!m || m[1] === 'ff' || /^0+$/.test(m[2]!) || /^0+$/.test(m[3]!)) return active;
  return trace.setSpanContext(active, {
    traceId: m[2]!,
    spanId: m[3]!,
    traceFlags: parseInt(m[4]!, 16) & 1,
    isRemote: true,
    ...(carrier.tracestate ? { traceState: createTraceState(carrier.tracestate) } : {}),
  });
}

/**
 * A dry run's spans (the service's `traceSpans`, plain data) sent to the user's tracing stack
 * with the official OpenTelemetry JS packages (docs/tracing.md): OTLP/HTTP with protobuf to a URL
 * (the OTLP trace exporter), or OTLP JSON written to a file (the OTLP transformer's serializer).
 */
import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type HrTime } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { Agent } from 'node:http';
import { runMessage, type SpanData } from '../service/index.ts';

/** Who made the spans: the resource's `service.*` and the instrumentation scope. */
export interface SpanOrigin {
  readonly name: string;
  readonly version: string;
}

/** How long one export may take before it counts as failed (ms). */
export const OTLP_TIMEOUT_MS = 5_000;

const hr = (ms: number): HrTime => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];
const KIND = { internal: SpanKind.INTERNAL, client: SpanKind.CLIENT } as const;
const STATUS = { unset: SpanStatusCode.UNSET, ok: SpanStatusCode.OK, error: SpanStatusCode.ERROR } as const;

/** An endpoint as printed: scheme, host and path only (no credentials, query or fragment). */
export function endpointLabel(url: string): string {
  if (!URL.canParse(url)) return url;
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

/** The SDK's finished spans for the plain span data. */
export function readableSpans(spans: readonly SpanData[], origin: SpanOrigin): ReadableSpan[] {
  const resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: origin.name, [ATTR_SERVICE_VERSION]: origin.version });
  return spans.map((s) => {
    const context = { traceId: s.traceId, spanId: s.spanId, traceFlags: TraceFlags.SAMPLED };
    const end = Math.max(s.endMs, s.startMs);
    return {
      name: s.name,
      kind: KIND[s.kind],
      spanContext: () => context,
      ...(s.parentSpanId ? { parentSpanContext: { traceId: s.traceId, spanId: s.parentSpanId, traceFlags: TraceFlags.SAMPLED } } : {}),
      startTime: hr(s.startMs),
      endTime: hr(end),
      duration: hr(end - s.startMs),
      status: { code: STATUS[s.status.code], ...(s.status.message ? { message: s.status.message } : {}) },
      attributes: s.attributes as Attributes,
      links: [],
      events: s.events.map((e) => ({ name: e.name, time: hr(e.timeMs), attributes: e.attributes as Attributes })),
      ended: true,
      resource,
      instrumentationScope: { name: origin.name, version: origin.version },
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    };
  });
}

/** The OTLP JSON encoding of an export request (ExportTraceServiceRequest) holding the spans. */
export function otlpJson(spans: readonly SpanData[], origin: SpanOrigin): string {
  const bytes = JsonTraceSerializer.serializeRequest(readableSpans(spans, origin));
  return new TextDecoder().decode(bytes);
}

/**
 * Sends the spans to an OTLP/HTTP endpoint (the full traces URL, e.g.
 * `http://127.0.0.1:4318/v1/traces`) as protobuf. Resolves when the endpoint accepted them;
 * rejects with the exporter's error (unreachable, refused, timed out). `timeoutMillis` is one
 * deadline for the whole export, retries included: the exporter's own timeout is per attempt and
 * a receiver that trickles its answer (a byte every 500 ms) never trips it. At the deadline the
 * export's sockets are destroyed, so nothing of it keeps the process alive.
 */
export async function sendOtlp(spans: readonly SpanData[], url: string, origin: SpanOrigin, timeoutMillis = OTLP_TIMEOUT_MS): Promise<void> {
  const agents: Agent[] = [];
  const exporter = new OTLPTraceExporter({
    url,
    timeoutMillis,
    httpAgentOptions: async (protocol) => {
      const agent = new (protocol === 'https:' ? await import('node:https') : await import('node:http')).Agent({ keepAlive: false });
      agents.push(agent);
      return agent;
    },
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      new Promise<void>((resolve, reject) => {
        exporter.export(readableSpans(spans, origin), (r) => (r.code === ExportResultCode.SUCCESS ? resolve() : reject(r.error ?? new Error('export failed'))));
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(runMessage('host.otlp-deadline', { ms: timeoutMillis }))), timeoutMillis);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    for (const agent of agents) agent.destroy();
    // Not awaited: a shutdown waits for the export it would cancel.
    void exporter.shutdown().catch(() => undefined);
  }
}

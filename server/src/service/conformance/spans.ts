/**
 * Spans to grade, from the two forms a trace comes in (docs/conformance.md, "Inputs"): an OTLP
 * export request (`{ resourceSpans: [...] }`, OTLP JSON as the collector's file exporter and
 * `trace export --otlp` write it, or a decoded protobuf request) and a dry run's own trace
 * (its events mapped by `traceSpans`, the same spans `trace export --otlp` sends). Pure.
 */
import { traceSpans, type SpanData } from '../run/trace/otelSpans.ts';
import type { TraceEvent } from '../run/trace/trace.ts';
import type { ObservedSpan, ObservedValue, SpanSource } from './types.ts';

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

/** An OTLP `AnyValue` as plain JSON (64-bit integers arrive as strings in OTLP JSON). */
export function anyValue(v: unknown): ObservedValue {
  const o = (v ?? {}) as Json;
  if ('stringValue' in o) return String(o['stringValue']);
  if ('boolValue' in o) return o['boolValue'] === true;
  if ('intValue' in o) return Number(o['intValue']);
  if ('doubleValue' in o) return Number(o['doubleValue']);
  if ('arrayValue' in o) return list((o['arrayValue'] as Json | undefined)?.['values']).map(anyValue);
  if ('kvlistValue' in o) return attributes((o['kvlistValue'] as Json | undefined)?.['values']);
  return null;
}

function attributes(v: unknown): Record<string, ObservedValue> {
  const out: Record<string, ObservedValue> = {};
  for (const kv of list(v)) if (typeof kv['key'] === 'string') out[kv['key']] = anyValue(kv['value']);
  return out;
}

/** An id as hex: OTLP JSON writes hex, a decoded protobuf gives bytes. */
function hexId(v: unknown): string {
  if (typeof v === 'string') return v.toLowerCase();
  if (v instanceof Uint8Array) return Array.from(v, (b) => b.toString(16).padStart(2, '0')).join('');
  return '';
}

const STATUS: Record<string, ObservedSpan['status']> = { '1': 'ok', '2': 'error', STATUS_CODE_OK: 'ok', STATUS_CODE_ERROR: 'error' };

/** The spans of one OTLP export request. A malformed part is skipped, never thrown at. */
export function* otlpRequestSpans(request: unknown, source?: SpanSource): Generator<ObservedSpan> {
  for (const rs of list((request as Json | null)?.['resourceSpans'])) {
    for (const ss of list(rs['scopeSpans'] ?? rs['instrumentationLibrarySpans'])) {
      for (const s of list(ss['spans'])) {
        const end = Number(s['endTimeUnixNano'] ?? 0);
        const start = Number(s['startTimeUnixNano'] ?? end);
        yield {
          traceId: hexId(s['traceId']),
          spanId: hexId(s['spanId']),
          name: typeof s['name'] === 'string' ? s['name'] : '',
          endMs: Number.isFinite(end) ? end / 1e6 : 0,
          startMs: Number.isFinite(start) ? start / 1e6 : 0,
          attributes: attributes(s['attributes']),
          events: list(s['events']).map((e) => ({ name: typeof e['name'] === 'string' ? e['name'] : '', attributes: attributes(e['attributes']) })),
          status: STATUS[String((s['status'] as Json | undefined)?.['code'] ?? '')] ?? 'unset',
          ...(source ? { source } : {}),
        };
      }
    }
  }
}

/** The observed form of a span we made ourselves (`traceSpans`). */
export function fromSpanData(s: SpanData): ObservedSpan {
  return { traceId: s.traceId, spanId: s.spanId, name: s.name, endMs: s.endMs, startMs: s.startMs, attributes: s.attributes, events: s.events, status: s.status.code };
}

/** The spans of one dry run's trace (its events in order), as `trace export --otlp` would send them. */
export async function dryRunSpans(events: readonly TraceEvent[]): Promise<ObservedSpan[]> {
  return (await traceSpans(events)).map(fromSpanData);
}

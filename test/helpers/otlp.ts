/**
 * OTLP in tests (docs/tracing.md): a receiver on 127.0.0.1 that keeps every request, and the
 * official OTLP protobuf definitions (test/otlp-proto/, copied from open-telemetry/opentelemetry-proto
 * at ac2c4b5, Apache-2.0) to decode a request or check an OTLP JSON document.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { REPO } from './cli.ts';

/** The official OTLP definitions, loaded from the vendored .proto files. */
function otlpRoot(): protobuf.Root {
  const base = join(REPO, 'test', 'otlp-proto');
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(base, target);
  root.loadSync('opentelemetry/proto/collector/trace/v1/trace_service.proto', { keepCase: false });
  root.resolveAll();
  return root;
}
const ROOT = otlpRoot();
export const REQUEST = ROOT.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');

export interface Span {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  kind: number;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  status: { code?: number; message?: string };
}

/** An OTLP AnyValue as a plain value. */
function plain(v: Record<string, unknown>): unknown {
  if ('stringValue' in v) return v['stringValue'];
  if ('intValue' in v) return Number(v['intValue']);
  if ('doubleValue' in v) return v['doubleValue'];
  if ('boolValue' in v) return v['boolValue'];
  if ('arrayValue' in v) return ((v['arrayValue'] as { values?: Record<string, unknown>[] }).values ?? []).map(plain);
  return undefined;
}
const attributeMap = (list: unknown): Record<string, unknown> =>
  Object.fromEntries(((list ?? []) as { key: string; value: Record<string, unknown> }[]).map((a) => [a.key, plain(a.value)]));

/** The spans of a decoded request (ids as hex). */
export function spansOf(request: Record<string, unknown>): Span[] {
  const hex = (b: unknown) => (b ? Buffer.from(b as Uint8Array).toString('hex') : '');
  const out: Span[] = [];
  for (const rs of (request['resourceSpans'] ?? []) as Record<string, unknown>[])
    for (const ss of (rs['scopeSpans'] ?? []) as Record<string, unknown>[])
      for (const s of (ss['spans'] ?? []) as Record<string, unknown>[])
        out.push({
          name: s['name'] as string,
          traceId: hex(s['traceId']),
          spanId: hex(s['spanId']),
          parentSpanId: hex(s['parentSpanId']),
          kind: s['kind'] as number,
          attributes: attributeMap(s['attributes']),
          events: ((s['events'] ?? []) as Record<string, unknown>[]).map((e) => ({ name: e['name'] as string, attributes: attributeMap(e['attributes']) })),
          status: (s['status'] ?? {}) as Span['status'],
        });
  return out;
}

/**
 * Checks an OTLP JSON document against the protobuf definitions: every key is a field of its
 * message (by its JSON name), and the message decodes (ids are hex in OTLP JSON, bytes in protobuf).
 */
export function checkOtlpJson(value: unknown, type: protobuf.Type, path = '$'): void {
  assert.ok(value && typeof value === 'object' && !Array.isArray(value), `${path} is an object`);
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const field = type.fieldsArray.find((f) => (f.options?.['json_name'] ?? f.name) === key || f.name === key);
    assert.ok(field, `${path}.${key} is a field of ${type.fullName}`);
    const items = field.repeated ? (assert.ok(Array.isArray(v), `${path}.${key} is a list`), v as unknown[]) : [v];
    for (const [i, item] of items.entries()) {
      const at: string = field.repeated ? `${path}.${key}[${i}]` : `${path}.${key}`;
      if (field.resolvedType instanceof protobuf.Type) checkOtlpJson(item, field.resolvedType, at);
      else if (field.resolvedType instanceof protobuf.Enum) assert.equal(typeof item, 'number', `${at} is an enum number`);
      else if (field.type === 'bytes') assert.match(String(item), /^[0-9a-f]*$/, `${at} is hex (OTLP JSON)`);
      else if (['fixed64', 'int64', 'uint64'].includes(field.type)) assert.match(String(item), /^\d+$/, `${at} is an integer`);
      else if (field.type === 'string') assert.equal(typeof item, 'string', `${at} is a string`);
      else if (['int32', 'uint32', 'fixed32', 'double'].includes(field.type)) assert.equal(typeof item, 'number', `${at} is a number`);
      else if (field.type === 'bool') assert.equal(typeof item, 'boolean', `${at} is a boolean`);
    }
  }
}

/** The OTLP JSON as the protobuf message it encodes (hex ids → bytes), decoded like a request. */
export function fromOtlpJson(json: Record<string, unknown>): Record<string, unknown> {
  const bytes = (k: string, v: unknown) => (['traceId', 'spanId', 'parentSpanId'].includes(k) && typeof v === 'string' ? Buffer.from(v, 'hex') : v);
  const message = REQUEST.fromObject(JSON.parse(JSON.stringify(json), (k, v) => (typeof v === 'string' ? bytes(k, v) : v)) as Record<string, unknown>);
  return REQUEST.toObject(REQUEST.decode(REQUEST.encode(message).finish()), { longs: String, defaults: false }) as Record<string, unknown>;
}

/** An OTLP/HTTP receiver on 127.0.0.1 that keeps every request; `received(n)` waits for the n-th. */
export async function receiver(status = 200) {
  const requests: { path: string; contentType: string; body: Buffer }[] = [];
  const waiting: { n: number; done: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', contentType: String(req.headers['content-type'] ?? ''), body: Buffer.concat(chunks) });
      for (const w of waiting.filter((x) => requests.length >= x.n)) w.done();
      res.writeHead(status, { 'content-type': 'application/x-protobuf' });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
  const received = (n: number) => new Promise<void>((done) => (requests.length >= n ? done() : waiting.push({ n, done })));
  return { url, requests, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A protobuf ExportTraceServiceRequest as plain data (ids as bytes, 64-bit numbers as strings). */
export function decodeRequest(body: Uint8Array): Record<string, unknown> {
  return REQUEST.toObject(REQUEST.decode(body), { longs: String }) as Record<string, unknown>;
}

/**
 * A receiver that never finishes answering (docs/robustness.md, "Exports"): it reads the request,
 * sends 200 and its headers, then one byte every 500 ms. `requests` counts what it was sent.
 */
export async function tricklingReceiver() {
  let requests = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': '1000000' });
      const timer = setInterval(() => res.write(Buffer.from([0])), 500);
      timers.add(timer);
      res.on('close', () => (clearInterval(timer), timers.delete(timer)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
  return {
    url,
    requests: () => requests,
    close: () => {
      for (const t of timers) clearInterval(t);
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

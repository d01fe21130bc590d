/**
 * An OTLP/HTTP trace receiver on 127.0.0.1 (docs/conformance.md, "Receiver"): `POST /v1/traces`
 * with `application/x-protobuf` (decoded with the official OTLP definitions, otlpTraceProto.json
 * made from them by scripts/otlpTraceProto.ts) or `application/json` (OTLP JSON). Each span is
 * handed on as its request is decoded; the answer is an empty ExportTraceServiceResponse.
 * A body may be gzip-compressed (`Content-Encoding: gzip`, what OTLP exporters and the
 * Collector send when compression is on). A body is at most `MAX_BODY_BYTES`, before and after
 * decompression; a larger one is refused with 413, an undecodable one with 400, another encoding
 * with 415, and each refusal is counted (`refused`).
 */
import { createServer, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';
import { otlpRequestSpans, type ObservedSpan } from '../service/index.ts';
import descriptor from './otlpTraceProto.json' with { type: 'json' };

export const MAX_BODY_BYTES = 16 * 1024 * 1024;

const REQUEST = protobuf.Root.fromJSON(descriptor as protobuf.INamespace).lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');

/** A protobuf ExportTraceServiceRequest as the plain data `otlpRequestSpans` reads (ids as bytes). */
export function decodeOtlpProtobuf(body: Uint8Array): unknown {
  return REQUEST.toObject(REQUEST.decode(body), { longs: String, enums: Number });
}

export interface OtlpReceiver {
  readonly url: string;
  /** How many requests were refused so far (413, 415 or 400). */
  readonly refused: number;
  close(): Promise<void>;
}

/** The request body as sent (identity or gzip), or the status it is refused with. */
function decodedBody(body: Buffer, encoding: string): Buffer | number {
  if (encoding === '' || encoding === 'identity') return body;
  if (encoding !== 'gzip') return 415;
  try {
    return gunzipSync(body, { maxOutputLength: MAX_BODY_BYTES });
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? 413 : 400;
  }
}

/** Starts the receiver on 127.0.0.1:`port` (0: any free port). */
export async function startOtlpReceiver(port: number, onSpan: (span: ObservedSpan) => void): Promise<OtlpReceiver> {
  let refused = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const reply = (status: number, json: boolean) => {
      if (status !== 200) refused++;
      res.writeHead(status, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      res.end(json ? '{}' : undefined);
    };
    if (req.method !== 'POST' || !(req.url ?? '').startsWith('/v1/traces')) {
      res.writeHead(404).end();
      req.resume();
      return;
    }
    const json = String(req.headers['content-type'] ?? '').includes('json');
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return reply(413, json);
      const body = decodedBody(Buffer.concat(chunks), String(req.headers['content-encoding'] ?? '').trim().toLowerCase());
      if (typeof body === 'number') return reply(body, json);
      let request: unknown;
      try {
        request = json ? JSON.parse(body.toString('utf8')) : decodeOtlpProtobuf(body);
      } catch {
        return reply(400, json);
      }
      for (const s of otlpRequestSpans(request)) onSpan(s);
      reply(200, json);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
  return {
    url,
    get refused() {
      return refused;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

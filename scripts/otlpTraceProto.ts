/**
 * Writes server/src/node/otlpTraceProto.json: the official OTLP trace definitions (the .proto
 * files vendored in test/otlp-proto/) as a protobufjs descriptor, so that the conformance
 * receiver decodes OTLP/HTTP protobuf with them without shipping .proto files.
 * Run: node --import tsx scripts/otlpTraceProto.ts
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const root = new protobuf.Root();
root.resolvePath = (_origin, target) => join(repo, 'test', 'otlp-proto', target);
root.loadSync('opentelemetry/proto/collector/trace/v1/trace_service.proto', { keepCase: false });
root.resolveAll();
writeFileSync(join(repo, 'server/src/node/otlpTraceProto.json'), `${JSON.stringify(root.toJSON())}\n`);

// `agents-md conformance` (docs/conformance.md): a small agent instrumented with the official
// OpenTelemetry JS SDK and the GenAI conventions (test/fixtures/conformance/agent.ts) plants one
// violation per run; exported to an OTLP JSON file (the official JSON serializer, one request per
// line as the collector's file exporter writes) and to the CLI's own receiver (the official OTLP
// protobuf exporter), each violation is reported at its clause, with its run and span, and nothing
// else. The round trip: every sample dry run, as its trace and exported with `trace export --otlp`,
// conforms.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { describe, test } from 'node:test';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { REPO, useCliBundle } from './helpers/cli.ts';
import { otlpJson } from '../server/src/node/otlpExport.ts';
import { TOOL_NAME, TOOL_VERSION } from '../server/src/cli/meta.ts';
import { parseContract, traceSpans, type TraceEvent } from '../server/src/service/index.ts';
import { PLANTED, runScenario, SCENARIOS } from './fixtures/conformance/agent.ts';

const { bundle: tool, scratch: folders } = useCliBundle('conformance');
const CONTRACT = readFileSync(join(REPO, 'samples/procurement-analyzer/AGENTS.md'), 'utf8');

/** The fixture agent's spans, as the SDK finished them. */
function agentSpans(): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'fixture-agent' }), spanProcessors: [new SimpleSpanProcessor(memory)] });
  const tracer = provider.getTracer('fixture-agent');
  for (const s of SCENARIOS) runScenario(tracer, s);
  return memory.getFinishedSpans();
}

interface JsonClause {
  pointer: string;
  grade: string;
  violations: number;
  verdict: string;
  exercised: number;
  evidence: { run: string; spanId: string; message: { text: string } }[];
}

function assertPlanted(stdout: string): void {
  const report = JSON.parse(stdout) as { runs: number; clauses: JsonClause[] };
  assert.equal(report.runs, SCENARIOS.length);
  const violated = report.clauses.filter((c) => c.violations > 0);
  assert.deepEqual(Object.fromEntries(violated.map((c) => [c.pointer, c.evidence.map((e) => e.run).join(',')])), PLANTED);
  for (const c of violated) {
    assert.equal(c.violations, 1, c.pointer);
    assert.equal(c.verdict, 'attested', `${c.pointer}: the fixture records arguments, answers and decisions`);
    assert.match(c.evidence[0]!.spanId, /^[0-9a-f]{16}$/);
  }
  assert.equal(report.clauses.find((c) => c.pointer === '/tools/0')?.exercised, 25, 'every check_inventory call counted');
}

describe('the fixture agent (official OpenTelemetry SDK)', () => {
  test('exported to an OTLP JSON file: each planted violation at its clause, nothing else', async () => {
    const spans = agentSpans();
    // The collector's file exporter writes one ExportTraceServiceRequest per line; two requests here.
    const half = Math.floor(spans.length / 2);
    const lines = [spans.slice(0, half), spans.slice(half)].map((part) => new TextDecoder().decode(JsonTraceSerializer.serializeRequest(part)));
    const dir = folders.workspace({ 'AGENTS.md': CONTRACT, 'traces/spans.jsonl': `${lines.join('\n')}\n` });
    const r = await tool.run(dir, 'conformance', 'AGENTS.md', '--traces', 'traces', '--format', 'json');
    assert.equal(r.code, 1, r.stderr);
    assertPlanted(r.stdout);
  });

  test('streamed to the receiver (--listen) as OTLP/HTTP protobuf (gzip-compressed) and JSON; refused requests are counted', async () => {
    const dir = folders.workspace({ 'AGENTS.md': CONTRACT });
    const child = spawn(process.execPath, [tool.bin, 'conformance', 'AGENTS.md', '--listen', '127.0.0.1:0', '--format', 'json'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LANG: 'C.UTF-8' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString();
        const m = /(http:\/\/127\.0\.0\.1:\d+\/v1\/traces)/.exec(stderr);
        if (m) resolve(m[1]!);
      });
      child.once('exit', () => reject(new Error(`exited before listening: ${stderr}`)));
    });
    const spans = agentSpans();
    const protobufPart = spans.filter((s) => !s.name.startsWith('chat'));
    const jsonPart = spans.filter((s) => s.name.startsWith('chat'));
    // The SDK's exporter with compression on, as the Collector sends by default (tester18: every
    // such request was refused with 400 and the grade passed on no data).
    const exporter = new OTLPTraceExporter({ url, compression: 'gzip' as NonNullable<ConstructorParameters<typeof OTLPTraceExporter>[0]>['compression'] });
    const result = await new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(protobufPart, resolve));
    assert.equal(result.code, ExportResultCode.SUCCESS, String(result.error));
    await exporter.shutdown();
    const posted = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JsonTraceSerializer.serializeRequest(jsonPart) });
    assert.equal(posted.status, 200);
    const bad = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-protobuf' }, body: 'not protobuf at all' });
    assert.equal(bad.status, 400, 'an undecodable body is refused, the receiver keeps going');
    const brotli = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'br' }, body: brotliCompressSync(JsonTraceSerializer.serializeRequest(jsonPart)!) });
    assert.equal(brotli.status, 415, 'an encoding other than gzip is refused');
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
    assert.equal(code, 1, stderr);
    assertPlanted(stdout);
    assert.match(stderr, /2 requests were refused and not graded/);
  });
});

describe('the round trip of the sample dry runs', () => {
  test('every sample dry run conforms, as its trace and exported as OTLP JSON, with the same counts', async () => {
    const dir = folders.workspace({});
    cpSync(join(REPO, 'samples'), join(dir, 'samples'), { recursive: true });
    const ev = await tool.runLong(dir, 180_000, 'eval', 'samples', '--scripted', '--root', '.');
    assert.equal(ev.code, 0, ev.stdout + ev.stderr);
    const runs = join(dir, '.agents-md', 'runs');
    const evalDir = join(runs, readdirSync(runs).find((d) => d.endsWith('-eval'))!);
    const traces = readdirSync(evalDir).filter((f) => f.endsWith('.jsonl'));
    const samples = [...new Set(traces.map((f) => /^samples-(.+?)-snapshots-/.exec(f)![1]!))];
    assert.ok(samples.length >= 4, samples.join(', '));
    const first = traces.find((f) => f.startsWith('samples-procurement-analyzer-'))!;
    const x = await tool.run(dir, 'trace', 'export', join(evalDir, first), '--otlp', 'exported.json', '--root', '.');
    assert.equal(x.code, 0, x.stdout + x.stderr);
    const events = readFileSync(join(evalDir, first), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as TraceEvent);
    const model = parseContract(readFileSync(join(dir, 'samples/procurement-analyzer/AGENTS.md'), 'utf8'));
    assert.equal(readFileSync(join(dir, 'exported.json'), 'utf8'), `${otlpJson(await traceSpans(events, { contract: model }), { name: TOOL_NAME, version: TOOL_VERSION })}\n`);
    for (const sample of samples) {
      const jsonl = join(dir, 'rt', sample, 'jsonl');
      const otlp = join(dir, 'rt', sample, 'otlp');
      mkdirSync(jsonl, { recursive: true });
      mkdirSync(otlp, { recursive: true });
      const model = parseContract(readFileSync(join(dir, 'samples', sample, 'AGENTS.md'), 'utf8'));
      for (const f of traces.filter((t) => t.startsWith(`samples-${sample}-snapshots-`))) {
        cpSync(join(evalDir, f), join(jsonl, f));
        // What `trace export --otlp FILE` writes (checked byte for byte against the command once below).
        const events = readFileSync(join(evalDir, f), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as TraceEvent);
        writeFileSync(join(otlp, f.replace(/\.jsonl$/, '.json')), `${otlpJson(await traceSpans(events, { contract: model }), { name: TOOL_NAME, version: TOOL_VERSION })}\n`);
      }
      const graded: JsonClause[][] = [];
      for (const from of [jsonl, otlp]) {
        const r = await tool.run(dir, 'conformance', `samples/${sample}/AGENTS.md`, '--traces', from, '--format', 'json');
        assert.equal(r.code, 0, `${sample} (${from}): ${r.stdout}`);
        const clauses = (JSON.parse(r.stdout) as { clauses: JsonClause[] }).clauses;
        assert.deepEqual(clauses.filter((c) => c.violations > 0 || c.verdict !== 'attested').map((c) => c.pointer), [], sample);
        graded.push(clauses);
      }
      assert.deepEqual(graded[1]!.map((c) => [c.pointer, c.exercised]), graded[0]!.map((c) => [c.pointer, c.exercised]), `${sample}: the export counts what the trace counts`);
    }
  });
});

describe('faces', () => {
  test('SARIF puts each violation at its clause with the run and span; Markdown is a table; text is per clause', async () => {
    const spans = agentSpans();
    const dir = folders.workspace({ 'AGENTS.md': CONTRACT, 'spans.jsonl': `${new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans))}\n` });
    const sarif = await tool.run(dir, 'conformance', 'AGENTS.md', '--traces', 'spans.jsonl', '--format', 'sarif');
    assert.equal(sarif.code, 1);
    const results = (JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string; locations: { physicalLocation: { region: { startLine: number } } }[]; properties: { run: string; spanId: string; clause: string } }[] }[] }).runs[0]!.results;
    assert.equal(results.length, 6);
    const lines = CONTRACT.split('\n');
    const undeclared = results.find((r) => r.properties.run === 'undeclared-tool')!;
    assert.equal(undeclared.properties.clause, '/tools');
    assert.match(lines[undeclared.locations[0]!.physicalLocation.region.startLine - 1]!, /^## TOOLS/);
    const steps = results.find((r) => r.properties.clause === '/budgets/max_steps')!;
    assert.match(lines[steps.locations[0]!.physicalLocation.region.startLine - 1]!, /Max Steps/);
    const md = await tool.run(dir, 'conformance', 'AGENTS.md', '--traces', 'spans.jsonl', '--format', 'markdown');
    assert.match(md.stdout, /\| Line \| Clause \| Grade \| Verdict \|/);
    assert.match(md.stdout, /Run step-overrun took 21 model steps; the budget is 20\./);
    const text = await tool.run(dir, 'conformance', 'AGENTS.md', '--traces', 'spans.jsonl');
    assert.match(text.stdout, /AGENTS\.md:\d+ {2}tool `check_inventory`: exercised 25× \(attested\)/);
    assert.match(text.stdout, /Run undeclared-tool called `delete_vendor`, which TOOLS does not declare\. \[span [0-9a-f]{16}\]/);
  });

  test('bad input: a missing path exits 2 with a message; a line that is not a trace is skipped and said', async () => {
    const dir = folders.workspace({ 'AGENTS.md': CONTRACT, 'mixed.jsonl': 'not json\n{"resourceSpans":[]}\n{"x":1}\n' });
    const missing = await tool.run(dir, 'conformance', 'AGENTS.md', '--traces', 'nowhere');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /Cannot read .*nowhere/);
    const mixed = await tool.run(dir, 'conformance', 'AGENTS.md', '--traces', 'mixed.jsonl');
    assert.equal(mixed.code, 0, mixed.stderr);
    const none = await tool.run(dir, 'conformance', 'AGENTS.md');
    assert.equal(none.code, 2);
    const wide = await tool.run(dir, 'conformance', 'AGENTS.md', '--listen', '0.0.0.0:4318');
    assert.equal(wide.code, 2);
    assert.match(wide.stderr, /127\.0\.0\.1/);
  });
});

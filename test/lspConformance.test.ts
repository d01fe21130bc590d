// Conformance in the editor (docs/conformance.md, "In the editor"): the open contract graded
// against production traces over real LSP (the bundled server on stdio), as the VS Code client asks
// for it. The traces are the fixture agent's (official OpenTelemetry SDK, planted violations,
// test/fixtures/conformance/agent.ts): each violated clause gets one diagnostic of its own source at
// the clause, with every run and span as related information; every clause gets its lens text; after
// an edit the kept grades move with their clauses; an unreadable path is a clear error.
// Run: node --import tsx --test test/lspConformance.test.ts
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { LspClient } from './helpers/lspClient.ts';
import { ensureBundles, SERVER_PATH } from './helpers/bundles.ts';
import { REPO } from './helpers/cli.ts';
import { PLANTED, runScenario, SCENARIOS } from './fixtures/conformance/agent.ts';
import { CONFORMANCE, type ConformanceViewResult } from '../server/src/lsp/customRequests.ts';

const ws = mkdtempSync(join(tmpdir(), 'agents-md-ws-conformance-'));
const uri = `${pathToFileURL(ws).href}/AGENTS.md`;
const TEXT = readFileSync(join(REPO, 'samples/procurement-analyzer/AGENTS.md'), 'utf8');
const tracesDir = join(ws, 'traces');

before(() => {
  ensureBundles();
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'fixture-agent' }), spanProcessors: [new SimpleSpanProcessor(memory)] });
  for (const s of SCENARIOS) runScenario(provider.getTracer('fixture-agent'), s);
  mkdirSync(tracesDir);
  writeFileSync(join(tracesDir, 'spans.jsonl'), `${new TextDecoder().decode(JsonTraceSerializer.serializeRequest(memory.getFinishedSpans()))}\n`);
  writeFileSync(join(ws, 'AGENTS.md'), TEXT);
});
after(() => rmSync(ws, { recursive: true, force: true }));

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle));

test('the open contract graded against a traces folder: diagnostics at the violated clauses with runs and spans, a lens per clause', async () => {
  const client = new LspClient(SERVER_PATH);
  try {
    await client.initialize(pathToFileURL(ws).href, true);
    await client.open(uri, TEXT);
    assert.equal(await client.request(CONFORMANCE, { uri }), null, 'never checked: nothing kept');

    const r = await client.request<ConformanceViewResult>(CONFORMANCE, { uri, traces: tracesDir });
    assert.equal(r.traces, tracesDir);
    assert.match(r.summary, new RegExp(`^${SCENARIOS.length} runs, \\d+ spans: 6 violations, `));

    // One diagnostic per violated clause, at the clause, nothing else.
    const violated = r.clauses.filter((c) => c.grade === 'violated');
    assert.deepEqual(violated.map((c) => c.pointer).sort(), Object.keys(PLANTED).sort());
    assert.equal(r.diagnostics.length, violated.length);
    for (const c of violated) {
      const d = r.diagnostics.find((x) => x.code === c.pointer);
      assert.ok(d, c.pointer);
      assert.equal(d.source, 'agents-md conformance');
      assert.deepEqual(d.range, c.range);
      const related = d.relatedInformation ?? [];
      assert.equal(related.length, 1, c.pointer);
      assert.match(related[0]!.message, new RegExp(`run ${PLANTED[c.pointer]}\\b.*span [0-9a-f]{16}`), related[0]!.message);
      // The evidence points at the trace: the file and the line its span was read from (the exporter wrote one request, line 1).
      assert.equal(related[0]!.location.uri, pathToFileURL(join(tracesDir, 'spans.jsonl')).href, c.pointer);
      assert.equal(related[0]!.location.range.start.line, 0);
    }
    // The approval clause sits on the tool's `Requires Approval` line.
    const approval = r.clauses.find((c) => c.pointer === '/tools/1/requires_approval')!;
    assert.equal(approval.range.start.line, lineOf(TEXT, '- **Requires Approval**: true'));
    assert.equal(approval.lens, '1 violation in 2× · attested');
    assert.equal(r.clauses.find((c) => c.pointer === '/tools/0')!.lens, 'exercised 25× · attested');
    assert.ok(r.clauses.every((c) => c.lens.length > 0 && c.label.length > 0));

    // Three lines inserted above TOOLS: the kept grades move with their clauses, no new read.
    const at = lineOf(TEXT, '## TOOLS');
    await client.change(uri, 2, [{ range: { start: { line: at, character: 0 }, end: { line: at, character: 0 } }, text: '<!-- a -->\n<!-- b -->\n<!-- c -->\n' }]);
    const moved = await client.request<ConformanceViewResult>(CONFORMANCE, { uri });
    assert.equal(moved.clauses.find((c) => c.pointer === '/tools/1/requires_approval')!.range.start.line, approval.range.start.line + 3);
    assert.equal(moved.diagnostics.find((d) => d.code === '/tools/1/requires_approval')!.range.start.line, approval.range.start.line + 3);
    assert.equal(moved.summary, r.summary);
  } finally {
    await client.shutdown();
  }
});

test('an unreadable traces path is an error the user can read; in Chinese with a Chinese locale', async () => {
  const client = new LspClient(SERVER_PATH);
  try {
    await client.initialize(pathToFileURL(ws).href, true, 'zh-cn');
    await client.open(uri, TEXT);
    await assert.rejects(client.request(CONFORMANCE, { uri, traces: join(ws, 'missing') }), (e: Error) => /无法读取|Cannot read/.test(e.message) && e.message.includes('missing'));
    const r = await client.request<ConformanceViewResult>(CONFORMANCE, { uri, traces: pathToFileURL(join(tracesDir, 'spans.jsonl')).href });
    assert.equal(r.clauses.find((c) => c.pointer === '/tools/0')!.lens.includes('25'), true);
    assert.ok(/[\u4e00-\u9fff]/.test(r.diagnostics[0]!.message), r.diagnostics[0]!.message);
  } finally {
    await client.shutdown();
  }
});

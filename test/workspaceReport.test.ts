/**
 * `agents-md report` on a generated workspace of 36 contracts (bench/generateWorkspace.ts),
 * through the real CLI bundle: every format, the same facts in each, Chinese labels, exit codes.
 * The HTML page in a real browser is test/e2e/report.e2e.ts.
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { REPO, useCliBundle } from './helpers/cli.ts';
import { runScenario, SCENARIOS } from './fixtures/conformance/agent.ts';
import { generateWorkspace } from '../bench/generateWorkspace.ts';
import type { WorkspaceReport } from '../server/src/service/index.ts';

const { bundle: cli, scratch } = useCliBundle('report');
let ws = '';

before(() => {
  ws = scratch.workspace(generateWorkspace(36));
});

test('JSON: the matrix, the sharing graph, versions, dry-run coverage and the cross-contract findings', async () => {
  const r = await cli.run(ws, 'report', '--format', 'json');
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout) as WorkspaceReport;
  assert.equal(report.totals.contracts, 36);
  assert.deepEqual(report.clauses, ['pii', 'residency', 'audit', 'hitl', 'budgets', 'failureCodes']);
  const row = (p: string) => report.contracts.find((c) => c.path === p)!;
  // Contract 13 declares `issue_refund` without a gate; contract 1 has no PII handling.
  assert.equal(row('lines/after_sales/agent_013/AGENTS.md').clauses.hitl, 'no');
  assert.equal(row('lines/after_sales/agent_001/AGENTS.md').clauses.pii, 'no');
  assert.equal(row('lines/hr/agent_005/AGENTS.md').clauses.hitl, 'yes');
  assert.deepEqual(row('lines/procurement/agent_000/AGENTS.md').lastAudit, { version: '1.0.0', date: '2024-01-10', changedBy: '@procurement' });
  // Contract 0 has a snapshot that calls its notice tool and approves the HITL scenario; contract 1 has none.
  const c0 = row('lines/procurement/agent_000/AGENTS.md');
  assert.equal(c0.queries, 1);
  assert.deepEqual(c0.coverage.filter((i) => i.exercised).map((i) => `${i.kind}:${i.name}`), ['tool:send_procurement_notice', 'scenario:Procurement notice approval']);
  assert.ok(c0.coverage.some((i) => i.kind === 'code' && i.name === 'PROCUREMENT001' && !i.exercised));
  assert.equal(row('lines/after_sales/agent_001/AGENTS.md').queries, 0);
  const logistics = report.shared.find((n) => n.kind === 'resource' && n.name === 'logistics_rules.csv')!;
  assert.equal(logistics.conflict, true);
  assert.equal(logistics.contracts.length, 6);
  assert.equal(report.shared.find((n) => n.name === 'hr_history')!.conflict, false);
  assert.ok(report.totals.findings['resource-pin-drift']! >= 6);
  assert.ok(report.totals.exercised > 0 && report.totals.exercised < report.totals.exercisable);
});

test('text and Markdown carry the same sections; Chinese labels with --lang zh-cn', async () => {
  const text = await cli.run(ws, 'report');
  assert.equal(text.code, 0, text.stderr);
  for (const h of ['Compliance coverage', 'Pool and resource sharing', 'Versions and last audit', 'Dry-run coverage', 'Cross-contract findings']) assert.ok(text.stdout.includes(`${h}\n`), h);
  assert.match(text.stdout, /^Covered +\d+ of 36 /m);
  assert.match(text.stdout, /lines\/logistics\/agent_003\/AGENTS\.md:\d+ resource-pin-drift: Resource `configs\/resources\/logistics_rules\.csv` is pinned/);
  const md = await cli.run(ws, 'report', '-f', 'markdown');
  assert.match(md.stdout, /^# Contracts report$/m);
  assert.match(md.stdout, /^\| Contract \| PII handling \| Data residency \|/m);
  assert.match(md.stdout, /^\| pool support_history \(the contracts disagree\) \| /m);
  const zh = await cli.run(ws, 'report', '--lang', 'zh-cn');
  assert.match(zh.stdout, /^契约报告$/m);
  assert.match(zh.stdout, /^合规覆盖$/m);
  assert.match(zh.stdout, /资源 `configs\/resources\/logistics_rules\.csv` 在此处锁定的 SHA-256 是/);
});

test('HTML: one self-contained page with the matrix and the graph as inline SVG, written with --output', async () => {
  const r = await cli.run(ws, 'report', '-f', 'html', '-o', 'report.html');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /Wrote report\.html/);
  const html = readFileSync(join(ws, 'report.html'), 'utf8');
  assert.match(html, /^<!doctype html>/);
  assert.equal((html.match(/<svg /g) ?? []).length, 2);
  assert.match(html, /Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"/);
  // No script and no remote resource: the only URL is the SVG namespace.
  assert.doesNotMatch(html, /<script|<link|@import|src=/i);
  assert.doesNotMatch(html, /data-uri|tabindex/, "links only in the editor's overview (test/lspWorkspace.test.ts)");
  assert.deepEqual([...new Set(html.match(/https?:\/\/[^"' )]+/g))], ['http://www.w3.org/2000/svg']);
  // Every left-aligned text ends inside its SVG (at 7 px a character, 12px sans): a count such as
  // "7 of 10" was cut to "7 of 1".
  for (const svg of html.match(/<svg [\s\S]*?<\/svg>/g)!) {
    const width = Number(/width="(\d+)"/.exec(svg)![1]);
    const texts = [...svg.matchAll(/<text x="([\d.]+)" y="[\d.]+"(?: class="h")?>(?:<title>[^<]*<\/title>)?([^<]*)<\/text>/g)];
    assert.ok(texts.length > 0);
    for (const [, x, text] of texts) assert.ok(Number(x) + text!.length * 7 <= width, `"${text}" at x ${x} fits in ${width} px`);
  }
});

test('exit codes: a path that matches nothing and an unwritable output are usage errors (2)', async () => {
  const missing = await cli.run(ws, 'report', 'no-such-dir');
  assert.equal(missing.code, 2);
  const unwritable = await cli.run(ws, 'report', '-o', join(ws, 'no-such-dir', 'r.txt'));
  assert.equal(unwritable.code, 2);
  assert.match(unwritable.stderr, /Cannot write .*r\.txt: no such file or directory/);
  const bad = await cli.run(ws, 'report', '-f', 'pdf');
  assert.equal(bad.code, 2);
});

test('--jobs: the contracts linted on worker threads give the same report as one thread; a bad count is a usage error', async () => {
  // A smaller workspace than the others: two CLI runs, each worker reading every contract.
  const small = scratch.workspace(generateWorkspace(14));
  const one = await cli.run(small, 'report', '--format', 'json', '--jobs', '1');
  assert.equal(one.code, 0, one.stderr);
  const two = await cli.run(small, 'report', '--format', 'json', '--jobs', '2');
  assert.equal(two.code, 0, two.stderr);
  assert.equal(two.stdout, one.stdout);
  assert.ok((JSON.parse(two.stdout) as WorkspaceReport).contracts.some((c) => c.findings.length > 0));
  const bad = await cli.run(small, 'report', '--jobs', 'many');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--jobs must be a whole number from 1 to 64, not many/);
});

test('--traces: a production column, each run graded against the contract of its agent (docs/workspace.md)', async () => {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'fixture-agent' }), spanProcessors: [new SimpleSpanProcessor(memory)] });
  for (const s of SCENARIOS) runScenario(provider.getTracer('fixture-agent'), s);
  const dir = scratch.workspace({
    'procurement/AGENTS.md': readFileSync(join(REPO, 'samples/procurement-analyzer/AGENTS.md'), 'utf8'),
    'diagnosis/AGENTS.md': readFileSync(join(REPO, 'samples/device-diagnosis/AGENTS.md'), 'utf8'),
    'traces/spans.jsonl': `${new TextDecoder().decode(JsonTraceSerializer.serializeRequest(memory.getFinishedSpans()))}\n`,
  });
  const r = await cli.run(dir, 'report', 'procurement', 'diagnosis', '--traces', 'traces', '--format', 'json');
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout) as WorkspaceReport;
  assert.equal(report.production, true);
  const procurement = report.contracts.find((c) => c.path === 'procurement/AGENTS.md')!.production!;
  // The fixture agent is ProcurementAnalyzer: its runs and planted violations are that contract's only.
  assert.equal(procurement.runs, SCENARIOS.length);
  assert.equal(procurement.violations, 6);
  assert.ok(procurement.exercised > 0 && procurement.exercised < procurement.clauses, JSON.stringify(procurement));
  assert.equal(report.contracts.find((c) => c.path === 'diagnosis/AGENTS.md')!.production!.runs, 0);
  const text = await cli.run(dir, 'report', 'procurement', 'diagnosis', '--traces', 'traces');
  assert.match(text.stdout, /^Contract +Queries +Exercised +Not exercised +Production$/m);
  assert.match(text.stdout, new RegExp(`^procurement/AGENTS\\.md .* ${SCENARIOS.length} runs, 6 violations, ${procurement.exercised} of ${procurement.clauses} clauses exercised$`, 'm'));
  assert.match(text.stdout, /^diagnosis\/AGENTS\.md .* no runs$/m);
  const without = await cli.run(dir, 'report', 'procurement', 'diagnosis');
  assert.doesNotMatch(without.stdout, /Production/);
  const missing = await cli.run(dir, 'report', 'procurement', '--traces', 'nowhere');
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /Cannot read .*nowhere/);
});

test('--prove: a prove column, each contract proved as agents-md prove does (docs/workspace.md)', async () => {
  const corpus = (name: string) => readFileSync(join(REPO, 'test/prove-corpus', name, 'AGENTS.md'), 'utf8');
  const dir = scratch.workspace({
    'bypass/AGENTS.md': corpus('01-threshold-bypass'),
    'guarded/AGENTS.md': corpus('02-approval-flag'),
    'broken/AGENTS.md': readFileSync(join(REPO, 'samples/broken/AGENTS.md'), 'utf8'),
  });
  const r = await cli.run(dir, 'report', '--prove', '--format', 'json');
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout) as WorkspaceReport;
  assert.equal(report.prove, true);
  const prove = (p: string) => report.contracts.find((c) => c.path === p)!.prove!;
  assert.deepEqual(prove('bypass/AGENTS.md'), { findings: 1, obligations: { 'ungated-side-effect': 1 } });
  assert.deepEqual(prove('guarded/AGENTS.md'), { findings: 0, obligations: {} });
  assert.deepEqual(prove('broken/AGENTS.md'), { findings: 1, obligations: { 'vacuous-guard': 1 } });
  const text = await cli.run(dir, 'report', '--prove');
  assert.match(text.stdout, /^Contract +Queries +Exercised +Not exercised +Prove$/m);
  assert.match(text.stdout, /^bypass\/AGENTS\.md .* 1 finding: ungated-side-effect$/m);
  assert.match(text.stdout, /^guarded\/AGENTS\.md .* no finding$/m);
  const zh = await cli.run(dir, 'report', '--prove', '--lang', 'zh-cn', '--format', 'markdown');
  assert.match(zh.stdout, /\| 1 条发现：ungated-side-effect \|$/m);
  const without = await cli.run(dir, 'report');
  assert.doesNotMatch(without.stdout, /Prove/);
});

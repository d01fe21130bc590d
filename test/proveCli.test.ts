/**
 * `agents-md prove` as a user runs it (docs/prove.md): text, JSON and SARIF (checked by the SARIF
 * Multitool when `npm ci --prefix tools/sarif` installed it), the exit codes, Chinese
 * messages, and `--replay DIR` writing each witness as a snapshot that `agents-md run` plays to
 * the violation.
 * Run: node --import tsx --test test/proveCli.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as Sarif from 'sarif';
import { REPO, useCliBundle } from './helpers/cli.ts';
import { MULTITOOL_MISSING, sarifMultitool, sarifProblems, validateSarif } from './helpers/sarifMultitool.ts';

const { bundle: tool, scratch } = useCliBundle('prove');
const BYPASS = 'test/prove-corpus/01-threshold-bypass/AGENTS.md';

test('prove prints each finding at its clause with its witness, and exits 1', async () => {
  const r = await tool.run(REPO, 'prove', BYPASS);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /01-threshold-bypass\/AGENTS\.md:\d+:\d+ .*ungated-side-effect/);
  assert.match(r.stdout, /Tool `pay_invoice` \(write\) runs without a human for \{"invoice_id":"x","amount":50000,"currency":"USD"\}/);
  assert.match(r.stdout, /proved/);
});

test('prove -f json gives the findings with their witnesses; --lang zh-cn says it in Chinese', async () => {
  const r = await tool.run(REPO, 'prove', BYPASS, '-f', 'json');
  assert.equal(r.code, 1, r.stderr);
  const out = JSON.parse(r.stdout) as { files: { file: string; findings: { obligation: string; proved: boolean; witness: { input: Record<string, unknown> }; line: number; message: string }[] }[] };
  const [f] = out.files[0]!.findings;
  assert.equal(f!.obligation, 'ungated-side-effect');
  assert.equal(f!.witness.input['amount'], 50000);
  assert.equal(f!.proved, true);
  const zh = await tool.run(REPO, 'prove', BYPASS, '--lang', 'zh-cn');
  assert.match(zh.stdout, /无需人工/);
});

test('a contract with no finding exits 0; a missing file exits 2', async () => {
  const ok = await tool.run(REPO, 'prove', 'test/prove-corpus/02-approval-flag/AGENTS.md');
  assert.equal(ok.code, 0, ok.stderr + ok.stdout);
  const missing = await tool.run(REPO, 'prove', 'no/such/AGENTS.md');
  assert.equal(missing.code, 2);
});

test('--replay writes each witness as a snapshot that agents-md run plays: the call runs with no human asked', async () => {
  const dir = scratch.workspace({ 'AGENTS.md': readFileSync(join(REPO, BYPASS), 'utf8') });
  const r = await tool.run(dir, 'prove', 'AGENTS.md', '--replay', 'witnesses');
  assert.equal(r.code, 1, r.stderr);
  const files = readdirSync(join(dir, 'witnesses'));
  assert.equal(files.length, 1);
  const run = await tool.run(dir, 'run', 'AGENTS.md', '--snapshot', join('witnesses', files[0]!), '--json');
  const out = JSON.parse(run.stdout) as { stats: { tools: string[]; human_decisions: number }; trace: string };
  assert.deepEqual(out.stats.tools, ['pay_invoice'], run.stdout + run.stderr);
  assert.equal(out.stats.human_decisions, 0);
  // The trace shows the call with its witness arguments and no pause before it.
  const events = readFileSync(join(dir, out.trace), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event_type: string; payload: Record<string, unknown>; status: string });
  const call = events.find((e) => e.event_type === 'tool_call' && e.payload['tool'] === 'pay_invoice');
  assert.deepEqual(JSON.parse(String(call?.payload['arguments'])), { invoice_id: 'x', amount: 50000, currency: 'USD' });
  assert.ok(events.some((e) => e.event_type === 'tool_result' && e.payload['tool'] === 'pay_invoice' && e.status === 'success'));
  assert.ok(!events.some((e) => e.event_type === 'human_input'));
});

async function sarifRun() {
  const dir = scratch.workspace({ 'AGENTS.md': readFileSync(join(REPO, BYPASS), 'utf8') });
  return { dir, r: await tool.run(dir, 'prove', 'AGENTS.md', '-f', 'sarif') };
}

test('prove -f sarif: one result per finding at its clause, the obligation as the rule, the witness in its properties', async () => {
  const { r } = await sarifRun();
  assert.equal(r.code, 1, r.stderr);
  const log = JSON.parse(r.stdout) as Sarif.Log;
  const run = log.runs[0]!;
  assert.deepEqual(run.tool.driver.rules?.map((x) => x.id), ['prove/ungated-side-effect', 'prove/dead-gate', 'prove/shadowed-gate', 'prove/vacuous-guard', 'prove/forbidden-sequence']);
  const [res] = run.results!;
  assert.equal(res!.ruleId, 'prove/ungated-side-effect');
  assert.equal(res!.locations![0]!.physicalLocation!.artifactLocation!.uri, 'AGENTS.md');
  assert.equal(res!.locations![0]!.physicalLocation!.region!.startLine, 23);
  assert.deepEqual((res!.properties!['witness'] as { input: unknown }).input, { invoice_id: 'x', amount: 50000, currency: 'USD' });
});

test('prove -f sarif passes the SARIF Multitool with GitHub code scanning\'s rules', { skip: sarifMultitool() ? false : MULTITOOL_MISSING }, async () => {
  const multitool = sarifMultitool()!;
  const { dir, r } = await sarifRun();
  writeFileSync(join(dir, 'prove.sarif'), r.stdout);
  assert.deepEqual(sarifProblems(validateSarif(multitool, [join(dir, 'prove.sarif')], join(dir, 'validation.sarif'))), []);
});

test('the witnesses feed the Cedar check: run each witness, then export --to cedar --check decides its calls as the dry run did', async () => {
  const dir = scratch.workspace({ 'AGENTS.md': readFileSync(join(REPO, 'test/prove-corpus/09-shadowed-gates/AGENTS.md'), 'utf8').replace('- **Requires Approval**: true\n', '') });
  const r = await tool.run(dir, 'prove', 'AGENTS.md', '--replay', 'witnesses', '-f', 'json');
  const findings = (JSON.parse(r.stdout) as { files: { findings: { obligation: string; snapshot?: string }[] }[] }).files[0]!.findings;
  assert.deepEqual(findings.map((f) => f.obligation), ['ungated-side-effect', 'shadowed-gate']);
  for (const f of findings) await tool.run(dir, 'run', 'AGENTS.md', '--snapshot', f.snapshot!);
  const check = await tool.run(dir, 'export', 'AGENTS.md', '--to', 'cedar', '--check', '.agents-md/runs');
  assert.equal(check.code, 0, check.stdout + check.stderr);
  assert.match(check.stdout + check.stderr, /2 traces, 2 tool calls: 2 decided alike, 0 stricter in Cedar \(clauses that require a human\), 0 different/);
});

// The grading itself (server/src/service/conformance, docs/conformance.md "Grading"): pure, on
// observed spans; what makes a verdict qualified, per-call approvals keyed by the call id, the
// boundary that forbids a tool, the token budget's overrun, and that the order of spans is irrelevant.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConformanceGrader, gradeSpans, parseContract, type ObservedSpan } from '../server/src/service/index.ts';
import { ENDED_WINDOW, MAX_OPEN_RUNS } from '../server/src/service/conformance/grade.ts';
import { REPO } from './helpers/cli.ts';

const PROCUREMENT = parseContract(readFileSync(join(REPO, 'samples/procurement-analyzer/AGENTS.md'), 'utf8'));
const BROKEN = parseContract(readFileSync(join(REPO, 'samples/broken/AGENTS.md'), 'utf8'));

let n = 0;
const span = (traceId: string, name: string, attributes: ObservedSpan['attributes'], extra: Partial<ObservedSpan> = {}): ObservedSpan => ({ traceId, spanId: (++n).toString(16).padStart(16, '0'), name, endMs: n, attributes, events: [], status: 'unset', ...extra });
const root = (t: string, a: ObservedSpan['attributes'] = {}) => span(t, 'invoke_agent', { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.conversation.id': t, ...a });
const tool = (t: string, name: string, a: ObservedSpan['attributes'] = {}, extra: Partial<ObservedSpan> = {}) => span(t, `execute_tool ${name}`, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name, ...a }, extra);
const chat = (t: string, tokens: number) => span(t, 'chat', { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': tokens, 'gen_ai.usage.output_tokens': 0 });
const grade = (model: typeof PROCUREMENT, spans: ObservedSpan[], pointer: string) => gradeSpans(model, spans).clauses.find((c) => c.pointer === pointer)!;

test('arguments not recorded make the input-schema clause qualified, never a pass', () => {
  const c = grade(PROCUREMENT, [root('r1'), tool('r1', 'check_inventory')], '/tools/0/input_schema');
  assert.equal(c.grade, 'never');
  assert.equal(c.verdict, 'qualified');
  assert.deepEqual(c.qualifications, [{ id: 'conformance.qualified.arguments-not-recorded', args: { count: 1 } }]);
});

test('a write without any human decision in its run is a violation, qualified when the run shows no decisions at all', () => {
  const spans = [root('r1'), tool('r1', 'create_approval_draft', { 'gen_ai.tool.call.id': 'c1', 'gen_ai.tool.call.arguments': '{}' })];
  const c = grade(PROCUREMENT, spans, '/tools/1/requires_approval');
  assert.equal(c.grade, 'violated');
  assert.equal(c.verdict, 'qualified');
  const attested = grade(PROCUREMENT, [root('r1', { 'agents_md.approvals.recorded': true }), spans[1]!], '/tools/1/requires_approval');
  assert.equal(attested.verdict, 'attested');
});

test('a decision keyed by the call id approves that call wherever it is recorded, and only that call', () => {
  const decision: ObservedSpan['events'][number] = { name: 'agents_md.human_decision', attributes: { 'agents_md.decision': 'approve', 'gen_ai.tool.call.id': 'c1' } };
  const spans = [
    root('r1', { 'agents_md.approvals.recorded': true }),
    span('r1', 'approval', {}, { events: [decision] }),
    tool('r1', 'create_approval_draft', { 'gen_ai.tool.call.id': 'c1' }),
    tool('r1', 'create_approval_draft', { 'gen_ai.tool.call.id': 'c2' }),
  ];
  const c = grade(PROCUREMENT, spans, '/tools/1/requires_approval');
  assert.equal(c.violations, 1);
  assert.equal(c.evidence[0]!.spanId, spans[3]!.spanId);
});

test('a tool a ❌ boundary forbids is reported at the boundary, not as undeclared; a refused call is no violation', () => {
  const spans = [root('r1'), tool('r1', 'initiate_payment'), tool('r1', 'initiate_payment', {}, { status: 'error' })];
  const report = gradeSpans(BROKEN, spans);
  const violated = report.clauses.filter((c) => c.violations > 0);
  assert.deepEqual(violated.map((c) => [c.kind, c.name, c.violations]), [['boundary', 'initiate_payment', 1]]);
});

test('the token budget is overrun when a model step starts after it was crossed', () => {
  const crossedInLastStep = grade(PROCUREMENT, [root('r1'), chat('r1', 6000), chat('r1', 6000)], '/budgets/token_budget');
  assert.equal(crossedInLastStep.violations, 0);
  const kept = grade(PROCUREMENT, [root('r1'), chat('r1', 6000), chat('r1', 6000), chat('r1', 100)], '/budgets/token_budget');
  assert.equal(kept.violations, 1);
});

test('grades do not depend on the order the spans arrive in', () => {
  const decision: ObservedSpan['events'][number] = { name: 'agents_md.human_decision', attributes: { 'agents_md.decision': 'approve', 'gen_ai.tool.call.id': 'c1' } };
  const spans = [
    root('r1'), chat('r1', 10), tool('r1', 'check_inventory', { 'gen_ai.tool.call.arguments': '{"sku":"x"}' }), span('r1', 'h', {}, { events: [decision] }),
    tool('r1', 'create_approval_draft', { 'gen_ai.tool.call.id': 'c1' }), tool('r2', 'nope'), root('r2', { 'agents_md.error_code': 'ZZZ' }), chat('r2', 5),
  ];
  const expected = JSON.stringify(gradeSpans(PROCUREMENT, spans));
  fc.assert(fc.property(fc.shuffledSubarray(spans, { minLength: spans.length, maxLength: spans.length }), (order) => JSON.stringify(gradeSpans(PROCUREMENT, order)) === expected), { numRuns: 50 });
});

test('memory is bounded by design: a run is graded and forgotten once enough runs ended after it; its evidence keeps its id', () => {
  const g = new ConformanceGrader(PROCUREMENT);
  let most = 0;
  const RUNS = 3 * MAX_OPEN_RUNS;
  for (let i = 0; i < RUNS; i++) {
    const t = `r${i}`;
    // Children end before their run, as exporters write them; the first run calls an undeclared tool.
    g.add(chat(t, 10));
    g.add(tool(t, i === 0 ? 'delete_vendor' : 'check_inventory', { 'gen_ai.tool.call.arguments': '{"sku":"LAP-0042"}' }));
    g.add(root(t));
    most = Math.max(most, g.openRuns);
  }
  assert.ok(most <= ENDED_WINDOW + 1, `at most ${ENDED_WINDOW + 1} runs held, saw ${most}`);
  const r = g.finish();
  assert.equal(r.runs, RUNS);
  assert.equal(g.openRuns, 0);
  const tools = r.clauses.find((c) => c.pointer === '/tools')!;
  assert.deepEqual([tools.violations, tools.evidence[0]?.run], [1, 'r0'], 'graded long ago, still named by its conversation id');
  assert.equal(r.clauses.find((c) => c.pointer === '/budgets/max_steps')!.exercised, RUNS);
});

test('runs that never end (no invoke_agent span) are held up to a bound, then graded oldest first', () => {
  const g = new ConformanceGrader(PROCUREMENT);
  let most = 0;
  for (let i = 0; i < MAX_OPEN_RUNS + 500; i++) {
    g.add(chat(`r${i}`, 10));
    most = Math.max(most, g.openRuns);
  }
  assert.equal(most, MAX_OPEN_RUNS);
  assert.equal(g.finish().runs, MAX_OPEN_RUNS + 500);
});

test('a child span read after its run\'s invoke_agent span, within the window, still counts for that run', () => {
  const spans = [chat('late', 10), root('late', { 'gen_ai.conversation.id': 'late' })];
  for (let i = 0; i < ENDED_WINDOW - 1; i++) spans.push(root(`r${i}`));
  for (let i = 0; i < 20; i++) spans.push(chat('late', 10));
  const c = gradeSpans(PROCUREMENT, spans).clauses.find((x) => x.pointer === '/budgets/max_steps')!;
  assert.deepEqual([c.violations, c.evidence[0]?.run], [1, 'late'], '21 steps over a budget of 20, in one run');
});

/** The procurement sample with its ❌ boundaries replaced by `items`. */
const withBoundaries = (...items: string[]) => {
  const text = readFileSync(join(REPO, 'samples/procurement-analyzer/AGENTS.md'), 'utf8');
  const start = text.indexOf('- **Hard Boundaries**:');
  const end = text.indexOf('\n- **', start + 1);
  return parseContract(`${text.slice(0, start)}- **Hard Boundaries**:\n${items.map((i) => `  - ❌ ${i}\n`).join('')}${text.slice(end + 1)}`);
};
/** A tool call from `start` to `end` ms. */
const call = (t: string, name: string, start: number, end: number, status: ObservedSpan['status'] = 'unset') => tool(t, name, { 'gen_ai.tool.call.arguments': '{}' }, { startMs: start, endMs: end, status });

for (const [lang, order, after, count] of [
  ['en', 'Never call `create_approval_draft` before `check_inventory`', 'Never call `create_approval_draft` unless `check_inventory` succeeded', 'Never call `check_inventory` more than 2 times per run'],
  ['zh', '禁止在 `check_inventory` 之前调用 `create_approval_draft`', '只有在 `check_inventory` 成功之后才能调用 `create_approval_draft`', '每次运行调用 `check_inventory` 不得超过 2 次'],
] as const) {
  test(`order, count and only-after-success boundaries graded per run, by when calls started (${lang})`, () => {
    const model = withBoundaries(order, after, count);
    const spans = [
      // ok: check, then draft.
      root('ok'), call('ok', 'check_inventory', 1, 2), call('ok', 'create_approval_draft', 3, 4),
      // early: the draft starts before the check ended (read in reverse order: the grader sorts by start).
      root('early'), call('early', 'create_approval_draft', 5, 8), call('early', 'check_inventory', 6, 7),
      // failed: the check failed, then the draft: the order holds, "after success" does not.
      root('failed'), call('failed', 'check_inventory', 1, 2, 'error'), call('failed', 'create_approval_draft', 3, 4),
      // many: three checks; the third breaks the count. A refused fourth is no violation.
      root('many'), call('many', 'check_inventory', 1, 2), call('many', 'check_inventory', 3, 4), call('many', 'check_inventory', 5, 6), call('many', 'check_inventory', 7, 8, 'error'),
    ];
    const r = gradeSpans(model, spans);
    const at = (i: number) => r.clauses.find((c) => c.pointer === `/identity/hard_boundaries/${i}`)!;
    const runs = (i: number) => at(i).evidence.map((e) => `${e.run} ${e.message.id}`);
    assert.equal(at(0).kind, 'sequence');
    assert.equal(at(0).name, 'create_approval_draft');
    assert.deepEqual(runs(0), ['early conformance.violation.order']);
    assert.deepEqual(runs(1).sort(), ['early conformance.violation.after-success', 'failed conformance.violation.after-success']);
    assert.deepEqual(runs(2), ['many conformance.violation.count']);
    assert.deepEqual(at(2).evidence[0]!.message.args, { tool: 'check_inventory', count: 3, max: 2, run: 'many' });
    assert.equal(at(2).evidence[0]!.spanId, spans[12]!.spanId, 'the third call is the evidence');
    assert.deepEqual([at(0).exercised, at(1).exercised, at(2).exercised], [3, 3, 5]);
    assert.ok(r.clauses.every((c) => c.pointer.startsWith('/identity/hard_boundaries/') || c.kind !== 'sequence'));
    // Order of arrival is irrelevant.
    assert.deepEqual(gradeSpans(model, [...spans].reverse()).clauses.map((c) => [c.pointer, c.violations]), r.clauses.map((c) => [c.pointer, c.violations]));
  });
}

test('a run that keeps its sequence boundaries exercises them and violates none', () => {
  const model = withBoundaries('Never call `create_approval_draft` before `check_inventory`', 'Never call `check_inventory` more than once');
  const r = gradeSpans(model, [root('r'), call('r', 'check_inventory', 1, 2), call('r', 'create_approval_draft', 3, 4)]);
  const sequences = r.clauses.filter((c) => c.kind === 'sequence');
  assert.deepEqual(sequences.map((c) => [c.grade, c.exercised, c.verdict]), [['exercised', 1, 'attested'], ['exercised', 1, 'attested']]);
});

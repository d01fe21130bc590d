// The Agent Run tree says what a query expected when its run did not do it: a run approved where
// the snapshot expects HUMAN_REJECTED is "0 of 1 queries as expected", and its row says why
// (docs/dry-run.md, "Expectations"), in English and in Chinese.
// Run: node --import tsx --test test/traceTreeExpect.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { traceTree } from '../server/src/service/index.ts';
import { checkExpectation } from '../server/src/service/run/eval/evaluate.ts';
import { contract, run, snapshot } from './helpers/dryRun.ts';

const APPROVED = `  - id: h\n    query: refund order ORD-123\n    model:\n      - { call: refund_order, arguments: { order_id: ORD-123, amount: 500 } }\n      - { final: { status: refunded } }\n    human: { Big refund: approve }\n    expect: { outcome: failure, code: HUMAN_REJECTED }\n`;

for (const [lang, said] of [['en', /^Not as expected: expected code HUMAN_REJECTED, got SAFETY_VIOLATION\.$/], ['zh-cn', /^未达预期：/]] as const) {
  test(`a run that missed its expectation says what was expected, first under its row (${lang})`, async () => {
    const q = snapshot(APPROVED).queries[0]!;
    const r = await run(q);
    const mismatches = checkExpectation(q.expect, r);
    assert.ok(mismatches.length >= 1, JSON.stringify(mismatches));
    const [root] = traceTree([{ queryId: q.id, events: r.events, outcome: r.outcome, mismatches }], { contract, contractUri: 'file:///w/AGENTS.md', lang });
    const first = root!.children![0]!;
    assert.match(first.label, said);
    assert.equal(first.kind, 'error');
    assert.equal(root!.kind, 'error', 'the row is marked as not as expected, whatever the outcome');
    const [met] = traceTree([{ queryId: q.id, events: r.events, outcome: r.outcome, mismatches: [] }], { contract, contractUri: 'file:///w/AGENTS.md', lang });
    assert.doesNotMatch(met!.children![0]!.label, said, 'a run that met its expectation has no such row');
  });
}

test('a run that ended as its query expected is marked as expected, whatever its outcome (a rejection the snapshot expects is not a red row)', async () => {
  const q = snapshot(APPROVED.replace('approve', 'reject')).queries[0]!;
  const r = await run(q);
  assert.equal(r.outcome.code, 'HUMAN_REJECTED');
  assert.deepEqual(checkExpectation(q.expect, r), []);
  const [root] = traceTree([{ queryId: q.id, events: r.events, outcome: r.outcome, mismatches: [], asExpected: true }], { contract, contractUri: 'file:///w/AGENTS.md', lang: 'en' });
  assert.equal(root!.kind, 'ok');
  assert.match(root!.label, /HUMAN_REJECTED/, 'the row still names the outcome');
  const [plain] = traceTree([{ queryId: q.id, events: r.events, outcome: r.outcome }], { contract, contractUri: 'file:///w/AGENTS.md', lang: 'en' });
  assert.equal(plain!.kind, 'error', 'with no expectation, a failure is a failure');
});

// The Agent Run tree in Chinese (issue 26 point 9): an event's fields carry localised labels and
// the localised message; raw ids (pointers, codes, message ids) only under a "details" node.
// Run: node --import tsx --test test/traceTreeL10n.test.ts
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { traceTree, type ViewNode } from '../server/src/service/index.ts';
import { outcomeText } from '../server/src/service/run/runMessage.ts';
import { contract, run, snapshot } from './helpers/dryRun.ts';

const flat = (nodes: readonly ViewNode[]): ViewNode[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);
const REJECTED = `  - id: h\n    query: refund order ORD-123\n    model:\n      - { call: refund_order, arguments: { order_id: ORD-123, amount: 500 } }\n    human: { Big refund: reject }\n`;
const RAW = /^(pointer|code|error_code|message_id|args|arg_messages|call_id|call_ref|input_ref|[a-z_]+_id|[a-z_]+_args)$/;

describe('the Agent Run tree in Chinese', () => {
  test('fields are labelled in Chinese, the outcome message is Chinese, raw ids sit under 详细信息', async () => {
    const q = snapshot(REJECTED).queries[0]!;
    const r = await run(q);
    assert.equal(r.outcome.code, 'HUMAN_REJECTED');
    const [root] = traceTree([{ queryId: q.id, events: r.events, outcome: r.outcome }], { contract, contractUri: 'file:///w/AGENTS.md', lang: 'zh-cn' });
    const events = root!.children ?? [];
    const fieldsOf = (n: ViewNode): ViewNode[] => (n.children ?? []).filter((c) => c.id.startsWith(`${n.id}/`) && !/\/\d+$/.test(c.id));
    for (const e of events) {
      for (const field of fieldsOf(e)) {
        if (field.id.endsWith('/details')) {
          assert.equal(field.label, '详细信息');
          continue;
        }
        assert.doesNotMatch(field.label, RAW, `raw field ${field.label} outside the details node of ${e.label}`);
        assert.doesNotMatch(field.label, /^[a-z_]+$/, `English field label ${field.label} under ${e.label}`);
      }
    }
    const end = events[events.length - 1]!;
    const message = fieldsOf(end).find((f) => f.description === outcomeText(r.outcome, 'zh-cn'));
    assert.ok(message, `the end event shows the Chinese outcome message: ${JSON.stringify(fieldsOf(end))}`);
    assert.ok(!flat(fieldsOf(end).filter((f) => !f.id.endsWith('/details'))).some((n) => /A human rejected/.test(n.description ?? '')), 'no English message in the Chinese tree');
    // Outcome, statistics and time read as words, not as the raw value or JSON (those stay under 详细信息).
    const field = (key: string) => fieldsOf(end).find((f) => f.id.endsWith(`/${key}`))?.description ?? '';
    assert.equal(field('outcome'), '失败');
    assert.match(field('stats'), /^步数 \d+/);
    assert.doesNotMatch(field('timing'), /[{}"]/);
    const details = fieldsOf(end).find((f) => f.id.endsWith('/details'));
    assert.ok(details?.children?.some((c) => c.label === 'pointer'), 'the raw pointer is kept under details');
  });

  test('in English the same tree has English labels and a details node', async () => {
    const q = snapshot(REJECTED).queries[0]!;
    const r = await run(q);
    const [root] = traceTree([{ queryId: q.id, events: r.events, outcome: r.outcome }], { contract, contractUri: 'file:///w/AGENTS.md' });
    const end = root!.children![root!.children!.length - 1]!;
    assert.ok(end.children?.some((c) => c.label === 'details'));
    assert.ok(end.children?.some((c) => c.description === outcomeText(r.outcome, 'en')));
  });
});

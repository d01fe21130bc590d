/**
 * The fixes `undeclared-tool` names (docs/rules.md): "Change to `…`" when a declared tool is one
 * edit away, "Declare `…` in TOOLS" in the form the contract's TOOLS uses, and "Disable…" last.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, createLanguageService, NOT_CANCELLED, parseContract } from '../server/src/service/index.ts';
import { lintExample } from './helpers/lintExample.ts';

const FM = '---\ncontract: true\nname: shop\nversion: 1.0.0\n---\n';
const service = createLanguageService();

async function actionsFor(text: string, lang = 'en') {
  const { diagnostics } = await lintExample(text);
  const d = diagnostics.find((x) => x.code === 'undeclared-tool');
  assert.ok(d, `undeclared-tool is reported: ${diagnostics.map((x) => x.code).join(', ')}`);
  return { actions: service.codeActions({ uri: 'file:///ws/AGENTS.md', model: parseContract(text) }, d.range, { diagnostics: [d], today: '2026-12-01', lang }, NOT_CANCELLED), d };
}

const HEADED = `${FM}\n## AGENT_IDENTITY\n\n- **Hard Boundaries**:\n  - ✅ May use \`refund_apl\` to refund\n  - ✅ May use \`ledger_api\` to read\n\n## TOOLS\n\n### \`refund_api\`\n\n- **Description**: Refunds an order.\n- **Side Effects**: none\n`;

test('a name one edit from a declared tool: Change to it first, Declare it second, Disable last', async () => {
  const { actions } = await actionsFor(HEADED);
  const titles = actions.map((a) => a.title);
  assert.deepEqual(titles.slice(0, 2), ['Change to `refund_api`', 'Declare `refund_apl` in TOOLS'], titles.join(' | '));
  assert.match(titles.at(-1)!, /^Disable undeclared-tool/);
  const changed = applyEdits(HEADED, actions[0]!.edits);
  assert.match(changed, /May use `refund_api` to refund/);
  const after = await lintExample(changed);
  assert.equal(after.diagnostics.filter((x) => x.code === 'undeclared-tool').length, 1, 'ledger_api is left');
});

test('a name with no declared tool near it: Declare it (a heading with its schemas) before Disable; the finding goes', async () => {
  const text = HEADED.replace('refund_apl', 'refund_api');
  const { actions } = await actionsFor(text);
  assert.equal(actions[0]!.title, 'Declare `ledger_api` in TOOLS');
  assert.ok(!actions.some((a) => a.title.startsWith('Change to')));
  const declared = applyEdits(text, actions[0]!.edits);
  assert.match(declared, /### `ledger_api`\n\n- \*\*Description\*\*: <what it does>[\s\S]*input_schema:[\s\S]*output_schema:/);
  assert.deepEqual((await lintExample(declared)).diagnostics.filter((x) => x.code === 'undeclared-tool'), []);
});

test('Declare in a TOOLS table adds a row; in a contract without TOOLS, the section; titles in Chinese', async () => {
  const table = `${FM}\n## AGENT_IDENTITY\n\n- **Hard Boundaries**:\n  - ✅ May use \`ledger_api\` to read\n\n## TOOLS\n\n| Tool | Description | Side Effects |\n|---|---|---|\n| \`refund_api\` | Refunds an order. | write |\n`;
  const { actions } = await actionsFor(table, 'zh-cn');
  assert.equal(actions[0]!.title, '在 TOOLS 中声明 `ledger_api`');
  assert.match(applyEdits(table, actions[0]!.edits), /\| `refund_api` \| Refunds an order\. \| write \|\n\| `ledger_api` \| <…> \| <…> \|\n/);
  const none = `${FM}\n## AGENT_IDENTITY\n\n- **Hard Boundaries**:\n  - ✅ May use \`ledger_api\` to read\n`;
  const r = await actionsFor(none);
  assert.match(applyEdits(none, r.actions[0]!.edits), /\n## TOOLS\n\n### `ledger_api`\n/);
});

test('tool-needs-approval on "Requires Approval: false" written out: the fix sets it to true (and fix-all applies it)', async () => {
  // A fresh tester (issue 26): the message says "Set Requires Approval to true" but no fix did it;
  // the line-after fix made a duplicate key, so the fix check dropped it.
  const text = `${FM}\n## TOOLS\n\n### \`send_refund\`\n\n- **Description**: Sends a refund.\n- **Side Effects**: external\n- **Requires Approval**: false\n- **Idempotent**: true\n`;
  const { diagnostics } = await lintExample(text);
  const d = diagnostics.find((x) => x.code === 'tool-needs-approval');
  assert.ok(d, diagnostics.map((x) => x.code).join(', '));
  const actions = service.codeActions({ uri: 'file:///ws/AGENTS.md', model: parseContract(text) }, d.range, { diagnostics: [d], today: '2026-12-01', lang: 'en' }, NOT_CANCELLED);
  assert.equal(actions[0]!.title, 'Require approval for "send_refund"', actions.map((a) => a.title).join(' | '));
  const fixed = applyEdits(text, actions[0]!.edits);
  assert.match(fixed, /- \*\*Requires Approval\*\*: true\n- \*\*Idempotent\*\*/);
  assert.deepEqual((await lintExample(fixed)).diagnostics.filter((x) => x.code === 'tool-needs-approval'), []);
});

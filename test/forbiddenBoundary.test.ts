// A ❌ boundary that forbids a tool outright ("Never call `release_payment`") names a tool that
// must not be declared (docs/contract-format.md §8): `undeclared-tool` does not fire on it, and
// the Good example of `forbidden-tool-declared` lints clean of both rules.
// Run: node --import tsx --test test/forbiddenBoundary.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintExample as lint } from './helpers/lintExample.ts';
import { ruleByCode } from '../server/src/service/validate/catalogue.ts';

const FM = '---\ncontract: true\nname: demo\nversion: 1.0.0\n---\n';
const codes = async (text: string) => (await lint(text)).diagnostics.filter((d) => d.code === 'undeclared-tool' || d.code === 'forbidden-tool-declared').map((d) => `${d.code} ${text.split('\n')[d.range.start.line]!.slice(d.range.start.character, d.range.end.character)}`);

test('undeclared-tool does not fire on a tool a ❌ boundary forbids, in English and Chinese', async () => {
  const doc = `${FM}\n## AGENT_IDENTITY\n\n- **Hard Boundaries**:\n  - ✅ May use \`check_stock\`\n  - ❌ Never call \`release_payment\`\n  - ❌ 禁止调用 \`wire_funds\`\n  - ✅ May use \`inventory_api\` to check stock\n\n## TOOLS\n\n### \`check_stock\`\n\n- **Description**: Returns stock per SKU.\n`;
  assert.deepEqual(await codes(doc), ['undeclared-tool inventory_api']);
});

test('undeclared-tool reads the Chinese ways of saying "may use": 可以用, 可以使用, 借助, 调取', async () => {
  // A fresh tester's phrasing (issue 26): "✅ 可以用 `refund_api` 给订单退款" went unreported.
  const doc = `${FM}\n## AGENT_IDENTITY\n\n- **Hard Boundaries**:\n  - ✅ 可以用 \`refund_api\` 给订单退款\n  - ✅ 可以使用 \`order_api\` 查询订单\n  - ✅ 借助 \`stock_api\` 查库存\n  - ✅ 调取 \`ledger_api\` 的记录\n  - ✅ 订单号 \`order_id\` 必须有效\n\n## TOOLS\n\n### \`check_stock\`\n\n- **Description**: Returns stock per SKU.\n`;
  assert.deepEqual(await codes(doc), ['undeclared-tool refund_api', 'undeclared-tool order_api', 'undeclared-tool stock_api', 'undeclared-tool ledger_api']);
});

test('the Good example of forbidden-tool-declared is clean under undeclared-tool too', async () => {
  const rule = ruleByCode('forbidden-tool-declared')!;
  assert.deepEqual(await codes(rule.examples.good), []);
});

test('order, count and "only after success" boundaries do not forbid the tool (forbidden-tool-declared stays quiet), in English and Chinese', async () => {
  const tools = ['cancel_booking', 'rebook_patient', 'read_salary', 'export_user_data', 'verify_identity'].map((t) => `### \`${t}\`\n\n- **Description**: Does ${t}.\n`).join('\n');
  const doc = `${FM}\n## AGENT_IDENTITY\n\n- **Hard Boundaries**:\n  - ❌ Never call \`cancel_booking\` before \`rebook_patient\`\n  - ❌ Never call \`read_salary\` more than 2 times per run\n  - ❌ Never call \`export_user_data\` unless \`verify_identity\` succeeded\n  - ❌ 在 \`rebook_patient\` 之前禁止调用 \`cancel_booking\`\n  - ❌ 每次运行调用 \`read_salary\` 不得超过 2 次\n  - ❌ 只有在 \`verify_identity\` 成功之后才能调用 \`export_user_data\`\n  - ❌ Never call \`cancel_booking\`\n\n## TOOLS\n\n${tools}`;
  // Only the plain "never call" forbids the tool outright.
  assert.deepEqual(await codes(doc), ['forbidden-tool-declared cancel_booking']);
});

const boundaryCodes = async (text: string) =>
  (await lint(text)).diagnostics.filter((d) => ['undeclared-tool', 'forbidden-tool-declared', 'boundary-contradiction'].includes(d.code)).map((d) => `${d.code} ${text.split('\n')[d.range.start.line]!.slice(d.range.start.character, d.range.end.character)}`);
const toolsOf = (...names: string[]) => `## TOOLS\n\n${names.map((t) => `### \`${t}\`\n\n- **Description**: Does ${t}.\n`).join('\n')}`;
const withItems = (items: string[], tools: string) => `${FM}\n## AGENT_IDENTITY\n\n- **Hard Boundaries**:\n${items.map((i) => `  - ❌ ${i}`).join('\n')}\n\n${tools}`;

test('a checkable boundary that names an undeclared tool is reported on that name, whichever side it is on, in English and Chinese', async () => {
  const doc = withItems(['Never call `export_user_data` unless `verify_identiy` succeeded', '在 `rebook_pateint` 之前禁止调用 `cancel_booking`', '每次运行调用 `read_salaries` 不得超过 2 次'], toolsOf('export_user_data', 'verify_identity', 'cancel_booking', 'rebook_patient', 'read_salary'));
  assert.deepEqual(await boundaryCodes(doc), ['undeclared-tool verify_identiy', 'undeclared-tool rebook_pateint', 'undeclared-tool read_salaries']);
});

test('boundary-contradiction: a tool after itself, after a forbidden tool, two tools each after the other, at most 0 calls', async () => {
  const tools = toolsOf('export_user_data', 'verify_identity', 'cancel_booking', 'read_salary');
  const item = (i: string) => `❌ ${i}`;
  assert.deepEqual(await boundaryCodes(withItems(['Never call `read_salary` before `read_salary`'], tools)), [`boundary-contradiction ${item('Never call `read_salary` before `read_salary`')}`]);
  assert.deepEqual(await boundaryCodes(withItems(['Never call `read_salary` more than 0 times per run'], tools)), [`boundary-contradiction ${item('Never call `read_salary` more than 0 times per run')}`]);
  const forbidden = await boundaryCodes(withItems(['Never call `cancel_booking` before `rebook_patient`', 'Never call `rebook_patient`'], tools));
  assert.deepEqual(forbidden, [`boundary-contradiction ${item('Never call `cancel_booking` before `rebook_patient`')}`]);
  const cycle = await boundaryCodes(withItems(['Never call `export_user_data` unless `verify_identity` succeeded', '在 `export_user_data` 之前禁止调用 `verify_identity`'], tools));
  assert.equal(cycle.length, 2);
  assert.ok(cycle.every((c) => c.startsWith('boundary-contradiction ')));
});

test('every checkable form, in English and Chinese, lints clean when its tools are declared', async () => {
  const doc = withItems(
    ['Never call `cancel_booking` before `rebook_patient`', 'Never call `read_salary` more than 2 times per run', 'Never make more than 3 calls of `send_sms` per run', 'Never call `export_user_data` unless `verify_identity` succeeded', '在 `rebook_patient` 之前禁止调用 `cancel_booking`', '每次运行调用 `read_salary` 不得超过 2 次', '只有在 `verify_identity` 成功之后才能调用 `export_user_data`', 'Never call `wire_funds`', '禁止调用 `delete_account`'],
    toolsOf('cancel_booking', 'rebook_patient', 'read_salary', 'send_sms', 'export_user_data', 'verify_identity'),
  );
  assert.deepEqual(await boundaryCodes(doc), []);
});

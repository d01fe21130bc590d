/**
 * One mistake, one diagnostic at its place, naming the thing and saying what to write instead
 * (docs/rules.md: unknown-field, schema, failure-code-missing), with its fix where unambiguous.
 * Each case is a contract fragment; the diagnostics about the sections it leaves out
 * (missing-section, version-not-audited, tool-missing-schema) are not what is tested here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, parseContract, type ContractDiagnostic } from '../server/src/service/index.ts';
import { RULES } from '../server/src/service/host.ts';
import { lintExample } from './helpers/lintExample.ts';

const FM = '---\ncontract: true\nname: demo\nversion: 1.0.0\n---\n';
const AROUND = new Set(['missing-section', 'version-not-audited', 'tool-missing-schema']);

async function lint(text: string): Promise<ContractDiagnostic[]> {
  return (await lintExample(text)).diagnostics.filter((d) => !AROUND.has(d.code));
}
const shown = (text: string, d: ContractDiagnostic) => {
  const line = text.split('\n')[d.range.start.line]!;
  return `${d.code} "${line.slice(d.range.start.character, d.range.end.line === d.range.start.line ? d.range.end.character : undefined)}" ${d.message}`;
};
/** The text after applying the rule's own fix of `d`. */
function fixed(text: string, d: ContractDiagnostic): string | undefined {
  const fix = RULES.find((r) => r.code === d.code)?.fix?.(d, parseContract(text), { today: '2026-12-01' });
  return fix && applyEdits(text, fix.edits);
}

test('a misspelt label gives one diagnostic, with a did-you-mean and a fix, and no missing-field error', async () => {
  const text = `${FM}\n## TOOLS\n\n### \`create_refund\`\n\n- **Description**: Creates a refund.\n- **Side Effects**: write\n- **Idempotent**: true\n- **Requires Aproval**: true\n`;
  const ds = await lint(text);
  assert.deepEqual(ds.map((d) => shown(text, d)), ['unknown-field "**Requires Aproval**" "Requires Aproval" is not a field of TOOLS; it is ignored. Did you mean "Requires Approval"?']);
  const after = fixed(text, ds[0]!)!;
  assert.match(after, /- \*\*Requires Approval\*\*: true\n$/);
  assert.deepEqual(await lint(after), []);
});

test('two swapped letters are one edit: a misspelt label is still recognised', async () => {
  const text = `${FM}\n## AGENT_IDENTITY\n\n- **Name**: demo\n- **Gaol**: Resolve refund requests within policy.\n`;
  const ds = await lint(text);
  assert.deepEqual(ds.map((d) => shown(text, d)), ['unknown-field "**Gaol**" "Gaol" is not a field of AGENT_IDENTITY; it is ignored. Did you mean "Goal"?']);
  assert.match(fixed(text, ds[0]!)!, /- \*\*Goal\*\*: Resolve/);
});

test('unknown keys inside YAML TOOLS items and CONSTRAINTS entries are reported, with a did-you-mean', async () => {
  const tools = `${FM}\n## TOOLS\n\n\`\`\`yaml\ntools:\n  - name: get_order\n    description: Returns an order by id.\n    side_efects: read\n    Requires Approval: false\n\`\`\`\n`;
  const ds = await lint(tools);
  assert.deepEqual(ds.map((d) => shown(tools, d)), ['unknown-field "side_efects" "side_efects" is not a field of TOOLS; it is ignored. Did you mean "side_effects"?']);
  const model = parseContract(tools);
  assert.deepEqual(model.data['tools'], [{ name: 'get_order', description: 'Returns an order by id.', requires_approval: false }], 'aliases map to field keys, unknown keys are left out');
  const constraints = `${FM}\n## CONSTRAINTS\n\n\`\`\`yaml\n- type: safety_guard\n  rule: never promise a refund\n  min_confidence: 1.5\n\`\`\`\n`;
  assert.deepEqual((await lint(constraints)).map((d) => shown(constraints, d)), ['unknown-field "min_confidence" "min_confidence" is not a field of CONSTRAINTS; it is ignored.']);
});

test('a wrong enum value names the user\'s label, suggests the near value and fixes it', async () => {
  const text = `${FM}\n## TOOLS\n\n### \`get_order\`\n\n- **Description**: Returns an order by id.\n- **Side Effects**: readx\n`;
  const ds = await lint(text);
  assert.deepEqual(ds.map((d) => shown(text, d)), ['schema "readx" TOOLS `get_order`: Side Effects: must be one of "none", "read", "write", "external"; `readx` is not one of them. Did you mean "read"?']);
  const after = fixed(text, ds[0]!)!;
  assert.equal(after, text.replace('readx', 'read'));
  assert.deepEqual(await lint(after), []);
  // A value nothing is near gets the list and no fix.
  const far = text.replace('readx', 'maybe');
  const [d] = await lint(far);
  assert.equal(d!.message, 'TOOLS `get_order`: Side Effects: must be one of "none", "read", "write", "external"; `maybe` is not one of them.');
  assert.equal(fixed(far, d!), undefined);
});

test('a duration without a unit says which units are accepted; another format\'s `timeout_s: 60` is fixed to `timeout: 60s`', async () => {
  const bare = `${FM}\n## BUDGETS\n\n- **Max Steps**: 20\n- **Token Budget**: 10000\n- **Timeout**: 60\n`;
  assert.deepEqual((await lint(bare)).map((d) => shown(bare, d)), ['schema "60" BUDGETS: Timeout: `60` has no unit; write a duration such as `5m` (units: ms, s, m, h, d).']);
  const foreign = `${FM}\n## BUDGETS\n\n\`\`\`yaml\nmax_steps: 20\ntoken_budget: 10000\ntimeout_s: 60\n\`\`\`\n`;
  const ds = await lint(foreign);
  // One diagnostic: budgets-incomplete does not also say the timeout is missing.
  assert.deepEqual(ds.map((d) => shown(foreign, d)), ['unknown-field "timeout_s" "timeout_s" is not a field of BUDGETS; it is ignored. Did you mean "timeout", with the unit in the value (`90s`)?']);
  const after = fixed(foreign, ds[0]!)!;
  assert.equal(after, foreign.replace('timeout_s: 60', 'timeout: 60s'));
  assert.deepEqual(await lint(after), []);
});

test('failure-code-missing reads a code returned inside a plain sentence', async () => {
  const text = `${FM}\n## FAILURE_PROTOCOL\n\n- **If the AST does not parse**: Stop and return \`AST001\` to the caller.\n- **If the cache is stale**: → Rebuild it → return the error \`CACHE_STALE\`\n`;
  assert.deepEqual(await lint(text), []);
  assert.deepEqual((parseContract(text).data['failure_protocol'] as { code: string }[]).map((f) => f.code), ['AST001', 'CACHE_STALE']);
});

test('a misspelt column of a TOOLS table gives one diagnostic for the whole column, not a missing-field error per row', async () => {
  const text = `${FM}\n## TOOLS\n\n| Name | Description | Side Effects | Requires Aproval |\n|---|---|---|---|\n| create_refund | Creates a refund. | write | true |\n| get_order | Returns an order. | read | false |\n`;
  const ds = await lint(text);
  assert.deepEqual(ds.filter((d) => d.code !== 'tool-write-safety').map((d) => shown(text, d)), ['unknown-field "Requires Aproval" "Requires Aproval" is not a field of TOOLS; it is ignored. Did you mean "Requires Approval"?']);
  const after = fixed(text, ds.find((d) => d.code === 'unknown-field')!)!;
  assert.equal(after, text.replace('Aproval', 'Approval'));
  assert.deepEqual((await lint(after)).filter((d) => d.code !== 'tool-write-safety'), []);
});

test('a duration without a unit offers to read it as seconds, in the editor only (it is a guess)', async () => {
  const bare = `${FM}\n## BUDGETS\n\n- **Max Steps**: 20\n- **Token Budget**: 10000\n- **Timeout**: 60\n`;
  const [d] = await lint(bare);
  const fix = RULES.find((r) => r.code === 'schema')!.fix!(d!, parseContract(bare), { today: '2026-12-01' })!;
  assert.equal(fix.safe, false, 'lint --fix does not guess a unit');
  assert.deepEqual([fix.titleId, fix.titleArgs], ['action.changeValue', { value: '60s' }]);
  const after = applyEdits(bare, fix.edits);
  assert.equal(after, bare.replace('Timeout**: 60', 'Timeout**: 60s'));
  assert.deepEqual(await lint(after), []);
});

test('failure-code-missing reads a code returned without backticks ("return AST001", "return error AST001")', async () => {
  const text = `${FM}\n## FAILURE_PROTOCOL\n\n- **If the AST does not parse**: Stop and return AST001 to the caller.\n- **If the cache is stale**: Rebuild it and return error CACHE_STALE.\n- **If the disk is full**: Stop and return an error to the caller.\n`;
  assert.deepEqual((parseContract(text).data['failure_protocol'] as { code?: string }[]).map((f) => f.code), ['AST001', 'CACHE_STALE', undefined]);
  assert.deepEqual((await lint(text)).map((d) => shown(text, d)), ['failure-code-missing "**If the disk is full**" This failure entry has no error code. Add "→ Return error_code `XXX001`".']);
});

test('a misspelt column of a FAILURE_PROTOCOL table gives one diagnostic, not also "required field is missing"', async () => {
  const text = `${FM}\n## FAILURE_PROTOCOL\n\n| Condition | Acions | Error Code |\n|---|---|---|\n| AST does not parse | Stop | AST001 |\n`;
  assert.deepEqual((await lint(text)).map((d) => shown(text, d)), ['unknown-field "Acions" "Acions" is not a field of FAILURE_PROTOCOL; it is ignored. Did you mean "Actions"?']);
});

test('tool-needs-approval in a TOOLS table: the fix sets the row\'s Requires Approval cell, or adds the column', async () => {
  const approve = (text: string, d: ContractDiagnostic) => RULES.find((r) => r.code === 'tool-needs-approval')!.fix!(d, parseContract(text), { today: '2026-12-01' })!;
  const withColumn = `${FM}\n## TOOLS\n\n| Name | Description | Side Effects | Idempotent | Requires Approval |\n|---|---|---|---|---|\n| create_refund | Creates a refund. | write | true | false |\n| get_order | Returns an order. | read | true | false |\n`;
  const d1 = (await lint(withColumn)).find((d) => d.code === 'tool-needs-approval')!;
  const f1 = approve(withColumn, d1);
  assert.equal(f1.safe, true);
  assert.equal(applyEdits(withColumn, f1.edits), withColumn.replace('| write | true | false |', '| write | true | true |'));
  const noColumn = `${FM}\n## TOOLS\n\n| Name | Description | Side Effects | Idempotent |\n|---|---|---|---|\n| create_refund | Creates a refund. | write | true |\n| get_order | Returns an order. | read | true |\n`;
  const d2 = (await lint(noColumn)).find((d) => d.code === 'tool-needs-approval')!;
  const f2 = approve(noColumn, d2);
  assert.equal(f2.safe, false, 'adding a column writes a value in every row: offered, not applied unattended');
  const after = applyEdits(noColumn, f2.edits);
  assert.equal(after, `${FM}\n## TOOLS\n\n| Name | Description | Side Effects | Idempotent | Requires Approval |\n|---|---|---|---|---|\n| create_refund | Creates a refund. | write | true | true |\n| get_order | Returns an order. | read | true | false |\n`);
  assert.deepEqual(await lint(after), []);
});

test('template-unknown-entity: a near name is suggested and fixed in the template; another entity is added to required_entities', async () => {
  const contract = (value: string) => `${FM}\n## TRIGGER\n\n\`\`\`yaml\nrequired_entities: [device_id]\n\`\`\`\n\n## MEMORY_REQUIREMENTS\n\n\`\`\`yaml\n- pool: device_log\n  filters:\n    - field: device_id\n      value: "${value}"\n\`\`\`\n`;
  const near = contract('{{extracted_devce_id}}');
  const [d] = (await lint(near)).filter((x) => x.code === 'template-unknown-entity');
  assert.equal(d!.message, 'Template {{extracted_devce_id}} refers to entity "devce_id", which TRIGGER does not declare in required_entities. Did you mean "device_id"?');
  assert.equal(fixed(near, d!), contract('{{extracted_device_id}}'));
  const other = contract('{{extracted_line_id}}');
  const [e] = (await lint(other)).filter((x) => x.code === 'template-unknown-entity');
  const after = fixed(other, e!)!;
  assert.equal(after, other.replace('required_entities: [device_id]', 'required_entities: [device_id, line_id]'));
  assert.deepEqual((await lint(after)).filter((x) => x.code === 'template-unknown-entity'), []);
});

test('a quoted note between table rows swallows the rows below it (Markdown continues the quote): they are reported, not silently dropped', async () => {
  const rows = ['| Refund above limit | `amount > 500` | Finance approves | 4h | reject |', '| Account closure | `action = "close"` | Support lead approves | 8h | reject |'];
  const text = `${FM}\n## HUMAN_IN_THE_LOOP\n\n| Scenario | Trigger Condition | Required Action | SLA | On Timeout |\n|---|---|---|---|---|\n| New vendor | \`vendor NOT IN whitelist\` | Legal signs | 24h | reject |\n> note: see the runbook\n${rows.join('\n')}\n`;
  const ds = (await lint(text)).filter((d) => d.code === 'unrecognised-content');
  assert.deepEqual(ds.map((d) => shown(text, d)), [
    'unrecognised-content "> note: see the runbook" These table rows continue the quote above them, so HUMAN_IN_THE_LOOP does not read them; they are ignored. Leave a blank line between the quote and the rows, or move the note out of the table.',
  ]);
  assert.equal(ds[0]!.range.end.line, ds[0]!.range.start.line + rows.length, 'the range covers the quote and the rows it swallowed');
  // A quote that holds no rows is a note, and stays quiet.
  assert.deepEqual(await lint(`${FM}\n## HUMAN_IN_THE_LOOP\n\n> Every gate below is reviewed each quarter.\n\n| Scenario | Trigger Condition | Required Action | SLA | On Timeout |\n|---|---|---|---|---|\n${rows[0]}\n`).then((d) => d.filter((x) => x.code === 'unrecognised-content')), []);
});

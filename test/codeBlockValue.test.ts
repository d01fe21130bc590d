/**
 * "A code block as value" (docs/contract-format.md §4.1): a label with no inline value followed
 * by a fenced json/yaml block, indented inside the same list item or directly after the list,
 * takes the parsed block as its value. Found by an author writing from the docs alone (the
 * independent corpus, writerE): a TRIGGER's `**Required Entities**:` with a YAML list under it was
 * dropped without a word (so `{{extracted_zip_code}}` was reported as undeclared), and a tool's
 * `**Input Schema**:` with its block after the list read the schema's keys as the tool's fields.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, parseContract } from '../server/src/service/index.ts';
import { codeActions } from '../server/src/service/features/codeActions.ts';
import { lintExample } from './helpers/lintExample.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repo } from './helpers/bundles.ts';

const FM = ['---', 'contract: true', 'name: leaks', 'version: 1.0.0', '---', ''];
const codes = async (text: string) => (await lintExample(text)).diagnostics.filter((d) => d.code !== 'missing-section' && d.code !== 'version-not-audited').map((d) => `${d.code} ${d.range.start.line + 1}`);

test('an array field takes a YAML or JSON block indented in its bullet', () => {
  const text = [...FM, '## TRIGGER', '', '- **Intent Patterns**:', '  ```yaml', "  - '\\b(leak)\\b'", "  - 'burst'", '  ```', '- **Required Entities**:', '  ```yaml', '  - name: zip_code', "    pattern: '\\b9[0-6]\\d{3}\\b'", '  ```', ''].join('\n');
  const trigger = parseContract(text).data['trigger'] as Record<string, unknown>;
  assert.deepEqual(trigger['intent_patterns'], ['\\b(leak)\\b', 'burst']);
  assert.deepEqual(trigger['required_entities'], [{ name: 'zip_code', pattern: '\\b9[0-6]\\d{3}\\b' }]);
});

test('a block directly after the list is the value of the list’s last label when it has none', () => {
  const text = [
    ...FM, '## TRIGGER', '', '- **Intent Patterns**:', '  - `leak`', '- **Required Entities**:', '', '```json', '["zip_code"]', '```', '',
    '## TOOLS', '', '### lookup_zone', '', '- **Description**: Pressure zone of an address.', '- **Side Effects**: read', '- **Input Schema**:', '',
    '```yaml', 'type: object', 'properties:', '  address: { type: string }', '```', '', '- **Output Schema**:', '', '```yaml', 'type: object', '```', '',
  ].join('\n');
  const model = parseContract(text);
  assert.deepEqual((model.data['trigger'] as Record<string, unknown>)['required_entities'], ['zip_code']);
  const tool = (model.data['tools'] as Record<string, unknown>[])[0]!;
  assert.deepEqual(tool['input_schema'], { type: 'object', properties: { address: { type: 'string' } } });
  assert.deepEqual(tool['output_schema'], { type: 'object' });
});

test('lint: entities from a block feed templates; a schema after the list is no unknown field', async () => {
  const text = [
    ...FM, '## TRIGGER', '', '- **Intent Patterns**:', '  - `leak`', '- **Required Entities**:', '  ```yaml', '  - name: zip_code', '  ```', '',
    '## TOOLS', '', '### lookup_zone', '', '- **Description**: Pressure zone of {{extracted_zip_code}}.', '- **Side Effects**: read', '- **Input Schema**:', '',
    '```json', '{ "type": "object", "properties": { "zip": { "type": "string" } } }', '```', '', '- **Output Schema**:', '  ```yaml', '  type: object', '  ```', '',
  ].join('\n');
  assert.deepEqual(await codes(text), []);
  // Before: template-unknown-entity on the template, and the schema's keys read as the tool's fields.
});

test('a label left empty is still empty when no block follows; a second value is still a duplicate', async () => {
  const empty = [...FM, '## TOOLS', '', '### lookup_zone', '', '- **Description**: Pressure zone.', '- **Side Effects**: read', '- **Input Schema**:', '', 'Takes an address.', ''].join('\n');
  // As before this fix: no schema, and an empty Input Schema is no object.
  assert.deepEqual(await codes(empty), ['tool-missing-schema 9', 'schema 13']);
  const twice = [...FM, '## TRIGGER', '', '- **Required Entities**: `zip_code`', '- **Required Entities**:', '', '```yaml', '- street', '```', ''].join('\n');
  const r = await lintExample(twice);
  assert.ok(r.diagnostics.some((d) => d.code === 'duplicate-key' && d.range.start.line === 9), 'the second label is a duplicate');
  assert.deepEqual((r.model!.data['trigger'] as Record<string, unknown>)['required_entities'], ['zip_code'], 'the first value is kept');
});

test('a problem inside the block is reported on its line in the block', async () => {
  const text = [...FM, '## TRIGGER', '', '- **Intent Patterns**:', '  - `leak`', '- **Required Entities**:', '', '```yaml', '- name: zip_code', '  pattern: 12', '```', ''].join('\n');
  const r = await lintExample(text);
  // As in a YAML-only TRIGGER: the item is neither a string nor an entity, and its pattern no string.
  const schema = r.diagnostics.find((d) => d.code === 'schema' && d.message.includes('.pattern'));
  assert.ok(schema, r.diagnostics.map((d) => d.code).join(', '));
  assert.equal(text.split('\n')[schema.range.start.line], '  pattern: 12');
});

/** The text after the quick fix that declares the entity a template names. */
async function declared(text: string): Promise<string | undefined> {
  const r = await lintExample(text);
  const action = codeActions(parseContract(text), r.diagnostics).find((a) => a.title.includes('required_entities'));
  return action && applyEdits(text, action.edits);
}
const TOOL = ['', '## TOOLS', '', '### lookup_zone', '', '- **Description**: Pressure zone of {{extracted_account_id}}.', '- **Side Effects**: read', ''];

test('quick fix: an entity added to a JSON list is quoted, so the block stays JSON (found by a tester)', async () => {
  const text = [...FM, '## TRIGGER', '', '- **Intent Patterns**:', '  - `leak`', '- **Required Entities**:', '', '```json', '["zip_code", "street"]', '```', ...TOOL].join('\n');
  const fixed = await declared(text);
  assert.ok(fixed?.includes('["zip_code", "street", "account_id"]'), fixed);
  assert.ok(!(await codes(fixed!)).some((c) => c.startsWith('json-syntax') || c.startsWith('template-unknown-entity')));
});

test('quick fix: an entity added after a list whose last item spans lines, at its items’ indentation', async () => {
  const text = [...FM, '## TRIGGER', '', '- **Intent Patterns**:', '  - `leak`', '- **Required Entities**:', '  ```yaml', '  - name: zip_code', "    pattern: '\\d{5}'", '    description: ZIP code', '  ```', ...TOOL].join('\n');
  const fixed = await declared(text);
  assert.ok(fixed?.includes("    description: ZIP code\n  - account_id\n  ```"), fixed);
  assert.ok(!(await codes(fixed!)).some((c) => c.startsWith('template-unknown-entity')));
});

test('a JSON block’s syntax error is JSON’s first one, in words, where JSON breaks (a tester read the YAML parser’s terms)', async () => {
  const at = async (body: string) => {
    const text = [...FM, '## OUTPUT_SCHEMA', '', '```json', body, '```', ''].join('\n');
    return (await lintExample(text)).diagnostics.filter((d) => d.code === 'json-syntax').map((d) => `${d.range.start.character + 1} ${d.message}`);
  };
  assert.deepEqual(await at('{ "type": "object" "required": [] }'), ['20 Invalid JSON: a comma is expected here.']);
  assert.deepEqual(await at('{ "type": "object", }'), ['21 Invalid JSON: a property name in double quotes is expected here (no trailing comma).']);
  assert.deepEqual(await at("{ 'type': 'object' }"), ['3 Invalid JSON: unexpected character here (names and strings take double quotes).']);
  assert.deepEqual(await at('- a\n- b'), ['1 Invalid JSON: unexpected character here (names and strings take double quotes).'], 'not "Unexpected seq-item-ind token in YAML stream"');
});

test('a tool whose schema block does not parse gets the syntax error, not "no input_schema" beside it', async () => {
  const tool = (name: string, block: string[]) => ['', `### ${name}`, '', '- **Description**: Looks up a record.', '- **Side Effects**: read', '', ...block];
  const text = [
    ...FM,
    '## TOOLS',
    ...tool('lookup_order', ['```json', '{', '  "input_schema": { "type": "object", "properties": {} },', '  "output_schema": { "type": "object", "properties": {} }', '```']),
    ...tool('lookup_user', ['```yaml', 'input_schema:', '  type: object', '   properties: {}', 'output_schema:', '  type: object', '```']),
    // No block at all: still told to add one.
    ...tool('lookup_zone', []),
    // The last tool, its block broken (a pointer past the last tool is no tool).
    ...tool('lookup_meter', ['```json', '{ "input_schema": {', '```']),
    '',
  ].join('\n');
  const found = await codes(text);
  assert.deepEqual(
    found.filter((c) => /syntax|tool-missing-schema/.test(c)),
    ['json-syntax 17', 'yaml-syntax 27', 'tool-missing-schema 33', 'json-syntax 45'],
  );
});

test('BUDGETS whose YAML block does not parse gets the syntax error, not "does not set" beside it', async () => {
  const text = [...FM, '## BUDGETS', '', '```yaml', 'max_steps: 10', ' token_budget: 5000', '```', ''].join('\n');
  assert.deepEqual(await codes(text), ['yaml-syntax 10']);
});

test('a YAML block that does not parse gets its syntax error alone, not the duplicate keys of the recovery', async () => {
  const text = [...FM, '## MEMORY_REQUIREMENTS', '', '```yaml', 'a: b', '  - c: [', '- pool: referral_book', '  required: true', '- pool: patient_prefs', '  required: false', '```', ''].join('\n');
  const found = await codes(text);
  assert.deepEqual(found.filter((c) => /syntax|duplicate-key/.test(c)), ['yaml-syntax 10']);
});

test('a declaring section whose block does not parse silences the references to it, not the syntax error', async () => {
  // An author's contract (the independent corpus) with one block broken at a time: TRIGGER's, which
  // declares the entities, then TOOLS', which declares the tools.
  const clean = readFileSync(join(repo, 'test/corpus/independent/writerA/clean/hospital-scheduling.agents.md'), 'utf8').split('\n');
  const breakAfter = (fence: number) => [...clean.slice(0, fence), 'a: b', '  - c: [', ...clean.slice(fence)].join('\n');
  const fenceUnder = (title: string) => clean.findIndex((l, i) => i > clean.indexOf(title) && l === '```yaml') + 1;
  const codesOf = async (text: string) => new Set((await lintExample(text)).diagnostics.map((d) => String(d.code)));
  const trigger = await codesOf(breakAfter(fenceUnder('## TRIGGER')));
  assert.ok(trigger.has('yaml-syntax'));
  assert.equal(trigger.has('template-unknown-entity'), false, [...trigger].join(' '));
  const tools = await codesOf(breakAfter(fenceUnder('## TOOLS')));
  assert.ok(tools.has('yaml-syntax'));
  assert.equal(tools.has('undeclared-tool'), false, [...tools].join(' '));
  assert.equal(tools.has('tool-input-unfed'), false, [...tools].join(' '));
});

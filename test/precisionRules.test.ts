/**
 * Precision on contracts we did not write (test/corpus/independent/README.md): each case is a short change to the
 * complete example of docs/contract-format.md that reproduces a false finding (or a miss) seen on
 * the independent corpus, linted with the default `recommended` preset.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lintExample } from './helpers/lintExample.ts';

const doc = readFileSync(new URL('../docs/contract-format.md', import.meta.url), 'utf8');
const EXAMPLE = /<!-- example:start -->\s*`{3,}markdown\n([\s\S]*?)\n`{3,}\s*<!-- example:end -->/.exec(doc)![1]!;

/** The example with `from` replaced by `to` (which must occur once). */
function edit(text: string, from: string, to: string): string {
  assert.equal(text.split(from).length, 2, `"${from.slice(0, 60)}" occurs once`);
  return text.replace(from, () => to);
}

/** Findings other than the missing resource files, which the doc does not ship: `code line message`. */
async function findings(text: string): Promise<string[]> {
  const r = await lintExample(text);
  return r.diagnostics.filter((d) => d.code !== 'resource-missing').map((d) => `${d.code} ${d.range.start.line + 1} ${d.message}`);
}

const TOOLS_END = '## CONSTRAINTS';

/** A TOOLS entry in YAML with the given input and output schemas. */
function tool(name: string, input: object, output: object = { type: 'object' }): string {
  return `### ${name}\n\n\`\`\`yaml\ndescription: Looks something up for ${name}.\nside_effects: read\nidempotent: true\ninput_schema: ${JSON.stringify(input)}\noutput_schema: ${JSON.stringify(output)}\n\`\`\`\n\n`;
}

const withTools = (...entries: string[]) => edit(EXAMPLE, TOOLS_END, `${entries.join('')}${TOOLS_END}`);

test('the complete example is clean (the base of every case below)', async () => {
  assert.deepEqual(await findings(EXAMPLE), []);
});

test('tool-input-unfed: free text the model writes is not reported; an unfed identifier still is', async () => {
  const text = withTools(
    tool('log_request_note', { type: 'object', required: ['body', 'summary', 'reason', 'query', 'sql', 'markdown', 'damage_description', 'guest_name'], properties: Object.fromEntries(['body', 'summary', 'reason', 'query', 'sql', 'markdown', 'damage_description', 'guest_name'].map((k) => [k, { type: 'string', maxLength: 2000 }])) }),
    tool('get_shipment', { type: 'object', required: ['shipment_id'], properties: { shipment_id: { type: 'string' } } }),
  );
  assert.deepEqual((await findings(text)).map((f) => f.split(' ').slice(0, 1).join(' ') + ' ' + /"(\w+)"/.exec(f)?.[1]), ['tool-input-unfed shipment_id']);
});

test('tool-input-unfed: a value another tool returns inside an array or a nested object is a source', async () => {
  const text = withTools(
    tool('get_order', { type: 'object', required: ['sku'], properties: { sku: { type: 'string' } } }, { type: 'object', properties: { order: { type: 'object', properties: { lines: { type: 'array', items: { type: 'object', properties: { line_id: { type: 'string' } } } } } } } }),
    tool('check_return_eligibility', { type: 'object', required: ['line_id'], properties: { line_id: { type: 'string' } } }),
    tool('list_slots', { type: 'object', required: ['sku'], properties: { sku: { type: 'string' } } }, { type: 'object', properties: { slots: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } } } }),
    tool('book_slot', { type: 'object', required: ['slot_id'], properties: { slot_id: { type: 'string' } } }),
  );
  assert.deepEqual(await findings(text), []);
});

test('tool-input-unfed: a related name (sha ← head_sha) and a formatted code with a pattern are not reported', async () => {
  const text = withTools(
    tool('list_pull_requests', { type: 'object', required: ['sku'], properties: { sku: { type: 'string' } } }, { type: 'object', properties: { pulls: { type: 'array', items: { type: 'object', properties: { head_sha: { type: 'string' } } } } } }),
    tool('get_check_runs', { type: 'object', required: ['sha'], properties: { sha: { type: 'string' } } }),
    tool('convert_price', { type: 'object', required: ['currency_code', 'zip_code'], properties: { currency_code: { type: 'string', pattern: '^[A-Z]{3}$' }, zip_code: { type: 'string', pattern: '^\\d{5}$' } } }),
  );
  assert.deepEqual(await findings(text), []);
});

test('schema: an empty table cell is an absent field (docs §4.2), in MEMORY_FRESHNESS, FAILURE_PROTOCOL and CONSTRAINTS', async () => {
  let text = edit(
    EXAMPLE,
    '- **inventory_data**: Must be updated before `05:00 UTC`. Stale after `07:00 UTC`.\n- **vendor_whitelist**: Static. No freshness requirement.',
    '| Source | Kind | Updated Before | Stale After |\n|---|---|---|---|\n| inventory_data | scheduled | `05:00 UTC` | `07:00 UTC` |\n| vendor_whitelist | static | | |',
  );
  text = edit(
    text,
    /## CONSTRAINTS\n\n```yaml[\s\S]*?```/.exec(text)![0],
    [
      '## CONSTRAINTS',
      '',
      '| Type | Format | Rule | Check | Language |',
      '|---|---|---|---|---|',
      '| output_format | json | | | |',
      "| safety_guard | | Never suggest a vendor that is not in `vendor_whitelist.csv`. | `output.vendor_constraints IN vendor_whitelist.csv OR output.vendor_constraints = ['ALL_APPROVED']` | |",
      '| language | | | | en |',
    ].join('\n'),
  );
  text = edit(text, '- **If `urgency_reason` is empty on an urgent request**: → Refuse to raise the priority → Return error_code `URG001`', '');
  text = edit(text, '## HUMAN_IN_THE_LOOP', '| Condition | Actions | Code | Alert | Scenario |\n|---|---|---|---|---|\n| `urgency_reason` is empty on an urgent request | Refuse to raise the priority | URG001 | | |\n\n## HUMAN_IN_THE_LOOP');
  assert.deepEqual(await findings(text), []);
});

test('threshold-range: a score the contract declares as an integer 0–100 is on its own scale', async () => {
  const text = edit(
    withTools(tool('score_vendor_risk', { type: 'object', required: ['sku'], properties: { sku: { type: 'string' } } }, { type: 'object', properties: { risk_score: { type: 'integer', minimum: 0, maximum: 100 } } })),
    '- Cognitive Fact: only from `VERIFIED_SOURCE`',
    '- Cognitive Fact: only when `risk_score < 30`, and only from `VERIFIED_SOURCE`',
  );
  assert.deepEqual(await findings(text), []);
});

test('threshold-range: a prefixed confidence (`summary_confidence >= 80`) is a fraction too', async () => {
  const text = edit(EXAMPLE, '`confidence > 0.85`', '`summary_confidence >= 80`');
  assert.deepEqual((await findings(text)).map((f) => f.split(' ')[0]), ['threshold-range']);
});

test('failure-code-missing: a deliberate outcome needs no code; an entry that ends the run as a failure does', async () => {
  let text = edit(EXAMPLE, ' → Alert `#procurement-alerts` with severity `P2` → Return error_code `FMT001`', ' → Alert `#procurement-alerts` with severity `P2`');
  text = edit(text, '→ Reject the request → Alert `#procurement-alerts` with severity `P3` → Return error_code `HITL001`', '→ Reject the request → Alert `#procurement-alerts` with severity `P3`');
  text = edit(text, '→ Refuse to raise the priority → Return error_code `URG001`', '→ Escalate to the on-call buyer and continue');
  assert.deepEqual(await findings(text), []);
  const halted = edit(text, '→ Escalate to the on-call buyer and continue', '→ Halt processing');
  assert.deepEqual((await findings(halted)).map((f) => f.split(' ')[0]), ['failure-code-missing']);
});

test('a language constraint that follows the user is expressible: `user`, `auto`, `same-as-input`', async () => {
  for (const language of ['user', 'auto', 'same-as-input']) {
    assert.deepEqual(await findings(edit(EXAMPLE, '- type: language\n  language: en', `- type: language\n  language: ${language}`)), [], language);
  }
});

test('a misspelt JSON Schema keyword inside a tool schema is reported with its correction', async () => {
  const text = edit(EXAMPLE, '"required": ["sku"],\n    "properties": {\n      "sku": { "type": "string", "pattern"', '"requried": ["sku"],\n    "properties": {\n      "sku": { "type": "string", "pattern"');
  const found = await findings(text);
  assert.equal(found.length, 1, found.join('\n'));
  assert.match(found[0]!, /^invalid-json-schema \d+ .*"requried".*"required"/);
});

test('a safety guard whose check reads an OUTPUT_SCHEMA property that is not declared is reported', async () => {
  const text = edit(EXAMPLE, '    "vendor_constraints": { "type": "array", "items": { "type": "string" }, "examples": [["Dell", "Logitech"]] },\n', '');
  const found = (await findings(edit(text, '"deadline", "vendor_constraints", "confidence_score"]', '"deadline", "confidence_score"]'))).map((f) => f.split(' ')[0]);
  assert.ok(found.includes('guard-field-undeclared'), found.join('\n'));
});

test('a misspelt section title is a warning with its fix, since the section is dropped', async () => {
  const r = await lintExample(edit(EXAMPLE, '## MEMORY_POLICY', '## MEMORY_POLCY'));
  const d = r.diagnostics.find((x) => x.code === 'unknown-section');
  assert.equal(d?.severity, 'warning');
  assert.match(d!.message, /MEMORY_POLICY/);
});

test('the dry run checks a language constraint that follows the user against the script of the query', async () => {
  const { parseContract } = await import('../server/src/service/parse/parseContract.ts');
  const { contractView } = await import('../server/src/service/model/contractView.ts');
  const { verifyOutput } = await import('../server/src/service/run/engine/verify.ts');
  const text = edit(edit(EXAMPLE, '- type: language\n  language: en', '- type: language\n  language: same-as-input'), '  format: json\n  schema:', '  format: text\n  schema:');
  const view = contractView(parseContract(text));
  const verify = (answer: string, query: string) => {
    const check = verifyOutput(answer, { ...view, outputSchema: undefined }, { input: { query, entities: {} }, memory: {}, names: [], file: () => undefined }).checks.find((c) => c.checkId === 'check.language');
    return `${check?.status} ${check?.checkArgs['language']}`;
  };
  assert.equal(verify('Two laptops from Dell, budget 4800 USD.', '我需要两台戴尔笔记本'), 'invalid zh');
  assert.equal(verify('两台戴尔笔记本，预算 4800 美元。', '我需要两台戴尔笔记本'), 'success zh');
  assert.equal(verify('Two laptops from Dell.', 'I need two Dell laptops'), 'skipped same-as-input');
});

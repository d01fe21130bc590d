import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createLanguageService, NOT_CANCELLED, parseContract, validateContract,
  type DiagnosticRef, type ParsedContract, type Position, type TextEditResult,
} from '../server/src/service/index.ts';
import { TOOLS_AND_HITL } from './helpers/fixtures.ts';

// Every feature through the service's front door: `(document, position?, options, token)`.
const service = createLanguageService();
const doc = (model: ParsedContract, uri = 'file:///a.md') => ({ uri, model });
const hover = (m: ParsedContract, p: Position, o: { lang?: string } = {}) => service.hover(doc(m), p, o, NOT_CANCELLED);
const completion = (m: ParsedContract, p: Position, o: { lang?: string } = {}) => service.completion(doc(m), p, o, NOT_CANCELLED);
const definition = (m: ParsedContract, uri: string, p: Position) => service.definition(doc(m, uri), p, {}, NOT_CANCELLED);
const references = (m: ParsedContract, uri: string, p: Position, includeDeclaration = true) => service.references(doc(m, uri), p, { includeDeclaration }, NOT_CANCELLED);
const prepareRename = (m: ParsedContract, p: Position) => service.prepareRename(doc(m), p, {}, NOT_CANCELLED);
const rename = (m: ParsedContract, p: Position, newName: string) => service.rename(doc(m), p, { newName }, NOT_CANCELLED);
const documentSymbols = (m: ParsedContract) => service.documentSymbols(doc(m), {}, NOT_CANCELLED);
const foldingRanges = (m: ParsedContract) => service.foldingRanges(doc(m), {}, NOT_CANCELLED);
const codeActions = (m: ParsedContract, diagnostics: readonly DiagnosticRef[], o: { today?: string } = {}) =>
  service.codeActions(doc(m), diagnostics[0]?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, { ...o, diagnostics }, NOT_CANCELLED);

const CURSOR = '‸';

/** Splits a fixture at its `‸` marker: the text without it, and the marker's position. */
function fixture(src: string): { text: string; pos: Position } {
  const i = src.indexOf(CURSOR);
  assert.ok(i >= 0, 'fixture needs a ‸ cursor');
  const text = src.slice(0, i) + src.slice(i + CURSOR.length);
  const before = text.slice(0, i).split('\n');
  return { text, pos: { line: before.length - 1, character: before[before.length - 1]!.length } };
}

function applyEdits(text: string, edits: readonly TextEditResult[]): string {
  const lines = text.split('\n');
  const offset = (p: Position) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  return [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start)).reduce((t, e) => t.slice(0, offset(e.range.start)) + e.newText + t.slice(offset(e.range.end)), text);
}

const BASE = `---
contract: true
name: demo
version: 1.1.0
---
## AGENT_IDENTITY

- **Name**: \`Demo\`
- **Hard Boundaries**:
  - ✅ May use \`get_stock\` to check stock

## TRIGGER

\`\`\`yaml
intent_patterns: ["(?<sku>SKU-\\\\d+)"]
required_entities: [sku]
\`\`\`

${TOOLS_AND_HITL}
## FAILURE_PROTOCOL

- **If the model returns non-JSON**: → Fall back to a template → Return error_code \`FMT001\`

## VERSIONING & AUDIT

| Version | Date | Changed By | Key Changes |
|---|---|---|---|
| 1.0.0 | 2026-01-01 | @me | First |
`;

function at(src: string) {
  const { text, pos } = fixture(src);
  return { model: parseContract(text), pos, text };
}

test('hover on a field label shows the schema docs', () => {
  const { model, pos } = at(BASE.replace('**Side Effects**', '**Side Eff‸ects**'));
  const h = hover(model, pos);
  assert.ok(h);
  assert.match(h.contents, /side_effects/);
  assert.equal(h.range.start.line, pos.line);
});

test('hover on an enum value shows its description', () => {
  const { model, pos } = at(BASE.replace('**Side Effects**: read', '**Side Effects**: re‸ad'));
  const h = hover(model, pos);
  assert.ok(h);
  assert.match(h.contents, /^`read`: \S/);
});

test('hover in Chinese uses the schemas\' zh-cn texts', () => {
  const { model, pos } = at(BASE.replace('**Side Effects**', '**Side Eff‸ects**'));
  const en = hover(model, pos)!.contents;
  const zh = hover(model, pos, { lang: 'zh-cn' })!.contents;
  assert.notEqual(en, zh);
  assert.match(zh, /\p{Script=Han}/u);
});

test('hover on a section title and on a tool reference', () => {
  const t = at(BASE.replace('## TOOLS', '## TO‸OLS'));
  assert.match(hover(t.model, t.pos)!.contents, /Fields:/);
  const r = at(BASE.replace('May use `get_stock`', 'May use `get_st‸ock`'));
  const h = hover(r.model, r.pos)!;
  assert.match(h.contents, /\*\*Tool\*\* `get_stock`/);
  assert.match(h.contents, /Stock per SKU/);
});

test('hover on a rule code in a disable comment shows the rule', () => {
  const { model, pos } = at(BASE.replace('## TOOLS', '<!-- agents-md-disable-next-line tool-name-v‸erb -->\n## TOOLS'));
  assert.match(hover(model, pos)!.contents, /tool-name-verb/);
});

test('hover on a section title: plain text, the example as a YAML code block, a link to the format doc', () => {
  const t = at(BASE.replace('## TOOLS', '## TO‸OLS'));
  const h = hover(t.model, t.pos)!.contents;
  assert.match(h, /\n```yaml\n- name: \w+\n/, h);
  assert.doesNotMatch(h, /[{[]"\w+":/, 'no minified JSON');
  assert.match(h, /\[TOOLS in the contract format\]\(docs\/contract-format\.md#tools-tools\)/);
  assert.match(hover(t.model, t.pos, { lang: 'zh-cn' })!.contents, /\[契约格式中的 TOOLS\]/);
});

test('completion of section titles, labels, enum values and templates', () => {
  const s = at(BASE + '\n## ‸');
  const titles = completion(s.model, s.pos).map((c) => c.label);
  assert.ok(titles.includes('BUDGETS'), titles.join(', '));
  assert.ok(!titles.includes('VERSIONING & AUDIT') && !titles.includes('AGENT_IDENTITY'), 'sections the contract has are not offered again');
  const l = at(BASE.replace('- **Side Effects**: read', '- **Side Effects**: read\n- ‸'));
  const labels = completion(l.model, l.pos);
  const approval = labels.find((c) => c.insertText === '**Requires Approval**: ');
  assert.ok(approval, labels.map((c) => c.label).join(','));
  const v = at(BASE.replace('**Side Effects**: read', '**Side Effects**: ‸'));
  assert.deepEqual(completion(v.model, v.pos).map((c) => c.label), ['none', 'read', 'write', 'external']);
  const tpl = at(BASE + '\n## MEMORY_REQUIREMENTS\n\n```yaml\n- pool: p\n  filters:\n    - field: sku\n      value: "{{‸"\n```\n');
  assert.ok(completion(tpl.model, tpl.pos).some((c) => c.label === 'extracted_sku'));
  const code = at(BASE.replace('✅ May use `get_stock`', '✅ May use `get_‸'));
  assert.ok(completion(code.model, code.pos).some((c) => c.label === 'get_stock'));
});

test('definition, references and rename of a tool', () => {
  const { model, pos, text } = at(BASE.replace('May use `get_stock`', 'May use `get_‸stock`'));
  const def = definition(model, 'file:///a.md', pos);
  assert.equal(def.length, 1);
  assert.equal(def[0]!.range.start.line, text.split('\n').findIndex((l) => l.startsWith('### `get_stock`')));
  assert.equal(references(model, 'file:///a.md', pos).length, 2);
  const place = prepareRename(model, pos);
  assert.ok(place && 'placeholder' in place);
  assert.equal(place.placeholder, 'get_stock');
  const renamed = applyEdits(text, rename(model, pos, 'get_inventory'));
  assert.ok(renamed.includes('### `get_inventory`') && renamed.includes('May use `get_inventory`'));
  assert.ok(!renamed.includes('get_stock'));
});

test('rename an entity updates templates', () => {
  const src = BASE + '\n## MEMORY_REQUIREMENTS\n\n```yaml\n- pool: p\n  filters:\n    - field: sku\n      value: "{{extracted_sku}}"\n```\n';
  const { model, pos, text } = at(src.replace('required_entities: [sku]', 'required_entities: [s‸ku]'));
  const out = applyEdits(text, rename(model, pos, 'item'));
  assert.ok(out.includes('required_entities: [item]') && out.includes('{{extracted_item}}'), out);
});

test('document symbols list sections with their tools, scenarios, failures and versions', () => {
  const model = parseContract(BASE);
  const symbols = documentSymbols(model);
  const names = symbols.map((s) => s.name);
  assert.deepEqual(names, ['demo', 'AGENT_IDENTITY', 'TRIGGER', 'TOOLS', 'HUMAN_IN_THE_LOOP', 'FAILURE_PROTOCOL', 'VERSIONING & AUDIT']);
  assert.deepEqual(symbols.find((s) => s.name === 'TOOLS')!.children.map((c) => `${c.kind}:${c.name}`), ['tool:get_stock']);
  assert.deepEqual(symbols.find((s) => s.name === 'HUMAN_IN_THE_LOOP')!.children.map((c) => c.name), ['Large order']);
  assert.equal(symbols.find((s) => s.name === 'FAILURE_PROTOCOL')!.children[0]!.detail, 'FMT001');
  assert.equal(documentSymbols(parseContract('# Repo\n\n## Build\n\nnpm test\n')).length, 0);
  assert.ok(foldingRanges(model).some((f) => f.startLine === 5));
});

test('quick fixes: audit row, HITL fallback, missing section; each leaves the diagnostic fixed', () => {
  const model = parseContract(BASE);
  const diags = validateContract(model);
  const fixOne = (code: string) => {
    const d = diags.find((x) => x.code === code);
    assert.ok(d, `expected a ${code} diagnostic`);
    const action = codeActions(model, [d], { today: '2026-11-29' }).find((a) => a.isPreferred);
    assert.ok(action, `a preferred fix for ${code}`);
    const fixed = applyEdits(BASE, action.edits);
    assert.ok(!validateContract(parseContract(fixed)).some((x) => x.code === code && x.message === d.message), `${code} still reported after "${action.title}":\n${fixed}`);
    return fixed;
  };
  assert.match(fixOne('version-not-audited'), /\| 1\.1\.0 \| 2026-11-29 \|/);
  assert.match(fixOne('hitl-needs-fallback'), /If Large order gets no sign-off within 4h/);
  assert.match(fixOne('missing-section'), /## MEMORY_CONTRACT\n\n\| Layer \|/);
});

test('disable actions silence the diagnostic and keep the document\'s structure', () => {
  const model = parseContract(BASE);
  for (const d of validateContract(model)) {
    for (const action of codeActions(model, [d]).filter((a) => a.title.startsWith('Disable'))) {
      const fixed = parseContract(applyEdits(BASE, action.edits));
      const count = (m: typeof model) => validateContract(m).filter((x) => x.code === d.code && x.message === d.message).length;
      assert.ok(count(fixed) < count(model), `"${action.title}" did not silence ${d.code}`);
      assert.deepEqual(fixed.data, model.data, `"${action.title}" changed the contract's data`);
    }
  }
});

test('a feature asked with a cancelled token answers empty without working', () => {
  const { model, pos } = at(BASE.replace('May use `get_stock`', 'May use `get_‸stock`'));
  const cancelled = { isCancellationRequested: true };
  assert.ok(hover(model, pos));
  assert.equal(service.hover(doc(model), pos, {}, cancelled), undefined);
  assert.deepEqual(service.references(doc(model), pos, {}, cancelled), []);
  assert.deepEqual(service.documentSymbols(doc(model), {}, cancelled), []);
  assert.deepEqual(service.completion(doc(model), pos, {}, cancelled), []);
});

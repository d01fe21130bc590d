// Validation reuses each rule's findings while the model keys it read are unchanged
// (validate/ruleCache.ts, docs/performance.md): after any sequence of edits, with any settings,
// the diagnostics of the incrementally parsed and validated model equal a fresh validation.
// Run: node --import tsx --test test/validateCache.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseContract, validateContract, type ParsedContract } from '../server/src/service/index.ts';
import { EMPTY_FACTS, type WorkspaceFacts } from '../server/src/service/validate/facts.ts';
import { carriedOf } from '../server/src/service/parse/lineage.ts';
import { schemaValidations } from '../server/src/service/validate/ajv.ts';
import { itemChecksRun } from '../server/src/service/validate/ruleCache.ts';
import { generateContract } from '../bench/generate.ts';
import { RUNS } from './helpers/properties.ts';
import { withPreset } from '../server/src/lsp/documentState.ts';
import type { ServerSettings } from '../server/src/lsp/settings.ts';

/** Settings that change what rules find: defaults, the strict preset, a rule's option, a rule turned off. */
const FACTS: readonly WorkspaceFacts[] = [
  EMPTY_FACTS,
  { ...EMPTY_FACTS, config: { ...EMPTY_FACTS.config, preset: 'strict' } },
  { ...EMPTY_FACTS, config: { ...EMPTY_FACTS.config, rules: { 'freshness-margin': { severity: 'error', options: { minutes: 600 } } } } },
  { ...EMPTY_FACTS, config: { ...EMPTY_FACTS.config, rules: { 'tool-missing-schema': 'off' } } },
];

/** Lines that change what a section holds when typed, inserted or deleted. */
const LINES = ['', '## TOOLS', '## BUDGETS', '### new_tool', '- **Description**: reads', '- **Max Steps**: 5', '- **Max Steps**: lots', '| a | b |', '|---|---|', '```yaml', '```', 'max_steps: 3', '---', '- **Side Effects**: none', '<!-- agents-md-disable -->', 'z'];

const editArb = fc.record({
  kind: fc.constantFrom('insert' as const, 'delete' as const, 'replace' as const, 'type' as const),
  at: fc.nat(),
  content: fc.constantFrom(...LINES),
  facts: fc.nat({ max: FACTS.length - 1 }),
});

function applyEdit(text: string, e: { kind: 'insert' | 'delete' | 'replace' | 'type'; at: number; content: string }): string {
  const lines = text.split('\n');
  const i = e.at % (lines.length + 1);
  if (e.kind === 'insert') lines.splice(i, 0, e.content);
  else if (i < lines.length && e.kind === 'delete') lines.splice(i, 1);
  else if (i < lines.length && e.kind === 'replace') lines[i] = e.content;
  else if (i < lines.length) lines[i] = `${lines[i]}${e.content.slice(0, 1) || 'x'}`;
  return lines.join('\n');
}

const view = (m: ParsedContract, facts: WorkspaceFacts) => validateContract(m, facts);

test('after random edits with changing settings, the reused rule results equal a fresh validation', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 20, max: 400 }), fc.array(editArb, { minLength: 1, maxLength: 6 }), (seed, size, edits) => {
      let text = generateContract(size, seed);
      let previous = parseContract(text);
      validateContract(previous);
      for (const e of edits) {
        text = applyEdit(text, e);
        const facts = FACTS[e.facts]!;
        const incremental = parseContract(text, previous);
        assert.deepStrictEqual(view(incremental, facts), view(parseContract(text), facts));
        previous = incremental;
      }
    }),
    { numRuns: RUNS(60) },
  );
});

test('an edit in TOOLS reuses the findings of the rules that read only other sections', () => {
  const text = generateContract(800, 3);
  const before = parseContract(text);
  validateContract(before);
  const lines = text.split('\n');
  const at = lines.findIndex((l, i) => i > lines.findIndex((x) => /^## TOOLS/i.test(x)) && l.startsWith('- **Description**'));
  assert.ok(at > 0);
  lines[at] = `${lines[at]} more`;
  const after = parseContract(lines.join('\n'), before);
  validateContract(after);
  const was = carriedOf(before) as Map<string, unknown>;
  const now = carriedOf(after) as Map<string, unknown>;
  // freshness-margin reads MEMORY_FRESHNESS only: reused as is; a TOOLS rule ran again.
  assert.ok(was.has('freshness-margin') && now.get('freshness-margin') === was.get('freshness-margin'), 'a rule of another section is not run again');
  // expression-syntax reads HUMAN_IN_THE_LOOP, FAILURE_PROTOCOL and CONSTRAINTS, not the whole
  // model: it ran on every keystroke anywhere (about a millisecond of each in TOOLS).
  assert.ok(was.has('expression-syntax') && now.get('expression-syntax') === was.get('expression-syntax'), 'expression-syntax is not run again');
  const toolsRules = [...now.keys()].filter((code) => now.get(code) !== was.get(code));
  assert.ok(toolsRules.length > 0 && toolsRules.length < now.size / 2, `rules run again: ${toolsRules.join(', ')}`);
});

test('a rule that reads the configuration is reused while it is the same object, and runs again with another', () => {
  const text = generateContract(800, 3);
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith('- **Max Steps**'));
  assert.ok(at > 0);
  const edited = (n: number) => lines.map((l, i) => (i === at ? `- **Max Steps**: ${n}` : l)).join('\n');
  const config = { ...EMPTY_FACTS.config };
  const facts: WorkspaceFacts = { ...EMPTY_FACTS, config };
  const first = parseContract(text);
  validateContract(first, facts);
  const second = parseContract(edited(7), first);
  // Facts are made anew for each keystroke; the configuration is the same object.
  validateContract(second, { ...facts });
  const was = carriedOf(first) as Map<string, unknown>;
  const now = carriedOf(second) as Map<string, unknown>;
  // tool-input-unfed reads the shared pools of the configuration: it ran on every keystroke.
  assert.ok(was.has('tool-input-unfed') && now.get('tool-input-unfed') === was.get('tool-input-unfed'), 'reused on an edit in BUDGETS');
  const third = parseContract(edited(8), second);
  validateContract(third, { ...facts, config: { ...config } });
  assert.notEqual((carriedOf(third) as Map<string, unknown>).get('tool-input-unfed'), now.get('tool-input-unfed'), 'another configuration: run again');
});

test('the editor\'s preset keeps the configuration one object while it is the same', () => {
  const facts: WorkspaceFacts = { ...EMPTY_FACTS, config: { ...EMPTY_FACTS.config } };
  const settings = { preset: 'recommended' } as ServerSettings;
  const a = withPreset(facts, settings);
  assert.equal(withPreset({ ...facts }, settings).config, a.config);
  assert.equal(a.config.preset, 'recommended');
  const strict = withPreset(facts, { ...settings, preset: 'strict' } as ServerSettings);
  assert.notEqual(strict.config, a.config);
  assert.equal(strict.config.preset, 'strict');
});

test('tools as the unit of validation: an edit in one tool re-validates that tool against the schema and re-runs the tool rules on it only', () => {
  const text = generateContract(2000, 1);
  const before = parseContract(text);
  validateContract(before);
  const tools = before.sections.find((s) => s.spec?.key === 'tools')!;
  assert.ok((before.data['tools'] as unknown[]).length > 10);
  const lines = text.split('\n');
  // A value the schema rejects, in a tool in the middle of TOOLS: the schema rule and the tool rules have something to say about it.
  const at = lines.findIndex((l, i) => i > tools.startLine + (tools.endLine - tools.startLine) / 2 && /^- \*\*Side Effects\*\*:/.test(l));
  assert.ok(at > 0);
  lines[at] = '- **Side Effects**: writes';
  const validated = schemaValidations('tools/items');
  const checked = itemChecksRun();
  const after = parseContract(lines.join('\n'), before);
  const diagnostics = validateContract(after);
  const edited = (after.data['tools'] as unknown[]).findIndex((t, i) => t !== (before.data['tools'] as unknown[])[i]);
  assert.equal(schemaValidations('tools/items') - validated, 1, 'one tool validated against the schema');
  const rerun = [...itemChecksRun()].filter(([k, n]) => n !== (checked.get(k) ?? 0)).map(([k]) => k);
  assert.ok(rerun.length > 0 && rerun.every((k) => k.endsWith(` tools/${edited}`)), `item checks run again: ${rerun.join(', ')}`);
  assert.ok(diagnostics.some((d) => d.code === 'schema' && d.range.start.line === at), 'the edited tool is reported');
  assert.deepStrictEqual(diagnostics, validateContract(parseContract(lines.join('\n'))));
});

test('HITL rows as the unit of validation: an edit in one row re-checks its fallback and its expression only', () => {
  const text = generateContract(2000, 1);
  const before = parseContract(text);
  validateContract(before);
  const rows = before.data['human_in_the_loop'] as unknown[];
  assert.ok(rows.length > 5);
  const lines = text.split('\n');
  const hitl = before.sections.find((s) => s.spec?.key === 'human_in_the_loop')!;
  // A row in the middle of the table, its scenario renamed: it has no fallback now.
  const at = lines.findIndex((l, i) => i > hitl.startLine + (hitl.endLine - hitl.startLine) / 2 && /^\| [^-]/.test(l));
  assert.ok(at > 0);
  lines[at] = lines[at]!.replace(/^\| /, '| Renamed ');
  const checked = itemChecksRun();
  const after = parseContract(lines.join('\n'), before);
  const diagnostics = validateContract(after);
  const edited = (after.data['human_in_the_loop'] as unknown[]).findIndex((r, i) => r !== rows[i]);
  assert.ok(edited >= 0);
  const rerun = [...itemChecksRun()].filter(([k, n]) => n !== (checked.get(k) ?? 0)).map(([k]) => k);
  for (const rule of ['hitl-needs-fallback', 'expression-syntax']) {
    assert.deepStrictEqual(rerun.filter((k) => k.startsWith(`${rule} `)), [`${rule} human_in_the_loop/${edited}`], `${rule} re-checks the edited row only`);
  }
  assert.ok(diagnostics.some((d) => d.code === 'hitl-needs-fallback' && d.range.start.line === at), 'the renamed scenario has no fallback');
  assert.deepStrictEqual(diagnostics, validateContract(parseContract(lines.join('\n'))));
});

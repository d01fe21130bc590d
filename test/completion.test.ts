// Completion where a user starts typing (docs/vscode.md, "Getting started"): an empty line offers
// the current section's fields, a tool's skeleton in TOOLS and a snippet per section (also in an
// empty AGENTS.md); after a label that refers to one kind of name only that kind is offered.
// Run: node --import tsx --test test/completion.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contractSkeleton, createLanguageService, NOT_CANCELLED, parseContract, applyEdits, SECTIONS, type CompletionEntry, type Position } from '../server/src/service/index.ts';
import { TYPED, TYPED_ZH } from './helpers/completionTyping.ts';

const service = createLanguageService();
const CURSOR = '‸';
function complete(src: string, lang?: string) {
  const i = src.indexOf(CURSOR);
  const text = src.slice(0, i) + src.slice(i + 1);
  const lines = text.slice(0, i).split('\n');
  const pos: Position = { line: lines.length - 1, character: lines.at(-1)!.length };
  return { text, pos, items: service.completion({ uri: 'file:///w/AGENTS.md', model: parseContract(text) }, pos, lang ? { lang } : {}, NOT_CANCELLED) };
}
const BASE = contractSkeleton({ name: 'demo', kind: 'acting', today: '2026-12-01' });

test('an empty AGENTS.md offers a snippet per section; inserting one gives the section', () => {
  const { items, text, pos } = complete('‸');
  const labels = items.map((c) => c.label);
  assert.ok(labels.includes('## AGENT_IDENTITY') && labels.includes('## TOOLS') && labels.includes('## VERSIONING & AUDIT'), labels.join(', '));
  const tools = items.find((c) => c.label === '## TOOLS')!;
  assert.equal(tools.kind, 'snippet');
  assert.ok(tools.snippet);
  // Found by the name a user types on the empty line: VS Code's filter matches `TOOLS` against no `## TOOLS`.
  assert.equal(tools.filterText, 'TOOLS');
  const inserted = applyEdits(text, [{ range: { start: pos, end: pos }, newText: tools.insertText.replace(/\$0$/, '').replace(/\\(.)/g, '$1') }]);
  assert.equal(parseContract(inserted).sections.find((s) => s.spec?.key === 'tools')?.kind, 'section');
});

test('an empty line in AGENT_IDENTITY offers its fields as bullets first, then the sections', () => {
  const { items } = complete(BASE.replace('- **Name**: `demo`', '- **Name**: `demo`\n‸'));
  assert.equal(items[0]!.kind, 'field');
  const goal = items.find((c) => c.insertText === '- **Goal**: ');
  assert.ok(goal, items.slice(0, 12).map((c) => c.insertText).join(' | '));
  assert.equal(goal.filterText, 'Goal', 'found by the label a user types');
  assert.ok(items.some((c) => c.label === '## BUDGETS'));
  const sorted = [...items].sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label));
  assert.equal(sorted[0]!.kind, 'field', 'fields sort before the section snippets');
});

test('an empty line in TOOLS offers a tool snippet with the name as first tab stop', () => {
  const { items } = complete(BASE.replace('### `lookup_record`', '‸\n\n### `lookup_record`'));
  const tool = items.find((c) => c.label === '### tool');
  assert.ok(tool);
  assert.match(tool.insertText, /^### `\$\{1:get_something\}`/);
  assert.match(tool.insertText, /input_schema:/);
});

test('sections the contract lacks sort before those it has', () => {
  const { items } = complete(BASE.replace('## COMPLIANCE', '‸\n\n## COMPLIANCE').replace(/## SEMANTIC_ANCHORS[\s\S]*$/, ''));
  const sort = (label: string) => items.find((c) => c.label === label)!.sortText!;
  assert.ok(sort('## SEMANTIC_ANCHORS') < sort('## TOOLS'));
});

test('a title typed after `## ` is not offered a section the contract already has: no duplicate-section by Enter', () => {
  // A fresh tester (issue 26): `## TOOSL` below TOOLS offered "TOOLS", and Enter made a second TOOLS.
  const { items } = complete(`${BASE}\n## TOOSL‸\n`);
  const titles = items.filter((c) => c.kind === 'section').map((c) => c.label);
  assert.ok(!titles.includes('TOOLS') && !titles.includes('AGENT_IDENTITY'), titles.join(', '));
  assert.ok(titles.includes('SEMANTIC_ANCHORS'), 'a section it lacks is still offered');
  // Retyping the title of a section on its own line still offers that section.
  const own = complete(BASE.replace('## TOOLS', '## TOO‸'));
  assert.ok(own.items.some((c) => c.label === 'TOOLS'), 'its own title');
});

test('after "**Requires Approval**: `" only tools are offered', () => {
  const { items } = complete(BASE.replace('- **Requires Approval**: `update_record`', '- **Requires Approval**: `‸'));
  assert.deepEqual(items.map((c) => c.label).sort(), ['lookup_record', 'update_record']);
  // In prose, every kind of name still comes.
  const prose = complete(BASE.replace('- Read records', '- Read `‸'));
  assert.ok(prose.items.some((c) => c.label === 'records'), 'pools in prose');
});

test('no snippet inside a fenced block, and Chinese details in zh-cn', () => {
  assert.deepEqual(complete(BASE.replace('type: object\nrequired: [answer', 'type: object\n‸\nrequired: [answer')).items.filter((c) => c.kind === 'snippet'), []);
  const zh = complete('‸', 'zh-cn').items.find((c) => c.label === '## TOOLS')!;
  assert.match(zh.detail ?? '', /\p{Script=Han}/u);
});

/**
 * What a user does from an empty file with completion alone: on the empty line after the last
 * section, the first suggestion (a section the contract lacks), its tab stops filled with `values`
 * (a choice keeps its first option), until every section is in.
 */
function typeWithCompletion(values: Readonly<Record<string, readonly string[]>>): string {
  let text = '';
  const accept = (pick: (items: CompletionEntry[]) => CompletionEntry | undefined, key: (c: CompletionEntry) => string): boolean => {
    const lines = text.split('\n');
    const pos: Position = { line: lines.length - 1, character: 0 };
    const next = pick(service.completion({ uri: 'file:///w/AGENTS.md', model: parseContract(text) }, pos, {}, NOT_CANCELLED));
    if (!next) return false;
    const mine = values[key(next)] ?? [];
    const filled = next.insertText
      .replace(/\$\{(\d+)\|([^,|]*)[^|]*\|\}/g, (_m, n: string, first: string) => mine[Number(n) - 1] ?? first)
      .replace(/\$\{(\d+)(?::([^}]*))?\}/g, (_m, n: string, d?: string) => mine[Number(n) - 1] ?? d ?? '')
      .replace(/\$0$/, '')
      .replace(/\\([$}\\])/g, '$1');
    text = applyEdits(text, [{ range: { start: pos, end: pos }, newText: filled }]);
    return true;
  };
  // The first section the contract lacks, and after TOOLS a second tool from the tool snippet.
  const section = (items: CompletionEntry[]) => items.filter((c) => c.kind === 'snippet' && c.label.startsWith('## ')).sort((a, b) => a.sortText!.localeCompare(b.sortText!)).find((c) => c.sortText![1] === '0');
  while (accept(section, (c) => c.label.slice(3))) if (text.includes('## TOOLS') && !text.includes('\n### `', text.indexOf('### `') + 1)) accept((items) => items.find((c) => c.label === '### tool'), () => '### tool');
  return text;
}

for (const [lang, typed] of [['English', TYPED], ['Chinese', TYPED_ZH]] as const) test(`a contract typed from an empty file with completion alone lands clean once its tab stops are filled (values in ${lang})`, async () => {
  const text = typeWithCompletion(typed);
  assert.equal(parseContract(text).sections.filter((s) => s.kind === 'section').length, SECTIONS.length, text);
  const { diagnostics } = await service.lintBytes('file:///w/AGENTS.md', new TextEncoder().encode(text));
  assert.deepEqual(diagnostics.map((d) => `${d.code} ${d.range.start.line + 1}: ${d.message}`), [], text);
  // A placeholder never is `<…>`, which Markdown reads as an HTML tag (an empty value).
  assert.doesNotMatch(text, /<[^>\n]+>/);
});

test('a snippet left as it lands leaves only its empty values to fill', async () => {
  const text = typeWithCompletion({});
  const { diagnostics } = await service.lintBytes('file:///w/AGENTS.md', new TextEncoder().encode(text));
  const codes = [...new Set(diagnostics.map((d) => d.code))];
  assert.deepEqual(codes, ['schema'], diagnostics.map((d) => d.message).join('\n'));
  for (const d of diagnostics) assert.match(d.message, /must not be empty|must have at least 1 items|must match the pattern \^\\s\*\(❌\|✅\)/, d.message);
});

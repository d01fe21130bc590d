import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import oniguruma from 'vscode-oniguruma';
import textmate, { type IGrammar } from 'vscode-textmate';

const { Registry, INITIAL } = textmate;

// Grammar tests: the injection grammars, loaded by vscode-textmate (the engine VS Code uses)
// over a stand-in Markdown grammar that has the real one's root scope and fenced-code scope.
const require = createRequire(import.meta.url);
const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
const onig = oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer).then(() => ({
  createOnigScanner: (p: string[]) => new oniguruma.OnigScanner(p),
  createOnigString: (s: string) => new oniguruma.OnigString(s),
}));

const markdownStandIn = {
  scopeName: 'text.html.markdown',
  patterns: [
    { begin: '^```(\\w*)$', end: '^```$', name: 'markup.fenced_code.block.markdown' },
    { match: '`[^`]*`', name: 'markup.inline.raw.string.markdown' },
  ],
};
const grammars: Record<string, unknown> = {
  'text.html.markdown': markdownStandIn,
  'agents-md.injection': JSON.parse(readFileSync(new URL('../syntaxes/agents-md.injection.tmLanguage.json', import.meta.url), 'utf8')),
  'agents-md.templates.injection': JSON.parse(readFileSync(new URL('../syntaxes/agents-md.templates.injection.tmLanguage.json', import.meta.url), 'utf8')),
};

let grammar: Promise<IGrammar | null> | undefined;
function load(): Promise<IGrammar | null> {
  grammar ??= new Registry({
    onigLib: onig,
    loadGrammar: async (scope) => (grammars[scope] as never) ?? null,
    getInjections: (scope) => (scope === 'text.html.markdown' ? ['agents-md.injection', 'agents-md.templates.injection'] : undefined),
  }).loadGrammar('text.html.markdown');
  return grammar;
}

/** The scopes of each token of `text`, as `token → last scope`. */
async function scopes(text: string): Promise<[string, string][]> {
  const g = (await load())!;
  let state = INITIAL;
  const out: [string, string][] = [];
  for (const line of text.split('\n')) {
    const r = g.tokenizeLine(line, state);
    for (const t of r.tokens) out.push([line.slice(t.startIndex, t.endIndex), t.scopes[t.scopes.length - 1]!]);
    state = r.ruleStack;
  }
  return out;
}

const scopeOf = (tokens: [string, string][], text: string) => tokens.find(([t]) => t === text)?.[1];

test('recognised section titles are highlighted, in any accepted spelling, and others are not', async () => {
  for (const title of ['HUMAN_IN_THE_LOOP', 'Human in the Loop', 'VERSIONING & AUDIT', 'Versioning and Audit', '人工介入', 'TOOLS']) {
    assert.equal(scopeOf(await scopes(`## ${title}`), title), 'entity.name.section.contract.agents-md', title);
  }
  const section = (t: [string, string][]) => t.some(([, s]) => s === 'entity.name.section.contract.agents-md');
  assert.ok(!section(await scopes('## Background')));
  assert.ok(!section(await scopes('### TOOLS')), 'only H2 titles are sections');
  assert.ok(!section(await scopes('## TOOLSET')), 'a title must end where the section name ends');
});

test('boundary markers, templates and directives', async () => {
  const t = await scopes('  - ❌ Never pay\n  - ✅ May read\nvalue: "{{extracted_device_id}}" and {{code[:3]}}\n<!-- agents-md-disable-next-line tool-name-verb -->');
  assert.equal(scopeOf(t, '❌'), 'keyword.control.boundary.never.agents-md');
  assert.equal(scopeOf(t, '✅'), 'keyword.control.boundary.may.agents-md');
  assert.equal(scopeOf(t, 'extracted_device_id'), 'variable.other.template.agents-md');
  assert.equal(scopeOf(t, 'code'), 'variable.other.template.agents-md');
  assert.equal(scopeOf(t, 'agents-md-disable-next-line'), 'keyword.other.directive.agents-md');
  assert.equal(scopeOf(t, ' tool-name-verb '), 'constant.other.rule-code.agents-md');
});

test('templates are highlighted inside fenced YAML; titles and markers inside code are not', async () => {
  const t = await scopes('```yaml\nvalue: "{{extracted_sku}}"\n## TOOLS ❌\n```');
  assert.equal(scopeOf(t, 'extracted_sku'), 'variable.other.template.agents-md');
  assert.ok(!t.some(([, s]) => s === 'entity.name.section.contract.agents-md' || s.startsWith('keyword.control.boundary')));
});

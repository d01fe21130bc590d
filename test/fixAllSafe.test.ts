/**
 * Fix-all never makes a file worse (docs/rules.md, "Fixes"): every safe fix of every fixture (each
 * rule's bad and good example in its workspace, the samples, the clean corpus) is applied, pass by
 * pass as `agents-md lint --fix` and fix-on-save do, and the result has no more findings of any
 * rule than before. A safe fix that would add one is dropped, also from the quick-fix menu.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyEdits, createLanguageService, NOT_CANCELLED, type ContractDiagnostic } from '../server/src/service/index.ts';
import { RULES, recheckAnalyzer } from '../server/src/service/host.ts';
import { memoryFs } from './helpers/memoryFs.ts';
import { exampleWorkspace } from './helpers/lintExample.ts';
import { REPO } from './helpers/cli.ts';

const ROOT = 'file:///ws';
const URI = `${ROOT}/AGENTS.md`;
type Workspace = { files?: Readonly<Record<string, string>>; config?: Readonly<Record<string, unknown>> };

const count = (ds: readonly ContractDiagnostic[]) => ds.reduce((m, d) => m.set(d.code, (m.get(d.code) ?? 0) + 1), new Map<string, number>());

/** Lints `text` as AGENTS.md in a workspace, fix-all pass by pass; the findings before and after each pass. */
async function fixAllPasses(text: string, workspace: Workspace = {}) {
  const files: Record<string, string> = { [URI]: text };
  for (const [p, c] of Object.entries(workspace.files ?? {})) files[`${ROOT}/${p}`] = c;
  if (workspace.config) files[`${ROOT}/.agents-md.json`] = JSON.stringify(workspace.config);
  const service = createLanguageService({ fs: memoryFs(files), roots: [ROOT], analyzeRegex: recheckAnalyzer });
  const lint = async (t: string) => {
    files[URI] = t;
    const model = service.parse(URI, t);
    const facts = await service.facts(URI, model);
    return { model, facts, diagnostics: service.validate(model, facts) };
  };
  const passes: { fixed: string[]; added: string[] }[] = [];
  let now = await lint(text);
  for (let pass = 0; pass < 5; pass++) {
    const { edits, fixed } = service.fixAll({ uri: URI, model: now.model, facts: now.facts }, { diagnostics: now.diagnostics }, NOT_CANCELLED);
    if (edits.length === 0) break;
    const next = await lint(applyEdits(now.model.text, edits));
    const was = count(now.diagnostics);
    const is = count(next.diagnostics);
    passes.push({ fixed, added: next.diagnostics.filter((d) => is.get(d.code)! > (was.get(d.code) ?? 0)).map((d) => `${d.code} ${d.message}`) });
    now = next;
  }
  return { passes, text: now.model.text, service, lint };
}

const fixtures: { name: string; text: string; workspace?: Workspace }[] = [
  ...RULES.flatMap((r) => [
    ...(r.examples.bad ? [{ name: `${r.code} bad example`, text: r.examples.bad, workspace: exampleWorkspace(r) ?? {} }] : []),
    ...(r.examples.good ? [{ name: `${r.code} good example`, text: r.examples.good, workspace: exampleWorkspace(r) ?? {} }] : []),
  ]),
  ...readdirSync(join(REPO, 'samples'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => ({
    name: `samples/${d.name}`,
    text: readFileSync(join(REPO, 'samples', d.name, 'AGENTS.md'), 'utf8'),
    workspace: { config: JSON.parse(readFileSync(join(REPO, 'samples/.agents-md.json'), 'utf8')) as Record<string, unknown> },
  })),
  ...readdirSync(join(REPO, 'test/corpus/clean')).map((f) => ({ name: `corpus ${f}`, text: readFileSync(join(REPO, 'test/corpus/clean', f), 'utf8') })),
];

test('every safe fix of every fixture, applied pass by pass, adds no finding', async () => {
  const worse: string[] = [];
  let fixedTotal = 0;
  for (const f of fixtures) {
    const { passes } = await fixAllPasses(f.text, f.workspace);
    for (const p of passes) {
      fixedTotal += p.fixed.length;
      if (p.added.length) worse.push(`${f.name}: fixing ${p.fixed.join(', ')} added ${p.added.join('; ')}`);
    }
  }
  assert.deepEqual(worse, []);
  assert.ok(fixedTotal > 10, `the fixtures exercise the safe fixes (${fixedTotal} fixed)`);
});

const COLLIDING = `---\ncontract: true\nname: shop\nversion: 1.0.0\n---\n\n## TOOLS\n\n### \`get_order\`\n\n- **Description**: Reads an order.\n- **Side Effects**: none\n\n\`\`\`yaml\ninput_schema:\n  type: object\n  properties: {}\noutput_schema:\n  type: object\n  properties: {}\n\`\`\`\n\n## TOOSL\n\n### \`get_refund\`\n\n- **Description**: Reads a refund.\n- **Side Effects**: none\n`;

test('a misspelt ## TOOSL beside ## TOOLS: fix-all leaves the title (renaming it would make a duplicate-section error)', async () => {
  const { passes, text } = await fixAllPasses(COLLIDING);
  assert.ok(text.includes('## TOOSL'), 'the title is not renamed into a second TOOLS');
  assert.deepEqual(passes.flatMap((p) => p.added), []);
});

test('a misspelt ## TOOSL beside ## TOOLS: the quick-fix menu offers no rename into a duplicate, the merge instead', async () => {
  const { service, lint } = await fixAllPasses(COLLIDING);
  const now = await lint(COLLIDING);
  const d = now.diagnostics.find((x) => x.code === 'unknown-section');
  assert.ok(d, 'TOOSL is reported');
  const actions = service.codeActions({ uri: URI, model: now.model, facts: now.facts }, d.range, { diagnostics: [d], today: '2026-12-01' }, NOT_CANCELLED);
  assert.equal(actions.find((a) => a.title === 'Change to TOOLS'), undefined, actions.map((a) => a.title).join(' | '));
  const merge = actions.find((a) => /^Move .* into TOOLS$/.test(a.title));
  assert.ok(merge, `a merge is offered: ${actions.map((a) => a.title).join(' | ')}`);
  assert.equal(actions[0], merge, 'the merge comes first');
  const after = await lint(applyEdits(COLLIDING, merge.edits));
  assert.ok(!after.model.text.includes('TOOSL'), after.model.text);
  assert.deepEqual(after.diagnostics.map((x) => x.code).filter((c) => c === 'duplicate-section' || c === 'unknown-section'), []);
  assert.ok(after.model.text.includes('get_refund') && after.model.text.indexOf('get_refund') > after.model.text.indexOf('get_order'));
  assert.ok(after.model.text.endsWith('- **Side Effects**: none\n'), `the file's final newline is kept: ${JSON.stringify(after.model.text.slice(-40))}`);
});

test('the merge keeps the file\'s final newline wherever the misspelt section sits (first, last, with a section after it)', async () => {
  const tools = COLLIDING.slice(COLLIDING.indexOf('## TOOLS'), COLLIDING.indexOf('## TOOSL'));
  const toosl = COLLIDING.slice(COLLIDING.indexOf('## TOOSL'));
  const head = COLLIDING.slice(0, COLLIDING.indexOf('## TOOLS'));
  const budgets = '## BUDGETS\n\n- **Max Steps**: 10\n';
  const layouts = {
    'TOOSL last': head + tools + toosl,
    'TOOSL first, TOOLS last': `${head + toosl}\n${tools}`.replace(/\n+$/, '\n'),
    'TOOSL before another section': `${head + tools + toosl}\n${budgets}`,
    'TOOSL first, another section last': `${head + toosl}\n${tools}${budgets}`,
    'TOOSL last, another section between': `${head + tools + budgets}\n${toosl}`,
  };
  for (const [name, text] of Object.entries(layouts)) {
    const { service, lint } = await fixAllPasses(text);
    const now = await lint(text);
    const d = now.diagnostics.find((x) => x.code === 'unknown-section');
    assert.ok(d, `${name}: TOOSL is reported`);
    const merge = service.codeActions({ uri: URI, model: now.model, facts: now.facts }, d.range, { diagnostics: [d], today: '2026-12-01' }, NOT_CANCELLED).find((a) => /^Move .* into TOOLS$/.test(a.title));
    assert.ok(merge, `${name}: a merge is offered`);
    const after = applyEdits(text, merge.edits);
    assert.ok(after.endsWith('\n') && !after.endsWith('\n\n'), `${name}: one final newline: ${JSON.stringify(after.slice(-40))}`);
    assert.ok(!after.includes('TOOSL') && after.includes('get_refund'), `${name}: ${after}`);
  }
});

test('two misspelt titles that both mean TOOLS: fix-all renames one, not both into a duplicate (each fix is checked against the result)', async () => {
  const text = COLLIDING.replace('## TOOLS', '## TOLS');
  const { passes, text: after } = await fixAllPasses(text);
  assert.deepEqual(passes.flatMap((p) => p.added), []);
  assert.equal(after.split('\n').filter((l) => l === '## TOOLS').length, 1, after);
});

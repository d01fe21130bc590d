/**
 * Rule fixtures pin the range and the fix (docs/rules.md, "Fixes"):
 * - every rule's bad example marks the exact range of its finding (`examples.at`);
 * - every rule with a fix: on its bad example, the fix gives the fixture's `examples.fixed`, removes
 *   the finding it was offered for, and no other diagnostic appears;
 * - `agents-md lint --fix` on a copy of samples/broken: writes the safe fixes, reports them, leaves
 *   fewer problems and no new one, and changes no text outside a fix's edit (the golden patch
 *   test/expect/broken-fix.diff; `UPDATE_EXPECT=1` rewrites it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyEdits, parseContract, type ContractDiagnostic, type Range } from '../server/src/service/index.ts';
import { RULES } from '../server/src/service/host.ts';
import { LineIndex } from '../server/src/service/text/lineIndex.ts';
import { exampleWorkspace, lintExample } from './helpers/lintExample.ts';
import { REPO, useCliBundle } from './helpers/cli.ts';
import { expectFile } from './helpers/expect.ts';
import { createTwoFilesPatch } from 'diff';

const shown = (d: ContractDiagnostic) => `${d.code} ${d.message}`;

/** The range a fixture marks: its `at` snippet (once in the bad example) with the range between ⟦ and ⟧. */
function marked(bad: string, at: string): Range {
  const plain = at.replace(/[⟦⟧]/g, '');
  const where = bad.indexOf(plain);
  assert.ok(where >= 0 && bad.indexOf(plain, where + 1) < 0, `the snippet ${JSON.stringify(plain)} occurs once in the bad example`);
  const idx = new LineIndex(bad);
  return { start: idx.positionAt(where + at.indexOf('⟦')), end: idx.positionAt(where + at.indexOf('⟧') - 1) };
}

for (const rule of RULES.filter((r) => r.examples.bad)) {
  test(`${rule.code}: the bad example's finding is at the marked range${rule.fix ? '; its fix gives the fixed text, removes the finding and adds none' : ''}`, async () => {
    const ws = exampleWorkspace(rule);
    const { bad, at, fixed } = rule.examples;
    const before = await lintExample(bad, ws);
    const target = before.diagnostics.find((d) => d.code === rule.code);
    assert.ok(target, `the bad example of ${rule.code} triggers it`);
    assert.ok(at, `${rule.code}: the bad example marks its finding (examples.at)`);
    assert.deepEqual(target.range, marked(bad, at));
    // docs/rules.md shows each rule's fix from `fixKind`: it says what the fix does.
    if (!rule.fix) return assert.equal(rule.fixKind, undefined, `${rule.code} has no fix`);
    const fix = rule.fix(target, parseContract(bad), { today: '2026-12-01' });
    assert.ok(fix, `${rule.code} offers a fix for its bad example`);
    assert.equal(rule.fixKind, fix.safe ? 'safe' : 'quickfix');
    const text = applyEdits(bad, fix.edits);
    assert.ok(fixed, `${rule.code}: the fixture gives the text after the fix (examples.fixed)`);
    assert.equal(text, fixed === true ? rule.examples.good : fixed);
    const after = await lintExample(text, ws);
    if (rule.code === 'partial-contract' || rule.code === 'contract-not-recognised') {
      // Its fix makes the file a full contract: the rest of the contract rules then apply by design.
      assert.equal(after.model?.kind, 'contract');
      return;
    }
    // Counted by rule: a fix may move later findings or rename what their messages name (tool-name-verb).
    const count = (ds: readonly ContractDiagnostic[]) => ds.reduce((m, d) => m.set(d.code, (m.get(d.code) ?? 0) + 1), new Map<string, number>());
    const was = count(before.diagnostics);
    const now = count(after.diagnostics);
    assert.deepEqual(after.diagnostics.filter((d) => now.get(d.code)! > (was.get(d.code) ?? 0)).map(shown), [], 'new diagnostics');
    assert.equal(now.get(rule.code) ?? 0, was.get(rule.code)! - 1);
  });
}

test('tool-missing-schema offers no fix for a tool declared in a TOOLS table: a yaml block after the table would be a tool of its own', async () => {
  const rule = RULES.find((r) => r.code === 'tool-missing-schema')!;
  const text = `---\ncontract: true\nname: a\nversion: 1.0.0\n---\n\n## TOOLS\n\n| Tool | Description | Side Effects |\n|---|---|---|\n| \`get_order\` | Reads an order. | read |\n`;
  const found = (await lintExample(text, exampleWorkspace(rule))).diagnostics.find((d) => d.code === rule.code);
  assert.ok(found, 'the table row lacks its schemas');
  assert.equal(rule.fix!(found, parseContract(text), { today: '2026-12-01' }), undefined);
});

const { bundle, scratch } = useCliBundle('fix');

test('agents-md lint --fix on samples/broken fixes what it can; the result has fewer problems and no new one', async () => {
  const dir = scratch.workspace({});
  cpSync(join(REPO, 'samples'), join(dir, 'samples'), { recursive: true });
  const file = join(dir, 'samples/broken/AGENTS.md');
  const original = readFileSync(file, 'utf8');
  const plain = await bundle.run(dir, 'lint', 'samples/broken', '-f', 'json');
  const fixed = await bundle.run(dir, 'lint', 'samples/broken', '--fix', '-f', 'json');
  assert.equal(fixed.code, 1, 'errors remain');
  assert.match(fixed.stderr, /samples\/broken\/AGENTS\.md: fixed 6 problems \(template-unquoted ×2, tool-needs-approval ×1, hitl-needs-fallback ×2, unknown-section ×1\)/);
  type Json = { diagnostics: { code: string; message: string }[] }[];
  const beforeList = (JSON.parse(plain.stdout) as Json)[0]!.diagnostics.map((d) => `${d.code} ${d.message}`);
  const afterList = (JSON.parse(fixed.stdout) as Json)[0]!.diagnostics.map((d) => `${d.code} ${d.message}`);
  assert.ok(afterList.length < beforeList.length, `${afterList.length} problems after, ${beforeList.length} before`);
  assert.deepEqual(afterList.filter((d) => !beforeList.includes(d)), [], 'no new problem');
  // The file as re-linted is the file on disk, and the fixes changed only what the golden patch
  // shows (test/expect/broken-fix.diff; UPDATE_EXPECT=1 rewrites it when samples/broken changes).
  const text = readFileSync(file, 'utf8');
  const patch = createTwoFilesPatch('samples/broken/AGENTS.md', 'samples/broken/AGENTS.md', original, text, 'before --fix', 'after --fix', { context: 0 });
  expectFile(join(REPO, 'test/expect/broken-fix.diff'), patch, 'what lint --fix changes in samples/broken');
  // A second --fix has nothing left to do.
  const again = await bundle.run(dir, 'lint', 'samples/broken', '--fix');
  assert.doesNotMatch(again.stderr, /fixed/);
  assert.equal(readFileSync(file, 'utf8'), text);
});

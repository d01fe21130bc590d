/**
 * Fixes declared beside their checks (docs/rules.md, "Fixes"):
 * - every rule with a fix: on its bad example, the fix removes the finding it was offered for and
 *   no other diagnostic appears;
 * - `agents-md lint --fix` on a copy of samples/broken: writes the safe fixes, reports them, leaves
 *   fewer problems and no new one, and changes no line outside a fix's edit.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyEdits, parseContract, RULES, type ContractDiagnostic } from '../server/src/service/index.ts';
import { exampleWorkspace, lintExample } from './helpers/lintExample.ts';
import { cliBundle, REPO, scratchFolders } from './helpers/cli.ts';

const shown = (d: ContractDiagnostic) => `${d.code} ${d.message}`;

for (const rule of RULES.filter((r) => r.fix && r.examples.bad)) {
  test(`${rule.code}: its fix removes the finding and adds none`, async () => {
    const ws = exampleWorkspace(rule);
    const before = await lintExample(rule.examples.bad, ws);
    const target = before.diagnostics.find((d) => d.code === rule.code);
    assert.ok(target, `the bad example of ${rule.code} triggers it`);
    const fix = rule.fix!(target, parseContract(rule.examples.bad));
    assert.ok(fix, `${rule.code} offers a fix for its bad example`);
    const after = await lintExample(applyEdits(rule.examples.bad, fix.edits), ws);
    if (rule.code === 'partial-contract' || rule.code === 'contract-not-recognised') {
      // Its fix makes the file a full contract: the rest of the contract rules then apply by design.
      assert.equal(after.model?.kind, 'contract');
      return;
    }
    const was = new Set(before.diagnostics.map(shown));
    assert.deepEqual(after.diagnostics.filter((d) => !was.has(shown(d))).map(shown), [], 'new diagnostics');
    assert.equal(after.diagnostics.filter((d) => d.code === rule.code).length, before.diagnostics.filter((d) => d.code === rule.code).length - 1);
  });
}

const bundle = cliBundle('fix');
const scratch = scratchFolders();
before(() => bundle.build());
after(() => {
  bundle.dispose();
  scratch.dispose();
});

test('agents-md lint --fix on samples/broken fixes what it can; the result has fewer problems and no new one', async () => {
  const dir = scratch.workspace({});
  cpSync(join(REPO, 'samples'), join(dir, 'samples'), { recursive: true });
  const file = join(dir, 'samples/broken/AGENTS.md');
  const original = readFileSync(file, 'utf8');
  const plain = await bundle.run(dir, 'lint', 'samples/broken', '-f', 'json');
  const fixed = await bundle.run(dir, 'lint', 'samples/broken', '--fix', '-f', 'json');
  assert.equal(fixed.code, 1, 'errors remain');
  assert.match(fixed.stderr, /samples\/broken\/AGENTS\.md: fixed 3 problems \(template-unquoted ×2, unknown-section ×1\)/);
  type Json = { diagnostics: { code: string; message: string }[] }[];
  const beforeList = (JSON.parse(plain.stdout) as Json)[0]!.diagnostics.map((d) => `${d.code} ${d.message}`);
  const afterList = (JSON.parse(fixed.stdout) as Json)[0]!.diagnostics.map((d) => `${d.code} ${d.message}`);
  assert.ok(afterList.length < beforeList.length, `${afterList.length} problems after, ${beforeList.length} before`);
  assert.deepEqual(afterList.filter((d) => !beforeList.includes(d)), [], 'no new problem');
  // The file as re-linted is the file on disk, and only the fixed lines changed.
  const text = readFileSync(file, 'utf8');
  const a = original.split('\n');
  const b = text.split('\n');
  assert.equal(b.length, a.length);
  const changed = a.flatMap((line, i) => (line === b[i] ? [] : [`${i + 1}: ${b[i]}`]));
  assert.deepEqual(changed, ['96:       value: "{{extracted_vendor_name}}"', '98:       value: "{{extracted_vendor_name[:3]}}"', '402: ## VERSIONING & AUDIT']);
  // A second --fix has nothing left to do.
  const again = await bundle.run(dir, 'lint', 'samples/broken', '--fix');
  assert.doesNotMatch(again.stderr, /fixed/);
  assert.equal(readFileSync(file, 'utf8'), text);
});

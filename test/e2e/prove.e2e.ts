// Prove this contract in a real VS Code (docs/vscode.md, "Proving a contract"): a contract whose
// payment gate lets `amount = 50000` through (test/prove-corpus/01-threshold-bypass) opened in
// code-server; the "Prove this contract" code lens is clicked, and the Problems panel lists the
// finding under the source `agents-md prove` with its obligation as the code and its witness as
// related information; the lens then reads "Prove again (1 finding in 1 contract)".
//
//   node --import tsx --test test/e2e/prove.e2e.ts          # from the repo root
//   (UPDATE_DOCS_IMAGES=1 copies the screenshot to docs/images/vscode-prove.png)
//
// Skips with the reason printed when the tools are not installed (E2E_REQUIRE=1 makes that a
// failure). Screenshots: test-results/e2e/prove-*.png.
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { DEFAULT_TIMEOUT_MS, e2eSkipReason, openFileFromExplorer, packageRepoExtension, press, REPO_DIR, screenshot, startWorkbench, until } from './codeServer.ts';

const skip = e2eSkipReason();
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();

test('e2e prove: the lens proves the open contract; the finding and its witness in the Problems panel under agents-md prove', { skip, timeout: 600_000 }, async (t: TestContext) => {
  const { vsix, ms } = await packageRepoExtension();
  t.diagnostic(`npm run package: ${ms} ms`);
  const dir = await mkdtemp(join(tmpdir(), 'e2e-prove-ws-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'AGENTS.md'), await readFile(join(REPO_DIR, 'test/prove-corpus/01-threshold-bypass/AGENTS.md'), 'utf8'));
  const { page, passed } = await startWorkbench(t, 'prove', { workspaceDir: dir, extensions: [vsix], settings: { 'editor.minimap.enabled': false, 'agentsMd.versionAdvice': false } });
  await openFileFromExplorer(page, 'AGENTS.md');

  const lens = (text: RegExp) => page.locator('.editor-instance .codelens-decoration a').filter({ hasText: text }).first();
  const rows = page.locator('.markers-panel .monaco-list-row');
  const finding = rows.filter({ has: page.locator('.marker-source', { hasText: /^agents-md prove$/ }) }).filter({ has: page.locator('.marker-code', { hasText: /^ungated-side-effect$/ }) });
  await press(page, 'Control+Shift+M');
  // Lenses are drawn again when they are asked for again: a click on the one being replaced is lost, and a user clicks again.
  await until(
    'the Problems panel lists the prove finding',
    async () => {
      if ((await finding.count()) > 0) return true;
      if (await lens(/^Prove this contract$/).isVisible()) await lens(/^Prove this contract$/).click().catch(() => undefined);
      return (await finding.first().waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false)) ? true : undefined;
    },
    3 * DEFAULT_TIMEOUT_MS,
  );
  assert.match(flat(await finding.first().innerText()), /Tool pay_invoice \(write\) runs without a human for .*\(proved\)|Tool `pay_invoice` \(write\) runs without a human for .*\(proved\)/);
  // The witness, as related information under the finding.
  const witness = rows.filter({ hasText: 'witness: {"tool":"pay_invoice","arguments":{"invoice_id":"x","amount":50000,"currency":"USD"}}' });
  await until('the witness under the finding', async () => ((await witness.count()) > 0 ? true : undefined));
  await lens(/^Prove again \(1 finding in 1 contract\)$/).waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
  const shot = await screenshot(page, 'prove-problems');
  t.diagnostic(`screenshot: ${shot}`);
  if (process.env.UPDATE_DOCS_IMAGES === '1') await copyFile(shot, join(REPO_DIR, 'docs', 'images', 'vscode-prove.png'));
  passed();
});

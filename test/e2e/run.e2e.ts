// Run agent in a real VS Code (docs/vscode.md, docs/dry-run.md): samples/procurement-analyzer (a contract with its
// snapshots) opened in code-server. The ▶ Run agent code lens above the contract is clicked, the
// query "large-purchase-rejected" picked from the snapshots; the run pauses at the "Large
// purchase" HUMAN_IN_THE_LOOP gate and asks, in a modal dialog, to approve or reject; Reject is
// clicked. The Agent Run view shows the trace: every event, the failure highlighted, the outcome
// HUMAN_REJECTED; an event opens its clause in the contract; the trace file is on disk under
// .agents-md/runs/.
//
//   bash test/e2e/setup.sh                                   # once
//   node --import tsx --test test/e2e/run.e2e.ts            # from the repo root
//
// Skips with the reason printed when the tools are not installed (E2E_REQUIRE=1 makes that a
// failure). Screenshots: test-results/e2e/run-*.png.
import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import {
  DEFAULT_TIMEOUT_MS, e2eSkipReason, openFileFromExplorer, packageRepoExtension, press, REPO_DIR, screenshot, startWorkbench, until,
  waitForSelector,
} from './codeServer.ts';

const SAMPLE_DIR = join(REPO_DIR, 'samples', 'procurement-analyzer');
const QUERY = 'large-purchase-rejected';
const VIEW = '.pane:has(.pane-header[aria-label*="Agent Run"])';

const skip = e2eSkipReason();

test('e2e run: the Run agent code lens runs a snapshot query, a HITL pause is rejected, the trace view shows the run', { skip, timeout: 420_000 }, async (t: TestContext) => {
  const { vsix, ms: packageMs } = await packageRepoExtension();
  t.diagnostic(`npm run package: ${packageMs} ms -> ${vsix}`);
  const workspace = await mkdtemp(join(tmpdir(), 'e2e-run-ws-'));
  await cp(SAMPLE_DIR, workspace, { recursive: true });
  t.after(() => rm(workspace, { recursive: true, force: true }));
  const { page, passed } = await startWorkbench(t, 'run', {
    workspaceDir: workspace, extensions: [vsix],
    settings: { 'editor.minimap.enabled': false, 'agentsMd.trace.server': 'messages', 'agentsMd.versionAdvice': false },
  });
  await openFileFromExplorer(page, 'AGENTS.md');

  // The code lens above the contract's first line.
  const lens = page.locator('.editor-instance .codelens-decoration a').filter({ hasText: 'Run agent' }).first();
  await lens.waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
  t.diagnostic(`code lens: ${JSON.stringify((await lens.innerText()).trim())}`);
  const t0 = Date.now();
  await lens.click();

  // The snapshots' queries in a quick pick: filter to the query and take it.
  const input = '.quick-input-widget .quick-input-box input';
  await waitForSelector(page, input, { what: 'the snapshot query pick' });
  const picks = ((await page.locator('.quick-input-list .monaco-list-row').allInnerTexts()) as string[]).map((s: string) => s.replace(/\s+/g, ' ').trim());
  t.diagnostic(`quick pick (first rows): ${JSON.stringify(picks.slice(0, 6))}`);
  await page.locator(input).fill(QUERY);
  await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: QUERY }).first().waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
  await press(page, 'Enter');

  // The HITL pause: a modal dialog with Approve and Reject that stays until answered (docs/vscode.md).
  const dialog = page.locator('.monaco-dialog-box').filter({ has: page.locator('.monaco-button', { hasText: /^Reject$/ }) }).first();
  await dialog.waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
  const question = (await dialog.innerText()).replace(/\s+/g, ' ').trim();
  t.diagnostic(`HITL question after ${Date.now() - t0} ms: ${JSON.stringify(question)}`);
  assert.match(question, /Approve/);
  t.diagnostic(`screenshot: ${await screenshot(page, 'run-hitl')}`);
  await dialog.locator('.monaco-button', { hasText: /^Reject$/ }).click();

  // The trace view: the run's outcome, its events, the failure highlighted.
  const rows = page.locator(`${VIEW} .monaco-list-row`);
  const outcome = rows.filter({ hasText: `${QUERY} · HUMAN_REJECTED` }).first();
  await outcome.waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
  t.diagnostic(`Run agent -> trace with its outcome: ${Date.now() - t0} ms`);
  const texts = ((await rows.allInnerTexts()) as string[]).map((s: string) => s.replace(/\s+/g, ' ').trim());
  t.diagnostic(`Agent Run view rows: ${JSON.stringify(texts.slice(0, 14))}`);
  assert.ok(texts.length >= 8, 'every event is a row');
  assert.ok((await page.locator(`${VIEW} .monaco-list-row .codicon-error`).count()) > 0, 'failures are highlighted');
  t.diagnostic(`screenshot: ${await screenshot(page, 'run-trace')}`);

  // An event that names a clause opens it in the contract: the cursor, put on line 1 first, moves
  // there (the HITL question's own reveal must not make this pass).
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await press(page, 'Control+Home');
  const line = async () => Number(/Ln (\d+)/.exec(await page.locator('[id="status.editor.selection"]').first().innerText().catch(() => ''))?.[1] ?? 0);
  await until('the cursor on line 1', async () => ((await line()) === 1 ? true : undefined));
  await outcome.click();
  await until('the contract shown at the clause', async () => ((await line()) > 1 ? true : undefined));

  // The trace file, as the CLI writes it.
  const runs = await readdir(join(workspace, '.agents-md', 'runs'));
  assert.equal(runs.length, 1, `one run folder: ${runs.join(', ')}`);
  const trace = (await readFile(join(workspace, '.agents-md', 'runs', runs[0]!, 'trace.jsonl'), 'utf8')).trim().split('\n');
  t.diagnostic(`trace file: ${trace.length} events, last ${JSON.parse(trace[trace.length - 1]!).event_type}`);
  const response = trace.map((l) => JSON.parse(l)).find((e) => e.event_type === 'human_response');
  assert.equal(response?.payload.decision, 'reject');
  assert.ok(response?.payload.decided_by, 'the trace names who decided');
  passed();
});

// The semantic diff in a real VS Code (docs/semantic-diff.md): a workspace that is a real git repository whose
// AGENTS.md was committed and then edited (test/diff-corpus/hitl: a HITL gate removed, one added,
// one renamed, triggers narrowed and widened...). From the command palette, "AGENTS.md: Show
// Semantic Diff" against HEAD fills the Semantic Diff view: the version advice, the section, the
// changes grouped by impact. A change opens its place in the contract; its sentence, cut in the
// row at side-bar width, shows whole and wrapped at the top of the view once the row is selected; the view's title button
// opens VS Code's text diff of the two versions (the older one read from git by the server). In a
// folder that is no git repository, an error says so and offers another file.
//
//   bash test/e2e/setup.sh                                   # once
//   node --import tsx --test test/e2e/diff.e2e.ts           # from the repo root
//
// Skips with the reason printed when the tools are not installed (E2E_REQUIRE=1 makes that a
// failure). Screenshots: test-results/e2e/diff-*.png.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import {
  DEFAULT_TIMEOUT_MS, e2eSkipReason, lineOf, openFileFromExplorer, packageRepoExtension, press, REPO_DIR, screenshot, startWorkbench, statusBarItem, until,
  waitForSelector, type Page,
} from './codeServer.ts';

const CASE_DIR = join(REPO_DIR, 'test', 'diff-corpus', 'hitl');
const NLS = JSON.parse(await readFile(join(REPO_DIR, 'package.nls.json'), 'utf8')) as Record<string, string>;
const VIEW = '.pane:has(.pane-header[aria-label*="Semantic Diff"])';

/** A git repository holding the case's before.md as AGENTS.md, committed, then its after.md in the working copy. */
async function gitWorkspace(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'e2e-diff-ws-'));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=E2E', '-c', 'user.email=e2e@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  await writeFile(join(dir, 'AGENTS.md'), await readFile(join(CASE_DIR, 'before.md'), 'utf8'));
  git('add', 'AGENTS.md');
  git('commit', '-q', '-m', 'v1');
  await writeFile(join(dir, 'AGENTS.md'), await readFile(join(CASE_DIR, 'after.md'), 'utf8'));
  return dir;
}

const skip = e2eSkipReason();

/** "Show Semantic Diff" from the command palette, then "HEAD" in its quick pick. */
async function diffAgainstHead(page: Page): Promise<void> {
  await press(page, 'F1');
  const input = '.quick-input-widget .quick-input-box input';
  await waitForSelector(page, input, { what: 'command palette' });
  await page.locator(input).fill(`>${NLS['command.category']}: ${NLS['command.showSemanticDiff.title']}`);
  await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: NLS['command.showSemanticDiff.title']! }).first().waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
  await press(page, 'Enter');
  const head = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: /^HEAD/ }).first();
  await head.waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
  await head.click();
}

test('e2e diff: Show Semantic Diff against HEAD fills the view, links to the contract and opens the text diff', { skip, timeout: 420_000 }, async (t: TestContext) => {
  const { vsix, ms: packageMs } = await packageRepoExtension();
  t.diagnostic(`npm run package: ${packageMs} ms -> ${vsix}`);
  const workspace = await gitWorkspace();
  t.after(() => rm(workspace, { recursive: true, force: true }));
  const { page, passed } = await startWorkbench(t, 'diff', {
    workspaceDir: workspace, extensions: [vsix],
    settings: { 'editor.minimap.enabled': false, 'agentsMd.trace.server': 'messages', 'git.enabled': false },
  });
  await openFileFromExplorer(page, 'AGENTS.md');
  await waitForSelector(page, '.editor-instance .monaco-editor .view-lines', { what: 'AGENTS.md in the editor' });
  // The extension's status item: its commands are known to the palette by then (a palette opened
  // before the extension is registered never lists them, even once it is).
  await statusBarItem(page, 'AGENTS.md').first().waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });

  // The command from the palette, then "HEAD" in its quick pick.
  const t0 = Date.now();
  await diffAgainstHead(page);

  // The view: advice, section, impact groups, changes.
  const rows = page.locator(`${VIEW} .monaco-list-row`);
  const removed = rows.filter({ hasText: 'New vendor' }).first();
  await removed.waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
  t.diagnostic(`command -> diff view filled: ${Date.now() - t0} ms`);
  // Room for every group, as a user makes it: collapse the Agent Run view above (the tree only
  // renders the rows it shows).
  const runHeader = page.locator('.part.sidebar .pane-header[aria-label^="Agent Run"]').first();
  if ((await runHeader.getAttribute('aria-expanded')) === 'true') await runHeader.click();
  await rows.filter({ hasText: /^neutral/ }).first().waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
  const texts = ((await rows.allInnerTexts()) as string[]).map((s: string) => s.replace(/\s+/g, ' ').trim());
  t.diagnostic(`Semantic Diff view rows: ${JSON.stringify(texts)}`);
  assert.ok(texts.some((s) => /HUMAN_IN_THE_LOOP/.test(s)), 'the section is a group');
  // Removing or weakening a human sign-off is breaking by default (docs/semantic-diff.md, "Diff policy").
  for (const impact of ['breaking', 'risk-reducing', 'neutral']) assert.ok(texts.some((s) => s.startsWith(impact)), `an impact group ${impact}`);
  assert.ok(texts.some((s) => /major/.test(s)), 'the version advice names the bump the changes need (a removed sign-off is breaking)');
  const message = (await page.locator(`${VIEW} .message, ${VIEW} .tree-explorer-viewlet-tree-view-message`).first().innerText().catch(() => '')).trim();
  t.diagnostic(`view message: ${JSON.stringify(message)}`);
  assert.match(message, /10 semantic changes/);
  t.diagnostic(`screenshot: ${await screenshot(page, 'diff-view')}`);

  // A change opens its place in the contract: the cursor moves to the added gate's row. (Checking
  // for any selected or current line passed by accident: line 1 is current before any click.)
  const after = await readFile(join(CASE_DIR, 'after.md'), 'utf8');
  const cursorLine = async () => Number(/Ln (\d+)/.exec(await statusBarItem(page, /Ln \d+, Col \d+/).first().innerText())?.[1]);
  const gate = lineOf(after, '| Contract change |').line;
  assert.notEqual(await cursorLine(), gate, 'the cursor is not on the gate before the click');
  await rows.filter({ hasText: 'Contract change' }).first().click();
  await until(`the cursor on line ${gate}, the added gate`, async () => ((await cursorLine()) === gate ? true : undefined));
  // A removed gate's row opens the table it was removed from.
  const table = lineOf(after, '| Scenario |').line;
  await rows.filter({ hasText: 'New vendor' }).first().click();
  const at = await until('the cursor moves for the removed gate', async () => { const l = await cursorLine(); return l !== gate ? l : undefined; });
  t.diagnostic(`removed gate's row -> line ${at}; the HITL table starts at line ${table}`);
  assert.ok(at >= table - 2 && at <= table + 8, `the removed gate's row opens the HITL table (line ${at})`);

  // At side-bar width a change's sentence does not fit its row: the row selected (by that click),
  // the whole sentence shows wrapped in the view, above its rows.
  const row = rows.filter({ hasText: 'New vendor' }).first();
  const full = ((await row.locator('.label-name').first().textContent()) ?? '').trim();
  const cut = await row.locator('.monaco-icon-label-container').first().evaluate((el: any) => el.scrollWidth > el.clientWidth);
  t.diagnostic(`the removed gate's row: ${JSON.stringify(full)}; cut at the row's width: ${cut}`);
  const shown = page.locator(`${VIEW} .message`).first();
  const details = await until('the selected change\'s sentence in the view', async () => { const text = (await shown.innerText().catch(() => '')).replace(/\s+/g, ' ').trim(); return text.includes(full) ? text : undefined; });
  t.diagnostic(`view message with a change selected: ${JSON.stringify(details)}`);
  const [box, pane] = [await shown.boundingBox(), await page.locator(VIEW).first().boundingBox()];
  assert.ok(box && pane && box.x >= pane.x && box.x + box.width <= pane.x + pane.width + 1, 'the sentence wraps within the side bar');
  t.diagnostic(`screenshot: ${await screenshot(page, 'diff-selected')}`);

  // The view's title button: VS Code's text diff of HEAD and the working copy.
  await page.locator(`${VIEW} .pane-header`).hover();
  await page.locator(`${VIEW} .actions [aria-label="${NLS['command.openTextDiff.title']}"]`).first().click();
  await waitForSelector(page, '.editor-instance .monaco-diff-editor', { what: 'the text diff editor' });
  const tab = (await page.locator('.tabs-container .tab.active').first().innerText()).trim();
  t.diagnostic(`text diff tab: ${JSON.stringify(tab)}`);
  assert.match(tab, /AGENTS\.md/);
  await until('the diff editor shows both versions', async () => ((await page.locator('.monaco-diff-editor .line-insert, .monaco-diff-editor .char-insert').count()) > 0 ? true : undefined));
  t.diagnostic(`screenshot: ${await screenshot(page, 'diff-text')}`);
  passed();
});

test('e2e diff: against HEAD in a folder that is no git repository, an error says so and offers another file', { skip, timeout: 300_000 }, async (t: TestContext) => {
  // A fresh tester followed the walkthrough from an empty folder: HEAD did nothing visible.
  const { vsix } = await packageRepoExtension();
  const workspace = await mkdtemp(join(tmpdir(), 'e2e-diff-nogit-'));
  t.after(() => rm(workspace, { recursive: true, force: true }));
  await writeFile(join(workspace, 'AGENTS.md'), await readFile(join(CASE_DIR, 'after.md'), 'utf8'));
  const { page, passed } = await startWorkbench(t, 'diff-nogit', { workspaceDir: workspace, extensions: [vsix], settings: { 'editor.minimap.enabled': false, 'git.enabled': false } });
  await openFileFromExplorer(page, 'AGENTS.md');
  await statusBarItem(page, 'AGENTS.md').first().waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
  await diffAgainstHead(page);
  const toast = page.locator('.notification-toast').filter({ hasText: /not inside a git repository/ }).first();
  await toast.waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
  const text = (await toast.innerText()).replace(/\s+/g, ' ').trim();
  t.diagnostic(`toast: ${JSON.stringify(text)}; screenshot: ${await screenshot(page, 'diff-nogit')}`);
  assert.match(text, /AGENTS\.md is not inside a git repository/);
  assert.ok(await toast.locator('.monaco-button').filter({ hasText: 'Another file…' }).count(), 'the toast offers another file');
  passed();
});

test('e2e diff: with no contract editor open (the walkthrough, a view in focus), Show Semantic Diff finds the contract in the workspace', { skip, timeout: 300_000 }, async (t: TestContext) => {
  // A fresh tester: from walkthrough step 5, or with the Agent Run view in focus, the command did nothing.
  const { vsix } = await packageRepoExtension();
  const workspace = await gitWorkspace();
  t.after(() => rm(workspace, { recursive: true, force: true }));
  const { page, passed } = await startWorkbench(t, 'diff-noeditor', { workspaceDir: workspace, extensions: [vsix], settings: { 'editor.minimap.enabled': false, 'git.enabled': false } });
  // The extension starts on a workspace holding a contract; its status item shows only once a
  // contract is open, and a palette opened before the extension registered never lists its commands:
  // open the palette again until it does.
  const input = '.quick-input-widget .quick-input-box input';
  await until('Show Semantic Diff in the command palette', async () => {
    await press(page, 'F1');
    await waitForSelector(page, input, { what: 'command palette' });
    await page.locator(input).fill(`>${NLS['command.category']}: ${NLS['command.showSemanticDiff.title']}`);
    const listed = await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: NLS['command.showSemanticDiff.title']! }).count();
    await press(page, 'Escape');
    return listed > 0 ? true : undefined;
  }, 2 * DEFAULT_TIMEOUT_MS);
  await diffAgainstHead(page);
  const rows = page.locator(`${VIEW} .monaco-list-row`);
  await rows.filter({ hasText: 'New vendor' }).first().waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
  t.diagnostic(`screenshot: ${await screenshot(page, 'diff-noeditor')}`);
  assert.equal(await page.locator('.editor-instance .monaco-editor .view-lines').count(), 0, 'no editor was open');
  passed();
});

test('e2e diff: from the editor title and from the Explorer\'s context menu, Show Semantic Diff asks what to compare with and fills the view', { skip, timeout: 420_000 }, async (t: TestContext) => {
  // A fresh tester: the editor title's button and the Explorer's menu passed VS Code's second
  // argument (the editor group, the selected files) on as the comparison, and the server refused it.
  const { vsix } = await packageRepoExtension();
  const workspace = await gitWorkspace();
  t.after(() => rm(workspace, { recursive: true, force: true }));
  const { page, passed } = await startWorkbench(t, 'diff-menus', { workspaceDir: workspace, extensions: [vsix], settings: { 'editor.minimap.enabled': false, 'git.enabled': false } });
  await openFileFromExplorer(page, 'AGENTS.md');
  await statusBarItem(page, 'AGENTS.md').first().waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
  const title = NLS['command.showSemanticDiff.title']!;
  const rows = page.locator(`${VIEW} .monaco-list-row`);
  const headPick = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: /^HEAD/ }).first();
  const refused = page.locator('.notification-toast').filter({ hasText: /Invalid params|must be of type/ });

  // The editor title's button.
  const button = page.locator(`.editor-actions .action-label[aria-label*="${title}"]`).first();
  await button.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
  await button.click();
  await headPick.waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
  await headPick.click();
  await rows.filter({ hasText: 'New vendor' }).first().waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
  assert.equal(await refused.count(), 0, 'no error from the server');
  t.diagnostic(`screenshot: ${await screenshot(page, 'diff-menus-title')}`);

  // The Explorer's context menu on the contract (the diff view took the side bar: back to the Explorer).
  await press(page, 'Control+Shift+E');
  await page.locator('.explorer-folders-view .monaco-list-row').filter({ hasText: 'AGENTS.md' }).first().click({ button: 'right' });
  const item = page.locator('.monaco-menu .action-item .action-label').filter({ hasText: title }).first();
  await item.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
  t.diagnostic(`screenshot: ${await screenshot(page, 'diff-menus-explorer')}`);
  await item.click();
  await headPick.waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
  t.diagnostic(`screenshot: ${await screenshot(page, 'diff-menus-explorer-pick')}`);
  await headPick.click();
  await rows.filter({ hasText: 'New vendor' }).first().waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
  assert.equal(await refused.count(), 0, 'no error from the server');
  passed();
});

// The editor as a user lives in it, in a real VS Code (code-server + headless Chromium): every step
// clicks or types what a user would and asserts what a user sees (docs/vscode.md).
//
//   node --import tsx --test test/e2e/editor.e2e.ts           # from the repo root
//
// E2E_VSIX=path.vsix tests a given package instead of `npm run package` (to show a test failing on
// an older build). Skips with the reason printed when the tools are not installed (E2E_REQUIRE=1
// makes that a failure). Screenshots: test-results/e2e/editor-*.png.
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import {
  DEFAULT_TIMEOUT_MS, e2eSkipReason, findFiles, openFileFromExplorer, outputChannelText, packageRepoExtension, press, REPO_DIR, screenshot, startWorkbench,
  statusBarItem, until, waitForSelector,
} from './codeServer.ts';

const CHANNEL = 'AGENTS.md Contracts';
const WATCHED = "Sending notification 'workspace/didChangeWatchedFiles'";
const skip = e2eSkipReason();
/** How long the test waits for code-server's file watcher to report a save. */
const WATCHER_WAIT_MS = 3 * DEFAULT_TIMEOUT_MS;

let vsixPromise: Promise<string> | undefined;
/** The .vsix under test, packaged once for all tests of this file. */
const vsix = (t: TestContext) =>
  (vsixPromise ??= packageRepoExtension().then(({ vsix: v, ms }) => (t.diagnostic(`npm run package: ${ms} ms`), v)));

/** A workspace with a copy of `sample` (a folder under samples/) and `extra` files. */
async function workspace(t: TestContext, sample: string, extra: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'e2e-editor-ws-'));
  await cp(join(REPO_DIR, 'samples', sample), dir, { recursive: true });
  for (const [name, text] of Object.entries(extra)) await writeFile(join(dir, name), text);
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** How many times the language client's trace (agentsMd.trace.server = messages) logged `what`. */
async function logged(server: { userDataDir: string }, what: string): Promise<number> {
  return ((await outputChannelText(server, CHANNEL)) ?? '').split(what).length - 1;
}

/** The lines of code-server's server log about its file watcher (errors show there). */
async function watcherLog(server: { userDataDir: string }): Promise<string[]> {
  const logs = await findFiles(join(server.userDataDir, 'logs'), /remoteagent\.log$/);
  const text = (await Promise.all(logs.map((f) => readFile(f, 'utf8')))).join('\n');
  return text.split('\n').filter((l) => /watch/i.test(l)).slice(-10);
}

test('e2e editor: with autosave, saving keeps every problem on screen; a README and a free-form AGENTS.md stay plain Markdown', { skip, timeout: 900_000 }, async (t: TestContext) => {
  const README = '# Demo\n\n## Tools\n\nHello {{user_name}}, see the tools below.\n\n## Other\n';
  const freeform = (await readFile(join(REPO_DIR, 'samples', 'coding-agent', 'AGENTS.md'), 'utf8')).replace('## Project overview', '## Project overview\n\nGreet {{user_name}} first.');
  const dir = await workspace(t, 'broken', { 'README.md': README });
  await cp(join(REPO_DIR, 'samples', 'coding-agent'), join(dir, 'free'), { recursive: true });
  await writeFile(join(dir, 'free', 'AGENTS.md'), freeform);
  const { page, server, passed } = await startWorkbench(t, 'editor-save', {
    workspaceDir: dir, extensions: [await vsix(t)],
    settings: { 'editor.minimap.enabled': false, 'agentsMd.trace.server': 'messages', 'agentsMd.versionAdvice': false, 'files.autoSave': 'afterDelay', 'files.autoSaveDelay': 300 },
  });
  await openFileFromExplorer(page, 'AGENTS.md');
  const status = statusBarItem(page, 'AGENTS.md');
  await until('the status bar counts the contract problems', async () => ((await status.locator('.codicon-error').count()) > 0 ? true : undefined), 2 * DEFAULT_TIMEOUT_MS);
  await press(page, 'Control+Shift+M');
  const markers = page.locator('.markers-panel .monaco-list-row:has(.marker-code)');
  await until('the Problems panel lists problems', async () => ((await markers.count()) > 5 ? true : undefined));
  const before = await status.innerText();
  t.diagnostic(`status bar before saving: ${JSON.stringify(before)}; problems listed: ${await markers.count()}`);

  // Watch, in the page, whether the problems ever leave the screen: the status bar showing a pass
  // mark or the Problems panel emptying.
  // (A string: functions passed to the page would carry the test bundler's helpers.)
  await page.evaluate(`(() => {
    window.vanished = [];
    const check = () => {
      const item = [...document.querySelectorAll('#workbench\\\\.parts\\\\.statusbar .statusbar-item')].find((e) => e.innerText.includes('AGENTS.md'));
      if (item && item.querySelector('.codicon-pass')) window.vanished.push('status: ' + item.innerText);
      if (document.querySelectorAll('.markers-panel .monaco-list-row').length === 0) window.vanished.push('problems panel empty');
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
  })()`);

  // Two edits, each saved by autosave. The file watcher's report of the saves is what used to
  // empty the Problems panel; the test waits for it. code-server's watcher reports within a second
  // here, but on a CI machine once not in 8 minutes: past WATCHER_WAIT_MS the test says so (with
  // what the watcher logged) and asserts the rest. test/lspEditor.test.ts sends that report itself.
  const editor = page.locator('.editor-instance .monaco-editor .view-lines').first();
  await editor.click();
  const dirty = '.tabs-container .tab.active.dirty';
  const watched = await logged(server, WATCHED);
  for (let i = 1; i <= 2; i++) {
    await press(page, 'Control+End');
    await page.keyboard.type(`\nA note ${i}.`);
    await waitForSelector(page, dirty, { state: 'hidden', what: `autosave ${i}` });
  }
  const saved = Date.now();
  const reported = await until('the file watcher reports the saves', async () => ((await logged(server, WATCHED)) > watched ? true : undefined), WATCHER_WAIT_MS).catch(() => false);
  t.diagnostic(reported ? `the file watcher reported the saves after ${Date.now() - saved} ms`
    : `the file watcher did not report the saves in ${WATCHER_WAIT_MS} ms (this machine's watcher; what it logged: ${JSON.stringify(await watcherLog(server))}); the rest is asserted without it`);
  // One more edit: its diagnostics answer after whatever the saves caused.
  const pulls = await logged(server, "Received response 'textDocument/diagnostic");
  await press(page, 'Control+End');
  await page.keyboard.type('\nLast note.');
  await until('the diagnostics of the last edit', async () => ((await logged(server, "Received response 'textDocument/diagnostic")) > pulls ? true : undefined));
  await waitForSelector(page, dirty, { state: 'hidden', what: 'the last autosave' });
  const vanished: string[] = await page.evaluate('window.vanished');
  t.diagnostic(`screenshot: ${await screenshot(page, 'editor-saved')}`);
  const refreshes = await logged(server, "Received request 'workspace/diagnostic/refresh'");
  t.diagnostic(`after the saves: status ${JSON.stringify(await status.innerText())}, problems ${await markers.count()}, refreshes asked by the server ${refreshes}`);
  assert.deepEqual(vanished.slice(0, 5), [], 'the problems left the screen while saving');
  assert.equal(refreshes, 0, 'a save made the server ask for every file again');

  // A README: Markdown's colours, ours nowhere; no contract status.
  const tokenClasses = async (text: string) =>
    page.locator('.editor-instance .monaco-editor .view-line span span').filter({ hasText: text }).first().getAttribute('class');
  await openFileFromExplorer(page, 'README.md');
  await page.locator('.editor-instance .monaco-editor .view-line').filter({ hasText: 'Hello' }).first().waitFor({ state: 'visible' });
  const [variable, prose, tools, other] = [await tokenClasses('user_name'), await tokenClasses('Hello'), await tokenClasses('Tools'), await tokenClasses('Other')];
  t.diagnostic(`README token classes: {{user_name}} ${variable}, prose ${prose}, "Tools" ${tools}, "Other" ${other}`);
  assert.equal(variable, prose, '{{user_name}} is coloured like the prose around it');
  assert.equal(tools, other, '## Tools is styled as any other heading');
  assert.equal(await status.count(), 0, 'no AGENTS.md status item on a README');

  // A free-form AGENTS.md: the server is asked and says it is no contract.
  const asked = await logged(server, "Received response 'agentsMd/documentKind");
  // Through the explorer, as a user would (Quick Open was not reliable here): expand `free`, then
  // open its AGENTS.md, the first row of that name once the folder is open above the root's.
  await page.locator('.explorer-folders-view .monaco-list-row[aria-label="free"]').first().click();
  await page.locator('.explorer-folders-view .monaco-list-row[aria-label="AGENTS.md"]').nth(1).waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
  await page.locator('.explorer-folders-view .monaco-list-row[aria-label="AGENTS.md"]').first().dblclick();
  await page.locator('.editor-instance .monaco-editor .view-line').filter({ hasText: 'Greet' }).first().waitFor({ state: 'visible' });
  await until('the server says whether the free-form file is a contract', async () => ((await logged(server, "Received response 'agentsMd/documentKind")) > asked ? true : undefined));
  const [greetVar, greet] = [await tokenClasses('user_name'), await tokenClasses('Greet')];
  t.diagnostic(`free-form token classes: {{user_name}} ${greetVar}, prose ${greet}; status items: ${await status.count()}`);
  t.diagnostic(`screenshot: ${await screenshot(page, 'editor-freeform')}`);
  assert.equal(greetVar, greet);
  assert.equal(await status.count(), 0, 'no AGENTS.md status item on a free-form AGENTS.md');
  passed();
});

// The Contracts overview in a real VS Code (docs/workspace.md, "In the editor"): a generated
// workspace of 20 contracts (bench/generateWorkspace.ts, every cross-contract fault) opened in
// code-server. The Agent Contracts side bar's Contracts view opens the overview with the mouse, as
// a user does; the webview shows the coverage matrix of every contract and the resource-pin-drift
// finding; a click on the finding opens the drifting contract at the pin's line, a click on a
// contract's row opens it at line 1, Enter on a focused finding opens it; the drift fixed on disk
// leaves the page by itself; a folder deleted on disk takes its contract out of the overview and
// the Problems panel, and comes back when the folder is moved in again; before anything is opened,
// the status bar counts every contract's problems. Screenshots
// test-results/e2e/contracts-*.png (contracts-opened.png becomes docs/images/contracts-overview.png
// with UPDATE_DOCS_IMAGES=1).
//
//   bash test/e2e/setup.sh                                   # once
//   node --import tsx --test test/e2e/contracts.e2e.ts      # from the repo root
//
// Skips with the reason printed when the tools are not installed (E2E_REQUIRE=1 makes that a failure).
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { DEFAULT_TIMEOUT_MS, e2eSkipReason, packageRepoExtension, REPO_DIR, screenshot, startWorkbench, until } from './codeServer.ts';
import { contractPath, FAULTS, generateWorkspace, LINES } from '../../bench/generateWorkspace.ts';

const N = 20;
const skip = e2eSkipReason();

test('e2e Contracts overview: opened from the side bar, the matrix and a cross-contract finding, clicks open the contract at the line', { skip, timeout: 480_000 }, async (t: TestContext) => {
  const { vsix, ms: packageMs } = await packageRepoExtension();
  t.diagnostic(`npm run package: ${packageMs} ms -> ${vsix}`);
  const workspace = await mkdtemp(join(tmpdir(), 'e2e-contracts-ws-'));
  t.after(() => rm(workspace, { recursive: true, force: true }));
  for (const [path, text] of Object.entries(generateWorkspace(N))) {
    await mkdir(dirname(join(workspace, path)), { recursive: true });
    await writeFile(join(workspace, path), text);
  }
  const drifting = contractPath(FAULTS.resourceDrift);
  const { page, passed } = await startWorkbench(t, 'contracts', {
    workspaceDir: workspace, extensions: [vsix],
    settings: { 'editor.minimap.enabled': false, 'agentsMd.versionAdvice': false, 'workbench.tips.enabled': false },
  });
  await page.setViewportSize({ width: 1600, height: 1000 });

  // No contract opened yet: the Problems count in the status bar already has every contract's.
  const problemsItem = page.locator('[id="status.problems"]').first();
  const t00 = Date.now();
  const counted = await until('the status bar counts problems with no contract open', async () => {
    const label = (await problemsItem.getAttribute('aria-label').catch(() => null)) ?? '';
    return /Errors: [1-9]/.test(label) ? label : undefined;
  }, 2 * DEFAULT_TIMEOUT_MS);
  t.diagnostic(`with no file open: "${counted}" after ${Date.now() - t00} ms`);

  // The Agent Contracts side bar, the Contracts view (collapsed by default, so that the Agent Run
  // and Semantic Diff views keep their room), then its button: all with the mouse.
  await page.locator('.activitybar [aria-label*="Agent Contracts"]').first().click();
  const header = page.locator('.part.sidebar .pane-header[aria-label^="Contracts"]').first();
  await header.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
  assert.equal(await header.getAttribute('aria-expanded'), 'false', 'the Contracts view starts collapsed');
  await header.click();
  const button = page.locator('.part.sidebar .welcome-view-content .monaco-button', { hasText: 'Show Contracts Overview' }).first();
  await button.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
  t.diagnostic(`screenshot: ${await screenshot(page, 'contracts-sidebar')}`);
  await button.click();

  // The overview: a webview (two nested frames in code-server) with the report of every contract.
  const view = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
  await view.locator('h1', { hasText: 'Contracts report' }).waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
  const cells = await view.locator('svg').first().locator('rect[rx="3"]').count();
  t.diagnostic(`matrix cells: ${cells}; summary: ${(await view.locator('body > p').first().innerText()).trim()}`);
  assert.equal(cells, N * 6, 'a row of six clauses per contract');
  const drift = view.locator('li[data-uri]', { hasText: `${drifting}:` }).filter({ hasText: 'resource-pin-drift' }).first();
  await drift.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
  const finding = (await drift.innerText()).trim();
  t.diagnostic(`finding: ${finding}`);
  const line = Number(new RegExp(`^${drifting}:(\\d+) `).exec(finding)?.[1]);
  assert.ok(line > 1, finding);
  // The theme's colours, not the file page's: the page's text is the workbench's foreground.
  const [fg, workbenchFg] = [await view.locator('body').evaluate((b: any) => b.ownerDocument.defaultView.getComputedStyle(b).color), await page.locator('.monaco-workbench').evaluate((b: any) => b.ownerDocument.defaultView.getComputedStyle(b).color)];
  t.diagnostic(`page text ${fg}, workbench text ${workbenchFg}`);
  assert.equal(fg, workbenchFg);
  t.diagnostic(`screenshot: ${await screenshot(page, 'contracts-overview')}`);

  // A click on the finding opens the drifting contract at the pin, beside the overview.
  const cursorLine = async () => Number(/Ln (\d+)/.exec(await page.locator('[id="status.editor.selection"]').first().innerText().catch(() => ''))?.[1] ?? 0);
  // The breadcrumbs of the editor groups (the overview's group has none): the opened file's folders.
  const crumbs = async () => (await page.locator('.breadcrumbs-control .monaco-breadcrumb-item').allInnerTexts().catch(() => [] as string[])).map((x: string) => x.trim()).join('/');
  const seen = async () => `now line ${await cursorLine()}, breadcrumbs ${JSON.stringify(await crumbs())}`;
  await drift.click();
  const [dir] = drifting.split('/AGENTS.md');
  await until(`${drifting} open at line ${line}`, async () => ((await cursorLine()) === line && (await crumbs()).includes(dir!.split('/').pop()!) ? true : undefined)).catch(async (e) => assert.fail(`${(e as Error).message}; ${await seen()}`));
  // The pin's line wraps: a part of the SHA-256 is enough.
  const shown = await page.locator('.editor-instance .monaco-editor .view-line').filter({ hasText: /[0-9a-f]{24}/ }).count();
  t.diagnostic(`breadcrumbs: ${await crumbs()}; pin lines on screen: ${shown}`);
  assert.ok(shown > 0, 'the pinned SHA-256 is on screen');
  t.diagnostic(`screenshot: ${await screenshot(page, 'contracts-opened')}`);
  if (process.env.UPDATE_DOCS_IMAGES === '1') await copyFile(join(REPO_DIR, 'test-results', 'e2e', 'contracts-opened.png'), join(REPO_DIR, 'docs', 'images', 'contracts-overview.png'));

  // A click on a contract's row (the versions table) opens that contract at line 1.
  const other = contractPath(2);
  await view.locator('td[data-uri]', { hasText: other }).first().click();
  await until(`${other} open at line 1`, async () => ((await cursorLine()) === 1 && (await crumbs()).includes('agent_002') ? true : undefined)).catch(async (e) => assert.fail(`${(e as Error).message}; ${await seen()}`));

  // The keyboard: Enter on a focused finding (keys go to the webview's frame) opens it too.
  const conflict = view.locator('li[data-uri]').filter({ hasText: 'agent-name-conflict' }).first();
  const conflictText = (await conflict.innerText()).trim();
  const [conflictPath, conflictLine] = /^(\S+):(\d+) /.exec(conflictText)!.slice(1) as [string, string];
  await conflict.focus();
  await conflict.press('Enter');
  const folder = conflictPath.split('/').at(-2)!;
  await until(`${conflictPath} open at line ${conflictLine} by Enter`, async () => ((await cursorLine()) === Number(conflictLine) && (await crumbs()).includes(folder) ? true : undefined)).catch(async (e) => assert.fail(`${(e as Error).message}; ${await seen()}`));

  // The drift fixed on disk: the page is made again without the finding.
  const good = /[0-9a-f]{64}/.exec(await readFile(join(workspace, contractPath(FAULTS.resourceDrift % LINES.length)), 'utf8'))![0];
  const text = await readFile(join(workspace, drifting), 'utf8');
  await writeFile(join(workspace, drifting), text.replace(/[0-9a-f]{64}/, good));
  await until('the drift gone from the overview', async () => ((await view.locator('li[data-uri]').filter({ hasText: 'resource-pin-drift' }).count()) === 0 ? true : undefined), 2 * DEFAULT_TIMEOUT_MS);
  t.diagnostic(`screenshot: ${await screenshot(page, 'contracts-refreshed')}`);

  // A folder deleted on disk (rm -rf): its contract leaves the overview and the Problems panel,
  // which lists it before (side-effect-tool-ungated). VS Code reports the folder, not the file in it.
  const gone = contractPath(FAULTS.ungatedTool[0]!);
  const goneDir = gone.replace(/\/AGENTS\.md$/, '');
  await page.locator('[id="status.problems"]').first().click();
  const problemRows = page.locator('.markers-panel .monaco-list-row').filter({ hasText: goneDir.split('/').pop()! });
  await until(`Problems lists ${gone}`, async () => ((await problemRows.count()) > 0 ? true : undefined), 2 * DEFAULT_TIMEOUT_MS);
  const t0 = Date.now();
  await rm(join(workspace, goneDir), { recursive: true });
  await until(`${gone} gone from the overview`, async () => ((await view.locator('td[data-uri]', { hasText: gone }).count()) === 0 ? true : undefined), DEFAULT_TIMEOUT_MS);
  t.diagnostic(`the deleted folder's contract left the overview after ${Date.now() - t0} ms`);
  assert.equal(await view.locator('svg').first().locator('rect[rx="3"]').count(), (N - 1) * 6, 'a row less in the matrix');
  await until(`${gone} gone from Problems`, async () => ((await problemRows.count()) === 0 ? true : undefined), DEFAULT_TIMEOUT_MS);
  t.diagnostic(`… and Problems after ${Date.now() - t0} ms; screenshot: ${await screenshot(page, 'contracts-folder-deleted')}`);

  // The folder moved back in (mv from outside the workspace): VS Code reports the folder alone.
  const outside = await mkdtemp(join(tmpdir(), 'e2e-contracts-outside-'));
  t.after(() => rm(outside, { recursive: true, force: true }));
  const generated = generateWorkspace(N);
  await mkdir(join(outside, 'agent'), { recursive: true });
  await writeFile(join(outside, 'agent', 'AGENTS.md'), generated[gone]!);
  const t1 = Date.now();
  await rename(join(outside, 'agent'), join(workspace, goneDir));
  await until(`${gone} back in the overview`, async () => ((await view.locator('td[data-uri]', { hasText: gone }).count()) > 0 ? true : undefined), DEFAULT_TIMEOUT_MS);
  await until(`${gone} back in Problems`, async () => ((await problemRows.count()) > 0 ? true : undefined), DEFAULT_TIMEOUT_MS);
  t.diagnostic(`the folder moved in: in the overview and Problems after ${Date.now() - t1} ms`);
  passed();
});

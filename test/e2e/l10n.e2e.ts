// The real extension in a real VS Code set to Simplified Chinese (docs/localisation.md): code-server started
// with `--locale zh-cn` and a minimal zh-cn language pack (without one VS Code stays in English
// offline, see README.md), so the extension sees `vscode.env.language === 'zh-cn'` and the
// LanguageClient sends that locale to the language server. samples/broken/AGENTS.md is opened from
// the explorer. Checked on the page: the manifest's command titles from package.nls.zh-cn.json in
// the command palette, Chinese diagnostics in the Problems panel, and a Chinese hover.
//
//   bash test/e2e/setup.sh                                   # once
//   node --import tsx --test test/e2e/l10n.e2e.ts           # from the repo root
//
// Skips with the reason printed when the tools are not installed (E2E_REQUIRE=1 makes that a
// failure). Screenshots: test-results/e2e/l10n-*.png. On failure the extension host's log and
// the language server's output channel are printed.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import {
  DEFAULT_TIMEOUT_MS, e2eSkipReason, goToLine, hoverOver, lineOf, openFileFromExplorer, packageExtension, packageRepoExtension, press,
  problemsWithCode, REPO_DIR, sampleWorkspace, screenshot, startWorkbench, waitForSelector, writeLanguagePackExtension,
} from './codeServer.ts';
import { format } from '../../server/src/service/l10n/format.ts';

const SAMPLE_DIR = join(REPO_DIR, 'samples', 'broken');
const EDITOR = '.editor-instance .monaco-editor';
const ZH_NLS = JSON.parse(await readFile(join(REPO_DIR, 'package.nls.zh-cn.json'), 'utf8')) as Record<string, string>;

const skip = e2eSkipReason();

test('e2e l10n: with --locale zh-cn the commands, diagnostics and hover are in Chinese', { skip, timeout: 420_000 }, async (t: TestContext) => {
  const { vsix, ms: packageMs } = await packageRepoExtension();
  t.diagnostic(`npm run package (minified bundles + vsce): ${packageMs} ms -> ${vsix}`);
  const packDir = await mkdtemp(join(tmpdir(), 'e2e-l10n-pack-'));
  t.after(() => rm(packDir, { recursive: true, force: true }));
  await writeLanguagePackExtension(join(packDir, 'zh-pack'), {
    languageId: 'zh-cn', languageName: 'Chinese Simplified', localizedLanguageName: '中文(简体)',
    contents: { 'vs/workbench/contrib/files/browser/explorerViewlet': { explore: '资源管理器' } },
  });
  const zhPack = await packageExtension(join(packDir, 'zh-pack'), join(packDir, 'e2e-zh-pack.vsix'));
  const sample = await readFile(join(SAMPLE_DIR, 'AGENTS.md'), 'utf8');
  const workspace = await sampleWorkspace(SAMPLE_DIR);
  t.after(() => rm(workspace, { recursive: true, force: true }));

  const { page, passed } = await startWorkbench(t, 'l10n', {
    workspaceDir: workspace, extensions: [vsix, zhPack], locale: 'zh-cn',
    settings: { 'editor.minimap.enabled': false, 'editor.hover.delay': 300, 'agentsMd.trace.server': 'messages' },
  });
  const sidebarTitle = (await page.locator('#workbench\\.parts\\.sidebar .title-label').first().innerText()).trim();
  assert.equal(sidebarTitle, '资源管理器', 'the workbench runs in zh-cn (the language pack is active)');

  await openFileFromExplorer(page, 'AGENTS.md');
  await waitForSelector(page, `${EDITOR} .squiggly-error, ${EDITOR} .squiggly-warning`, { what: 'squiggle of a diagnostic', timeoutMs: 2 * DEFAULT_TIMEOUT_MS });

  // The manifest: command titles and category from package.nls.zh-cn.json.
  await press(page, 'F1');
  const input = '.quick-input-widget .quick-input-box input';
  await waitForSelector(page, input, { what: 'command palette' });
  await page.locator(input).fill(`>${ZH_NLS['command.category']}: ${ZH_NLS['command.showProblems.title']}`);
  const command = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: ZH_NLS['command.showProblems.title']! }).first();
  await command.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
  t.diagnostic(`command palette: ${JSON.stringify((await command.innerText()).trim())}`);
  await press(page, 'Enter'); // agentsMd.showProblems opens the Problems panel

  // The diagnostics: the server's messages in Chinese, as the service formats them in zh-cn.
  await waitForSelector(page, '.markers-panel', { what: 'Problems panel opened by the command' });
  const messages = await problemsWithCode(page, 'hitl-needs-fallback', 2);
  t.diagnostic(`hitl-needs-fallback in Problems: ${JSON.stringify(messages)}`);
  const expected = format('hitl-needs-fallback', { scenario: 'New vendor onboarding', sla: '24h' }, 'zh-cn');
  assert.ok(messages.some((m) => m.trim() === expected), `expected ${expected}`);
  t.diagnostic(`screenshot: ${await screenshot(page, 'l10n-problems')}`);

  // The hover on a field label: the schema's Chinese title and description.
  await page.locator(`${EDITOR} .view-lines`).first().click();
  const label = lineOf(sample, '**Side Effects**');
  await goToLine(page, label.line, label.column + 2);
  // The cursor's word highlight may split the label into spans ("Side", " Effects"): hover its first word.
  const hover = page.locator('.monaco-hover').filter({ hasText: 'side_effects' }).first();
  t.diagnostic(`hover shown by the ${(await hoverOver(page, label.line, 'Side', hover)).how}`);
  const hoverText = (await hover.innerText()).trim();
  t.diagnostic(`hover on **Side Effects**: ${JSON.stringify(hoverText.slice(0, 160))}…`);
  t.diagnostic(`screenshot: ${await screenshot(page, 'l10n-hover')}`);
  assert.match(hoverText, /^副作用 · side_effects/);
  assert.match(hoverText, /标签：Side Effects/);
  passed();
});

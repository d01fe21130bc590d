// Proof that the e2e setup works: a throwaway extension, packaged with vsce, installed in a real
// VS Code (code-server), shows its status bar item once a Markdown file is opened; and the same
// with `--locale zh-cn` and a minimal language pack, where the extension sees
// vscode.env.language === 'zh-cn' and its own l10n bundle.
//
//   bash test/e2e/setup.sh                                   # once
//   node --import tsx --test test/e2e/smoke.e2e.ts          # from the repo root
//
// Skips with the reason printed when the tools are not installed (E2E_REQUIRE=1 makes that a failure).
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import {
  DEFAULT_TIMEOUT_MS, e2eSkipReason, openBrowser, openFileFromExplorer, openWorkbench, packageExtension, processGroupMemoryMb,
  processesMemoryMb, screenshot, startCodeServer, statusBarItem, waitForSelector, writeLanguagePackExtension,
} from './codeServer.ts';

const STATUS_TEXT = 'E2E smoke ready';
const STATUS_TEXT_ZH = '端到端冒烟测试就绪';

/** A minimal CommonJS extension: one command, and a status bar item shown on activation. */
async function writeSmokeExtension(dir: string): Promise<void> {
  await mkdir(join(dir, 'l10n'), { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({
    name: 'e2e-smoke',
    displayName: 'E2E smoke',
    description: 'Throwaway extension for the e2e smoke test.',
    publisher: 'e2e-test',
    version: '0.0.1',
    license: 'MIT',
    engines: { vscode: '^1.90.0' },
    main: './extension.js',
    l10n: './l10n',
    // Activated by opening a Markdown file, so the status bar item proves that step too.
    activationEvents: ['onLanguage:markdown'],
    contributes: { commands: [{ command: 'e2eSmoke.hello', title: 'E2E Smoke: Hello' }] },
  }, null, 2));
  await writeFile(join(dir, 'extension.js'), `'use strict';
const vscode = require('vscode');
exports.activate = function activate(context) {
  context.subscriptions.push(vscode.commands.registerCommand('e2eSmoke.hello', () =>
    vscode.window.showInformationMessage('E2E smoke command ran (language ' + vscode.env.language + ')')));
  const item = vscode.window.createStatusBarItem('e2eSmoke.status', vscode.StatusBarAlignment.Left, 1000);
  item.name = 'E2E smoke';
  item.text = vscode.l10n.t(${JSON.stringify(STATUS_TEXT)}) + ' [' + vscode.env.language + ']';
  item.command = 'e2eSmoke.hello';
  item.show();
  context.subscriptions.push(item);
};
exports.deactivate = function deactivate() {};
`);
  await writeFile(join(dir, 'l10n', 'bundle.l10n.zh-cn.json'), JSON.stringify({ [STATUS_TEXT]: STATUS_TEXT_ZH }, null, 2));
  await writeFile(join(dir, 'README.md'), '# E2E smoke\n\nA throwaway extension built by test/e2e/smoke.e2e.ts.\n');
  await writeFile(join(dir, 'LICENSE'), 'MIT\n');
}

async function writeWorkspace(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'AGENTS.md'), '# Agents\n\nA Markdown file for the e2e smoke test.\n\n## Tools\n\n- read\n- write\n');
  await writeFile(join(dir, 'notes.txt'), 'not Markdown\n');
}

const skip = e2eSkipReason();
let buildPromise: Promise<{ root: string; smokeVsix: string; zhPackVsix: string; vsceMs: number }> | undefined;
/** Builds and packages the two extensions once for both tests. */
function build() {
  buildPromise ??= (async () => {
    const root = await mkdtemp(join(tmpdir(), 'e2e-smoke-'));
    await writeSmokeExtension(join(root, 'ext'));
    await writeLanguagePackExtension(join(root, 'zh-pack'), {
      languageId: 'zh-cn', languageName: 'Chinese Simplified', localizedLanguageName: '中文(简体)',
      contents: { 'vs/workbench/contrib/files/browser/explorerViewlet': { explore: '资源管理器' } },
    });
    await writeWorkspace(join(root, 'workspace'));
    const t0 = Date.now();
    const smokeVsix = await packageExtension(join(root, 'ext'), join(root, 'e2e-smoke.vsix'));
    const vsceMs = Date.now() - t0;
    const zhPackVsix = await packageExtension(join(root, 'zh-pack'), join(root, 'e2e-zh-pack.vsix'));
    return { root, smokeVsix, zhPackVsix, vsceMs };
  })();
  return buildPromise;
}
test.after(async () => { if (buildPromise) await rm((await buildPromise).root, { recursive: true, force: true }); });

/** Starts code-server with the given extensions, opens AGENTS.md, waits for the status bar item. */
async function runSmoke(t: TestContext, o: { shot: string; extensions: string[]; expectText: string; locale?: string }) {
  const { root } = await build();
  const t0 = Date.now();
  const server = await startCodeServer({ workspaceDir: join(root, 'workspace'), extensions: o.extensions, ...(o.locale ? { locale: o.locale } : {}) });
  t.after(() => server.stop());
  t.diagnostic(`code-server: extensions installed and /healthz up after ${Date.now() - t0} ms (spawn to /healthz ${server.startupMs} ms), port ${server.port}`);

  const browser = await openBrowser();
  t.after(() => browser.close());
  const { page } = browser;

  const workbenchMs = await openWorkbench(page, server.url);
  t.diagnostic(`workbench with explorer after ${workbenchMs} ms`);
  // Activation is onLanguage:markdown: nothing of the extension shows before the file is opened.
  assert.equal(await statusBarItem(page, o.expectText).count(), 0, 'status bar item shown before a Markdown file was opened');

  const t1 = Date.now();
  await openFileFromExplorer(page, 'AGENTS.md');
  const item = statusBarItem(page, o.expectText).first();
  await item.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
  t.diagnostic(`AGENTS.md opened and status bar item visible after ${Date.now() - t1} ms`);
  const statusText = (await item.innerText()).trim();

  // The item runs the extension's command: its notification proves the command is registered.
  await item.click();
  const toast = await waitForSelector(page, '.notifications-toasts .notification-toast', { what: 'notification of e2eSmoke.hello' });
  const toastText = (await toast.innerText()).trim();
  const sidebarTitle = (await page.locator('#workbench\\.parts\\.sidebar .title-label').first().innerText()).trim();
  t.diagnostic(`screenshot: ${await screenshot(page, o.shot)}`);
  t.diagnostic(`memory (PSS): code-server ${processGroupMemoryMb(server.pid)} MB, chromium ${processesMemoryMb(browser.userDataDir)} MB`);
  return { statusText, toastText, sidebarTitle };
}

test('e2e smoke: extension from a .vsix shows its status bar item in code-server', { skip, timeout: 240_000 }, async (t) => {
  const { smokeVsix, vsceMs } = await build();
  t.diagnostic(`vsce package: ${vsceMs} ms`);
  const r = await runSmoke(t, { shot: 'smoke', extensions: [smokeVsix], expectText: STATUS_TEXT });
  assert.equal(r.statusText, `${STATUS_TEXT} [en]`);
  assert.match(r.toastText, /E2E smoke command ran \(language en\)/);
  assert.match(r.sidebarTitle, /^explorer$/i);
});

// code-server --locale alone leaves VS Code in English (no language pack can be downloaded here);
// with a language pack installed (and languagepacks.json written by startCodeServer) the UI and
// the extension host switch to it.
test('e2e smoke: --locale zh-cn with a minimal language pack', { skip, timeout: 240_000 }, async (t) => {
  const { smokeVsix, zhPackVsix } = await build();
  const r = await runSmoke(t, { shot: 'smoke-zh-cn', extensions: [smokeVsix, zhPackVsix], expectText: STATUS_TEXT_ZH, locale: 'zh-cn' });
  assert.equal(r.statusText, `${STATUS_TEXT_ZH} [zh-cn]`, 'vscode.env.language and the extension l10n bundle');
  assert.match(r.toastText, /E2E smoke command ran \(language zh-cn\)/);
  assert.equal(r.sidebarTitle, '资源管理器', "the workbench's own strings come from the language pack");
});

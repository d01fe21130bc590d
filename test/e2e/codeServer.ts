// A small library for end-to-end tests in a real VS Code: code-server (run on the Node 24 binary
// from test/e2e/node_modules/node) driven by Debian's Chromium through playwright-core.
// Install its tools with `bash test/e2e/setup.sh`; README.md beside this file explains the setup.
//
// Nothing here is imported statically from test/e2e/node_modules: the root `npm test` type-checks
// this folder (tsconfig includes "test") before CI has run setup.sh, and a test must be able to
// skip with a reason when the tools are missing. playwright-core is loaded with createRequire.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, openSync, closeSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
// Types only (erased at run time). @ts-ignore: when test/e2e/node_modules is not installed the
// module is missing and these types fall back to `any`, so `tsc` at the root still passes.
// @ts-ignore
import type { BrowserContext, ElementHandle, Locator, Page } from 'playwright-core';
import type { TestContext } from 'node:test';

export type { BrowserContext, ElementHandle, Page };

export const E2E_DIR = dirname(fileURLToPath(import.meta.url));
export const REPO_DIR = resolve(E2E_DIR, '../..');
export const RESULTS_DIR = join(REPO_DIR, 'test-results', 'e2e');
export const NODE24_BIN_DIR = join(E2E_DIR, 'node_modules', 'node', 'bin');
export const NODE24 = join(NODE24_BIN_DIR, 'node');
export const CODE_SERVER_ENTRY = join(E2E_DIR, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
export const VSCE = join(E2E_DIR, 'node_modules', '@vscode', 'vsce', 'vsce');
export const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Default wait for one UI state (ms). Generous: on 2 cores the workbench takes 10-25 s to load and
 * the extension host 5-20 s more. E2E_TIMEOUT_MS overrides it.
 */
export const DEFAULT_TIMEOUT_MS = Number(process.env.E2E_TIMEOUT_MS) || 60_000;

/** Flags for Chromium on these machines (no network but the package registries). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** User settings that keep the workbench quiet and deterministic. */
export const QUIET_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'npm.fetchOnlinePackageInfo': false,
  'json.schemaDownload.enable': false,
};

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ------------------------------------------------------------------------------------------------
// Is the environment ready?

export interface EnvironmentStatus {
  ready: boolean;
  /** Why not, with what to run; undefined when ready. */
  reason?: string;
}

let cachedStatus: EnvironmentStatus | undefined;

/** Checks that code-server, Node 24, playwright-core and Chromium are installed (cheap; cached). */
export function environmentStatus(): EnvironmentStatus {
  if (cachedStatus) return cachedStatus;
  const fix = 'run `bash test/e2e/setup.sh`';
  const problems: string[] = [];
  if (process.platform !== 'linux') problems.push(`platform is ${process.platform}, these tests need Linux`);
  if (!existsSync(NODE24)) problems.push(`Node 24 not found at ${NODE24}`);
  else {
    const v = spawnSync(NODE24, ['--version'], { encoding: 'utf8' });
    if (v.status !== 0 || !v.stdout.startsWith('v24.')) problems.push(`${NODE24} --version gave ${JSON.stringify(v.stdout || v.stderr || v.error?.message)}`);
  }
  if (!existsSync(CODE_SERVER_ENTRY)) problems.push(`code-server not installed (${CODE_SERVER_ENTRY})`);
  else if (!existsSync(join(E2E_DIR, 'node_modules', 'code-server', 'lib', 'vscode', 'node_modules')))
    problems.push("code-server's postinstall has not run (lib/vscode/node_modules is missing)");
  if (!existsSync(VSCE)) problems.push(`@vscode/vsce not installed (${VSCE})`);
  if (!existsSync(join(E2E_DIR, 'node_modules', 'playwright-core', 'package.json'))) problems.push('playwright-core not installed');
  if (!existsSync(CHROMIUM)) problems.push(`Chromium not found at ${CHROMIUM} (Debian package chromium)`);
  cachedStatus = problems.length ? { ready: false, reason: `${problems.join('; ')}: ${fix}` } : { ready: true };
  return cachedStatus;
}

/**
 * For `test(name, { skip: e2eSkipReason() }, ...)`: the reason the environment is not ready
 * (printed), or false. With E2E_REQUIRE=1 a missing tool is an error instead of a skip, so a CI
 * that ran setup.sh cannot pass by skipping.
 */
export function e2eSkipReason(): string | false {
  const status = environmentStatus();
  if (status.ready) return false;
  if (process.env.E2E_REQUIRE === '1') throw new Error(`E2E_REQUIRE=1 but the e2e environment is not ready: ${status.reason}`);
  console.log(`# e2e tests skipped: ${status.reason}`);
  return `e2e environment not ready: ${status.reason}`;
}

// ------------------------------------------------------------------------------------------------
// Processes

/** An environment for code-server, vsce and friends: Node 24 first on PATH, no test-runner leftovers. */
function toolEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${NODE24_BIN_DIR}:${process.env.PATH ?? ''}`, ...extra };
  // `node --import tsx --test` leaves these for child processes; Node 24 running code-server must not inherit them.
  for (const k of ['NODE_OPTIONS', 'NODE_TEST_CONTEXT', 'NODE_CHANNEL_FD', 'TSX_TSCONFIG_PATH', 'VSCODE_IPC_HOOK_CLI', 'ELECTRON_RUN_AS_NODE'])
    delete env[k];
  return env;
}

interface RunResult { code: number | null; stdout: string; stderr: string }

function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? toolEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d));
    child.stderr!.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => {
      killGroup(child.pid, 'SIGKILL');
      reject(new Error(`timed out after ${opts.timeoutMs} ms: ${cmd} ${args.join(' ')}\n${stdout}\n${stderr}`));
    }, opts.timeoutMs ?? 120_000);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (code) => { clearTimeout(timer); resolvePromise({ code, stdout, stderr }); });
  });
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try { process.kill(-pid, signal); } catch { /* already gone */ }
}

function groupAlive(pid: number): boolean {
  try { process.kill(-pid, 0); return true; } catch { return false; }
}

/** Process groups started here and not yet stopped: killed if the test process exits early. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;
function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => { for (const g of liveGroups) killGroup(g, 'SIGKILL'); });
}

/**
 * Memory (MB) of every process in a process group: the sum of PSS (proportional set size, shared
 * pages split between the processes sharing them) from /proc/PID/smaps_rollup.
 */
export function processGroupMemoryMb(pgid: number): number {
  return sumPssMb((pgrp) => pgrp === pgid);
}

/** Memory (MB, PSS) of the processes whose command line contains `needle` (e.g. a profile dir). */
export function processesMemoryMb(needle: string): number {
  return sumPssMb((_pgrp, cmdline) => cmdline.includes(needle));
}

function sumPssMb(match: (pgrp: number, cmdline: string) => boolean): number {
  let kb = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // After "(comm) ": state ppid pgrp ...
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (!match(pgrp, cmdline)) continue;
      const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${name}/smaps_rollup`, 'utf8'));
      kb += Number(pss?.[1] ?? 0);
    } catch { /* the process ended meanwhile */ }
  }
  return Math.round(kb / 1024);
}

// ------------------------------------------------------------------------------------------------
// code-server

export interface StartCodeServerOptions {
  /** Folder to open; the returned url opens it. */
  workspaceDir: string;
  /** .vsix files installed with --install-extension into a fresh extensions dir. */
  extensions?: string[];
  /**
   * code-server --locale, e.g. 'zh-cn'. VS Code only switches to it (UI and vscode.env.language)
   * when a language pack for it is installed: pass one in `extensions` (see writeLanguagePacks).
   */
  locale?: string;
  /** Merged over QUIET_SETTINGS into the user settings.json. */
  settings?: Record<string, unknown>;
  /** Time allowed for /healthz to answer (default 60 s). */
  startTimeoutMs?: number;
  /** Keep the temporary dirs after stop() (also with E2E_KEEP=1). */
  keepDirs?: boolean;
}

export interface CodeServer {
  /** http://127.0.0.1:PORT/?folder=WORKSPACE */
  url: string;
  /** http://127.0.0.1:PORT/ */
  baseUrl: string;
  port: number;
  pid: number;
  userDataDir: string;
  extensionsDir: string;
  /** code-server's stdout and stderr. */
  logFile: string;
  /** Milliseconds from spawn to the first healthy /healthz. */
  startupMs: number;
  /** Stops the whole process group (SIGTERM, then SIGKILL after 5 s) and removes the temp dirs. */
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (the OS picks it; code-server binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePromise(port));
    });
  });
}

function tail(file: string, lines = 40): string {
  try { return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n'); } catch { return '(no log)'; }
}

export async function startCodeServer(opts: StartCodeServerOptions): Promise<CodeServer> {
  const status = environmentStatus();
  if (!status.ready) throw new Error(`e2e environment not ready: ${status.reason}`);
  const root = await mkdtemp(join(tmpdir(), 'e2e-code-server-'));
  const userDataDir = join(root, 'user-data');
  const extensionsDir = join(root, 'extensions');
  const xdg = join(root, 'xdg'); // code-server writes config.yaml and logs under XDG dirs otherwise (~/.config, ~/.local/share)
  const configFile = join(root, 'config.yaml');
  const logFile = join(root, 'code-server.log');
  await mkdir(join(userDataDir, 'User'), { recursive: true });
  await mkdir(extensionsDir, { recursive: true });
  await mkdir(xdg, { recursive: true });
  await writeFile(join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...QUIET_SETTINGS, ...opts.settings }, null, 2));
  // VS Code puts vscode-ipc-*.sock files in XDG_RUNTIME_DIR and in TMPDIR; in /tmp they would stay
  // after the group is killed, so both point into the run's own dir.
  await mkdir(join(xdg, 'run'), { recursive: true, mode: 0o700 });
  await mkdir(join(root, 'tmp'), { recursive: true });
  const env = toolEnv({
    XDG_CONFIG_HOME: join(xdg, 'config'), XDG_DATA_HOME: join(xdg, 'data'), XDG_CACHE_HOME: join(xdg, 'cache'),
    XDG_RUNTIME_DIR: join(xdg, 'run'), TMPDIR: join(root, 'tmp'),
  });
  const common = ['--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  let keep = opts.keepDirs === true || process.env.E2E_KEEP === '1';
  const cleanup = async () => { if (!keep) await rm(root, { recursive: true, force: true }); };

  try {
    await writeFile(configFile, 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n');
    if (opts.extensions?.length) {
      await copyInstalled(await installedOnce(opts.extensions, env), extensionsDir);
      await writeLanguagePacks(extensionsDir, userDataDir);
    }

    // The port is free when picked but could be taken before code-server binds it: retry a few times.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      await writeFile(configFile, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
      const args = [
        CODE_SERVER_ENTRY, ...common,
        '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
        '--disable-getting-started-override', '--ignore-last-opened',
        ...(opts.locale ? ['--locale', opts.locale] : []),
        resolve(opts.workspaceDir),
      ];
      const fd = openSync(logFile, 'a');
      const t0 = Date.now();
      let child: ChildProcess;
      try {
        // detached: the child leads a new process group (like setsid), so stop() can kill the
        // group: code-server forks the VS Code server, extension hosts and more.
        child = spawn(NODE24, args, { env, detached: true, stdio: ['ignore', fd, fd] });
      } finally {
        closeSync(fd);
      }
      const pid = child.pid!;
      trackGroup(pid);
      let exited: number | null | undefined;
      child.on('exit', (code) => { exited = code; });
      const baseUrl = `http://127.0.0.1:${port}/`;
      const deadline = t0 + (opts.startTimeoutMs ?? 60_000);
      let healthy = false;
      while (Date.now() < deadline && exited === undefined) {
        try {
          const res = await fetch(`${baseUrl}healthz`, { signal: AbortSignal.timeout(2_000) });
          if (res.ok) { healthy = true; break; }
        } catch { /* not listening yet */ }
        await sleep(100);
      }
      const stop = async () => {
        if (groupAlive(pid)) {
          killGroup(pid, 'SIGTERM');
          const until = Date.now() + 5_000;
          while (groupAlive(pid) && Date.now() < until) await sleep(50);
          if (groupAlive(pid)) killGroup(pid, 'SIGKILL');
          // Bounded: an unreaped zombie would keep the group "alive" forever.
          const killUntil = Date.now() + 5_000;
          while (groupAlive(pid) && Date.now() < killUntil) await sleep(20);
          if (groupAlive(pid)) console.warn(`# code-server process group ${pid} still listed 5 s after SIGKILL`);
        }
        liveGroups.delete(pid);
        await cleanup();
      };
      if (healthy) {
        return {
          url: `${baseUrl}?folder=${encodeURIComponent(resolve(opts.workspaceDir))}`,
          baseUrl, port, pid, userDataDir, extensionsDir, logFile, startupMs: Date.now() - t0, stop,
        };
      }
      killGroup(pid, 'SIGKILL');
      liveGroups.delete(pid);
      const log = tail(logFile);
      if (exited !== undefined && /EADDRINUSE/.test(log) && attempt < 3) continue;
      throw new Error(exited !== undefined
        ? `code-server exited with code ${exited} before /healthz answered; log ${logFile}:\n${log}`
        : `code-server's /healthz did not answer within ${opts.startTimeoutMs ?? 60_000} ms; log ${logFile}:\n${log}`);
    }
  } catch (e) {
    keep = true; // the error message names the log file: keep it
    throw e;
  }
}

// ------------------------------------------------------------------------------------------------
// Extensions

/**
 * A folder holding `vsixes` as `code-server --install-extension` installs them, made once per set
 * of packages (by path, size and time) and shared by every test of the run: an install starts
 * code-server and unpacks the package, several seconds each time on two cores.
 */
async function installedOnce(vsixes: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
  const key = createHash('sha256');
  for (const v of vsixes) {
    const st = statSync(resolve(v));
    key.update(`${resolve(v)}\0${st.size}\0${st.mtimeMs}\0`);
  }
  const cache = join(RESULTS_DIR, 'installed-extensions');
  const dir = join(cache, key.digest('hex').slice(0, 16));
  if (existsSync(dir)) return dir;
  await mkdir(cache, { recursive: true });
  const work = await mkdtemp(join(cache, 'tmp-'));
  const args = [CODE_SERVER_ENTRY, '--user-data-dir', join(work, 'user-data'), '--extensions-dir', join(work, 'extensions'), '--force'];
  for (const vsix of vsixes) args.push('--install-extension', resolve(vsix));
  const r = await run(NODE24, args, { env, timeoutMs: 120_000 });
  const out = r.stdout + r.stderr;
  const installed = out.match(/was successfully installed/g)?.length ?? 0;
  if (r.code !== 0 || installed < vsixes.length) throw new Error(`installing ${vsixes.join(', ')} failed (exit ${r.code}):\n${out}`);
  await renamePaths(join(work, 'extensions'), join(work, 'extensions'), dir);
  // Another test file may have made it meanwhile: its copy is as good.
  await rename(join(work, 'extensions'), dir).catch(() => undefined);
  await rm(work, { recursive: true, force: true });
  return dir;
}

/** Copies installed extensions into an empty extensions folder; extensions.json names their new place. */
async function copyInstalled(from: string, to: string): Promise<void> {
  await cp(from, to, { recursive: true });
  await renamePaths(to, from, to);
}

/** Rewrites the extensions' absolute locations in `dir`/extensions.json from folder `from` to folder `to`. */
async function renamePaths(dir: string, from: string, to: string): Promise<void> {
  const manifest = join(dir, 'extensions.json');
  if (existsSync(manifest)) await writeFile(manifest, (await readFile(manifest, 'utf8')).split(from).join(to));
}

interface LanguagePack {
  hash: string;
  extensions: { extensionIdentifier: { id: string }; version: string }[];
  translations: Record<string, string>;
  label: string | undefined;
}

/**
 * Writes USER_DATA/languagepacks.json for the installed extensions that contribute
 * `localizations`, as VS Code's LanguagePacksCache does. A running server writes it when a
 * language pack is installed from the UI, but `--install-extension` does not; without it the
 * server resolves every --locale to English ('en' in vscode.env.language). Returns the locales.
 */
export async function writeLanguagePacks(extensionsDir: string, userDataDir: string): Promise<string[]> {
  const packs: Record<string, LanguagePack> = {};
  for (const entry of await readdir(extensionsDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    let manifest: any;
    try { manifest = JSON.parse(await readFile(join(extensionsDir, entry.name, 'package.json'), 'utf8')); } catch { continue; }
    const localizations = manifest?.contributes?.localizations;
    if (!Array.isArray(localizations)) continue;
    for (const loc of localizations) {
      if (typeof loc?.languageId !== 'string' || !Array.isArray(loc.translations)) continue;
      const pack = (packs[loc.languageId] ??= { hash: '', extensions: [], translations: {}, label: loc.localizedLanguageName ?? loc.languageName });
      pack.extensions.push({ extensionIdentifier: { id: `${manifest.publisher}.${manifest.name}` }, version: manifest.version });
      for (const t of loc.translations) pack.translations[t.id] = join(extensionsDir, entry.name, t.path);
    }
  }
  for (const pack of Object.values(packs)) {
    const md5 = createHash('md5');
    for (const e of pack.extensions) md5.update(e.extensionIdentifier.id).update(e.version);
    pack.hash = md5.digest('hex');
  }
  if (Object.keys(packs).length) await writeFile(join(userDataDir, 'languagepacks.json'), JSON.stringify(packs, null, 2));
  return Object.keys(packs);
}

/**
 * Writes a minimal language pack extension (no code) into `dir`, to be packaged with
 * packageExtension. `contents` maps VS Code's module ids to { key: translation }; the ids and keys
 * are in node_modules/code-server/lib/vscode/out/nls.keys.json (English in nls.messages.json,
 * same order). Untranslated strings stay English. No real language pack can be downloaded here.
 */
export async function writeLanguagePackExtension(dir: string, opts: {
  languageId: string; languageName: string; localizedLanguageName: string;
  contents: Record<string, Record<string, string>>;
}): Promise<void> {
  await mkdir(join(dir, 'translations'), { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({
    name: `e2e-language-pack-${opts.languageId}`,
    displayName: `E2E language pack ${opts.languageName}`,
    description: 'Minimal language pack for end-to-end tests.',
    publisher: 'e2e-test',
    version: '0.0.1',
    license: 'MIT',
    engines: { vscode: '^1.90.0' },
    categories: ['Language Packs'],
    contributes: {
      localizations: [{
        languageId: opts.languageId, languageName: opts.languageName, localizedLanguageName: opts.localizedLanguageName,
        translations: [{ id: 'vscode', path: './translations/main.i18n.json' }],
      }],
    },
  }, null, 2));
  await writeFile(join(dir, 'translations', 'main.i18n.json'), JSON.stringify({ version: '1.0.0', contents: opts.contents }, null, 2));
  await writeFile(join(dir, 'README.md'), `# E2E language pack ${opts.languageName}\n`);
  await writeFile(join(dir, 'LICENSE'), 'MIT\n');
}

/**
 * Packages an extension folder with vsce (on Node 24) into `outFile` (.vsix). The folder needs a
 * package.json with publisher, license and engines.vscode; no repository field is needed.
 */
export async function packageExtension(extensionDir: string, outFile: string): Promise<string> {
  const r = await run(NODE24, [VSCE, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', resolve(outFile)], {
    cwd: extensionDir, timeoutMs: 120_000,
  });
  if (r.code !== 0 || !existsSync(outFile)) throw new Error(`vsce package failed (exit ${r.code}) in ${extensionDir}:\n${r.stdout}\n${r.stderr}`);
  return resolve(outFile);
}

// ------------------------------------------------------------------------------------------------
// Browser

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** The profile dir (a fresh one per call). */
  userDataDir: string;
  close(): Promise<void>;
}

// @ts-ignore (see the import type at the top)
type PlaywrightCore = typeof import('playwright-core');

/** playwright-core from test/e2e/node_modules, wherever the test was started from. */
export function loadPlaywright(): PlaywrightCore {
  return createRequire(join(E2E_DIR, 'package.json'))('playwright-core') as PlaywrightCore;
}

export async function openBrowser(opts: { viewport?: { width: number; height: number }; locale?: string; headless?: boolean } = {}): Promise<Browser> {
  const status = environmentStatus();
  if (!status.ready) throw new Error(`e2e environment not ready: ${status.reason}`);
  const { chromium } = loadPlaywright();
  const userDataDir = await mkdtemp(join(tmpdir(), 'e2e-chromium-'));
  const context: BrowserContext = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: opts.headless ?? true,
    args: CHROMIUM_ARGS,
    viewport: opts.viewport ?? { width: 1400, height: 900 },
    ...(opts.locale ? { locale: opts.locale } : {}),
  });
  const page: Page = context.pages()[0] ?? (await context.newPage());
  return {
    context, page, userDataDir,
    close: async () => {
      await context.close().catch(() => undefined);
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

// ------------------------------------------------------------------------------------------------
// Page helpers

/** Saves a PNG to test-results/e2e/NAME.png (git-ignored) and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${name.replace(/[^\w.-]+/g, '_')}.png`);
  await page.screenshot({ path: file });
  return file;
}

/**
 * Waits for a selector (default: visible) with a timeout; on timeout takes a screenshot
 * `timeout-<what>.png` and throws an error that names the selector, the wait and the screenshot.
 */
export async function waitForSelector(page: Page, selector: string, opts?: { timeoutMs?: number; state?: 'attached' | 'visible'; what?: string }): Promise<ElementHandle>;
export async function waitForSelector(page: Page, selector: string, opts: { timeoutMs?: number; state: 'detached' | 'hidden'; what?: string }): Promise<null>;
export async function waitForSelector(page: Page, selector: string, opts: { timeoutMs?: number; state?: 'attached' | 'detached' | 'visible' | 'hidden'; what?: string } = {}): Promise<ElementHandle | null> {
  const timeout = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const t0 = Date.now();
  try {
    return await page.waitForSelector(selector, { timeout, state: opts.state ?? 'visible' });
  } catch (e) {
    let shot = '';
    try { shot = await screenshot(page, `timeout-${opts.what ?? selector}`); } catch { /* page gone */ }
    throw new Error(`waiting for ${opts.what ? `${opts.what} (${selector})` : selector} to be ${opts.state ?? 'visible'}: nothing after ${Date.now() - t0} ms${shot ? `; screenshot ${shot}` : ''}\n${(e as Error).message}`);
  }
}

/** Opens the url and waits for the workbench and the explorer of the opened folder. */
export async function openWorkbench(page: Page, url: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<number> {
  const t0 = Date.now();
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
  await waitForSelector(page, '.monaco-workbench', { timeoutMs, what: 'workbench' });
  await waitForSelector(page, '.explorer-folders-view .monaco-list-row', { timeoutMs: Math.max(1_000, timeoutMs - (Date.now() - t0)), what: 'explorer rows' });
  return Date.now() - t0;
}

/** A CSS attribute selector value, quoted. */
function cssString(s: string): string {
  return JSON.stringify(s);
}

/**
 * Opens a file shown in the explorer (by its name, e.g. 'AGENTS.md') by double-clicking its row
 * (reliable here, where Ctrl+P then Enter was not) and waits for its editor tab to be active and
 * its text rendered. Explorer rows and editor tabs carry the file name in aria-label and
 * data-resource-name; the tab's visible label is split into name and suffix ("AGENTS" ".md").
 */
export async function openFileFromExplorer(page: Page, name: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
  const row = `.explorer-folders-view .monaco-list-row[aria-label=${cssString(name)}]`;
  await waitForSelector(page, row, { timeoutMs, what: `explorer row ${name}` });
  await page.locator(row).first().dblclick();
  const tab = `.tabs-container .tab.active[data-resource-name=${cssString(name)}]`;
  await waitForSelector(page, tab, { timeoutMs, what: `active editor tab ${name}` });
  await waitForSelector(page, '.editor-instance .monaco-editor .view-lines', { timeoutMs, what: 'editor text' });
}

/** The status bar item (a `.statusbar-item`) whose text contains `text`. */
export function statusBarItem(page: Page, text: string | RegExp) {
  return page.locator('#workbench\\.parts\\.statusbar .statusbar-item').filter({ hasText: text });
}

// ------------------------------------------------------------------------------------------------
// The real extension, editor helpers, logs

/**
 * Packages this repository's extension with `node scripts/package.mjs` (= `npm run package`:
 * minified bundles, then the pinned vsce on this Node) and returns the .vsix path
 * (dist/NAME-VERSION.vsix). Runs on the Node that runs the tests, without the test runner's
 * environment. With E2E_VSIX set (test/e2e/run.ts packages once for the whole suite; or an older
 * build, to see a test fail on it) that package is used as it is and `ms` is 0.
 */
export async function packageRepoExtension(): Promise<{ vsix: string; ms: number }> {
  const given = process.env['E2E_VSIX'];
  if (given) {
    if (!existsSync(given)) throw new Error(`E2E_VSIX names no file: ${given}`);
    return { vsix: resolve(given), ms: 0 };
  }
  const { name, version } = JSON.parse(await readFile(join(REPO_DIR, 'package.json'), 'utf8')) as { name: string; version: string };
  const vsix = join(REPO_DIR, 'dist', `${name}-${version}.vsix`);
  const env = toolEnv();
  env.PATH = process.env.PATH ?? ''; // esbuild and vsce run on this Node
  const t0 = Date.now();
  const r = await run(process.execPath, [join(REPO_DIR, 'scripts', 'package.mjs')], { cwd: REPO_DIR, env, timeoutMs: 180_000 });
  if (r.code !== 0 || !existsSync(vsix)) throw new Error(`node scripts/package.mjs failed (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  return { vsix, ms: Date.now() - t0 };
}

/** Files under `dir` (recursively) whose path matches `re`. */
export async function findFiles(dir: string, re: RegExp): Promise<string[]> {
  const out: string[] = [];
  let entries;
  try { entries = await readdir(dir, { withFileTypes: true, recursive: true }); } catch { return out; }
  for (const e of entries) {
    const p = join(e.parentPath, e.name);
    if (e.isFile() && re.test(p)) out.push(p);
  }
  return out.sort();
}

/**
 * The logs of a code-server run that say why an extension misbehaves: the extension host's log
 * (exthost.log: activation errors, crashes), the output channels of extensions (each a
 * `output_logging_*` / `N-<channel name>.log` under the exthost dir; pass `channel` to pick one,
 * e.g. 'AGENTS.md Contracts'), the remote server's log and code-server's own stdout/stderr.
 * Each file's last `lines` lines, headed by its path.
 */
export async function codeServerLogs(server: Pick<CodeServer, 'userDataDir' | 'logFile'>, opts: { channel?: string; lines?: number } = {}): Promise<string> {
  const lines = opts.lines ?? 60;
  const logs = join(server.userDataDir, 'logs');
  const files = [
    ...(await findFiles(logs, /exthost\d*\/(remote)?exthost\.log$/)),
    ...(await findFiles(logs, /exthost\d*\/output_logging_[^/]+\/[^/]+\.log$/)).filter((f) => !opts.channel || f.endsWith(`-${opts.channel}.log`)),
    ...(await findFiles(logs, /\/remoteagent\.log$/)),
    server.logFile,
  ];
  return files.map((f) => `--- ${f}\n${tail(f, lines)}`).join('\n');
}

/**
 * The whole text of an extension's output channel (e.g. 'AGENTS.md Contracts', a language
 * client's channel with its `trace.server` messages), or undefined when the channel has
 * written nothing (VS Code creates the file on the first write).
 */
export async function outputChannelText(server: Pick<CodeServer, 'userDataDir'>, channel: string): Promise<string | undefined> {
  const files = (await findFiles(join(server.userDataDir, 'logs'), /exthost\d*\/output_logging_[^/]+\/[^/]+\.log$/)).filter((f) => f.endsWith(`-${channel}.log`));
  if (!files.length) return undefined;
  return (await Promise.all(files.map((f) => readFile(f, 'utf8')))).join('\n');
}

/** Presses a shortcut in the page, e.g. 'Control+G'. */
export async function press(page: Page, keys: string): Promise<void> {
  await page.keyboard.press(keys);
}

/**
 * Moves the cursor of the focused editor with Go to Line (Ctrl+G, then `LINE:COLUMN`, Enter; both
 * 1-based) and waits for the quick input to close and the line to be rendered. Returns the
 * locator of that line's `.view-line`.
 */
export async function goToLine(page: Page, line: number, column = 1, timeoutMs = DEFAULT_TIMEOUT_MS) {
  const input = '.quick-input-widget .quick-input-box input';
  // A navigation an earlier key started (Shift+F12 going to its only reference) can close the
  // input right after it opened (a CI run timed out filling it): as a user would, open it again.
  for (let attempt = 1; ; attempt++) {
    await press(page, 'Control+G');
    await waitForSelector(page, input, { timeoutMs, what: 'Go to Line input' });
    const filled = await page
      .locator(input)
      .fill(`:${line}:${column}`, { timeout: 5_000 })
      .then(
        () => true,
        (e: unknown) => {
          if (attempt >= 3) throw e;
          return false;
        },
      );
    if (filled) break;
  }
  await press(page, 'Enter');
  await waitForSelector(page, '.quick-input-widget', { timeoutMs, state: 'hidden', what: 'Go to Line input closed' });
  return viewLine(page, line, timeoutMs);
}

/**
 * The `.view-line` of the active editor that shows 1-based `line` (which must be rendered, i.e. in
 * or near the viewport): Monaco renders line numbers and text lines in separate layers with the
 * same `top`, so the line number's `top` identifies the text line.
 */
export async function viewLine(page: Page, line: number, timeoutMs = DEFAULT_TIMEOUT_MS) {
  const editor = '.editor-instance .monaco-editor';
  const number = page.locator(`${editor} .margin-view-overlays .line-numbers`).filter({ hasText: new RegExp(`^\\s*${line}\\s*$`) }).first();
  await number.waitFor({ state: 'visible', timeout: timeoutMs });
  // The top is read afresh each time: a code lens arriving meanwhile (the tool cost above
  // `## TOOLS`) moves every line under it (a CI run waited for a line at its old top).
  return until(`the text of line ${line}`, async () => {
    // The parent of .line-numbers carries style "top: Npx" (and so does each .view-line).
    const top = ((await number.evaluate((el: any) => el.parentElement.style.top)) as string).replace(/\s/g, '');
    const text = page.locator(`${editor} .view-lines .view-line[style*="top:${top}"], ${editor} .view-lines .view-line[style*="top: ${top}"]`).first();
    return (await text.isVisible()) ? text : undefined;
  }, timeoutMs);
}

/**
 * Moves the mouse over the first token of 1-based `line` that contains `text` and waits for a hover
 * matching `hover`; returns the hover's locator. A code lens that arrives late (the tool cost above
 * `## TOOLS`) shifts the lines under a resting mouse, so the line is looked up afresh and the mouse
 * moved away and back, as a user would, up to three times. Last comes the keyboard's hover
 * (Ctrl+K Ctrl+I) at the cursor, which callers put on the token; `how` says which one showed it.
 */
export async function hoverOver(page: Page, line: number, text: string, hover: Locator, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<{ how: string; ms: number }> {
  const t0 = Date.now();
  for (let attempt = 1; attempt <= 3; attempt++) {
    const token = (await viewLine(page, line, timeoutMs)).locator('span > span').filter({ hasText: text }).first();
    await token.hover();
    if (await hover.waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false)) return { how: `mouse, attempt ${attempt}`, ms: Date.now() - t0 };
    await page.mouse.move(0, 0);
  }
  await press(page, 'Control+K');
  await press(page, 'Control+I');
  await hover.waitFor({ state: 'visible', timeout: timeoutMs });
  return { how: 'keyboard (Ctrl+K Ctrl+I) after three mouse attempts', ms: Date.now() - t0 };
}

/**
 * A temporary workspace holding a sample's files (AGENTS.md, the resources and snapshots beside it)
 * and the samples' configuration (samples/.agents-md.json). The caller removes it.
 */
export async function sampleWorkspace(sampleDir: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'e2e-extension-ws-'));
  await cp(sampleDir, dir, { recursive: true });
  await copyFile(join(REPO_DIR, 'samples', '.agents-md.json'), join(dir, '.agents-md.json'));
  return dir;
}

/** 1-based line and column of the first line of `text` that contains `needle`. */
export function lineOf(text: string, needle: string | RegExp): { line: number; column: number } {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const m = typeof needle === 'string' ? lines[i]!.indexOf(needle) : lines[i]!.search(needle);
    if (m >= 0) return { line: i + 1, column: m + 1 };
  }
  throw new Error(`no line of the sample contains ${String(needle)}`);
}

/**
 * Clicks ▶ Run agent on the open contract, takes `query` from the quick pick of the snapshots'
 * queries and waits for the modal human-in-the-loop question; returns the dialog.
 */
export async function runQueryToQuestion(page: Page, query: string): Promise<Locator> {
  const lens = page.locator('.editor-instance .codelens-decoration a').filter({ hasText: 'Run agent' }).first();
  const input = '.quick-input-widget .quick-input-box input';
  // Lenses are drawn again when they are asked for again (after an edit or a run): a click on the
  // one being replaced is lost, and a user clicks again.
  for (let attempt = 1; ; attempt++) {
    await lens.waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
    await lens.click();
    if (attempt === 3) break;
    if (await page.locator(input).waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false)) break;
  }
  await waitForSelector(page, input, { what: 'the snapshot query pick' });
  await page.locator(input).fill(query);
  await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: query }).first().waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
  await press(page, 'Enter');
  const dialog = page.locator('.monaco-dialog-box').filter({ has: page.locator('.monaco-button', { hasText: /^Reject$/ }) }).first();
  await dialog.waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
  return dialog;
}

/** Polls `check` until it returns a value or the time is up (then throws `what`). */
export async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`${what}: not after ${timeoutMs} ms`);
    await sleep(100);
  }
}

/**
 * Filters the Problems panel by a rule code and waits until it lists exactly `n` problems, all
 * from source agents-md with that code (none of them naming `absent`, e.g. a scenario). Returns
 * the rows' messages. The panel must be open (Ctrl+Shift+M).
 */
export async function problemsWithCode(page: Page, code: string, n: number, absent?: string): Promise<string[]> {
  const filter = page.locator('input[aria-label="Filter Problems"]').first();
  if ((await filter.inputValue()) !== code) await filter.fill(code);
  const rows = page.locator('.markers-panel .monaco-list-row:has(.marker-code)');
  const ours = rows.filter({ has: page.locator('.marker-source', { hasText: /^agents-md$/ }) }).filter({ has: page.locator('.marker-code', { hasText: new RegExp(`^${code}$`) }) });
  await until(`Problems panel lists ${n} ${code} problem(s) from agents-md${absent ? ` and none naming ${absent}` : ''}`, async () => {
    // The panel can be drawn again while VS Code starts and lose the filter (CI once showed all 49
    // problems and an empty filter after 60 s): filled again whenever it is not the code.
    if ((await filter.inputValue().catch(() => code)) !== code) await filter.fill(code).catch(() => undefined);
    const [all, mine] = [await rows.count(), await ours.count()];
    const stale = absent ? await ours.filter({ hasText: absent }).count() : 0;
    return all === n && mine === n && stale === 0 ? true : undefined;
  });
  return ours.locator('.marker-message').allInnerTexts();
}

/**
 * code-server started with `opts`, headless Chromium on its workbench, both stopped after test `t`.
 * Unless `passed()` is called, the teardown prints a screenshot `<name>-failure.png` and the last
 * lines of the logs (extension host, language server).
 */
export async function startWorkbench(t: TestContext, name: string, opts: StartCodeServerOptions): Promise<{ server: CodeServer; page: Page; passed: () => void }> {
  const server = await startCodeServer(opts);
  let page: Page | undefined;
  let ok = false;
  t.after(async () => {
    if (!ok) {
      if (page) t.diagnostic(`screenshot at failure: ${await screenshot(page, `${name}-failure`).catch(() => '(none)')}`);
      console.log(`# logs of the failed run:\n${await codeServerLogs(server, { lines: 80 })}`);
    }
    await server.stop();
  });
  const browser = await openBrowser();
  t.after(() => browser.close());
  page = browser.page;
  await openWorkbench(page, server.url);
  return { server, page, passed: () => (ok = true) };
}

/**
 * Runs a command from the palette (F1) by its title, opening it again until the command is listed
 * (right after start-up the extension's commands may not be known yet).
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  const input = '.quick-input-widget .quick-input-box input';
  const row = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: title.split(': ').pop()! }).first();
  await until(`the command palette lists ${title}`, async () => {
    await press(page, 'F1');
    await waitForSelector(page, input, { what: 'command palette' });
    await page.locator(input).fill(`>${title}`);
    if (await row.waitFor({ state: 'visible', timeout: 5000 }).then(() => true, () => false)) return true;
    await press(page, 'Escape');
    return undefined;
  }, 3 * DEFAULT_TIMEOUT_MS);
  await press(page, 'Enter');
}

/**
 * Answers the New Contract questions as a user does: types `name` in the name box, presses Enter,
 * and returns the row of `kind` in the list that follows (not clicked). An Enter the workbench
 * misses (a CI run once stayed on the name box) is pressed again while the name is still asked.
 */
export async function nameNewContract(page: Page, name: string, kind: string): Promise<Locator> {
  const box = page.locator('.quick-input-widget').filter({ hasText: "agent's name" }).first();
  await box.waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.fill(name);
  const row = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: kind }).first();
  await until(`the kinds listed after the name ${name}`, async () => {
    // Pressed only while the box still holds the name: an Enter on the kind list would pick a kind.
    if ((await input.inputValue().catch(() => '')) === name) await press(page, 'Enter');
    return (await row.waitFor({ state: 'visible', timeout: 5000 }).then(() => true, () => false)) ? true : undefined;
  });
  return row;
}

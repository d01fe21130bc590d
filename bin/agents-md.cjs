#!/usr/bin/env node
'use strict';
// Launcher of the agents-md CLI: loads the esbuild bundle (dist/cli.cjs) and exits with its code.
const path = require('node:path');

// Node 22.1 and later keep V8's compiled code on disk between runs (docs/performance.md,
// "Start-up"); on Node 20 the launcher keeps it itself (loadWithCodeCache below).
const module_ = require('node:module');
const nativeCache = typeof module_.enableCompileCache === 'function';
if (nativeCache) module_.enableCompileCache();

// Help and the version come from a small bundle of their texts (server/src/cli/quickHelp.ts), so
// that `agents-md --help` does not load the CLI; it answers nothing for anything else.
const quick = path.join(__dirname, '..', 'dist', 'quickHelp.cjs');
let answer;
try {
  answer = require(quick).quickAnswer(process.argv.slice(2), process.env, Intl.DateTimeFormat().resolvedOptions().locale, process.stdout);
} catch (e) {
  if (!(e && e.code === 'MODULE_NOT_FOUND' && String(e.message).includes(quick))) throw e;
}
if (answer !== undefined) {
  // Output piped into `head` closes early: not an error (as in the CLI, cli/main.ts).
  process.stdout.on('error', (e) => {
    if (e.code !== 'EPIPE') throw e;
  });
  process.stdout.write(answer);
  return;
}

/**
 * The folder of the compiled-code cache: `$AGENTS_MD_CACHE_DIR/compile`, else under
 * `$XDG_CACHE_HOME/agents-md` or `~/.cache/agents-md`; none when `AGENTS_MD_CACHE_DIR` is empty
 * (as for the ReDoS verdicts, docs/cli.md).
 */
function codeCacheDir() {
  const explicit = process.env.AGENTS_MD_CACHE_DIR;
  if (explicit !== undefined) return explicit === '' ? undefined : path.join(explicit, 'compile');
  return path.join(process.env.XDG_CACHE_HOME || path.join(require('node:os').homedir(), '.cache'), 'agents-md', 'compile');
}

/**
 * Loads the bundle as `require` does, compiled with V8's cached data from the last run when
 * there is some, and saves the code compiled during this run (the functions that ran, not only
 * the top level) when there was none or V8 rejected it (another bundle or Node). Any failure
 * to read or write the cache is a plain load.
 */
/** How many files of compiled code are kept: each build or install of the CLI writes its own (about 4.5 MB). */
const KEPT_CODE_FILES = 4;

/** Removes all but the KEPT_CODE_FILES newest files of compiled code (and temporary files a killed run left). */
function pruneCodeCache(fs, dir) {
  const files = fs
    .readdirSync(dir)
    .filter((n) => /^cli-[0-9a-f]+\.v8(\.\d+\.tmp)?$/.test(n))
    .map((n) => ({ n, t: fs.statSync(path.join(dir, n)).mtimeMs, tmp: n.endsWith('.tmp') }))
    .sort((a, b) => b.t - a.t);
  const old = files.filter((f) => !f.tmp).slice(KEPT_CODE_FILES);
  const stale = files.filter((f) => f.tmp && Date.now() - f.t > 60_000);
  for (const f of [...old, ...stale]) fs.rmSync(path.join(dir, f.n), { force: true });
}

function loadWithCodeCache(file, dir) {
  const fs = require('node:fs');
  const vm = require('node:vm');
  const stat = fs.statSync(file);
  const key = require('node:crypto').createHash('sha256').update(`${file}\0${stat.size}\0${stat.mtimeMs}\0${process.version}\0${process.arch}`).digest('hex').slice(0, 16);
  const cacheFile = path.join(dir, `cli-${key}.v8`);
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // No `import()` in the bundle (esbuild.mjs turns each into a require): a function compiled
  // from cached data has no dynamic import callback, so one would fail there.
  const script = new vm.Script(module_.wrap(fs.readFileSync(file, 'utf8')), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const m = new module_(file, module);
  m.filename = file;
  m.paths = module_._nodeModulePaths(path.dirname(file));
  require.cache[file] = m;
  script.runInThisContext().call(m.exports, m.exports, (id) => m.require(id), m, file, path.dirname(file));
  m.loaded = true;
  if (!cachedData || script.cachedDataRejected) {
    process.on('exit', () => {
      try {
        fs.mkdirSync(dir, { recursive: true });
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, script.createCachedData());
        fs.renameSync(tmp, cacheFile);
        pruneCodeCache(fs, dir);
      } catch {
        // A read-only home or a full disk: the next run compiles afresh.
      }
    });
  }
  return m.exports;
}

const bundle = path.join(__dirname, '..', 'dist', 'cli.cjs');
let cli;
try {
  const dir = nativeCache ? undefined : codeCacheDir();
  cli = dir && require('node:fs').existsSync(bundle) ? loadWithCodeCache(bundle, dir) : require(bundle);
} catch (e) {
  if (e && e.code === 'MODULE_NOT_FOUND' && String(e.message).includes(bundle)) {
    process.stderr.write(`agents-md: ${bundle} is missing: run "npm run build" first.\n`);
    process.exit(2);
  }
  throw e;
}

cli.main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`agents-md: internal error: ${(e && e.stack) || e}\n`);
    process.exitCode = 2;
  },
);

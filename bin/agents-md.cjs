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
  const help = require(quick);
  answer = help.quickAnswer(process.argv.slice(2), process.env, help.defaultLocale, process.stdout);
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
 * `$XDG_CACHE_HOME/agents-md` (an absolute path; a relative one is ignored, as the XDG
 * specification says) or `~/.cache/agents-md`; none when `AGENTS_MD_CACHE_DIR` is empty (as for
 * the ReDoS verdicts, docs/cli.md).
 */
function codeCacheDir() {
  const explicit = process.env.AGENTS_MD_CACHE_DIR;
  if (explicit !== undefined) return explicit === '' ? undefined : path.join(explicit, 'compile');
  const xdg = process.env.XDG_CACHE_HOME;
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(require('node:os').homedir(), '.cache'), 'agents-md', 'compile');
}

/** How many files of compiled code are kept: each build or install of the CLI writes two (about 4.5 MB each). */
const KEPT_CODE_FILES = 6;

/**
 * Removes all but the KEPT_CODE_FILES newest files of compiled code, and the temporary files of
 * runs that ended more than a minute ago without renaming theirs (killed, or the disk full).
 */
function pruneCodeCache(fs, dir) {
  const files = fs
    .readdirSync(dir)
    .filter((n) => /^cli-[0-9a-f]+-[a-z]+\.v8(\.\d+\.tmp)?$/.test(n))
    .map((n) => ({ n, t: fs.statSync(path.join(dir, n)).mtimeMs, tmp: n.endsWith('.tmp') }))
    .sort((a, b) => b.t - a.t);
  const old = files.filter((f) => !f.tmp).slice(KEPT_CODE_FILES);
  const stale = files.filter((f) => f.tmp && Date.now() - f.t > 60_000);
  for (const f of [...old, ...stale]) fs.rmSync(path.join(dir, f.n), { force: true });
}

/**
 * The cache file of this bundle, Node and V8 configuration (`v8.cachedDataVersionTag()` covers
 * V8's version, flags and CPU features) and command: `lint` has a file of its own, since the
 * file holds the functions the run that wrote it compiled. The bundle's change time is in the
 * key beside its size and modification time: a bundle rewritten with the same length and time
 * (copied with its times kept) is not run from the old code.
 */
function codeCacheFile(fs, file, dir) {
  const stat = fs.statSync(file);
  // The first word that is neither an option nor `--lang`'s value (the one global option with a value).
  const command = process.argv.slice(2).find((a, i, all) => !a.startsWith('-') && all[i - 1] !== '--lang') === 'lint' ? 'lint' : 'other';
  const id = [file, stat.size, stat.mtimeMs, stat.ctimeMs, process.version, process.arch, require('node:v8').cachedDataVersionTag()].join('\0');
  return path.join(dir, `cli-${require('node:crypto').createHash('sha256').update(id).digest('hex').slice(0, 16)}-${command}.v8`);
}

/** Writes the code compiled during this run, atomically; a failed write leaves no temporary file. */
function writeCodeCache(fs, script, cacheFile, dir) {
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(dir, { recursive: true });
    const data = script.createCachedData();
    fs.writeFileSync(tmp, Buffer.concat([KEPT_CODE_MAGIC, digestOf(data), data]));
    fs.renameSync(tmp, cacheFile);
  } catch {
    // A read-only home or a full disk: the next run compiles afresh.
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // Not even that: the next write's prune takes it.
    }
  }
  try {
    pruneCodeCache(fs, dir);
  } catch {
    // Nothing to prune, or not allowed to.
  }
}

/**
 * A kept-code file starts with these bytes and the SHA-256 of the code after it: V8 takes code
 * damaged in place (a few bytes changed, the same size) and crashes the process on it, every run.
 */
const KEPT_CODE_MAGIC = Buffer.from('agents-md code 1\n');
const digestOf = (data) => require('node:crypto').createHash('sha256').update(data).digest();
const KEPT_CODE_HEADER = KEPT_CODE_MAGIC.length + 32;

/** The code of a kept-code file's bytes, or undefined when they are not whole (see KEPT_CODE_MAGIC). */
function keptCode(bytes) {
  if (bytes.length <= KEPT_CODE_HEADER || !bytes.subarray(0, KEPT_CODE_MAGIC.length).equals(KEPT_CODE_MAGIC)) return undefined;
  const data = bytes.subarray(KEPT_CODE_HEADER);
  return digestOf(data).equals(bytes.subarray(KEPT_CODE_MAGIC.length, KEPT_CODE_HEADER)) ? data : undefined;
}

/** A kept-code file larger than this is not ours (the CLI's is about 4 MB): it is compiled afresh and replaced. */
const MAX_CODE_CACHE_BYTES = 64 * 1024 * 1024;

/** Reads `size` bytes of the open file `fd` into `buf` at `at`; fewer when the file is shorter. */
function readInto(fs, fd, buf, at, size) {
  let got = 0;
  for (let n = -1; got < size && n !== 0; got += n) n = fs.readSync(fd, buf, at + got, size - got, got);
  return got;
}

/** The file open for reading when it is a regular file (a FIFO would block the read) of at most `max` bytes. */
function openRegular(fs, file, max) {
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    const stat = fs.fstatSync(fd);
    if (stat.isFile() && stat.size <= max) return { fd, size: stat.size };
  } catch {
    // None kept yet, or not readable: compiled afresh.
  }
  if (fd !== undefined) fs.closeSync(fd);
  return undefined;
}

/**
 * The bundle's text wrapped as `require` wraps a module, and the code kept for it, read through
 * one buffer: the text is made from its bytes in one piece (V8 need not join the wrapper and the
 * text again to compile it), read as Latin-1 when it is ASCII only, as esbuild.mjs writes it (a
 * copy without a decoding step, and a string of one byte per character), else as UTF-8; then the
 * kept code is read into the same memory. Each new page of memory costs time on its first
 * write, and the kept code is about as large as the text.
 */
function readBundle(fs, file, cacheFile) {
  const [before, after] = module_.wrapper;
  const kept = openRegular(fs, cacheFile, MAX_CODE_CACHE_BYTES);
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const end = before.length + size + after.length;
    const buf = Buffer.allocUnsafeSlow(Math.max(end, kept ? kept.size : 0));
    buf.write(before, 0, 'latin1');
    const got = readInto(fs, fd, buf, before.length, size);
    const text = buf.subarray(before.length, before.length + got);
    let source;
    if (require('node:buffer').isAscii(text)) {
      buf.write(after, before.length + got, 'latin1');
      source = buf.latin1Slice(0, before.length + got + after.length);
    } else {
      source = module_.wrap(text.toString('utf8'));
    }
    return { source, cachedData: kept ? keptCode(buf.subarray(0, readInto(fs, kept.fd, buf, 0, kept.size))) : undefined };
  } finally {
    fs.closeSync(fd);
    if (kept) fs.closeSync(kept.fd);
  }
}

/**
 * Loads the bundle as `require` does, compiled with V8's cached data from the last run when
 * there is some, and saves the code compiled during this run (the functions that ran, not only
 * the top level) when there was none or V8 rejected it (another bundle or Node). Any failure
 * to read or write the cache is a plain load.
 */
function loadWithCodeCache(file, dir) {
  const fs = require('node:fs');
  const vm = require('node:vm');
  const cacheFile = codeCacheFile(fs, file, dir);
  const { source, cachedData } = readBundle(fs, file, cacheFile);
  // No `import()` in the bundle (esbuild.mjs turns each into a require): a function compiled
  // from cached data has no dynamic import callback, so one would fail there.
  const script = new vm.Script(source, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const m = new module_(file, module);
  m.filename = file;
  m.paths = module_._nodeModulePaths(path.dirname(file));
  require.cache[file] = m;
  script.runInThisContext().call(m.exports, m.exports, (id) => m.require(id), m, file, path.dirname(file));
  m.loaded = true;
  if (!cachedData || script.cachedDataRejected) process.on('exit', () => writeCodeCache(fs, script, cacheFile, dir));
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

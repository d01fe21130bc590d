// What a command loads (docs/performance.md, "Start-up"): `lint` and `--help` neither read nor run
// the libraries only other commands need (the MCP SDK, OpenTelemetry, the tokenizer), and a
// repeated `lint` judges intent patterns from the verdicts kept on disk, without starting recheck,
// and on Node 20 compiles the bundle from the code the launcher kept (bin/agents-md.cjs).
// The real bundle, started by the real launcher; what it loaded is read from Node's module cache
// at exit by a preloaded script. Run: node --import tsx --test test/cliStartup.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { isAscii } from 'node:buffer';
import { dirname, join } from 'node:path';
import { useCliBundle, REPO } from './helpers/cli.ts';
import { diskCachedAnalyzer } from '../server/src/node/regexVerdictCache.ts';
import { type RegexAnalyzer } from '../server/src/service/index.ts';
import { RECHECK_ANALYZER_ID } from '../server/src/service/host.ts';

const { bundle, scratch } = useCliBundle('cli-startup');

const sample = (name: string) => readFileSync(join(REPO, 'samples', name, 'AGENTS.md'), 'utf8');

/** Runs the CLI in `cwd` and returns its run and the files it loaded (Node's module cache at exit). */
async function runRecorded(cwd: string, extra: Record<string, string>, ...args: string[]) {
  const dir = scratch.workspace({});
  const recorder = join(dir, 'recorder.cjs');
  const list = join(dir, 'loaded.txt');
  // Node's own modules as `process.moduleLoadList` names them: `NativeModule child_process`.
  writeFileSync(recorder, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, [...Object.keys(require.cache), ...process.moduleLoadList].join('\\n')));\n`);
  const run = await bundle.runWithEnv(cwd, { NODE_OPTIONS: `--require ${recorder}`, ...extra }, ...args);
  const loaded = readFileSync(list, 'utf8').split('\n');
  assert.ok(loaded.some((f) => f.endsWith('agents-md.cjs')), `the recorder saw the launcher: ${loaded.join(', ')}`);
  return { run, loaded, has: (part: RegExp) => loaded.some((f) => part.test(f)) };
}

const ON_DEMAND = [/vendor-mcp\.cjs$/, /vendor-otel\.cjs$/, /vendor-tokenizer\.cjs$/, /[\\/]z3-solver[\\/]/];

test('lint loads neither the MCP SDK, OpenTelemetry nor the tokenizer; --help not even string-width', async () => {
  // Both contracts set a token budget their tool definitions are far below (tool-tokens-budget
  // needs no tokenizer for that); the third file is a plain AGENTS.md.
  const ws = scratch.workspace({ 'a/AGENTS.md': sample('contract-extraction'), 'b/AGENTS.md': sample('procurement-analyzer'), 'c/AGENTS.md': sample('coding-agent') });
  const lint = await runRecorded(ws, { AGENTS_MD_CACHE_DIR: '' }, 'lint', 'a/AGENTS.md', 'b/AGENTS.md', 'c/AGENTS.md');
  assert.match(lint.run.stdout, /3 files/);
  assert.ok(lint.run.code === 0 || lint.run.code === 1, lint.run.stderr);
  for (const part of ON_DEMAND) assert.ok(!lint.has(part), `lint loaded ${part}`);
  for (const name of ['mcp', 'otel', 'tokenizer', 'width']) assert.ok(existsSync(join(dirname(bundle.bin), '..', 'dist', `vendor-${name}.cjs`)), `dist/vendor-${name}.cjs is built`);
  assert.ok(lint.has(/[\\/]cli\.cjs$/));
  const cli = readFileSync(join(dirname(bundle.bin), '..', 'dist', 'cli.cjs'));
  assert.ok(isAscii(cli), 'the bundle is ASCII only: the launcher reads it as Latin-1');
  // check-mcp's client too: the SDK builds its zod schemas when it loads.
  assert.ok(!cli.includes('$ZodType'), 'the MCP SDK and zod are in vendor-mcp.cjs, not in the bundle every command reads');
  const help = await runRecorded(ws, {}, '--help');
  assert.equal(help.run.code, 0);
  assert.match(help.run.stdout, /lint/);
  for (const part of [...ON_DEMAND, /vendor-width\.cjs$/]) assert.ok(!help.has(part), `--help loaded ${part}`);
});

test('--help, <command> --help and --version are answered without loading the CLI bundle, in the display language', async () => {
  const ws = scratch.workspace({});
  for (const [args, expected] of [[['--help'], /^Usage: agents-md/], [['lint', '--help'], /Exit codes:/], [['--lang', 'zh-cn', 'diff', '--help'], /用法/], [['-V'], /^\d+\.\d+\.\d+\n$/]] as const) {
    const r = await runRecorded(ws, {}, ...args);
    assert.equal(r.run.code, 0, r.run.stderr);
    assert.match(r.run.stdout, expected);
    assert.equal(r.run.stderr, '');
    assert.ok(r.has(/quickHelp\.cjs$/) && !r.has(/[\\/]cli\.cjs$/), `${args.join(' ')} loaded ${r.loaded.join(', ')}`);
  }
  // Anything else runs the real program, which says what is wrong.
  const wrong = await runRecorded(ws, {}, 'lint', '--formt', 'x', '--help');
  assert.ok(wrong.has(/[\\/]cli\.cjs$/));
});

test('lint --stats loads the tokenizer when it counts, and counts', async () => {
  const ws = scratch.workspace({ 'AGENTS.md': sample('contract-extraction') });
  const r = await runRecorded(ws, { AGENTS_MD_CACHE_DIR: '' }, 'lint', '--stats', 'AGENTS.md');
  assert.ok(r.has(/vendor-tokenizer\.cjs$/));
  assert.match(r.run.stderr, /\d+ tokens/);
});

test('a second lint takes the ReDoS verdicts of the first from disk: recheck is not loaded', async () => {
  const ws = scratch.workspace({ 'AGENTS.md': sample('broken') });
  const cache = scratch.workspace({});
  const first = await runRecorded(ws, { AGENTS_MD_CACHE_DIR: cache }, 'lint', 'AGENTS.md');
  assert.match(first.run.stdout, /intent-pattern-redos/, first.run.stderr);
  assert.ok(first.has(/[\\/]recheck[\\/]/), 'the first lint analyses with recheck');
  const kept = JSON.parse(readFileSync(join(cache, 'regex-verdicts.json'), 'utf8')) as { analyzer: string; verdicts: Record<string, { status: string }> };
  assert.equal(kept.analyzer, RECHECK_ANALYZER_ID);
  assert.ok(Object.values(kept.verdicts).some((v) => v.status === 'vulnerable'));

  const second = await runRecorded(ws, { AGENTS_MD_CACHE_DIR: cache }, 'lint', 'AGENTS.md');
  assert.equal(second.run.stdout, first.run.stdout);
  assert.equal(second.run.code, first.run.code);
  assert.ok(!second.has(/[\\/]recheck[\\/]/), 'the second lint started recheck');
  // Nor Node's modules for processes and threads (commander loads child_process when it loads).
  assert.ok(first.has(/^NativeModule child_process$/), 'the recorder lists Node\'s own modules: recheck started a process');
  for (const name of ['child_process', 'worker_threads', 'timers/promises']) assert.ok(!second.has(new RegExp(`^NativeModule ${name}$`)), `the second lint loaded node:${name}`);
  // Nor a package from node_modules: fdir's glob option (unused) required picomatch when it loaded.
  assert.deepEqual(second.loaded.filter((f) => /[\\/]node_modules[\\/]/.test(f)), []);
});

test('kept verdicts: reused by the same analyser only; "unknown" is not kept', async () => {
  const file = join(scratch.workspace({}), 'sub', 'regex-verdicts.json');
  const calls: string[] = [];
  const analyze: RegexAnalyzer = async (p) => {
    calls.push(p);
    return p === 'slow' ? { status: 'unknown' } : { status: 'vulnerable', complexity: 'exponential', attack: 'aaaa!' };
  };
  const first = diskCachedAnalyzer(analyze, 'a@1', file);
  assert.deepEqual(await first('^(a+)+$'), { status: 'vulnerable', complexity: 'exponential', attack: 'aaaa!' });
  assert.deepEqual(await first('slow'), { status: 'unknown' });
  const again = diskCachedAnalyzer(analyze, 'a@1', file);
  assert.deepEqual(await again('^(a+)+$'), { status: 'vulnerable', complexity: 'exponential', attack: 'aaaa!' });
  await again('slow');
  assert.deepEqual(calls, ['^(a+)+$', 'slow', 'slow']);
  await diskCachedAnalyzer(analyze, 'a@2', file)('^(a+)+$');
  assert.equal(calls.length, 4, 'another analyser judges again');
  writeFileSync(file, '{not json');
  await diskCachedAnalyzer(analyze, 'a@2', file)('^(a+)+$');
  assert.equal(calls.length, 5, 'a damaged file is a cache miss');
});

test('the analyser id names the recheck version installed', () => {
  const { version } = JSON.parse(readFileSync(join(REPO, 'node_modules', 'recheck', 'package.json'), 'utf8')) as { version: string };
  assert.match(RECHECK_ANALYZER_ID, new RegExp(`^recheck@${version.replace(/\./g, '\\.')} `));
});

test('on Node without a compile cache of its own, a second lint compiles the bundle from the code the first kept', { skip: typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function' && 'Node keeps the compiled code itself' }, async () => {
  const ws = scratch.workspace({ 'AGENTS.md': sample('broken') });
  const cache = scratch.workspace({});
  const kept = () => (existsSync(join(cache, 'compile')) ? readdirSync(join(cache, 'compile')) : []);
  const first = await runRecorded(ws, { AGENTS_MD_CACHE_DIR: cache }, 'lint', 'AGENTS.md');
  assert.ok(first.has(/[\\/]cli\.cjs$/));
  const files = kept();
  assert.equal(files.length, 1, `one file of compiled code: ${files.join(', ')}`);
  const file = join(cache, 'compile', files[0]!);
  const written = statSync(file);
  assert.ok(written.size > 100_000, `the code of the functions that ran (${written.size} bytes)`);
  // V8 takes it: the launcher writes the file again only when V8 rejects what it holds.
  const second = await runRecorded(ws, { AGENTS_MD_CACHE_DIR: cache }, 'lint', 'AGENTS.md');
  assert.equal(second.run.stdout, first.run.stdout);
  assert.equal(second.run.code, first.run.code);
  for (const r of [first, second]) assert.doesNotMatch(r.run.stderr, /Warning/, 'no warning from the way the bundle is loaded');
  assert.ok(second.has(/[\\/]cli\.cjs$/), 'the bundle is in the module cache as require would put it');
  assert.deepEqual(kept(), files);
  assert.equal(statSync(file).mtimeMs, written.mtimeMs, 'the kept code was accepted, not written again');
  // A library loaded on demand from a function compiled from the kept code (recheck, for an
  // intent pattern the verdicts on disk do not hold): a dynamic import() failed there.
  rmSync(join(cache, 'regex-verdicts.json'));
  const fresh = await runRecorded(ws, { AGENTS_MD_CACHE_DIR: cache }, 'lint', 'AGENTS.md');
  assert.ok(fresh.has(/[\\/]recheck[\\/]/), 'recheck analysed the pattern');
  assert.equal(fresh.run.stdout, first.run.stdout);
  assert.equal(fresh.run.stderr, '');
  // Damaged: rejected, the run is as before, and the file is written afresh.
  writeFileSync(file, 'not v8 code');
  const third = await runRecorded(ws, { AGENTS_MD_CACHE_DIR: cache }, 'lint', 'AGENTS.md');
  assert.equal(third.run.stdout, first.run.stdout);
  assert.ok(statSync(file).size > 100_000);
  // `AGENTS_MD_CACHE_DIR=` (empty) keeps nothing.
  const none = await runRecorded(ws, { AGENTS_MD_CACHE_DIR: '' }, 'lint', 'AGENTS.md');
  assert.equal(none.run.stdout, first.run.stdout);
});

test('on Node without a compile cache of its own, `--lang <lang> lint` runs from the code kept for lint', { skip: typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function' && 'Node keeps the compiled code itself' }, async () => {
  const ws = scratch.workspace({ 'AGENTS.md': sample('coding-agent') });
  const cache = scratch.workspace({});
  await runRecorded(ws, { AGENTS_MD_CACHE_DIR: cache }, 'lint', 'AGENTS.md');
  await runRecorded(ws, { AGENTS_MD_CACHE_DIR: cache }, '--lang', 'zh-cn', 'lint', 'AGENTS.md');
  assert.deepEqual(readdirSync(join(cache, 'compile')).map((f) => f.replace(/^cli-[0-9a-f]+-/, '')), ['lint.v8'], 'one file, lint\'s');
});

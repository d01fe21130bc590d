// The contract summaries `lint` keeps between runs (docs/performance.md, "Start-up"): a second
// lint takes every other contract's summary from the store instead of parsing the contract, a
// contract changed since is read again, and the output is the output without the store, on one
// thread and in worker threads. The real bundle, started by the real launcher.
// Run: node --import tsx --test test/cliSummaryStore.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useCliBundle } from './helpers/cli.ts';

const { bundle, scratch } = useCliBundle('cli-summary-store');

const FM = (name: string) => `---\ncontract: true\nname: ${name}\nversion: 1.0.0\n---\n`;
/** Needs the pool `shared_log`, which only `declarer` declares. */
const NEEDS = `${FM('needs')}\n## MEMORY_REQUIREMENTS\n\n\`\`\`yaml\n- pool: shared_log\n  required: true\n\`\`\`\n`;
const declarer = (pool: string) => `${FM('declarer')}\n## MEMORY_POOLS\n\n| Name | Content | Lifecycle |\n|---|---|---|\n| ${pool} | Fault logs per device | 90 days |\n`;

/** The one store file of the cache folder, parsed. */
function storeOf(cache: string): { file: string; data: { entries: Record<string, { summary: { pools: { name: string }[] } }> } } {
  const folder = join(cache, 'summaries');
  const files = existsSync(folder) ? readdirSync(folder) : [];
  assert.equal(files.length, 1, `one store file: ${files.join(', ')}`);
  const file = join(folder, files[0]!);
  return { file, data: JSON.parse(readFileSync(file, 'utf8')) };
}

test('a second lint takes other contracts from the store; one changed since is read again', async () => {
  const ws = scratch.workspace({ 'needs/AGENTS.md': NEEDS, 'declarer/AGENTS.md': declarer('shared_log') });
  const cache = scratch.workspace({});
  const lint = () => bundle.runWithEnv(ws, { AGENTS_MD_CACHE_DIR: cache }, 'lint', 'needs/AGENTS.md');

  const first = await lint();
  assert.doesNotMatch(first.stdout, /unknown-pool/, first.stdout);
  const { file, data } = storeOf(cache);
  const key = Object.keys(data.entries).find((uri) => uri.endsWith('/declarer/AGENTS.md'));
  assert.ok(key, `the declarer is kept: ${Object.keys(data.entries).join(', ')}`);
  assert.deepEqual(data.entries[key]!.summary.pools.map((p) => p.name), ['shared_log']);

  // The store is what the second run reads: a summary changed in it (the file unchanged) is believed.
  data.entries[key]!.summary.pools = [];
  writeFileSync(file, JSON.stringify(data));
  const fromStore = await lint();
  assert.match(fromStore.stdout, /unknown-pool/, 'the summary came from the store, not from the contract');

  // The contract changed since: read again, whatever the store says.
  writeFileSync(join(ws, 'declarer', 'AGENTS.md'), declarer('other_log'));
  const changed = await lint();
  assert.match(changed.stdout, /Pool "shared_log" is not registered/);
  writeFileSync(join(ws, 'declarer', 'AGENTS.md'), declarer('shared_log'));
  const back = await lint();
  assert.equal(back.stdout, first.stdout, 'declared again: the finding is gone');
  assert.deepEqual(storeOf(cache).data.entries[key]!.summary.pools.map((p) => p.name), ['shared_log']);
});

test('worker threads take the store too, and print what a run without it prints', async () => {
  // 20 contracts: `lint` splits them over worker threads (docs/cli.md, "Many files").
  const files: Record<string, string> = { 'declarer/AGENTS.md': declarer('shared_log') };
  for (let i = 0; i < 19; i++) files[`n${i}/AGENTS.md`] = NEEDS.replace('name: needs', `name: needs-${i}`);
  const ws = scratch.workspace(files);
  const cache = scratch.workspace({});
  const without = await bundle.runWithEnv(ws, { AGENTS_MD_CACHE_DIR: '' }, 'lint', '--jobs', '2');
  assert.match(without.stdout, /20 files/);
  const first = await bundle.runWithEnv(ws, { AGENTS_MD_CACHE_DIR: cache }, 'lint', '--jobs', '2');
  assert.equal(Object.keys(storeOf(cache).data.entries).length, 20, 'every contract kept');
  const second = await bundle.runWithEnv(ws, { AGENTS_MD_CACHE_DIR: cache }, 'lint', '--jobs', '2');
  for (const r of [first, second]) {
    assert.equal(r.stdout, without.stdout);
    assert.equal(r.code, without.code);
  }
  // Taken from the store by the worker threads as well: a changed kept summary shows in every file.
  const { file, data } = storeOf(cache);
  for (const entry of Object.values(data.entries)) entry.summary.pools = [];
  writeFileSync(file, JSON.stringify(data));
  const third = await bundle.runWithEnv(ws, { AGENTS_MD_CACHE_DIR: cache }, 'lint', '--jobs', '2');
  assert.equal(third.stdout.match(/unknown-pool/g)?.length, 19, third.stdout);
});

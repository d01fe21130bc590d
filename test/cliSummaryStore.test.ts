// The contract summaries `lint` keeps between runs (docs/performance.md, "Start-up"): a second
// lint takes every other contract's summary from the store instead of parsing the contract, a
// contract changed since is read again, and the output is the output without the store, on one
// thread and in worker threads. The real bundle, started by the real launcher.
// Run: node --import tsx --test test/cliSummaryStore.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useCliBundle } from './helpers/cli.ts';

const { bundle, scratch } = useCliBundle('cli-summary-store');

const FM = (name: string) => `---\ncontract: true\nname: ${name}\nversion: 1.0.0\n---\n`;
/** Needs the pool `shared_log`, which only `declarer` declares. */
const NEEDS = `${FM('needs')}\n## MEMORY_REQUIREMENTS\n\n\`\`\`yaml\n- pool: shared_log\n  required: true\n\`\`\`\n`;
const declarer = (pool: string) => `${FM('declarer')}\n## MEMORY_POOLS\n\n| Name | Content | Lifecycle |\n|---|---|---|\n| ${pool} | Fault logs per device | 90 days |\n`;

interface StoreEntry {
  sum: string;
  summary: { pools: { name: string }[] };
}

/** An entry's summary changed as a program would change it: with its checksum. */
function rewrite(entry: StoreEntry, change: (summary: StoreEntry['summary']) => void): void {
  change(entry.summary);
  entry.sum = createHash('sha256').update(JSON.stringify(entry.summary)).digest('hex').slice(0, 32);
}

/** The one store file of the cache folder, parsed. */
function storeOf(cache: string): { file: string; data: { entries: Record<string, StoreEntry> } } {
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
  rewrite(data.entries[key]!, (summary) => (summary.pools = []));
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
  for (const entry of Object.values(data.entries)) rewrite(entry, (summary) => (summary.pools = []));
  writeFileSync(file, JSON.stringify(data));
  const third = await bundle.runWithEnv(ws, { AGENTS_MD_CACHE_DIR: cache }, 'lint', '--jobs', '2');
  assert.equal(third.stdout.match(/unknown-pool/g)?.length, 19, third.stdout);
});

test('a damaged store is no store: entries of the wrong shape or checksum are made again, a FIFO in its place does not block, a cache folder that is a file or a failed write change nothing', async () => {
  const ws = scratch.workspace({ 'needs/AGENTS.md': NEEDS, 'declarer/AGENTS.md': declarer('shared_log') });
  const cache = scratch.workspace({});
  const lint = () => bundle.runWithEnv(ws, { AGENTS_MD_CACHE_DIR: cache }, 'lint', 'needs/AGENTS.md');
  const first = await lint();
  const { file, data } = storeOf(cache);
  const key = Object.keys(data.entries).find((uri) => uri.endsWith('/declarer/AGENTS.md'))!;
  // Each damage a hand or another program could do: the run prints what the first printed.
  const damages: ((e: Record<string, unknown>) => void)[] = [
    (e) => (e['summary'] = {}),
    (e) => (e['summary'] = { pools: [null], agents: null }),
    (e) => ((e['summary'] as { pools: unknown }).pools = 'x'),
    (e) => ((e['summary'] as { digest: unknown }).digest = { pools: 'x' }),
    (e) => delete e['summary'],
    (e) => (e['sum'] = 'not the checksum'),
    // With the checksum made again, as a program that edits the file would.
    (e) => rewrite(e as unknown as StoreEntry, (summary) => ((summary as { pools: unknown }).pools = null)),
    (e) => rewrite(e as unknown as StoreEntry, (summary) => ((summary as unknown as { digest: unknown }).digest = { pools: [null] })),
  ];
  for (const damage of damages) {
    const copy = structuredClone(data);
    damage(copy.entries[key] as unknown as Record<string, unknown>);
    writeFileSync(file, JSON.stringify(copy));
    const run = await lint();
    assert.equal(run.stderr, '', String(damage));
    assert.equal(run.stdout, first.stdout, String(damage));
    assert.equal(run.code, first.code);
  }
  if (process.platform === 'linux') {
    rmSync(file);
    execFileSync('mkfifo', [file]);
    const run = await lint();
    assert.equal(run.stdout, first.stdout, 'a FIFO is not read (it would wait for a writer)');
    rmSync(file);
  }
  // The cache folder is a file: nothing can be kept, and the run is as without a cache.
  const notAFolder = join(scratch.workspace({}), 'file');
  writeFileSync(notAFolder, '');
  const noFolder = await bundle.runWithEnv(ws, { AGENTS_MD_CACHE_DIR: notAFolder }, 'lint', 'needs/AGENTS.md');
  assert.equal(noFolder.stderr, '');
  assert.equal(noFolder.stdout, first.stdout);
  // The store file's place taken by a folder: the write fails after its temporary file was made.
  mkdirSync(join(file, 'in-the-way'), { recursive: true });
  const blocked = await lint();
  assert.equal(blocked.stdout, first.stdout);
  assert.deepEqual(readdirSync(join(cache, 'summaries')).filter((n) => n.endsWith('.tmp')), [], 'no temporary file left');
});

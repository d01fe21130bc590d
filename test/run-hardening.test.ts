// Inputs that used to hang or escape (a review's findings): a contract that is not a regular file,
// a workspace root that is not a directory, a `.agents-md` linked outside the workspace, and output
// piped into `head` in the middle of a dry run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, useCliBundle } from './helpers/cli.ts';

const { bundle, scratch } = useCliBundle('run-hardening');
const sample = () => {
  const d = scratch.workspace({});
  cpSync(join(REPO, 'samples', 'procurement-analyzer'), d, { recursive: true });
  return d;
};
const SNAPSHOT = join('snapshots', 'procurement.snapshot.yaml');


test('a contract or diff input that is not a regular file is refused at once (no endless read)', async () => {
  const d = sample();
  const run = await bundle.run(d, 'run', '/dev/zero', '--snapshot', SNAPSHOT);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /the contract cannot be read \(not a regular file\)/);
  const diff = await bundle.run(d, 'diff', '/dev/zero', 'AGENTS.md');
  assert.equal(diff.code, 2);
  assert.match(diff.stderr, /not a regular file/);
});

test('--root must be an existing directory; a .agents-md linked outside the workspace gets nothing', async () => {
  const d = sample();
  const missing = await bundle.run(d, 'run', 'AGENTS.md', '--snapshot', SNAPSHOT, '-q', 'happy-path', '--root', join(d, 'nope'));
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /nope: the workspace root is not an existing directory/);
  assert.equal(existsSync(join(d, 'nope')), false, 'nothing created');
  const outside = scratch.workspace({});
  symlinkSync(outside, join(d, '.agents-md'));
  const linked = await bundle.run(d, 'run', 'AGENTS.md', '--snapshot', SNAPSHOT, '-q', 'happy-path');
  assert.equal(linked.code, 2);
  assert.match(linked.stderr, /leads outside the workspace/);
  assert.deepEqual(readdirSync(outside), [], 'nothing written through the link');
});

test('output piped into head: the run still finishes its trace and exits with its own code', () => {
  const d = sample();
  const r = spawnSync('sh', ['-c', `node '${bundle.bin}' run AGENTS.md --snapshot ${SNAPSHOT} -q happy-path | head -1; exit \${PIPESTATUS:-0}`], { cwd: d, encoding: 'utf8' });
  assert.doesNotMatch(r.stderr, /EPIPE|Unhandled/);
  const runs = readdirSync(join(d, '.agents-md', 'runs'));
  assert.equal(runs.length, 1);
  const trace = readFileSync(join(d, '.agents-md', 'runs', runs[0]!, 'trace.jsonl'), 'utf8').trim().split('\n');
  assert.equal(JSON.parse(trace[trace.length - 1]!).event_type, 'task_end', 'the trace is complete');
  assert.ok(existsSync(join(d, '.agents-md', 'runs', runs[0]!, 'result.json')));
});

test('trace verify rejects a line with a field the checksum does not cover', async () => {
  const d = sample();
  const run = await bundle.run(d, 'run', 'AGENTS.md', '--snapshot', SNAPSHOT, '-q', 'happy-path');
  assert.equal(run.code, 0, run.stderr);
  const folder = join(d, '.agents-md', 'runs', readdirSync(join(d, '.agents-md', 'runs'))[0]!);
  const lines = readFileSync(join(folder, 'trace.jsonl'), 'utf8').trim().split('\n');
  assert.equal((await bundle.run(d, 'trace', 'verify', join(folder, 'trace.jsonl'))).code, 0);
  lines[2] = lines[2]!.replace(/}$/, ',"extra":1}');
  writeFileSync(join(folder, 'tampered.jsonl'), `${lines.join('\n')}\n`);
  const verify = await bundle.run(d, 'trace', 'verify', join(folder, 'tampered.jsonl'));
  assert.equal(verify.code, 1);
  assert.match(verify.stdout + verify.stderr, /tampered\.jsonl:3: not a trace event: unknown field extra/);
});

test('snapshot data nested deeper than the limit is a snapshot error, not a stack overflow', async () => {
  const d = sample();
  // Written as text: JSON.stringify itself would overflow on it.
  const deep = `${'{"a":'.repeat(6000)}1${'}'.repeat(6000)}`;
  writeFileSync(join(d, 'deep.snapshot.json'), `{"queries":[{"id":"q","query":"x","pools":{"p":{"status":"healthy","records":[${deep}]}}}]}`);
  const run = await bundle.run(d, 'run', 'AGENTS.md', '--snapshot', 'deep.snapshot.json', '-q', 'q');
  assert.equal(run.code, 2);
  assert.match(run.stderr, /more than 200 levels deep/);
  assert.doesNotMatch(run.stderr, /RangeError|stack/);
});

test('eval names traces apart when two snapshot paths slug alike', async () => {
  const d = sample();
  const snap = readFileSync(join(d, SNAPSHOT), 'utf8').replace(/^contract:.*$/m, '');
  for (const dir of [join('c', 'a', 'b'), join('c', 'a-b')]) {
    cpSync(join(d, 'AGENTS.md'), join(d, dir, 'AGENTS.md'), { recursive: true });
    writeFileSync(join(d, dir, 'x.snapshot.yaml'), snap);
  }
  const r = await bundle.run(d, 'eval', 'c');
  const folder = join(d, '.agents-md', 'runs', readdirSync(join(d, '.agents-md', 'runs'))[0]!);
  const traces = readdirSync(folder).filter((f) => f.endsWith('.jsonl'));
  assert.ok(traces.length >= 2, r.stdout + r.stderr);
  for (const t of traces) assert.equal((await bundle.run(d, 'trace', 'verify', join(folder, t))).code, 0, `${t} verifies`);
});

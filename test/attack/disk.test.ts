// Attack suite, a full disk (docs/robustness.md, "Writes: all or nothing"): `lint --fix` and a
// dry run on a filesystem with a few KB free, mounted by the test (a 64 KiB tmpfs; as root on
// Linux), and the one writer with an injected write that fails as a full disk does (everywhere).
// A file we change keeps its old bytes or gets its new ones, never a truncated mix; a full disk is
// an I/O error with exit 2 and a sentence, never a stack.
// Run: node --import tsx --test test/attack/disk.test.ts
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, useCliBundle } from '../helpers/cli.ts';
import { CONTRACT, SNAPSHOT } from '../helpers/dryRun.ts';
import { writeFileAtomic } from '../../server/src/node/atomicWrite.ts';
import { InputError } from '../../server/src/node/inputError.ts';

const { bundle: cli, scratch } = useCliBundle('attack-cli');

const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

describe('the one writer, with a write that fails as a full disk does', () => {
  test('a write failing half-way leaves the old bytes and no temporary file', () => {
    const dir = scratch.workspace({ 'AGENTS.md': 'old text\n'.repeat(100) });
    const file = join(dir, 'AGENTS.md');
    let written = 0;
    const calls = {
      writeSync: (_fd: number, _data: Uint8Array, _offset: number, length: number) => {
        if (written > 0) throw enospc();
        written = Math.min(length, 100);
        return written;
      },
      fsyncSync: () => {},
    };
    assert.throws(() => writeFileAtomic(file, 'new text\n'.repeat(200), {}, 'AGENTS.md', calls), (e: unknown) => e instanceof InputError && e.message === 'Cannot write AGENTS.md: no space left on the device');
    assert.equal(readFileSync(file, 'utf8'), 'old text\n'.repeat(100));
    assert.deepEqual(readdirSync(dir), ['AGENTS.md']);
  });

  test('a file that changed since it was read is not written', () => {
    const dir = scratch.workspace({ 'AGENTS.md': 'edited by someone else\n' });
    const file = join(dir, 'AGENTS.md');
    assert.throws(() => writeFileAtomic(file, 'ours\n', { expected: Buffer.from('what we read\n') }, 'AGENTS.md'), /AGENTS\.md: the file changed since it was read; nothing was written/);
    assert.equal(readFileSync(file, 'utf8'), 'edited by someone else\n');
  });

  test('the new bytes replace the file and keep its mode', () => {
    const dir = scratch.workspace({ 'run.sh': 'a\n' });
    const file = join(dir, 'run.sh');
    spawnSync('chmod', ['0750', file]);
    writeFileAtomic(file, 'b\n');
    assert.equal(readFileSync(file, 'utf8'), 'b\n');
    assert.equal(statSync(file).mode & 0o777, 0o750);
    assert.deepEqual(readdirSync(dir), ['run.sh']);
  });
});

/** A 64 KiB tmpfs mounted on a new folder, or why it cannot be (the tests then skip saying so). */
function smallDisk(): { dir?: string; why?: string } {
  if (process.platform !== 'linux') return { why: 'a tmpfs is mounted on Linux only; the injected-write tests above cover the writer' };
  const dir = mkdtempSync(join(tmpdir(), 'agents-md-full-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { why: `cannot mount a small tmpfs here (${(r.stderr || r.error?.message || 'mount failed').trim()}; needs root): the injected-write tests above cover the writer` };
  }
  return { dir };
}

/** Fills the disk up to `leave` bytes free with a file `filler`. */
function fill(dir: string, leave: number): void {
  const free = (): number => Number(spawnSync('df', ['-B1', '--output=avail', dir], { encoding: 'utf8' }).stdout.trim().split('\n').pop());
  writeFileSync(join(dir, 'filler'), Buffer.alloc(Math.max(0, free() - leave)));
}

describe('a full disk through the real command line', () => {
  const disk = smallDisk();
  const skip = disk.why ?? false;
  after(() => {
    if (disk.dir) {
      spawnSync('umount', [disk.dir]);
      rmSync(disk.dir, { recursive: true, force: true });
    }
  });
  before(() => {
    if (disk.dir) for (const name of readdirSync(disk.dir)) rmSync(join(disk.dir, name), { recursive: true, force: true });
  });

  test('lint --fix with 4 KB free keeps the contract byte for byte, exit 2, a sentence and no stack', { skip }, async () => {
    const ws = join(disk.dir!, 'fix');
    cpSync(join(REPO, 'samples', 'broken'), ws, { recursive: true });
    const original = readFileSync(join(ws, 'AGENTS.md'));
    fill(disk.dir!, 4096);
    const r = await cli.run(ws, 'lint', 'AGENTS.md', '--fix');
    rmSync(join(disk.dir!, 'filler'));
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /Cannot write AGENTS\.md: no space left on the device/);
    assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
    assert.doesNotMatch(r.stderr, /fixed \d+ problems/);
    assert.ok(readFileSync(join(ws, 'AGENTS.md')).equals(original), 'the contract is byte for byte as it was');
    assert.deepEqual(readdirSync(ws).filter((n) => n.endsWith('.tmp')), [], 'no temporary file left');
    rmSync(ws, { recursive: true, force: true });
  });

  for (const [what, files, written] of [
    ['the runs folder is new', {}, /Cannot write \.agents-md\/\.gitignore: no space left on the device/],
    ['the trace cannot be written', { '.agents-md/.gitignore': '*\n' }, /Cannot write \.agents-md\/runs\/[^ ]+\/trace\.jsonl: no space left on the device/],
  ] as const) test(`a dry run on a full disk (${what}): exit 2, a sentence, no stack, no empty file or folder left`, { skip }, async () => {
    const ws = join(disk.dir!, 'run');
    cpSync(scratch.workspace({ 'AGENTS.md': CONTRACT, 'snapshots/orders.snapshot.yaml': SNAPSHOT, ...files }), ws, { recursive: true });
    fill(disk.dir!, 0);
    const r = await cli.run(ws, 'run', 'AGENTS.md', '-s', 'snapshots/orders.snapshot.yaml');
    rmSync(join(disk.dir!, 'filler'));
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, written);
    assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
    const runs = join(ws, '.agents-md', 'runs');
    const left = existsSync(runs) ? readdirSync(runs).flatMap((id) => readdirSync(join(runs, id)).map((n) => ({ n, size: statSync(join(runs, id, n)).size }))) : [];
    assert.deepEqual(left, [], 'no file, and no run folder, left behind');
    assert.ok(!existsSync(join(ws, '.agents-md', '.gitignore')) || readFileSync(join(ws, '.agents-md', '.gitignore'), 'utf8') === '*\n');
    rmSync(ws, { recursive: true, force: true });
  });
});

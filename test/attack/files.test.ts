// Attack suite, files (docs/robustness.md, "Files that never end" and "Reads outside the
// workspace"): a hostile repository made in a temporary folder — links to /dev/zero and
// /dev/urandom, FIFOs, a sparse 1.5 GB contract, link loops, `extends` into /dev/zero, resources
// that climb out of the workspace — through the real command line. Each case must end quickly, with
// a clear message and the documented exit code, and never read what it must not.
// Run: node --import tsx --test test/attack/files.test.ts
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, openSync, closeSync, ftruncateSync, symlinkSync, writeFileSync, readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { useCliBundle } from '../helpers/cli.ts';
import { CONTRACT } from '../helpers/dryRun.ts';

const { bundle: cli, scratch } = useCliBundle('attack-cli');

const CONTRACT_OK = '---\ncontract: true\nname: ok_agent\nversion: 1.0.0\n---\n\n## AGENT_IDENTITY\n\n- **Name**: `OkAgent`\n- **Core Mandate**: "Answer."\n';
const canFifo = process.platform !== 'win32';
const mkfifo = (path: string) => execFileSync('mkfifo', [path]);
const FAKE_TOKEN = 'gho_FAKEtoken0123456789abcdefABCDEF';

describe('files that never end', { concurrency: true }, () => {
  test('a link to /dev/urandom and a FIFO found by a scan: lint ends and lints the real contract only', { skip: !canFifo && 'no FIFOs on this platform' }, async () => {
    const ws = scratch.workspace({ 'AGENTS.md': CONTRACT_OK });
    symlinkSync('/dev/urandom', join(ws, 'evil.agents.md'));
    mkdirSync(join(ws, 'sub'));
    mkfifo(join(ws, 'sub', 'pipe.agents.md'));
    const r = await cli.run(ws, 'lint', '.', '--format', 'json');
    assert.equal(r.code, 1, r.stderr);
    // The link leads out of the workspace and the FIFO is no file: neither is part of the scan.
    assert.deepEqual((JSON.parse(r.stdout) as { file: string }[]).map((f) => f.file), ['AGENTS.md']);
  });

  test('a FIFO or /dev/zero named on the command line is refused unread', { skip: !canFifo && 'no FIFOs on this platform' }, async () => {
    const ws = scratch.workspace({});
    mkfifo(join(ws, 'AGENTS.md'));
    const r = await cli.run(ws, 'lint', 'AGENTS.md', '/dev/zero');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /AGENTS\.md: cannot be read \(not a regular file/);
    assert.match(r.stderr, /\/dev\/zero: cannot be read \(not a regular file/);
  });

  test('a sparse 1.5 GB contract is reported too large without being read', async () => {
    const ws = scratch.workspace({});
    const fd = openSync(join(ws, 'AGENTS.md'), 'w');
    ftruncateSync(fd, 1.5 * 1024 ** 3);
    closeSync(fd);
    const r = await cli.run(ws, 'lint', '.', '--format', 'json');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /file-too-large/);
    assert.match(r.stdout, /1610612736/);
  });

  test('"extends" into /dev/zero or a FIFO is an unreadable configuration (exit 2), not a hang', { skip: !canFifo && 'no FIFOs on this platform' }, async () => {
    for (const target of ['../../../../../../../../dev/zero', 'pipe.json']) {
      const ws = scratch.workspace({ 'AGENTS.md': CONTRACT_OK, '.agents-md.json': JSON.stringify({ extends: target }) });
      mkfifo(join(ws, 'pipe.json'));
      const r = await cli.run(ws, 'lint', '.');
      assert.equal(r.code, 2, `${target}: ${r.stderr}`);
      assert.match(r.stderr, /cannot be read/);
    }
  });

  // As root every folder is readable: the CLI then runs as `nobody` (uid 65534) to meet the lock.
  const asOther = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  test('an unreadable subfolder: lint . names it and exits 2, after linting the rest', { skip: process.platform === 'win32' && 'no POSIX permissions on this platform' }, () => {
    const ws = scratch.workspace({ 'AGENTS.md': CONTRACT_OK, 'locked/AGENTS.md': CONTRACT_OK, 'node_modules/x/AGENTS.md': CONTRACT_OK });
    chmodSync(ws, 0o755);
    chmodSync(join(ws, 'locked'), 0o000);
    chmodSync(join(ws, 'node_modules'), 0o000);
    try {
      const r = spawnSync(process.execPath, [cli.bin, 'lint', '.', '--format', 'json'], { cwd: ws, encoding: 'utf8', env: { ...process.env, LANG: 'C.UTF-8' }, timeout: 60_000, ...asOther });
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, /locked: cannot be read \(permission denied\)/);
      assert.doesNotMatch(r.stderr, /node_modules/, 'excluded folders are not entered');
      assert.deepEqual((JSON.parse(r.stdout) as { file: string }[]).map((f) => f.file), ['AGENTS.md']);
    } finally {
      chmodSync(join(ws, 'locked'), 0o755);
      chmodSync(join(ws, 'node_modules'), 0o755);
    }
  });

  test('an unreadable subfolder: eval . names it and exits 2, after running the rest', { skip: process.platform === 'win32' && 'no POSIX permissions on this platform' }, () => {
    const snapshot = 'contract: ../AGENTS.md\nqueries:\n  - id: q\n    query: hi\n    model:\n      - final: hi\n';
    const ws = scratch.workspace({ 'AGENTS.md': CONTRACT_OK, 'snapshots/ok.snapshot.yaml': snapshot, 'locked/x.snapshot.yaml': snapshot });
    // The run folder is written as the other user too.
    chmodSync(ws, 0o777);
    chmodSync(join(ws, 'locked'), 0o000);
    try {
      const r = spawnSync(process.execPath, [cli.bin, 'eval', '.', '--json'], { cwd: ws, encoding: 'utf8', env: { ...process.env, LANG: 'C.UTF-8' }, timeout: 60_000, ...asOther });
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, /locked: cannot be read \(permission denied\)/);
      assert.deepEqual((JSON.parse(r.stdout) as { queries: { snapshot: string }[] }).queries.map((q) => q.snapshot), ['snapshots/ok.snapshot.yaml']);
    } finally {
      chmodSync(join(ws, 'locked'), 0o755);
    }
  });

  test('a link loop lists each contract once', async () => {
    const ws = scratch.workspace({ 'a/AGENTS.md': CONTRACT_OK });
    symlinkSync('..', join(ws, 'a', 'loop'));
    symlinkSync(join(ws, 'a'), join(ws, 'again'));
    const r = await cli.run(ws, 'lint', '.', '--format', 'json');
    const files = (JSON.parse(r.stdout) as { file: string }[]).map((f) => f.file);
    assert.deepEqual(files, ['a/AGENTS.md']);
  });

  test('a snapshot whose contract is /dev/zero or a FIFO: run and eval end with exit 2', { skip: !canFifo && 'no FIFOs on this platform' }, async () => {
    const ws = scratch.workspace({ 'x.snapshot.yaml': 'contract: /dev/zero\nqueries:\n  - id: q\n    query: hi\n    model:\n      - final: hi\n' });
    mkfifo(join(ws, 'AGENTS.md'));
    for (const args of [['run', '/dev/zero', '-s', 'x.snapshot.yaml'], ['run', 'AGENTS.md', '-s', 'x.snapshot.yaml'], ['eval', '.']]) {
      const r = await cli.run(ws, ...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /dev\/zero|AGENTS\.md/);
    }
  });
});

test('.agents-md being a file is a clear input error (exit 2), not "internal error: ENOTDIR"', async () => {
  const ws = scratch.workspace({ 'AGENTS.md': CONTRACT, '.agents-md': 'not a folder', 'x.snapshot.yaml': 'contract: AGENTS.md\nnow: "2024-06-12T08:00:00Z"\nqueries:\n  - id: q\n    query: where is order ORD-123\n    model:\n      - final: "{}"\n' });
  const r = await cli.run(ws, 'run', 'AGENTS.md', '-s', 'x.snapshot.yaml');
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /\.agents-md is not a folder/);
  assert.doesNotMatch(r.stderr, /internal error|ENOTDIR|    at /);
});

describe('reads outside the workspace', { concurrency: true }, () => {
  // A fake credentials file beside the workspace, as a CLI tool's hosts.yml would be.
  const outsideWorkspace = () => {
    const home = scratch.workspace({ '.config/gh/hosts.yml': `github.com:\n  oauth_token: ${FAKE_TOKEN}\n` });
    const ws = join(home, 'projects', 'repo');
    mkdirSync(ws, { recursive: true });
    return ws;
  };
  const climbing = '../../.config/gh/hosts.yml';
  const hostile = CONTRACT.replace('Fall back to a polite apology', `Fall back to \`${climbing}\``).replace('- **If a required pool is down**: → Stop → Alert `#orders` with severity `P2` → Return error_code `MEMORY_UNAVAILABLE`', `- **If a required pool is down**: → Fall back to \`${climbing}\` → Return error_code \`MEMORY_UNAVAILABLE\``)
    + `\n## RESOURCES\n\n| Path | SHA-256 |\n|---|---|\n| \`${climbing}\` | 0000000000000000000000000000000000000000000000000000000000000000 |\n`;

  test('lint: a resource that climbs out of the workspace is an error', async () => {
    const ws = outsideWorkspace();
    writeFileSync(join(ws, 'AGENTS.md'), hostile);
    const r = await cli.run(ws, 'lint', 'AGENTS.md', '--format', 'json');
    assert.equal(r.code, 1, r.stderr);
    const diags = (JSON.parse(r.stdout) as { diagnostics: { code: string; message: string }[] }[])[0]!.diagnostics;
    assert.ok(diags.some((d) => d.code === 'resource-missing' && /outside the workspace folder/.test(d.message)), JSON.stringify(diags));
    assert.doesNotMatch(r.stdout, /resource-hash-mismatch/);
  });

  test('run: the fallback file outside the workspace is never read into the answer or the trace', async () => {
    const ws = outsideWorkspace();
    writeFileSync(join(ws, 'AGENTS.md'), hostile);
    writeFileSync(join(ws, 'down.snapshot.yaml'), 'contract: AGENTS.md\nnow: "2024-06-12T08:00:00Z"\npools:\n  order_log:\n    status: unavailable\n    records: []\nqueries:\n  - id: q\n    query: where is order ORD-123\n    model:\n      - final: "{}"\n');
    const r = await cli.run(ws, 'run', 'AGENTS.md', '-s', 'down.snapshot.yaml', '--json');
    assert.doesNotMatch(r.stdout + r.stderr, new RegExp(FAKE_TOKEN));
    const runs = join(ws, '.agents-md', 'runs');
    assert.ok(existsSync(runs), r.stderr);
    for (const run of readdirSync(runs)) for (const f of readdirSync(join(runs, run))) assert.doesNotMatch(readFileSync(join(runs, run, f), 'utf8'), new RegExp(FAKE_TOKEN));
  });

  test('a link inside the workspace to a file outside it is not read as a resource', async () => {
    const ws = outsideWorkspace();
    symlinkSync(join(ws, '..', '..', '.config', 'gh', 'hosts.yml'), join(ws, 'hosts.yml'));
    writeFileSync(join(ws, 'AGENTS.md'), hostile.replaceAll(climbing, 'hosts.yml'));
    writeFileSync(join(ws, 'down.snapshot.yaml'), 'contract: AGENTS.md\nnow: "2024-06-12T08:00:00Z"\npools:\n  order_log:\n    status: unavailable\n    records: []\nqueries:\n  - id: q\n    query: where is order ORD-123\n    model:\n      - final: "{}"\n');
    const r = await cli.run(ws, 'run', 'AGENTS.md', '-s', 'down.snapshot.yaml', '--json');
    assert.doesNotMatch(r.stdout + r.stderr, new RegExp(FAKE_TOKEN));
  });
});

// The dry run through the real command line (issue 4 items 5, 7 and 8): the esbuild bundle
// started by bin/agents-md.cjs. Every query of every sample snapshot gives its expected outcome
// and exit code; eval reports them with the figures and the path drift; a run killed mid-write
// leaves a trace whose completed events all verify; nothing is written outside .agents-md/runs/.
// Run: node --import tsx --test test/run-cli.test.ts
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { readSnapshot } from '../server/src/service/run/snapshotValidate.ts';
import { RunFolder } from '../server/src/node/runFolder.ts';
import { CONTRACT } from './helpers/dryRun.ts';
import { CliUnderTest, repo, type CliRun } from './helpers/cliProcess.ts';

const tool = new CliUnderTest('run-cli');
const BIN = tool.bin;
const scratch: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agents-md-run-'));
  scratch.push(dir);
  return dir;
}

/** Runs the CLI in `cwd` without colours. */
function cli(cwd: string, ...args: string[]): Promise<CliRun> {
  return tool.run(cwd, args, { ...process.env, NO_COLOR: '1' });
}

/** Every file under `dir`, relative, `/`-separated. */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p).split('\\').join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

const SAMPLE_SNAPSHOTS = ['procurement-analyzer', 'device-diagnosis', 'contract-extraction', 'broken', 'coding-agent'].flatMap((s) =>
  readdirSync(join(repo, 'samples', s, 'snapshots')).map((f) => ({ contract: `samples/${s}/AGENTS.md`, snapshot: `samples/${s}/snapshots/${f}` })),
);

const EXIT = { success: 0, failure: 1, fallback: 3, cancelled: 130 } as const;

before(() => tool.build());

after(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  tool.remove();
});

describe('agents-md run on the sample snapshots', { concurrency: true }, () => {
  const runs = tempDir();
  for (const { contract, snapshot } of SAMPLE_SNAPSHOTS) {
    const snap = readSnapshot(readFileSync(join(repo, snapshot), 'utf8')).snapshot!;
    for (const q of snap.queries) {
      test(`${snapshot} › ${q.id}: ${q.expect?.outcome} ${q.expect?.code ?? ''} ${q.expect?.errorCode ?? ''}`, async () => {
        const r = await cli(repo, 'run', contract, '--snapshot', snapshot, '--query', q.id, '--json', '--root', runs);
        const out = JSON.parse(r.stdout) as { outcome: { status: keyof typeof EXIT; code: string; protocol?: { error_code: string } }; stats: { tools: string[] }; trace: string };
        assert.equal(out.outcome.status, q.expect?.outcome, r.stdout);
        if (q.expect?.code) assert.equal(out.outcome.code, q.expect.code);
        if (q.expect?.errorCode) assert.equal(out.outcome.protocol?.error_code, q.expect.errorCode);
        if (q.expect?.tools) assert.deepEqual(out.stats.tools, q.expect.tools);
        assert.equal(r.code, EXIT[out.outcome.status], r.stderr);
        assert.ok(existsSync(join(repo, out.trace)), `trace written: ${out.trace}`);
      });
    }
  }
});

describe('agents-md run, trace, eval', { concurrency: true }, () => {
  const PROCUREMENT = ['samples/procurement-analyzer/AGENTS.md', '--snapshot', 'samples/procurement-analyzer/snapshots/procurement.snapshot.yaml'];

  test('the timeline reads trigger → memory → prompt → tool calls → validation → outcome, with the clause of a failure', async () => {
    const root = tempDir();
    const ok = await cli(repo, 'run', ...PROCUREMENT, '--query', 'happy-path', '--root', root);
    assert.equal(ok.code, 0, ok.stderr);
    const labels = ok.stdout.split('\n').map((l) => l.split(' ')[0]).filter(Boolean);
    const order = ['RUN', 'TRIGGER', 'MEMORY', 'PROMPT', 'STEP', 'TOOL', 'HUMAN', 'CHECK', 'OUTPUT', 'OUTCOME', 'trace:'];
    let at = 0;
    for (const l of labels) if (l === order[at]) at++;
    assert.equal(at, order.length, ok.stdout);
    assert.match(ok.stdout, /^OUTCOME +✓ success OK: The answer passed every check the dry run could make after 3 model steps; 1 could not be checked\.$/m);
    const bad = await cli(repo, 'run', ...PROCUREMENT, '--query', 'vendor-not-whitelisted', '--root', root);
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /^OUTCOME +✗ failure SAFETY_VIOLATION: The final answer breaks the safety guard "Never suggest a vendor that is not in `vendor_whitelist\.csv`\.": .* is false\. \(samples\/procurement-analyzer\/AGENTS\.md:\d+:\d+\)$/m);
  });

  test('--approve and --reject answer every pause; usage errors exit 2 with the reason', async () => {
    const root = tempDir();
    const rejected = await cli(repo, 'run', ...PROCUREMENT, '--query', 'happy-path', '--reject', '--json', '--root', root);
    assert.equal(rejected.code, 1);
    assert.equal(JSON.parse(rejected.stdout).outcome.code, 'HUMAN_REJECTED');
    const approved = await cli(repo, 'run', ...PROCUREMENT, '--query', 'new-vendor-no-sign-off', '--approve', '--json', '--root', root);
    assert.equal(JSON.parse(approved.stdout).outcome.code, 'MODEL_PROTOCOL_ERROR', 'approved, the run goes on to a script with no steps');
    const both = await cli(repo, 'run', ...PROCUREMENT, '--approve', '--reject');
    assert.equal(both.code, 2);
    const which = await cli(repo, 'run', ...PROCUREMENT, '--root', root);
    assert.equal(which.code, 2);
    assert.match(which.stderr, /has 9 queries \(happy-path, non-json-answer, .*\): choose one with --query/);
    const unknown = await cli(repo, 'run', ...PROCUREMENT, '--query', 'nope', '--root', root);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no query "nope"/);
    const missing = await cli(repo, 'run', 'samples/procurement-analyzer/AGENTS.md', '--snapshot', 'nowhere.snapshot.yaml');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nowhere\.snapshot\.yaml: the snapshot cannot be read \(ENOENT\)/);
  });

  test('a malformed snapshot is refused with file:line:col and exit 2', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'AGENTS.md'), CONTRACT);
    writeFileSync(join(dir, 'bad.snapshot.yaml'), 'now: "2024-06-12T08:00:00Z"\nqueries:\n  - id: a\n    query: q\n    model:\n      - { call: get_order, final: x }\n    expect: { outcome: maybe }\n');
    const r = await cli(dir, 'run', 'AGENTS.md', '--snapshot', 'bad.snapshot.yaml');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^bad\.snapshot\.yaml:6:9 error snapshot-step-kind A model step needs exactly one of call, calls or final\.$/m);
    assert.match(r.stderr, /^bad\.snapshot\.yaml:7:24 error snapshot-schema queries\[0\]\.expect\.outcome: must be one of "success", "fallback", "failure", "cancelled"\.$/m);
    assert.match(r.stderr, /bad\.snapshot\.yaml: the snapshot has errors \(above\)/);
    assert.equal(existsSync(join(dir, '.agents-md')), false, 'nothing written');
  });

  test('eval reports every sample query, the figures and the path drift against the previous eval', async () => {
    const root = tempDir();
    const first = await cli(repo, 'eval', 'samples', '--root', root);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const total = SAMPLE_SNAPSHOTS.reduce((n, s) => n + readSnapshot(readFileSync(join(repo, s.snapshot), 'utf8')).snapshot!.queries.length, 0);
    assert.match(first.stdout, new RegExp(`^${total} of ${total} queries met their expectations \\(0 failed\\)\\.$`, 'm'));
    assert.match(first.stdout, /^success rate \d+\.\d% · average rounds \d+\.\d\d · tokens \d+ \(average \d+\) · human-intervention rate \d+\.\d%$/m);
    assert.match(first.stdout, /^path drift: no previous eval run/m);
    const second = JSON.parse((await cli(repo, 'eval', 'samples', '--root', root, '--json')).stdout) as { figures: { total: number; passed: number }; drift: { compared: number; changed: unknown[] } };
    assert.equal(second.figures.passed, total);
    assert.equal(second.drift.compared, total);
    assert.deepEqual(second.drift.changed, []);
  });

  test('eval: a failed expectation exits 1 and a changed script shows as path drift', async () => {
    const ws = tempDir();
    cpSync(join(repo, 'samples', 'device-diagnosis'), ws, { recursive: true });
    assert.equal((await cli(ws, 'eval')).code, 0);
    const file = join(ws, 'snapshots', 'diagnosis.snapshot.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('  - id: repair-ticket', '  - id: repair-ticket\n    human: { create_repair_ticket: reject }').replace(/\n    human:\n      create_repair_ticket: approve\n/, '\n'));
    const r = await cli(ws, 'eval');
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^✗ FAIL {2}snapshots\/diagnosis\.snapshot\.yaml › repair-ticket {13}failure {3}HUMAN_REJECTED\n {4}expected outcome success, got failure$/m);
    assert.match(r.stdout, /path drift against \S+-eval: 1 of 9 queries took another path/);
    assert.match(r.stdout, /repair-ticket: tool:query_manual_section → human:approve → tool:create_repair_ticket → final {2}⇒ {2}tool:query_manual_section → human:reject → HUMAN_REJECTED/);
  });

  test('trace verify, show, replay and fork on a real run; nothing is written outside .agents-md/runs/', async () => {
    const ws = tempDir();
    cpSync(join(repo, 'samples', 'procurement-analyzer'), ws, { recursive: true });
    const before = tree(ws);
    const run = JSON.parse((await cli(ws, 'run', 'AGENTS.md', '--snapshot', 'snapshots/procurement.snapshot.yaml', '--query', 'happy-path', '--json')).stdout) as { trace: string; run_id: string };
    const verify = await cli(ws, 'trace', 'verify', run.trace);
    assert.equal(verify.code, 0, verify.stdout);
    assert.match(verify.stdout, /: 32 events, chain and checksums intact\.\nThe run is complete \(ends with task_end\)\.\n$/);
    const show = await cli(ws, 'trace', 'show', run.trace);
    assert.equal(show.code, 0);
    assert.match(show.stdout, /^evt_0032 OUTCOME +✓ success OK/m, 'trace show starts each event with the id trace fork --at takes');
    assert.match(show.stdout, /^evt_0018 HUMAN +⏸ paused for a human/m);
    const prompt = await cli(ws, 'trace', 'show', run.trace, '--prompt');
    assert.equal(prompt.code, 0, prompt.stderr);
    assert.match(prompt.stdout, /^You are /);
    const messages = await cli(ws, 'trace', 'show', run.trace, '--messages', '2');
    assert.equal(messages.code, 0, messages.stderr);
    assert.match(messages.stdout, /^── system ──\nYou are /);
    assert.match(messages.stdout, /^── assistant ──\n→ \S+ check_inventory \{"sku":"LAP-0042"\}$/m);
    assert.match(messages.stdout, /^── tool \S+ ──\n\{"sku":"LAP-0042","in_stock":12\}$/m);
    assert.doesNotMatch(messages.stdout, /create_approval_draft \{/, 'only what the model had been sent before step 2');
    assert.equal((await cli(ws, 'trace', 'show', run.trace, '--messages', '9')).code, 2);
    const replay = await cli(ws, 'trace', 'replay', run.trace);
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
    assert.match(replay.stdout, /32 events, the same as the original/);
    const fork = await cli(ws, 'trace', 'fork', run.trace, '--at', 'evt_0017', '--reject', '--json');
    assert.equal(fork.code, 1, fork.stderr);
    const forked = JSON.parse(fork.stdout) as { trace: string; outcome: { code: string }; forked_from: string };
    assert.equal(forked.outcome.code, 'HUMAN_REJECTED');
    assert.equal(forked.forked_from, run.run_id);
    assert.equal((await cli(ws, 'trace', 'verify', forked.trace)).code, 0);
    const lines = readFileSync(join(ws, forked.trace), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { event_id: string; event_type: string });
    assert.deepEqual(readFileSync(join(ws, forked.trace), 'utf8').split('\n').slice(0, 17), readFileSync(join(ws, run.trace), 'utf8').split('\n').slice(0, 17));
    assert.equal(lines[17]!.event_type, 'fork');
    assert.ok(lines.slice(17).every((e) => /^fork-\d{8}T\d{9}Z\/evt_\d{4}$/.test(e.event_id)));
    const replayFork = await cli(ws, 'trace', 'replay', forked.trace);
    assert.equal(replayFork.code, 0, replayFork.stdout + replayFork.stderr);
    assert.match(replayFork.stdout, /: \d+ events, the same as the original\./, 'a forked trace replays');
    const noEvent = await cli(ws, 'trace', 'fork', run.trace, '--at', 'evt_9999');
    assert.equal(noEvent.code, 2);
    await cli(ws, 'eval');
    const added = tree(ws).filter((f) => !before.includes(f));
    assert.ok(added.length > 0);
    assert.deepEqual(added.filter((f) => !f.startsWith('.agents-md/runs/')), ['.agents-md/.gitignore']);
    assert.deepEqual(tree(ws).filter((f) => before.includes(f)), before, 'no file removed');
  });

  test('runs stay out of Source Control: .agents-md/ ignores itself, an existing .gitignore there is kept', () => {
    const ws = tempDir();
    const git = (...args: string[]) => execFileSync('git', args, { cwd: ws, encoding: 'utf8' });
    git('init', '-q');
    RunFolder.create(ws, 'first').file('trace.jsonl');
    writeFileSync(RunFolder.create(ws, 'second').file('trace.jsonl'), '{}\n');
    assert.equal(git('status', '--porcelain', '--untracked-files=all'), '');
    writeFileSync(join(ws, '.agents-md', '.gitignore'), 'runs/\n');
    RunFolder.create(ws, 'third');
    assert.equal(readFileSync(join(ws, '.agents-md', '.gitignore'), 'utf8'), 'runs/\n');
  });

  test('a run folder refuses names that would leave it', () => {
    const folder = RunFolder.create(tempDir(), '../../etc/passwd');
    assert.match(folder.id, /^\d{8}T\d{9}Z-etc-passwd$/);
    assert.throws(() => folder.file('../x'), /outside the run folder/);
    assert.throws(() => folder.file('/tmp/x'), /outside the run folder/);
  });
});

describe('a run killed mid-write', () => {
  test('SIGKILL during a long run: every completed event verifies, the run is reported incomplete, and replay resumes it', async () => {
    const ws = tempDir();
    writeFileSync(join(ws, 'AGENTS.md'), CONTRACT.replace('- **Max Steps**: 6', '- **Max Steps**: 100'));
    const steps = Array.from({ length: 40 }, (_, i) => ({ call: 'get_order', arguments: { order_id: `ORD-${1000 + i}` }, delay_ms: 50 }));
    const snap = { now: '2024-06-12T08:00:00Z', pools: { order_log: { updated_at: '2024-06-12T04:00:00Z', records: [{ order_id: 'ORD-1', status: 'paid' }] } }, tools: { get_order: [{ output: { status: 'paid' }, delay_ms: 100 }] }, queries: [{ id: 'long', query: 'where is order ORD-1', model: [...steps, { final: { status: 'paid' } }] }] };
    writeFileSync(join(ws, 'long.snapshot.json'), JSON.stringify(snap));
    const child = spawn(process.execPath, [BIN, 'run', 'AGENTS.md', '--snapshot', 'long.snapshot.json', '--real-delays'], { cwd: ws, stdio: 'ignore' });
    const runs = join(ws, '.agents-md', 'runs');
    let trace = '';
    for (let i = 0; i < 600; i++) {
      await new Promise((r) => setTimeout(r, 25));
      const dirs = existsSync(runs) ? readdirSync(runs) : [];
      trace = dirs[0] ? join(runs, dirs[0], 'trace.jsonl') : '';
      if (trace && existsSync(trace) && readFileSync(trace, 'utf8').split('\n').length > 25) break;
    }
    child.kill('SIGKILL');
    await new Promise((r) => child.on('close', r));
    const raw = readFileSync(trace, 'utf8');
    assert.doesNotMatch(raw, /"event_type":"task_end"/, 'killed before the end');
    // Each event is one write(2) of a whole line, so the kill almost always lands between lines;
    // if it tore one, verify reports it apart, as below.
    const text = raw.slice(0, raw.lastIndexOf('\n') + 1);
    const complete = text.split('\n').length - 1;
    assert.ok(complete >= 25, `${complete} events written before the kill`);
    const verify = await cli(ws, 'trace', 'verify', relative(ws, trace));
    assert.equal(verify.code, 3, verify.stdout);
    assert.match(verify.stdout, new RegExp(`: ${complete} events, chain and checksums intact\\.`));
    assert.match(verify.stdout, /The run is incomplete/);
    // A torn write (here: half a line appended by hand) is reported apart from the intact events before it.
    writeFileSync(trace, text + text.split('\n')[3]!.slice(0, 57));
    const torn = await cli(ws, 'trace', 'verify', relative(ws, trace));
    assert.equal(torn.code, 3);
    assert.match(torn.stdout, new RegExp(`:${complete + 1}: line ${complete + 1}: torn last line \\(57 bytes without a line end\\)`));
    assert.match(torn.stdout, new RegExp(`: ${complete} events, chain and checksums intact\\.`));
    // The interrupted run replays as far as it went, then goes on with the snapshot's script.
    writeFileSync(trace, text.slice(0, text.lastIndexOf('\n') + 1));
    const replay = await cli(ws, 'trace', 'replay', relative(ws, trace));
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
    assert.match(replay.stdout, /the same as the original/);
    // A changed event in the middle is corruption: exit 1, at its line.
    const lines = text.split('\n');
    lines[4] = lines[4]!.replace(/"status":"\w+"/, '"status":"timeout"');
    writeFileSync(trace, lines.join('\n'));
    const broken = await cli(ws, 'trace', 'verify', relative(ws, trace));
    assert.equal(broken.code, 1);
    assert.match(broken.stdout, /:5: line 5: event evt_0005 has checksum/);
  });
});

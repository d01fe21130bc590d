// The dry run through the real command line (docs/dry-run.md, docs/cli.md): the esbuild bundle
// started by bin/agents-md.cjs. Every query of every sample snapshot gives its expected outcome
// and exit code; eval reports them with the figures and the path drift; a run killed mid-write
// leaves a trace whose completed events all verify; nothing is written outside .agents-md/runs/.
// Run: node --import tsx --test test/run-cli.test.ts
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { readSnapshot } from '../server/src/service/run/snapshot/snapshotValidate.ts';
import { RunFolder } from '../server/src/node/runFolder.ts';
import { CONTRACT } from './helpers/dryRun.ts';
import { CliUnderTest, repo, type CliRun } from './helpers/cliProcess.ts';

const tool = new CliUnderTest();
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
        assert.ok(existsSync(resolve(repo, out.trace)), `trace written: ${out.trace}`);
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

  test('the sample scripts both answers to its human questions: approving ends with an answer, not a model error', async () => {
    const root = tempDir();
    for (const query of ['large-purchase-rejected', 'new-vendor-no-sign-off']) {
      const approved = await cli(repo, 'run', ...PROCUREMENT, '--query', query, '--approve', '--root', root);
      assert.equal(approved.code, 0, approved.stdout);
      assert.match(approved.stdout, /^OUTCOME +✓ success OK: /m);
      assert.doesNotMatch(approved.stdout, /MODEL_PROTOCOL_ERROR/);
      const rejected = await cli(repo, 'run', ...PROCUREMENT, '--query', query, '--reject', '--json', '--root', root);
      assert.equal(JSON.parse(rejected.stdout).outcome.code, 'HUMAN_REJECTED');
    }
  });

  test('--approve and --reject answer every pause; usage errors exit 2 with the reason', async () => {
    const root = tempDir();
    const rejected = await cli(repo, 'run', ...PROCUREMENT, '--query', 'happy-path', '--reject', '--json', '--root', root);
    assert.equal(rejected.code, 1);
    assert.equal(JSON.parse(rejected.stdout).outcome.code, 'HUMAN_REJECTED');
    const approved = await cli(repo, 'run', ...PROCUREMENT, '--query', 'new-vendor-no-sign-off', '--approve', '--json', '--root', root);
    assert.equal(JSON.parse(approved.stdout).outcome.code, 'OK', 'approved, the run goes on to the answer scripted after the sign-off');
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
    assert.match(missing.stderr, /nowhere\.snapshot\.yaml: the snapshot cannot be read \(no such file or directory\)/);
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
    assert.match(r.stdout, /^✗ FAIL {2}snapshots\/diagnosis\.snapshot\.yaml › repair-ticket +failure {3}HUMAN_REJECTED\n {4}expected outcome success, got failure$/m);
    assert.match(r.stdout, /path drift against \S+-eval: 1 of 12 queries took another path/);
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

  test('trace fork --set changes the snapshot the fork goes on with (a tool result, a decision); the fork replays with it', async () => {
    const ws = tempDir();
    cpSync(join(repo, 'samples', 'procurement-analyzer'), ws, { recursive: true });
    const run = JSON.parse((await cli(ws, 'run', 'AGENTS.md', '--snapshot', 'snapshots/procurement.snapshot.yaml', '--query', 'happy-path', '--json')).stdout) as { trace: string };
    // evt_0012: check_inventory's arguments passed their schema; its result comes after the fork point.
    const fork = await cli(ws, 'trace', 'fork', run.trace, '--at', 'evt_0012', '--set', 'tools.check_inventory.0.output={sku: LAP-0042, in_stock: 0}', '--set', 'query.human.create_approval_draft=reject');
    assert.equal(fork.code, 1, fork.stdout + fork.stderr);
    assert.match(fork.stdout, /^RUN +✓ forked from \S+ at evt_0012\n {12}✓ snapshot changed: tools\.check_inventory\.0\.output=\{sku: LAP-0042, in_stock: 0\}\n {12}✓ snapshot changed: query\.human\.create_approval_draft=reject$/m);
    assert.match(fork.stdout, /^ +✓ check_inventory → \{"sku":"LAP-0042","in_stock":0\}$/m);
    assert.match(fork.stdout, /^OUTCOME +✗ failure HUMAN_REJECTED: A human rejected "create_approval_draft"\./m);
    const forked = /into (\S+)\.$/m.exec(fork.stdout)![1]!;
    const event = (readFileSync(join(ws, forked), 'utf8').split('\n').map((l) => (l ? (JSON.parse(l) as { event_type: string; payload: Record<string, unknown> }) : undefined))).find((e) => e?.event_type === 'fork')!;
    assert.deepEqual(event.payload['set'], ['tools.check_inventory.0.output={sku: LAP-0042, in_stock: 0}', 'query.human.create_approval_draft=reject']);
    const replay = await cli(ws, 'trace', 'replay', forked);
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
    assert.match(replay.stdout, /: \d+ events, the same as the original\./, 'the replay applies the same changes');
    assert.equal(readFileSync(join(ws, 'snapshots', 'procurement.snapshot.yaml'), 'utf8'), readFileSync(join(repo, 'samples', 'procurement-analyzer', 'snapshots', 'procurement.snapshot.yaml'), 'utf8'), 'the snapshot file is not changed');
    for (const [set, message] of [
      ['in_stock', /^agents-md: --set in_stock: write path=value/m],
      ['now.x=1', /^agents-md: --set now\.x=1: now\.x goes through a value that is not a list or a map$/m],
      ['tools.check_inventory=[1', /^agents-md: --set tools\.check_inventory=\[1: the value is not YAML: /m],
      // A value of the wrong kind is named by its --set, not by a place in a text the user never saw.
      ['tools.check_inventory=12', /^agents-md: --set tools\.check_inventory=12: snapshot-schema tools\.check_inventory: must be array\.$/m],
    ] as const) {
      const bad = await cli(ws, 'trace', 'fork', run.trace, '--at', 'evt_0012', '--set', set);
      assert.equal(bad.code, 2, `${set}: ${bad.stdout}${bad.stderr}`);
      assert.match(bad.stderr, message, set);
    }
  });

  test('eval --repeat N runs each query N times and reports its pass rate; --compare A B compares two eval runs query by query', async () => {
    const ws = tempDir();
    cpSync(join(repo, 'samples', 'procurement-analyzer'), ws, { recursive: true });
    const repeated = await cli(ws, 'eval', '--repeat', '3', '--json');
    assert.equal(repeated.code, 0, repeated.stderr);
    const a = JSON.parse(repeated.stdout) as { run_id: string; repeat: number; pass_rates: { key: string; runs: number; passed: number; rate: number }[]; queries: { key: string; attempt: number; trace: string }[] };
    assert.equal(a.repeat, 3);
    assert.equal(a.pass_rates.length, 9);
    assert.ok(a.pass_rates.every((r) => r.runs === 3 && r.passed === 3 && r.rate === 1), JSON.stringify(a.pass_rates));
    assert.equal(a.queries.length, 27);
    assert.deepEqual(a.queries.filter((q) => q.key.endsWith('#happy-path')).map((q) => q.attempt), [1, 2, 3]);
    assert.equal(new Set(a.queries.map((q) => q.trace)).size, 27, 'a trace per run');
    const text = await cli(ws, 'eval', '--repeat', '2');
    assert.match(text.stdout, /^✓ PASS +snapshots\/procurement\.snapshot\.yaml › happy-path +success +OK +2\/2 runs passed$/m);
    assert.match(text.stdout, /^each query ran 2 times: 9 of 9 queries passed every run$/m);
    // Queries and runs are counted apart: 9 queries, not 18.
    assert.match(text.stdout, /^9 queries, each run 2 times: 18 of 18 runs met their expectations \(0 failed\)\.$/m);
    assert.doesNotMatch(text.stdout, /18 queries/);
    // JUnit: every run a test case of its own name.
    const junit = await cli(ws, 'eval', '--repeat', '3', '--format', 'junit');
    const names = [...junit.stdout.matchAll(/<testcase classname="[^"]*" name="([^"]*)"/g)].map((m) => m[1]);
    assert.equal(names.length, 27);
    assert.equal(new Set(names).size, 27, 'no test case name repeats');
    assert.deepEqual(names.filter((n) => n!.startsWith('happy-path')), ['happy-path', 'happy-path #2', 'happy-path #3']);
    for (const bad of ['0', 'two', '1001']) {
      const r = await cli(ws, 'eval', '--repeat', bad);
      assert.equal(r.code, 2);
      assert.match(r.stderr, new RegExp(`^agents-md: --repeat ${bad}: give a whole number from 1 to 1000\\.$`, 'm'));
    }

    // B: the contract raises the large-purchase threshold; one query breaks.
    writeFileSync(join(ws, 'AGENTS.md'), readFileSync(join(ws, 'AGENTS.md'), 'utf8').replace('budget_max > 50000', 'budget_max > 90000'));
    const b = JSON.parse((await cli(ws, 'eval', '--json')).stdout) as { run_id: string };
    const compared = await cli(ws, 'eval', '--compare', a.run_id, b.run_id);
    assert.equal(compared.code, 1, compared.stdout + compared.stderr);
    assert.match(compared.stdout, new RegExp(`^comparing ${a.run_id} → ${b.run_id}: 1 broken, 0 fixed, 0 changed, 0 removed, 0 added, 8 the same$`, 'm'));
    assert.match(compared.stdout, /^✗ BROKEN +snapshots\/procurement\.snapshot\.yaml › large-purchase-rejected\n {4}A: ✓ PASS HUMAN_REJECTED \/ HITL003 \(tool:check_inventory → human:reject → HUMAN_REJECTED\) {2}⇒ {2}B: ✗ FAIL HUMAN_TIMEOUT \(tool:check_inventory → human:timeout → HUMAN_TIMEOUT\)\n {4}expected code HUMAN_REJECTED, got HUMAN_TIMEOUT$/m);
    assert.match(compared.stdout, /^A → B: 27\/27 → 8\/9 runs met their expectations · success rate 22\.2% → 22\.2% · /m);
    // The other way round it is fixed, and a run can be named by its folder or its eval.json.
    const back = await cli(ws, 'eval', '--compare', join('.agents-md', 'runs', b.run_id), join('.agents-md', 'runs', a.run_id, 'eval.json'), '--json');
    assert.equal(back.code, 0, back.stderr);
    const json = JSON.parse(back.stdout) as { queries: { key: string; change: string; differences: string[] }[] };
    assert.deepEqual(json.queries.filter((q) => q.change !== 'same').map((q) => [q.key, q.change, q.differences]), [['snapshots/procurement.snapshot.yaml#large-purchase-rejected', 'fixed', ['code', 'error_code', 'path']]]);
    const one = await cli(ws, 'eval', '--compare', a.run_id);
    assert.equal(one.code, 2);
    assert.match(one.stderr, /--compare takes two eval runs .*, got 1\.$/m);
    const missing = await cli(ws, 'eval', '--compare', a.run_id, 'no-such-run');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^agents-md: no-such-run: not an eval run/m);
  });

  test('bad input to eval and trace: a refused eval writes nothing, an empty trace is exit 2, trace show --html --beside marks the differences', async () => {
    const ws = tempDir();
    cpSync(join(repo, 'samples', 'procurement-analyzer'), ws, { recursive: true });
    // An endpoint the user did not trust: refused, exit 2, and no eval run left to become the next drift baseline.
    writeFileSync(join(ws, '.agents-md.json'), JSON.stringify({ model: { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' } }));
    const env = { ...process.env, NO_COLOR: '1', AGENTS_MD_TRUSTED_ENDPOINTS: '' };
    const refused = await tool.run(ws, ['eval'], env);
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /--trust-endpoint http:\/\/127\.0\.0\.1:9\/v1/);
    assert.equal(existsSync(join(ws, '.agents-md', 'runs')) ? readdirSync(join(ws, '.agents-md', 'runs')).length : 0, 0, 'nothing written');
    rmSync(join(ws, '.agents-md.json'));
    const first = await cli(ws, 'eval');
    assert.match(first.stdout, /^path drift: no previous eval run/m, first.stdout);

    // An empty trace file is input that cannot be used (docs/cli.md, "Exit codes": 2), said plainly.
    writeFileSync(join(ws, 'empty.jsonl'), '');
    for (const sub of ['verify', 'show', 'replay']) {
      const empty = await cli(ws, 'trace', sub, 'empty.jsonl');
      assert.equal(empty.code, 2, `${sub}: ${empty.stdout}${empty.stderr}`);
      assert.match(empty.stderr, /^agents-md: empty\.jsonl is empty: a trace has at least its task_start event\.$/m);
    }

    // The picture of a run beside its fork, as a file.
    const run = JSON.parse((await cli(ws, 'run', 'AGENTS.md', '--snapshot', 'snapshots/procurement.snapshot.yaml', '--query', 'large-purchase-rejected', '--json')).stdout) as { trace: string };
    const human = readFileSync(join(ws, run.trace), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event_id: string; event_type: string }).find((e) => e.event_type === 'human_input')!;
    const fork = JSON.parse((await cli(ws, 'trace', 'fork', run.trace, '--at', human.event_id, '--approve', '--json')).stdout) as { trace: string };
    const shown = await cli(ws, 'trace', 'show', run.trace, '--html', 'run.html', '--beside', fork.trace);
    assert.equal(shown.code, 0, shown.stderr);
    const html = readFileSync(join(ws, 'run.html'), 'utf8');
    assert.equal(html.split('<div class="run">').length, 3, 'two columns');
    assert.match(html, /fork at evt_\d+/);
    assert.match(html, /<p class="diff-note">\d+ events differ between the two runs \(marked\): \d+ in [^,<]+, \d+ in [^<]+\.<\/p>/);
    assert.match(html, /<span class="where">AGENTS\.md:\d+:\d+<\/span>/);
    assert.doesNotMatch(html, /<script|https?:/);
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
    assert.match(torn.stdout, new RegExp(`:${complete + 1}: torn last line \\(57 bytes without a line end\\)`));
    assert.doesNotMatch(torn.stdout, /: line \d+:/, 'the line number is said once');
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
    assert.match(broken.stdout, /:5: event evt_0005 has checksum/);
  });
});

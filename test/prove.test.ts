/**
 * `agents-md prove` in the service (docs/prove.md): the corpus under test/prove-corpus (one folder
 * per case: a contract and the findings expected, with their witnesses), every witness replayed as
 * a dry run through the snapshot format `agents-md run` reads, and the samples.
 * Run: node --import tsx --test test/prove.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseContract, proveContract as proveWith, replayWitness, witnessSnapshot, readSnapshot, type ParsedContract } from '../server/src/service/index.ts';
import { format } from '../server/src/service/host.ts';
import { z3Solver } from '../server/src/node/z3Solver.ts';
import { REPO } from './helpers/cli.ts';

// Every proof here is Z3's (docs/prove.md, "The solver"); the package must load on this Node.
const solver = await z3Solver();
assert.ok(solver, 'z3-solver loads');
const proveContract = (m: ParsedContract) => proveWith(m, { solver });

const CORPUS = join(REPO, 'test', 'prove-corpus');
const cases = readdirSync(CORPUS).sort();
const load = (dir: string) => parseContract(readFileSync(join(dir, 'AGENTS.md'), 'utf8'));

interface Expected {
  readonly obligation: string;
  readonly proved: boolean;
  readonly qualified?: string[];
  readonly witness?: unknown;
}

test('the corpus has true and false cases of every obligation, English and Chinese (at least 20)', () => {
  assert.ok(cases.length >= 20, cases.join(', '));
  const expected = cases.flatMap((c) => JSON.parse(readFileSync(join(CORPUS, c, 'expected.json'), 'utf8')) as Expected[]);
  for (const o of ['ungated-side-effect', 'dead-gate', 'shadowed-gate', 'vacuous-guard', 'forbidden-sequence']) assert.ok(expected.some((e) => e.obligation === o), o);
  assert.ok(cases.filter((c) => readFileSync(join(CORPUS, c, 'expected.json'), 'utf8').trim() === '[]').length >= 5);
});

for (const name of cases) {
  test(`corpus ${name}: the expected findings, witnesses and results`, async () => {
    const dir = join(CORPUS, name);
    const got = await proveContract(load(dir));
    const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Expected[];
    assert.deepEqual(
      got.map((f) => ({ obligation: f.obligation, proved: f.proved, ...(f.qualified.length ? { qualified: [...new Set(f.qualified.map((q) => q.id))] } : {}), ...(f.witness ? { witness: f.witness } : {}) })),
      expected,
    );
  });
}

test('every witness of the corpus replays as a dry run and shows the violation', async () => {
  let replayed = 0;
  for (const name of cases) {
    const model = load(join(CORPUS, name));
    for (const f of await proveContract(model)) {
      if (!f.witness) continue;
      // The snapshot is one `agents-md run` reads: no error diagnostics.
      const raw = witnessSnapshot(model, f, 'AGENTS.md')!;
      const read = readSnapshot(JSON.stringify(raw), { lang: 'json', contract: model });
      assert.deepEqual(read.diagnostics.filter((d) => d.severity === 'error'), [], name);
      const r = await replayWitness(model, f);
      assert.equal(r?.confirmed, true, `${name}: ${f.obligation}`);
      replayed++;
    }
  }
  assert.ok(replayed >= 10, String(replayed));
});

test('a threshold gate is bypassed at its boundary: the call runs with no human asked', async () => {
  const model = load(join(CORPUS, '01-threshold-bypass'));
  const [f] = await proveContract(model);
  const r = await replayWitness(model, f!);
  const types = r!.events.map((e) => e.event_type);
  assert.ok(types.includes('tool_result'));
  assert.ok(!types.includes('human_input'));
  assert.equal(f!.message.id, 'prove.ungated-side-effect');
  assert.match(format(f!.message.id, f!.message.args, 'en'), /runs without a human for \{"invoice_id":"x","amount":50000,"currency":"USD"\}/);
  assert.match(format(f!.message.id, f!.message.args, 'zh-cn'), /pay_invoice/);
  assert.equal(f!.range.start.line, readFileSync(join(CORPUS, '01-threshold-bypass', 'AGENTS.md'), 'utf8').split('\n').findIndex((l) => l.includes('### `pay_invoice`')));
});

test('a gate approved by the tool flag is not a finding: its replay would pause (the engine stops it)', async () => {
  assert.deepEqual(await proveContract(load(join(CORPUS, '02-approval-flag'))), []);
});

test('the clean samples have no findings; samples/broken has the vacuous guard on output.vendor', async () => {
  for (const s of ['procurement-analyzer', 'device-diagnosis', 'contract-extraction', 'after-sales-zh', 'coding-agent']) {
    assert.deepEqual(await proveContract(load(join(REPO, 'samples', s))), [], s);
  }
  const broken = await proveContract(load(join(REPO, 'samples', 'broken')));
  assert.deepEqual(broken.map((f) => [f.obligation, f.message.args['property']]), [['vacuous-guard', 'vendor']]);
});

test('a condition over 30 names ends (the search is bounded) and still finds the bypass', async () => {
  const text = readFileSync(join(CORPUS, '01-threshold-bypass', 'AGENTS.md'), 'utf8').replace('| Big payment | `amount > 50000` |', `| Big payment | \`amount > 50000 OR ${Array.from({ length: 30 }, (_, i) => `a${i} > ${i}`).join(' OR ')}\` |`);
  const [f] = await proveContract(parseContract(text));
  assert.equal(f?.obligation, 'ungated-side-effect');
  assert.equal(f!.witness?.kind, 'call');
});

test('without a solver nothing is proved: the candidate search qualifies its witness, and claims no dead gate', async () => {
  const bypass = await proveWith(load(join(CORPUS, '22-arithmetic-bypass')));
  assert.deepEqual(bypass.map((f) => [f.obligation, f.proved, f.qualified[0]?.id]), [['ungated-side-effect', false, 'prove.reason.nosolver']]);
  assert.deepEqual(await proveWith(load(join(CORPUS, '21-arithmetic-dead-gate'))), []);
  // With Z3, the same contracts: `amount + fee > 50000` is solved, the witness at its boundary.
  const [solved] = await proveContract(load(join(CORPUS, '22-arithmetic-bypass')));
  assert.deepEqual([solved!.proved, solved!.witness?.kind === 'call' && solved!.witness.input['amount']], [true, 50000]);
});

test('an unmodelled part of a gate is left open: a dead gate is still proved, a bypass is qualified and names it', async () => {
  const text = readFileSync(join(CORPUS, '01-threshold-bypass', 'AGENTS.md'), 'utf8');
  const regex = await proveContract(parseContract(text.replace('`amount > 50000`', "`amount > 50000 OR invoice_id MATCHES '^VIP'`")));
  assert.deepEqual(regex.map((f) => [f.obligation, f.proved, f.qualified.map((q) => q.args['what'])]), [['ungated-side-effect', false, ['MATCHES']]]);
  const dead = await proveContract(parseContract(text.replace('`amount > 50000`', "`amount > 200000 AND lower(invoice_id) = 'x'`").replace('- **Side Effects**: write', '- **Side Effects**: write\n- **Requires Approval**: true')));
  assert.deepEqual(dead.map((f) => [f.obligation, f.proved]), [['dead-gate', true]]);
});

test('forbidden-sequence: a tool behind a chain of order boundaries ending at a forbidden tool; the one-step case is left to lint', async () => {
  const dir = join(CORPUS, '24-forbidden-chain');
  const [f] = await proveContract(load(dir));
  assert.equal(f!.pointer, '/identity/hard_boundaries/0');
  assert.equal(format(f!.message.id, f!.message.args, 'en'), 'Tool `pay_invoice` can never run: the order boundaries make it wait for `pay_invoice` ← `fetch_profile` ← `verify_identity`, and a ❌ boundary forbids `verify_identity`, so every sequence of calls that reaches `pay_invoice` is refused.');
  // A loop of three tools: each is reported at its own boundary (a loop of two is boundary-contradiction's).
  const text = readFileSync(join(CORPUS, '26-sequence-allowed', 'AGENTS.md'), 'utf8').replace('  - ❌ Never call `verify_identity` more than 2 times per run', '  - ❌ Never call `verify_identity` before `pay_invoice`');
  const loop = await proveContract(parseContract(text));
  assert.deepEqual(loop.map((x) => [x.obligation, x.message.id, x.pointer]), [0, 1, 2].map((i) => ['forbidden-sequence', 'prove.forbidden-sequence.cycle', `/identity/hard_boundaries/${i}`]));
  assert.match(format(loop[0]!.message.id, loop[0]!.message.args, 'zh-cn'), /永远无法运行/);
});

test('a contract with many gates ends: past its solver checks, the candidate search answers and says so', async () => {
  const rows = Array.from({ length: 24 }, (_, i) => `| Gate ${i} | \`amount * amount > ${1000 + i}\` | A finance lead approves | 4h | ${i % 2 ? 'reject' : 'escalate'} |`).join('\n');
  const text = readFileSync(join(CORPUS, '01-threshold-bypass', 'AGENTS.md'), 'utf8').replace('| Big payment | `amount > 50000` | A finance lead approves | 4h | reject |', rows);
  const found = await proveContract(parseContract(text));
  assert.ok(found.some((f) => f.obligation === 'shadowed-gate' && f.qualified.some((q) => q.id === 'prove.reason.solver')), JSON.stringify(found.map((f) => [f.obligation, f.qualified.map((q) => q.id)])));
});

test('strings outside ASCII go through the solver and back: the witness is the Chinese enum value the gate lets through', async () => {
  const text = readFileSync(join(CORPUS, '01-threshold-bypass', 'AGENTS.md'), 'utf8').replace('"enum": ["USD", "EUR"]', '"enum": ["人民币", "US\\\\D\\"x"]').replace('`amount > 50000`', "`currency != '人民币'`");
  const [f] = await proveContract(parseContract(text));
  assert.deepEqual([f?.obligation, f?.proved, f?.witness?.kind === 'call' ? f.witness.input['currency'] : undefined], ['ungated-side-effect', true, '人民币']);
});

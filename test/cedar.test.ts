/**
 * `agents-md export --to cedar` (docs/enforcement.md), with Cedar's official engine
 * (`@cedar-policy/cedar-wasm`): the corpus under test/cedar-corpus (one folder per construct: a
 * contract, its expected policies, the decisions Cedar must take on calls and memory writes), every
 * sample's policies validating against their schema, and the decision check over every sample's
 * dry-run traces, run by the real CLI.
 * Run: node --import tsx --test test/cedar.test.ts
 * After a deliberate change of the policies: CEDAR_UPDATE=1 node --import tsx --test test/cedar.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cedarExport, parseContract } from '../server/src/service/index.ts';
import { decideCall, decidePool, validateExport } from '../server/src/node/cedarEngine.ts';
import { forbiddenTools } from '../server/src/cli/cedar.ts';
import { REPO, useCliBundle } from './helpers/cli.ts';

const CORPUS = join(REPO, 'test', 'cedar-corpus');
const exportOf = (text: string) => {
  const model = parseContract(text);
  return cedarExport(model, { file: 'AGENTS.md', forbidden: forbiddenTools(model) });
};

interface Call {
  readonly tool: string;
  readonly args?: Record<string, unknown>;
  readonly names?: Record<string, unknown>;
  readonly approvals?: string[];
  readonly files?: Record<string, string[]>;
  readonly expect: string;
}
interface Decisions {
  readonly calls: Call[];
  readonly pools?: { role: string; layer: string; action?: 'read-pool' | 'write-pool'; expect: string }[];
  readonly humans?: number;
}

const cases = readdirSync(CORPUS).sort();

test('the corpus has a case for each construct (at least 12)', () => {
  assert.ok(cases.length >= 12, cases.join(', '));
});

for (const name of cases) {
  test(`corpus ${name}: expected policies, valid against the schema, Cedar decides as expected`, () => {
    const dir = join(CORPUS, name);
    const x = exportOf(readFileSync(join(dir, 'AGENTS.md'), 'utf8'));
    const expectedFile = join(dir, 'expected.cedar');
    if (process.env['CEDAR_UPDATE'] === '1' || !existsSync(expectedFile)) writeFileSync(expectedFile, x.policies);
    assert.equal(x.policies, readFileSync(expectedFile, 'utf8'));
    assert.deepEqual(validateExport(x), []);
    const d = JSON.parse(readFileSync(join(dir, 'decisions.json'), 'utf8')) as Decisions;
    for (const c of d.calls) {
      const files = new Map(Object.entries(c.files ?? {}));
      const got = decideCall(x, { tool: c.tool, args: c.args ?? {}, names: c.names ?? {}, approvals: new Set(c.approvals ?? []), files });
      assert.equal(got.decision, c.expect, `${c.tool} ${JSON.stringify(c)}: ${got.reasons.join(', ')} ${got.errors.join('; ')}`);
    }
    for (const p of d.pools ?? []) assert.equal(decidePool(x, p.role, p.layer, p.action), p.expect, JSON.stringify(p));
    if (d.humans !== undefined) assert.equal(x.humans.length, d.humans);
  });
}

test('a condition Cedar cannot decide is never a silent permit: a comment names the clause and the policy requires a human', () => {
  const x = exportOf(readFileSync(join(CORPUS, '10-matches-untranslatable', 'AGENTS.md'), 'utf8'));
  assert.match(x.policies, /\/\/ requires a human: the condition of "External recipient" has no Cedar form \(MATCHES/);
  assert.match(x.policies, /@requires_human\(/);
  assert.deepEqual(x.humans.map((h) => h.clause), ['AGENTS.md:24']);
});

const SAMPLES = ['procurement-analyzer', 'device-diagnosis', 'contract-extraction', 'after-sales-zh', 'broken'];

test('every sample exports to Cedar policies that validate against their schema (strict mode)', () => {
  for (const s of SAMPLES) {
    const x = exportOf(readFileSync(join(REPO, 'samples', s, 'AGENTS.md'), 'utf8'));
    assert.deepEqual(validateExport(x), [], s);
    assert.match(x.policies, /@clause\("AGENTS\.md:\d+"\)/, s);
  }
});

test('docs/enforcement.md: the runtime snippet asks the engine as documented (allow, or the policies that hold the call back)', () => {
  const doc = readFileSync(join(REPO, 'docs', 'enforcement.md'), 'utf8');
  const snippet = /```js\n([\s\S]*?)```/.exec(doc)![1]!;
  // Beside the repository's node_modules, so that the snippet's import resolves as in a project.
  const dir = join(REPO, 'test-results', 'cedar-doc');
  mkdirSync(dir, { recursive: true });
  const model = parseContract(readFileSync(join(REPO, 'samples', 'procurement-analyzer', 'AGENTS.md'), 'utf8'));
  const x = cedarExport(model, { file: 'AGENTS.md' });
  writeFileSync(join(dir, 'policies.cedar'), x.policies);
  writeFileSync(join(dir, 'policies.cedarschema'), x.schema);
  writeFileSync(join(dir, 'snippet.mjs'), snippet);
  const calls = [
    `beforeToolCall('ProcurementAnalyzer', 'check_inventory', { sku: 'LAP-0042' }, {}, [])`,
    `beforeToolCall('ProcurementAnalyzer', 'create_approval_draft', { budget_max: 80000 }, {}, ['tool:create_approval_draft'])`,
    `beforeToolCall('ProcurementAnalyzer', 'create_approval_draft', { budget_max: 80000 }, {}, ['tool:create_approval_draft', 'hitl:Large purchase'])`,
  ];
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', `import { beforeToolCall } from './snippet.mjs'; console.log(JSON.stringify([${calls.join(', ')}]));`], { cwd: dir, encoding: 'utf8' });
  // policy5 is the sixth policy of the file (counted from 0): "Large purchase".
  assert.deepEqual(JSON.parse(out), ['allow', ['policy5'], 'allow']);
  assert.match(x.policies.split('\n@id(').slice(1)[5]!, /^"hitl:Large purchase"/);
});

const { bundle: cli, scratch } = useCliBundle('cedar');

test('export --to cedar --check: Cedar decides every tool call of every sample trace as the dry run did', async () => {
  let calls = 0;
  for (const s of ['procurement-analyzer', 'device-diagnosis', 'contract-extraction', 'broken']) {
    const dir = scratch.workspace({});
    cpSync(join(REPO, 'samples', s), dir, { recursive: true });
    const ran = await cli.runLong(dir, 120_000, 'eval');
    assert.ok(ran.code === 0 || ran.code === 1, `${s}: eval ${ran.code} ${ran.stderr}`);
    const r = await cli.run(dir, 'export', 'AGENTS.md', '--to', 'cedar', '--check', '.agents-md/runs', '--json');
    assert.equal(r.code, 0, `${s}: ${r.stdout} ${r.stderr}`);
    const report = JSON.parse(r.stdout) as { traces: number; calls: number; mismatches: number; stricter: number };
    assert.ok(report.traces > 0, s);
    assert.equal(report.mismatches, 0, s);
    assert.equal(report.stricter, 0, s);
    calls += report.calls;
  }
  assert.ok(calls >= 30, `tool calls checked: ${calls}`);
});

test('export --to cedar -o: the policies and their schema beside them; --check on a planted difference exits 1', async () => {
  const dir = scratch.workspace({});
  cpSync(join(REPO, 'samples', 'procurement-analyzer'), dir, { recursive: true });
  const w = await cli.run(dir, 'export', 'AGENTS.md', '--to', 'cedar', '-o', 'policies.cedar');
  assert.equal(w.code, 0, w.stderr);
  assert.match(readFileSync(join(dir, 'policies.cedar'), 'utf8'), /@id\("hitl:Large purchase"\)/);
  assert.match(readFileSync(join(dir, 'policies.cedarschema'), 'utf8'), /action "call-tool" appliesTo/);
  const ran = await cli.runLong(dir, 120_000, 'run', 'AGENTS.md', '-s', 'snapshots/procurement.snapshot.yaml', '--query', 'happy-path', '--approve');
  assert.equal(ran.code, 0, ran.stderr);
  // The happy path's draft of 4,800 USD was approved by a human for the tool alone; a contract whose
  // "Large purchase" starts at 1,000 would have asked for that row too: Cedar still denies after the approval.
  const text = readFileSync(join(dir, 'AGENTS.md'), 'utf8');
  writeFileSync(join(dir, 'AGENTS.md'), text.replace('`budget_max > 50000`', '`budget_max > 1000`'));
  const r = await cli.run(dir, 'export', 'AGENTS.md', '--to', 'cedar', '--check', '.agents-md/runs');
  assert.equal(r.code, 1, r.stdout + r.stderr);
  // The query's data says budget_max 4,800: every call of the run now fires the row in Cedar.
  assert.match(r.stdout, /✖ \S+trace\.jsonl call-1 check_inventory: the dry run decided "allowed", Cedar "needs a human" \(hitl:Large purchase\)/);
  assert.match(r.stdout, /✖ \S+trace\.jsonl call-2 create_approval_draft: .*still "needs a human" after the approvals tool:create_approval_draft: hitl:Large purchase/);
  assert.match(r.stdout, /2 different$/m);
});

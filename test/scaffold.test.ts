// A way into the format (docs/vscode.md, "Getting started"): the New-contract skeleton lints clean
// for each kind of agent, "Convert to contract" turns a free-form AGENTS.md into a contract, and
// the New-snapshot skeleton validates against schemas/snapshot.schema.json with one query per
// FAILURE_PROTOCOL entry, each meeting its own expectation when run.
// Run: node --import tsx --test test/scaffold.test.ts
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { memoryFs } from './helpers/memoryFs.ts';
import {
  AGENT_KINDS, agentName, applyEdits, contractSkeleton, convertToContract, createLanguageService, newContract, NOT_CANCELLED, parseContract, snapshotSkeleton,
  readSnapshot, workspaceDigests, runQuery, createScriptedModel, scriptedDecisions, checkExpectation,
} from '../server/src/service/index.ts';

const TODAY = '2026-12-01';
const lint = async (text: string) => (await createLanguageService().lintBytes('file:///w/AGENTS.md', new TextEncoder().encode(text))).diagnostics.map((d) => `${d.range.start.line + 1} ${d.code}: ${d.message}`);
const sample = (name: string) => readFileSync(new URL(`../samples/${name}/AGENTS.md`, import.meta.url), 'utf8');

describe('New AGENTS.md contract', () => {
  for (const kind of AGENT_KINDS) {
    test(`the ${kind} skeleton is a complete contract with no problem at all`, async () => {
      const text = contractSkeleton({ name: 'Order Helper', kind, today: TODAY });
      assert.equal(parseContract(text).kind, 'contract');
      assert.deepEqual(await lint(text), []);
      assert.match(text, /^name: order_helper$/m);
      assert.match(text, new RegExp(`\\| v0\\.1\\.0 \\| ${TODAY} \\|`));
      assert.equal(/update_record/.test(text), kind === 'acting');
    });
  }

  test('the name typed becomes a snake_case identifier', () => {
    assert.equal(agentName('Order Helper'), 'order_helper');
    assert.equal(agentName('invoiceBot v2'), 'invoice_bot_v2');
    assert.equal(agentName('  42 days  '), 'days');
    assert.equal(agentName('!!!'), 'my_agent');
  });

  test('a name in Chinese is kept as typed: the identifier, the title and the Name field', async () => {
    assert.equal(agentName('退款助手'), '退款助手');
    assert.equal(agentName('退款 Helper'), '退款_helper');
    const text = contractSkeleton({ name: '退款助手', kind: 'acting', today: TODAY });
    assert.match(text, /^name: 退款助手$/m);
    assert.match(text, /^# 退款助手$/m);
    assert.match(text, /^- \*\*Name\*\*: `退款助手`$/m);
    assert.deepEqual(await lint(text), []);
    assert.match(contractSkeleton({ name: 'Order Helper', kind: 'acting', today: TODAY }), /^# Order Helper$/m, 'the title is the name as typed');
  });
});

describe('New contracts in one workspace', () => {
  const ROOT = 'file:///ws';
  /** Makes contracts one after the other as the command does (each seeing those before it), then lints them all. */
  async function makeAll(made: readonly { name: string; kind: (typeof AGENT_KINDS)[number] }[]) {
    const files: Record<string, string> = {};
    const service = createLanguageService({ fs: memoryFs(files), roots: [ROOT] });
    const names: string[] = [];
    for (const m of made) {
      const r = newContract({ ...m, today: TODAY }, await workspaceDigests(service.workspace));
      const uri = `${ROOT}/${names.length === 0 ? '' : `${r.name}/`}AGENTS.md`;
      files[uri] = r.text;
      service.workspace.invalidate(uri);
      names.push(r.name);
    }
    const found: string[] = [];
    for (const [uri, text] of Object.entries(files)) {
      for (const d of (await service.lintBytes(uri, new TextEncoder().encode(text))).diagnostics) found.push(`${uri} ${d.code}: ${d.message}`);
    }
    return { names, found, files };
  }

  test('a read-only and an acting contract lint with no finding: their error codes do not collide', async () => {
    const { found, files } = await makeAll([{ name: 'Order Helper', kind: 'read-only' }, { name: '退款助手', kind: 'acting' }]);
    assert.deepEqual(found, []);
    assert.equal(Object.keys(files).length, 2);
  });

  test('the same name twice, or two names with no letter left, get names of their own', async () => {
    const { names, found } = await makeAll([{ name: '!!!', kind: 'acting' }, { name: '???', kind: 'read-only' }, { name: 'Order Helper', kind: 'acting' }, { name: 'order helper', kind: 'acting' }]);
    assert.deepEqual(names, ['my_agent', 'my_agent_2', 'order_helper', 'order_helper_2']);
    assert.deepEqual(found, []);
  });
});

describe('Convert to contract', () => {
  test('a free-form AGENTS.md gets front matter and the sections it lacks; its own text stays', async () => {
    const text = sample('coding-agent');
    const model = parseContract(text);
    assert.equal(model.kind, 'freeform');
    const actions = createLanguageService().codeActions({ uri: 'file:///w/AGENTS.md', model }, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, { diagnostics: [], today: TODAY }, NOT_CANCELLED);
    const convert = actions.filter((a) => a.kind === 'refactor');
    assert.deepEqual(convert.map((a) => a.title), ['Convert to an AGENTS.md contract']);
    const after = applyEdits(text, convert[0]!.edits);
    assert.ok(after.includes(text.trimEnd()), 'the existing text is kept');
    assert.equal(parseContract(after).kind, 'contract');
    assert.equal((after.match(/^## TOOLS$/gm) ?? []).length, 0, 'its own "## Tools" is not added twice');
    // What is left is about the file's own Tools table, which has no schemas: real problems with quick fixes.
    assert.deepEqual([...new Set((await lint(after)).map((d) => d.split(' ')[1]))].sort(), ['tool-missing-schema:', 'unknown-field:']);
    assert.equal(convertToContract(parseContract(after), { today: TODAY }).length, 0, 'not offered on a contract');
  });

  test('an empty AGENTS.md becomes the whole skeleton, which lints clean', async () => {
    const model = parseContract('');
    const [convert] = convertToContract(model, { today: TODAY, lang: 'zh-cn' });
    assert.equal(convert!.title, '转换为 AGENTS.md 契约');
    assert.deepEqual(await lint(applyEdits('', convert!.edits)), []);
  });
});

describe('New snapshot for this contract', () => {
  const schema = JSON.parse(readFileSync(new URL('../schemas/snapshot.schema.json', import.meta.url), 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);

  for (const kind of AGENT_KINDS) {
    test(`the ${kind} skeleton's snapshot: valid, one query per failure mode, each as expected when run`, async () => {
      const contract = parseContract(contractSkeleton({ name: 'order helper', kind, today: TODAY }));
      const text = snapshotSkeleton(contract, { today: TODAY, schemaPath: '../../schemas/snapshot.schema.json' });
      assert.ok(validate(parseYaml(text)), JSON.stringify(validate.errors));
      const read = readSnapshot(text, { contract });
      assert.deepEqual(read.diagnostics, []);
      const queries = read.snapshot!.queries;
      const failures = (contract.data['failure_protocol'] as { code: string }[]).map((f) => f.code);
      const gates = kind === 'acting' ? ['approve-update-record'] : [];
      assert.deepEqual(queries.map((q) => q.expect?.errorCode ?? q.id), ['happy-path', ...failures, ...gates]);
      for (const q of queries) {
        const asked: string[] = [];
        const decide = scriptedDecisions(q.human);
        const result = await runQuery({ contract, query: q, now: read.snapshot!.now!, provider: createScriptedModel(q.model), decide: (r) => (asked.push(r.subject), decide(r)) });
        assert.deepEqual(checkExpectation(q.expect, result), [], q.id);
        // A new user meets the approval gate (in VS Code: the Approve / Reject dialog).
        assert.deepEqual(asked, gates.includes(q.id) ? ['update_record'] : [], q.id);
      }
    });
  }

  test('in the Chinese UI the snapshot\'s comment and texts are Chinese, and name the lens as it reads there', () => {
    const contract = parseContract(contractSkeleton({ name: '退款助手', kind: 'acting', today: TODAY }));
    const text = snapshotSkeleton(contract, { today: TODAY, lang: 'zh-cn' });
    const comments = text.split('\n').filter((l) => l.startsWith('#'));
    assert.equal(comments.length, 2);
    for (const c of comments) assert.match(c, /\p{Script=Han}/u, c);
    assert.match(text, /“▶ 运行智能体”/);
    assert.doesNotMatch(text, /Run agent|Every pool is fresh|the world/);
    assert.ok(validate(parseYaml(text)), JSON.stringify(validate.errors));
    assert.match(snapshotSkeleton(contract, { today: TODAY }), /the ▶ Run agent lens/, 'English by default');
  });

  test("the samples' snapshots are valid too, with one query per FAILURE_PROTOCOL entry", () => {
    for (const name of ['device-diagnosis', 'procurement-analyzer', 'contract-extraction', 'after-sales-zh']) {
      const contract = parseContract(sample(name));
      const text = snapshotSkeleton(contract, { today: TODAY });
      assert.ok(validate(parseYaml(text)), `${name}: ${JSON.stringify(validate.errors)}`);
      assert.deepEqual(readSnapshot(text, { contract }).diagnostics.filter((d) => d.severity === 'error'), [], name);
      const entries = (contract.data['failure_protocol'] as unknown[]).length;
      const gated = parseYaml(text).queries.filter((q: { id: string }) => q.id.startsWith('approve-')).length;
      assert.equal(parseYaml(text).queries.length, entries + 1 + gated, name);
    }
  });
});

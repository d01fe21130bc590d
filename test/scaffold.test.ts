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
import {
  AGENT_KINDS, agentName, applyEdits, contractSkeleton, convertToContract, createLanguageService, NOT_CANCELLED, parseContract, snapshotSkeleton,
  readSnapshot, runQuery, createScriptedModel, scriptedDecisions, checkExpectation,
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
    assert.equal(agentName('设备诊断'), 'my_agent');
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
      assert.deepEqual(queries.map((q) => q.expect?.errorCode ?? q.id), ['happy-path', ...failures]);
      for (const q of queries) {
        const result = await runQuery({ contract, query: q, now: read.snapshot!.now!, provider: createScriptedModel(q.model), decide: scriptedDecisions(q.human) });
        assert.deepEqual(checkExpectation(q.expect, result), [], q.id);
      }
    });
  }

  test("the samples' snapshots are valid too, with one query per FAILURE_PROTOCOL entry", () => {
    for (const name of ['device-diagnosis', 'procurement-analyzer', 'contract-extraction', 'after-sales-zh']) {
      const contract = parseContract(sample(name));
      const text = snapshotSkeleton(contract, { today: TODAY });
      assert.ok(validate(parseYaml(text)), `${name}: ${JSON.stringify(validate.errors)}`);
      assert.deepEqual(readSnapshot(text, { contract }).diagnostics.filter((d) => d.severity === 'error'), [], name);
      const entries = (contract.data['failure_protocol'] as unknown[]).length;
      assert.equal(parseYaml(text).queries.length, entries + 1, name);
    }
  });
});

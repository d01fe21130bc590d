// Snapshot files (docs/dry-run.md): every problem is a diagnostic at the right place (LSP
// positions), names the contract does not declare are warnings, and no input makes the reader
// throw or hang (fast-check over arbitrary text, YAML and JSON).
// Run: node --import tsx --test test/run-snapshot.test.ts
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { readSnapshot, validateSnapshot } from '../server/src/service/run/snapshot/snapshotValidate.ts';
import { contract, SNAPSHOT } from './helpers/dryRun.ts';
import { RUNS } from './helpers/properties.ts';

/** The 0-based line and character where a diagnostic starts, with its code. */
const at = (text: string, lang?: 'json' | 'yaml') => validateSnapshot(text, lang ? { lang } : {}).map((d) => `${d.range.start.line}:${d.range.start.character} ${d.severity} ${d.code}`);

describe('snapshot diagnostics', () => {
  test('the test snapshot and the example of the schema are valid', () => {
    const r = readSnapshot(SNAPSHOT, { contract });
    assert.deepEqual(r.diagnostics, []);
    assert.equal(r.snapshot?.queries.length, 1);
  });

  test('YAML syntax errors and duplicate keys at their place', () => {
    assert.deepEqual(at('now: "2024-06-12T08:00:00Z"\nqueries:\n  - id: a\n    query: [unclosed\n'), ['4:0 error snapshot-syntax']);
    assert.deepEqual(at('now: "2024-06-12T08:00:00Z"\nqueries: []\nqueries: []\n'), ['2:0 error snapshot-duplicate-key']);
  });

  test('schema errors land on the key or value they are about', () => {
    const text = ['now: "2024-06-12T08:00:00Z"', 'pools:', '  log:', '    status: broken', 'queries:', '  - id: a', '    query: hi', '    colour: red', '  - query: no id', ''].join('\n');
    const ds = validateSnapshot(text);
    const show = ds.map((d) => `${d.range.start.line}:${d.range.start.character} ${d.message}`);
    assert.deepEqual(show, ['3:12 pools.log.status: must be one of "healthy", "unavailable", "stale".', '7:4 queries[0].colour: unknown key "colour".', '8:4 queries[1]: must have required property \'id\'.']);
  });

  test('rules the schema cannot state: one step kind, one way to give arguments, unique ids, known codes, a clock', () => {
    const text = [
      'queries:',
      '  - id: a',
      '    query: q',
      '    model:',
      '      - { call: x, final: y }',
      '      - { call: x, arguments: {}, raw_arguments: "{" }',
      '    expect: { code: NOPE }',
      '  - id: a',
      '    query: q',
      '',
    ].join('\n');
    assert.deepEqual(at(text), ['0:0 warning snapshot-no-now', '4:8 error snapshot-step-kind', '5:34 error snapshot-arguments-both', '6:20 error snapshot-unknown-code', '7:8 error snapshot-duplicate-query']);
  });

  test('JSON snapshots: parsed fast, positions still found for problems', () => {
    const json = JSON.stringify({ now: '2024-06-12T08:00:00Z', queries: [{ id: 'a', query: 'q', model: [{ final: 1, repeat: 0 }] }] }, null, 2);
    assert.deepEqual(at(json, 'json'), ['9:20 error snapshot-schema']);
    const syntax = validateSnapshot('{"queries": [1,]}', { lang: 'json' });
    assert.deepEqual(syntax.map((d) => `${d.range.start.line}:${d.range.start.character} ${d.code} ${d.message}`), ['0:15 snapshot-syntax ValueExpected']);
  });

  test('names the contract does not declare are warnings; fired names may keep the If of the label', () => {
    const text = SNAPSHOT.replace('queries:', 'queries:\n  - id: w\n    query: q\n    fire: [If the answer is not JSON, no such condition]\n    human: { Big refund: approve, nobody: reject }\n    tools: { teleport: [] }\n    expect: { error_code: ZZZ001 }');
    const ds = validateSnapshot(text, { contract });
    assert.deepEqual(ds.map((d) => `${d.severity} ${d.code} ${d.args['name'] ?? d.args['code']}`), [
      'warning snapshot-unknown-condition no such condition',
      'warning snapshot-unknown-decision-target nobody',
      'warning snapshot-unknown-tool teleport',
      'warning snapshot-unknown-error-code ZZZ001',
    ]);
    assert.ok(readSnapshot(text, { contract }).snapshot, 'warnings do not stop a run');
  });

  test('a snapshot that is too large is refused without being parsed', () => {
    const ds = validateSnapshot('x'.repeat(64 * 1024 * 1024 + 1));
    assert.equal(ds[0]?.code, 'snapshot-too-large');
  });
});

describe('bad input is normal input', () => {
  const anyJson = fc.jsonValue({ maxDepth: 4 });
  test('arbitrary text never throws', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.constantFrom<'yaml' | 'json'>('yaml', 'json'), (text, lang) => {
        const r = readSnapshot(text, { lang, contract });
        assert.ok(Array.isArray(r.diagnostics));
        for (const d of r.diagnostics) assert.ok(d.range.start.line >= 0 && d.message.length > 0);
      }),
      { numRuns: RUNS(300) },
    );
  });

  test('arbitrary YAML and JSON values, and mutations of a real snapshot, never throw', () => {
    const shaped = fc.record({ now: fc.oneof(fc.string(), anyJson), queries: fc.array(fc.dictionary(fc.constantFrom('id', 'query', 'model', 'human', 'pools', 'tools', 'expect', 'fire', 'entities'), anyJson), { maxLength: 3 }), pools: anyJson, tools: anyJson });
    fc.assert(
      fc.property(fc.oneof(anyJson, shaped), fc.boolean(), (value, asJson) => {
        const text = asJson ? JSON.stringify(value) : stringify(value);
        const r = readSnapshot(text, { lang: asJson ? 'json' : 'yaml', contract });
        if (r.snapshot) for (const q of r.snapshot.queries) assert.equal(typeof q.query, 'string');
      }),
      { numRuns: RUNS(300) },
    );
    fc.assert(
      fc.property(fc.nat(SNAPSHOT.length), fc.nat(40), fc.constantFrom('', ':', '- ', '{', '"', '&a ', '*a', '\t', '\n  ', '[', '#'), (pos, cut, insert) => {
        const text = SNAPSHOT.slice(0, pos) + insert + SNAPSHOT.slice(Math.min(SNAPSHOT.length, pos + cut));
        readSnapshot(text, { contract });
      }),
      { numRuns: RUNS(300) },
    );
  });

  test('an alias bomb is refused', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]', 'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]', 'e: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]', 'queries: []'].join('\n');
    const r = readSnapshot(bomb);
    assert.equal(r.snapshot, undefined);
    assert.equal(r.diagnostics[0]?.code, 'snapshot-syntax');
  });
});

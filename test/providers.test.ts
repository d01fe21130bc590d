/**
 * Provider profiles (docs/providers.md): each profile accepts the schemas its provider's own
 * documentation shows and rejects what that documentation says it rejects; the rule
 * `provider-schema` reports them inline (with the range of the construct) and in SARIF.
 * Run: node --import tsx --test test/providers.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as Sarif from 'sarif';
import { PROFILES, TARGETS } from '../server/src/service/providers/profiles.ts';
import { schemaProblems, toolProblems, requestProblems } from '../server/src/service/providers/check.ts';
import { lintExample } from './helpers/lintExample.ts';
import { useCliBundle } from './helpers/cli.ts';
import { FIXTURES } from './providers/fixtures.ts';

for (const f of FIXTURES) {
  test(`${f.target}: ${f.accepted ? 'accepts' : 'rejects'} ${f.title} (${f.source})`, () => {
    const profile = PROFILES[f.target];
    const problems = [...(f.schema !== undefined ? schemaProblems(f.schema, profile) : []), ...(f.tool ? toolProblems(f.tool, '', profile) : [])];
    if (f.accepted) assert.deepEqual(problems, []);
    else assert.deepEqual(problems.map((p) => `${p.path} ${p.variant}`), f.expected);
  });
}

test('every profile has a date, a source and fixtures of accepted and rejected schemas from its documentation', () => {
  for (const t of TARGETS) {
    const p = PROFILES[t];
    assert.match(p.checked, /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(p.sources.length > 0 && p.sources.every((s) => s.startsWith('https://')), t);
    assert.ok(FIXTURES.some((f) => f.target === t && f.accepted), `${t}: an accepted fixture`);
    assert.ok(FIXTURES.some((f) => f.target === t && !f.accepted), `${t}: a rejected fixture`);
  }
});

test('limits: nesting depth per schema, tools and optional parameters per request', () => {
  let deep: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < 11; i++) deep = { type: 'object', properties: { x: deep }, required: ['x'], additionalProperties: false };
  assert.deepEqual(schemaProblems(deep, PROFILES['openai-strict']).map((p) => `${p.variant} ${p.args['count']}`), ['depth 11']);
  assert.deepEqual(requestProblems(21, { properties: 30, enumValues: 0, optional: 25 }, PROFILES['anthropic-strict']).map((p) => `${p.variant} ${p.args['limit']} ${p.args['count']}`), ['tools 20 21', 'optional 24 25']);
  assert.deepEqual(requestProblems(3, { properties: 5001, enumValues: 1001, optional: 0 }, PROFILES['openai-strict']).map((p) => p.variant), ['properties', 'enums']);
  assert.deepEqual(toolProblems('x'.repeat(65), 'd'.repeat(1025), PROFILES['openai-strict']).map((p) => p.variant), ['name', 'description']);
});

const CONTRACT = [
  '---', 'contract: true', 'name: demo', 'version: 1.0.0', '---', '', '## TOOLS', '', '### `get_vendor`', '',
  '- **Description**: Vendor record by domain.',
  '- **Input Schema**:',
  '  ```json',
  '  { "type": "object", "properties": { "domain": { "type": "string", "minLength": 3 } }, "required": ["domain"], "additionalProperties": false }',
  '  ```',
  '',
].join('\n');

test('the rule reports each construct where it is written, for each target of the config only', async () => {
  const quiet = await lintExample(CONTRACT);
  assert.deepEqual(quiet.diagnostics.filter((d) => d.code === 'provider-schema'), []);
  const r = await lintExample(CONTRACT, { config: { targets: ['openai-strict', 'anthropic-strict', 'mcp'] } });
  const hits = r.diagnostics.filter((d) => d.code === 'provider-schema');
  const line = CONTRACT.split('\n')[13]!;
  const at = line.indexOf('"minLength"');
  assert.deepEqual(hits.map((d) => [d.severity, d.range.start.line, d.range.start.character, d.range.end.character, d.message]), [
    ['error', 13, at, at + '"minLength"'.length, 'openai-strict does not accept the keyword "minLength" (profile of 2026-12-01).'],
    ['error', 13, at, at + '"minLength"'.length, 'anthropic-strict does not accept the keyword "minLength" (profile of 2026-12-01).'],
  ]);
});

test('a config with an unknown target is a configuration problem', async () => {
  const r = await lintExample(CONTRACT, { config: { targets: ['openai'] } });
  assert.equal(r.configProblems.length, 1);
  assert.match(r.configProblems[0]!.message, /targets/);
});

const { bundle: cli, scratch } = useCliBundle('providers');

test('agents-md lint --format sarif reports provider-schema with its rule, range and message', async () => {
  const dir = scratch.workspace({ 'AGENTS.md': CONTRACT, '.agents-md.json': JSON.stringify({ targets: ['openai-strict'] }) });
  const run = await cli.run(dir, 'lint', '--format', 'sarif', 'AGENTS.md');
  assert.equal(run.code, 1, run.stderr);
  const log = JSON.parse(run.stdout) as Sarif.Log;
  const results = log.runs[0]!.results!.filter((x) => x.ruleId === 'provider-schema');
  assert.equal(results.length, 1);
  const region = results[0]!.locations![0]!.physicalLocation!.region!;
  assert.equal(region.startLine, 14);
  assert.match(results[0]!.message.text!, /openai-strict does not accept the keyword "minLength"/);
  assert.ok(log.runs[0]!.tool.driver.rules!.some((rule) => rule.id === 'provider-schema' && rule.fullDescription?.text));
});

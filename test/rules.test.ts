import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { RULES } from '../server/src/service/host.ts';
import { exampleWorkspace, lintExample as lint } from './helpers/lintExample.ts';

// Each rule's documented examples are its fixtures (docs/rules.md).
for (const rule of RULES) {
  if (!rule.examples.bad) continue;
  test(`${rule.code}: the bad example triggers it, the good one does not`, async () => {
    const bad = await lint(rule.examples.bad, exampleWorkspace(rule));
    assert.deepEqual(bad.configProblems, []);
    assert.ok(bad.diagnostics.some((d) => d.code === rule.code), `bad example of ${rule.code} gave: ${bad.diagnostics.map((d) => d.code).join(', ')}`);
    const good = await lint(rule.examples.good, exampleWorkspace(rule));
    const hits = good.diagnostics.filter((d) => d.code === rule.code);
    assert.deepEqual(hits.map((d) => d.message), [], `good example of ${rule.code} still triggers it`);
  });
}

test('every rule has a code, a summary, a description, a source and a default message', () => {
  const codes = new Set<string>();
  for (const r of RULES) {
    assert.match(r.code, /^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    assert.ok(!codes.has(r.code), `duplicate code ${r.code}`);
    codes.add(r.code);
    for (const k of ['summary', 'description', 'source'] as const) assert.ok(r[k].length > 10, `${r.code}.${k}`);
    assert.ok(r.messages.default.length > 10);
  }
});

test('the complete example in docs/contract-format.md passes every rule', async () => {
  const doc = readFileSync(new URL('../docs/contract-format.md', import.meta.url), 'utf8');
  const block = /<!-- example:start -->\s*`{3,}markdown\n([\s\S]*?)\n`{3,}\s*<!-- example:end -->/.exec(doc);
  assert.ok(block, 'the example markers');
  // Linted in a workspace without its resource files, which the doc does not ship.
  const r = await lint(block[1]!);
  assert.equal(r.model?.kind, 'contract');
  assert.deepEqual(r.diagnostics.filter((d) => d.code !== 'resource-missing').map((d) => `${d.range.start.line + 1} ${d.code}`), []);
});

test('coding-agent AGENTS.md headings that are contract aliases do not make a contract', async () => {
  const text = [
    '# Project', '', '## Dev environment tips', '', '- Use pnpm.', '', '## Error Handling', '', '- Log errors.', '- Retry network calls.', '',
    '## Definition of Done', '', '- Tests pass.', '', '## Changelog', '', 'Keep CHANGELOG.md current.', '', '## Role', '', '- **Style**: terse', '',
    '## Versioning', '', 'Semver.', '', '## Compliance', '', 'No secrets in logs.', '', '## Testing', '', 'Ask before deleting files.', '',
  ].join('\n');
  const r = await lint(text);
  assert.equal(r.model?.kind, 'freeform');
  assert.deepEqual(r.diagnostics, []);
});

test('configuration problems name the setting and the allowed values', async () => {
  const { validateConfig } = await import('../server/src/service/workspace/configSchema.ts');
  const { format } = await import('../server/src/service/l10n/format.ts');
  const texts = (data: unknown) => validateConfig(data).map((p) => format(p.messageId, p.args));
  assert.deepEqual(texts({ rules: { 'undeclared-tool': 'eror', 'no-such': 'off' }, bogus: 1 }), [
    'bogus: unknown setting',
    'rules.undeclared-tool: must be one of "off", "info", "warning", "error".',
    'rules.no-such: unknown rule',
  ]);
  assert.deepEqual(texts({ rules: { 'undeclared-tool': { severity: 'loud' } } }), ['rules.undeclared-tool.severity: must be one of "off", "info", "warning", "error".']);
  assert.deepEqual(texts({ rules: { 'undeclared-tool': 'warning' }, roles: ['Ops'] }), []);
  assert.deepEqual(texts({ roles: 'Ops' }), ['roles: must be of type array.']);
});

test('the diff policy names impact rules that exist: an unknown one is reported with the nearest name', async () => {
  const { validateConfig } = await import('../server/src/service/workspace/configSchema.ts');
  const { format } = await import('../server/src/service/l10n/format.ts');
  const texts = (data: unknown, lang = 'en') => validateConfig(data).map((p) => format(p.messageId, p.args, lang));
  assert.deepEqual(texts({ diff: { impacts: { 'clause-removed': 'risk-increasing', 'tool-guidance-changed': 'neutral' } } }), []);
  assert.deepEqual(texts({ diff: { impacts: { 'clause-remove': 'breaking', 'hitl-gate-removd': 'neutral', 'no-such-thing-at-all': 'breaking' } } }), [
    'diff.impacts.clause-remove: unknown impact rule; did you mean clause-removed?',
    'diff.impacts.hitl-gate-removd: unknown impact rule; did you mean hitl-gate-removed?',
    'diff.impacts.no-such-thing-at-all: unknown impact rule (docs/semantic-diff.md §9 lists them)',
  ]);
  assert.deepEqual(texts({ diff: { impacts: { 'clause-remove': 'breaking' } } }, 'zh-cn'), ['diff.impacts.clause-remove：未知的影响规则；是不是 clause-removed？']);
  // A bad impact on a known rule is still the schema's message.
  assert.deepEqual(texts({ diff: { impacts: { 'clause-removed': 'huge' } } }), ['diff.impacts.clause-removed: must be one of "breaking", "risk-increasing", "risk-reducing", "neutral".']);
});

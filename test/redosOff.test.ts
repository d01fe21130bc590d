/**
 * A rule turned off costs nothing: with `intent-pattern-redos` off (by the configuration, a
 * `configure-file` comment or a `disable-file` comment) the ReDoS analysis is not asked about the
 * contract's patterns (found by a tester: the analysis process ran at full speed with the rule off).
 * Run: node --import tsx --test test/redosOff.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLanguageService } from '../server/src/service/index.ts';
import { memoryFs } from './helpers/memoryFs.ts';

const ROOT = 'file:///ws';
const CONTRACT = '---\nname: orders\nversion: 1.0.0\n---\n\n## TRIGGER\n\n- **Intent Patterns**:\n  - `^(\\w+\\s?)+$`\n';

/** The patterns the analysis was asked about when the service reads `contract` with `config` beside it. */
async function analysed(contract: string, config?: object): Promise<string[]> {
  const asked: string[] = [];
  const files: Record<string, string> = { [`${ROOT}/AGENTS.md`]: contract, ...(config ? { [`${ROOT}/.agents-md.json`]: JSON.stringify(config) } : {}) };
  const service = createLanguageService({ fs: memoryFs(files), roots: [ROOT], analyzeRegex: async (p) => (asked.push(p), { status: 'safe' }) });
  await service.lintBytes(`${ROOT}/AGENTS.md`, new TextEncoder().encode(contract));
  return asked;
}

test('the ReDoS analysis runs while its rule is on', async () => {
  assert.deepEqual(await analysed(CONTRACT), ['^(\\w+\\s?)+$']);
});

test('the rule off in the configuration: no analysis', async () => {
  assert.deepEqual(await analysed(CONTRACT, { rules: { 'intent-pattern-redos': 'off' } }), []);
  assert.deepEqual(await analysed(CONTRACT, { rules: { 'intent-pattern-redos': { severity: 'off' } } }), []);
});

test('the rule off by a comment in the file: no analysis', async () => {
  assert.deepEqual(await analysed(`${CONTRACT}\n<!-- agents-md-disable-file intent-pattern-redos -->\n`), []);
  assert.deepEqual(await analysed(`${CONTRACT}\n<!-- agents-md-configure-file { "intent-pattern-redos": "off" } -->\n`), []);
  assert.deepEqual(await analysed(`${CONTRACT}\n<!-- agents-md-disable-file tool-missing-schema -->\n`), ['^(\\w+\\s?)+$'], 'another rule off: analysed');
});

/**
 * The workspace's contracts are listed with the `contracts` globs of the configuration at the
 * workspace root (docs/workspace.md), whichever document is checked first: a nested config file
 * configures its own contracts, not what the workspace holds. Before, the first document's config
 * made the list, so `npm run demo` (samples/.agents-md.json) read the repository's test corpora.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLanguageService } from '../server/src/service/index.ts';
import { ruleByCode } from '../server/src/service/validate/catalogue.ts';
import { memoryFs } from './helpers/memoryFs.ts';

const ROOT = 'file:///ws';
const rule = ruleByCode('shared-pool-mismatch')!;

/** The rule's bad example in `a/` (with a config of its own) and its other contract in `b/`; the root config excludes `b/**`. */
function workspace(rootConfig: Record<string, unknown> | undefined) {
  const files: Record<string, string> = { [`${ROOT}/a/AGENTS.md`]: rule.examples.bad!, [`${ROOT}/a/.agents-md.json`]: '{}' };
  for (const [p, c] of Object.entries(rule.examples.workspace!.files!)) files[`${ROOT}/b/${p}`] = c;
  if (rootConfig) files[`${ROOT}/.agents-md.json`] = JSON.stringify(rootConfig);
  return createLanguageService({ fs: memoryFs(files), roots: [ROOT] });
}
const codes = async (service: ReturnType<typeof workspace>) => {
  const text = rule.examples.bad!;
  return (await service.lintBytes(`${ROOT}/a/AGENTS.md`, new TextEncoder().encode(text))).diagnostics.map((d) => d.code);
};

test('a contract under a nested config sees the contracts the root config lists', async () => {
  assert.ok((await codes(workspace(undefined))).includes('shared-pool-mismatch'), 'with the default globs the other contract is read');
  const excluded = workspace({ contracts: { exclude: ['**/node_modules/**', 'b/**'] } });
  assert.ok(!(await codes(excluded)).includes('shared-pool-mismatch'), 'the root config leaves b/ out, whatever a/.agents-md.json says');
  assert.deepEqual(await excluded.workspace.contractUris(), [`${ROOT}/a/AGENTS.md`]);
});

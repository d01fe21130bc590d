import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { GENERATED } from '../scripts/generated.ts';
import { untranslated } from '../scripts/l10nBundle.ts';

// Generated files are committed (so that the docs read on GitHub and the .vsix are complete)
// and must equal what their source renders: run `npm run generate` after changing a rule,
// a schema or a section title.
for (const [path, render] of Object.entries(GENERATED)) {
  test(`${path} is up to date with its source`, () => {
    assert.equal(readFileSync(new URL(`../${path}`, import.meta.url), 'utf8'), render(), `${path} is stale: run npm run generate`);
  });
}

// `npm run generate` stops on these rather than write English into docs/zh-cn (scripts/generate-docs.ts).
test('a message missing from the Chinese bundle, or empty there, is untranslated', () => {
  const english = { a: 'A', b: 'B', c: 'C' };
  assert.deepEqual(untranslated(english, { a: '甲', c: ' ' }), ['b', 'c']);
  assert.deepEqual(untranslated(english, { a: '甲', b: '乙', c: '丙', extra: '多' }), []);
});

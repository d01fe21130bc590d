/**
 * A file left free-form although a heading looks like a contract section (docs/rules.md,
 * contract-not-recognised): lint says so once, on that heading, with a fix that adds
 * `contract: true`; `run` and `diff` say the same. Ordinary AGENTS.md files get nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, parseContract } from '../server/src/service/index.ts';
import { codeActions } from '../server/src/service/features/codeActions.ts';
import { lintExample } from './helpers/lintExample.ts';
import { run, snapshot } from './helpers/dryRun.ts';
import { useCliBundle } from './helpers/cli.ts';

const LOOKS_LIKE = [
  '# Refund agent', '', 'Answers refund questions.', '', '## Memory Contract', '',
  '| Layer | Read By | Write By | Retention |', '|---|---|---|---|', '| Order history | LLM | System | 90d |', '',
  '## Failure handling', '', '- **If the order is not found**: → Ask for the order number', '', '## Tools', '', '- `get_order`', '',
].join('\n');

test('lint: one info diagnostic on the first contract-like heading, whose fix makes the file a contract', async () => {
  const r = await lintExample(LOOKS_LIKE);
  assert.equal(r.model?.kind, 'freeform');
  assert.deepEqual(r.diagnostics.map((d) => `${d.severity} ${d.code} ${d.range.start.line + 1}:${d.range.start.character + 1}-${d.range.end.character + 1} ${d.message}`), [
    'info contract-not-recognised 5:4-19 This file is read as free-form, so "Memory Contract" is not checked as a contract section. Add `contract: true` to the front matter to check the whole file as a contract.',
  ]);
  const action = codeActions(parseContract(LOOKS_LIKE), r.diagnostics).find((a) => a.title === 'Add `contract: true` to the front matter');
  assert.ok(action);
  const fixed = applyEdits(LOOKS_LIKE, action.edits);
  assert.equal(fixed, `---\ncontract: true\n---\n${LOOKS_LIKE}`);
  assert.equal(parseContract(fixed).kind, 'contract');
});

test('lint: nothing on ordinary AGENTS.md files, on prose under a contract-like title, or on `contract: false`', async () => {
  const ordinary = '# Project\n\n## Compliance\n\nNo secrets in logs.\n\n## Tools\n\n- pnpm\n\n## Changelog\n\nKeep it current.\n';
  assert.deepEqual((await lintExample(ordinary)).diagnostics, []);
  assert.deepEqual((await lintExample('# A\n\n## Memory Contract\n\nWe keep order history for 90 days.\n')).diagnostics, []);
  assert.deepEqual((await lintExample(`---\ncontract: false\n---\n${LOOKS_LIKE}`)).diagnostics, []);
});

test('run: CONTRACT_NOT_RUNNABLE names the heading and the fix', async () => {
  const query = snapshot().queries[0]!;
  const r = await run(query, { contract: parseContract(LOOKS_LIKE) });
  assert.equal(r.outcome.code, 'CONTRACT_NOT_RUNNABLE');
  assert.equal(r.outcome.message, 'The file is not a runnable contract: it is read as free-form although "Memory Contract" looks like a contract section; add `contract: true` to its front matter to run it as a contract.');
});

const { bundle, scratch } = useCliBundle('freeform-note');

test('diff: the note on standard error names the heading and the fix', async () => {
  const dir = scratch.workspace({ 'a.md': LOOKS_LIKE, 'b.md': LOOKS_LIKE.replace('90d', '30d') });
  const r = await bundle.run(dir, 'diff', 'a.md', 'b.md');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /a\.md is read as free-form although "Memory Contract" looks like a contract section: only its front matter and recognised sections are compared\. Add `contract: true` to its front matter to compare it as a contract\./);
});

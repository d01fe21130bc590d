// Attack suite, the walk's limits in `lint` and `report` discovery (docs/robustness.md, "Workspace
// scale"): a folder holding more entries than a walk reads cuts the search for contracts. The
// command says so on stderr, with how to narrow it, and the report says it is incomplete; a tree
// under the budget earns no such note.
// Run: node --import tsx --test test/attack/walk-cut.test.ts
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useCliBundle } from '../helpers/cli.ts';
import { CONTRACT } from '../helpers/dryRun.ts';
import { WALK_LIMITS } from '../../server/src/node/nodeFileSystem.ts';

const { bundle, scratch } = useCliBundle('attack-walk-cut');
let beyond = '';
let below = '';
before(() => {
  below = scratch.workspace({ 'AGENTS.md': CONTRACT, 'a/keep.txt': '' });
  beyond = scratch.workspace({ 'AGENTS.md': CONTRACT, 'a/keep.txt': '' });
  for (let i = 0; i <= WALK_LIMITS.entries; i++) writeFileSync(join(beyond, 'a', `f${i}`), '');
});

const CUT = new RegExp(`the search stopped after reading ${WALK_LIMITS.entries} folder entries.*narrow contracts\\.include`);

test('lint: a search cut at the walk limit says so on stderr, with how to narrow it', async () => {
  const cut = await bundle.runLong(beyond, 120_000, 'lint');
  // Before: the contract found before the cut was linted and nothing said the search was cut.
  assert.match(cut.stderr, CUT, cut.stderr);
  assert.ok(cut.stderr.split('\n').some((l) => l.startsWith('agents-md: .: the search stopped')), `the note names the argument searched: ${cut.stderr}`);
  const whole = await bundle.run(below, 'lint');
  assert.doesNotMatch(whole.stderr, /search stopped/, whole.stderr);
  assert.equal(whole.code, cut.code, 'the note does not change the exit code');
});

test('report: the cut is on stderr and in the report itself', async () => {
  const r = await bundle.runLong(beyond, 120_000, 'report', '-f', 'json');
  assert.match(r.stderr, CUT, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).walkCut, ['.']);
  const text = await bundle.runLong(beyond, 120_000, 'report');
  assert.match(text.stdout, /Incomplete: the search for contracts in \. stopped at its limit/);
  const whole = await bundle.run(below, 'report', '-f', 'json');
  assert.equal(JSON.parse(whole.stdout).walkCut, undefined);
});

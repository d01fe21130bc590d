// What a reviewer of a contract change reads (docs/semantic-diff.md §5–§8), beyond the corpus'
// classification: mentions that follow a rename are listed under it and gate nothing; long prose
// shows what changed word by word; removing a guarantee is breaking by default and a project's
// diff policy (its configuration file) can say otherwise; the advice names the change that drives
// the bump; bookkeeping is not a change and messages read right. Through the engine and the real CLI.
// Run: node --import tsx --test test/diff-review.test.ts
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffContracts, parseContract, type SemanticDiff } from '../server/src/service/index.ts';
import { REPO, useCliBundle } from './helpers/cli.ts';

const CORPUS = join(REPO, 'test', 'diff-corpus');
const read = (name: string, file: string) => readFileSync(join(CORPUS, name, file), 'utf8');
const diffCase = (name: string): SemanticDiff => diffContracts(parseContract(read(name, 'before.md')), parseContract(read(name, 'after.md')));

const { bundle, scratch } = useCliBundle('diff-review');

describe('the engine', () => {
  test('a pure rename: each mention that follows it is listed under the rename, and is no change of its own', () => {
    const diff = diffCase('rename-followed');
    const pool = diff.changes.find((c) => c.reasonId === 'pool-renamed')!;
    const tool = diff.changes.find((c) => c.reasonId === 'tool-renamed')!;
    const where = (c: typeof pool) => c.follows!.map((f) => `${f.section}:${f.field ?? ''}`).sort();
    assert.deepEqual(where(pool), [
      'constraints:check', 'constraints:rule', 'failure_protocol:condition', 'identity:core_mandate', 'identity:hard_boundaries',
      'identity:may_act_directly', 'memory_freshness:source', 'tools:description', 'tools:when_to_use', 'tools:when_to_use',
    ]);
    assert.deepEqual(where(tool), ['failure_protocol:condition', 'identity:hard_boundaries']);
    assert.equal(diff.counts['risk-increasing'], 0, 'no boundary "no longer names" the old name');
    // The real edit next to the rename is reported, with its older text as written.
    const edit = diff.changes.find((c) => c.reasonId === 'tool-guidance-changed')!;
    assert.equal(edit.before.value, 'Returns the full text of a manual section from kb_reference.');
    assert.deepEqual(edit.words?.filter((w) => w.op !== 'same'), [{ op: 'added', text: ', with its figures' }]);
  });

  test('long prose: the message shows the part that differs, and the change carries a word diff', () => {
    const boundary = diffCase('long-prose').changes.find((c) => c.reasonId === 'boundary-reworded')!;
    assert.equal(boundary.message, 'Hard boundary reworded: "…urgent and may produce a delay" → "…urgent and may produce a penalty".');
    assert.deepEqual(boundary.words?.filter((w) => w.op !== 'same'), [{ op: 'removed', text: 'delay' }, { op: 'added', text: 'penalty' }]);
  });

  test('the advice names the change that drives the bump', () => {
    const diff = diffCase('guarantee-removed');
    assert.equal(diff.advice.required, 'major');
    assert.equal(diff.advice.sufficient, false);
    assert.equal(diff.changes.find((c) => c.id === diff.advice.drivenBy)?.reasonId, 'boundary-removed');
    assert.ok(diff.changes.every((c) => c.weakens === true && c.impact === 'breaking'));
  });

  test('a project that keeps guarantees risk-increasing: a minor bump is enough', () => {
    const diff = diffContracts(parseContract(read('guarantee-removed', 'before.md')), parseContract(read('guarantee-removed', 'after.md')), { weakenedGuarantee: 'risk-increasing', impacts: { 'clause-removed': 'breaking' } });
    assert.deepEqual(diff.counts, { breaking: 1, 'risk-increasing': 3, 'risk-reducing': 0, neutral: 0 });
    assert.equal(diff.advice.required, 'major', 'the clause set to breaking still needs a major version');
  });

  test('bookkeeping and wording: no audit row change, no doubled names or quotes, the removed code named', () => {
    const messages = diffCase('bookkeeping-wording').changes.map((c) => c.message);
    assert.deepEqual(messages, [
      'description changed (documentation only): "Answers procurement questions." → "Answers procurement questions for approved vendors.".',
      'Failure handling removed: "the input is empty" (error code `IN001`). This failure is no longer handled.',
      'Failure condition changed: "“Whitelist sync” fails" → "“Whitelist sync” fails twice".',
    ]);
  });
});

describe('agents-md diff', { concurrency: true }, () => {
  test('a pure rename passes --fail-on risk; the text report lists what follows it', async () => {
    const run = await bundle.run(join(CORPUS, 'rename-followed'), 'diff', 'before.md', 'after.md', '--fail-on', 'risk,bump');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^ {4}2 mentions follow the rename: AGENT_IDENTITY ❌ Never call `check_inventory`.*; FAILURE_PROTOCOL check_inventory times out \(condition\)$/m);
  });

  test('word diffs in the text report and in the Markdown comment', async () => {
    const dir = join(CORPUS, 'long-prose');
    const text = await bundle.run(dir, 'diff', 'before.md', 'after.md');
    assert.match(text.stdout, /^ {4}… is urgent and may produce a \[-delay-\]\{\+penalty\+\}$/m);
    const md = await bundle.run(dir, 'diff', 'before.md', 'after.md', '-f', 'markdown');
    assert.match(md.stdout, /<br>… the vendor may produce <ins>hazardous <\/ins>goods for this order\. \|/);
  });

  test('the diff policy comes from the configuration file; removing a guarantee fails --fail-on breaking by default', async () => {
    const files = { 'old.md': read('guarantee-removed', 'before.md'), 'new.md': read('guarantee-removed', 'after.md') };
    const strict = await bundle.run(scratch.workspace(files), 'diff', 'old.md', 'new.md', '--fail-on', 'breaking,bump');
    assert.equal(strict.code, 1);
    assert.match(strict.stdout, /^ {4}The bump is required by: Hard boundary removed/m);
    const lenient = await bundle.run(scratch.workspace({ ...files, '.agents-md.json': '{ "diff": { "weakenedGuarantee": "risk-increasing" } }' }), 'diff', 'old.md', 'new.md', '--fail-on', 'breaking,bump');
    assert.equal(lenient.code, 0, lenient.stderr);
    assert.match(lenient.stdout, /4 semantic changes: 0 breaking, 4 risk-increasing/);
  });
});

/**
 * The language server's ReDoS analyses in the background (server/src/lsp/backgroundAnalyzer.ts):
 * an analysis that gave no answer (the process late, dead or missing) is asked again, so a
 * vulnerable pattern is still reported. CI failed on this: the e2e waited 60 s for an
 * intent-pattern-redos warning that the first, timed-out analysis had ruled out for the rest of
 * the session. An undecided verdict (recheck's own time limit) is retried once only: a pattern
 * recheck cannot decide costs a process and seconds of CPU each time (found by a tester). A retry
 * runs only while a document that asked still uses the pattern (a tester saw one edited away
 * analysed for minutes).
 * Run: node --import tsx --test test/backgroundAnalyzer.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { backgroundAnalyzer, type AskVerdict } from '../server/src/lsp/backgroundAnalyzer.ts';
import type { RegexAnalyzer } from '../server/src/service/index.ts';

type Verdict = Awaited<ReturnType<RegexAnalyzer>>;
const VULNERABLE: Verdict = { status: 'vulnerable', complexity: 'exponential', attack: "'a'.repeat(31) + '!'" };
const UNKNOWN: Verdict = { status: 'unknown' };
const FAST = { noAnswerDelaysMs: [20, 20], undecidedDelaysMs: [20] };

/** An analysis that gives `answers` in turn (the last one from then on; undefined: no answer), counting its calls. */
function scripted(...answers: (Verdict | undefined)[]): AskVerdict & { calls: number } {
  const ask = Object.assign(async () => answers[Math.min(ask.calls++, answers.length - 1)], { calls: 0 });
  return ask;
}

/** Resolves with the documents `onVerdict` got, or undefined after `ms`. */
function verdictFor(ms: number): { onVerdict: (uris: ReadonlySet<string>) => void; got: Promise<string[] | undefined> } {
  let resolve!: (uris: string[] | undefined) => void;
  const got = new Promise<string[] | undefined>((r) => (resolve = r));
  const timer = setTimeout(() => resolve(undefined), ms);
  return { onVerdict: (uris) => (clearTimeout(timer), resolve([...uris].sort())), got };
}

test('no answer is asked again; a vulnerable verdict then re-diagnoses every document that asked', async () => {
  const ask = scripted(undefined, VULNERABLE);
  const { onVerdict, got } = verdictFor(2_000);
  const forDocument = backgroundAnalyzer(ask, onVerdict, FAST);
  assert.deepEqual(await forDocument('file:///a.md')('^(a+)+$'), UNKNOWN, 'answers at once, before the analysis');
  await sleep(5);
  // Asked while the retry waits: this document waits for the verdict too.
  assert.deepEqual(await forDocument('file:///b.md')('^(a+)+$'), UNKNOWN);
  assert.deepEqual(await got, ['file:///a.md', 'file:///b.md']);
  assert.equal(ask.calls, 2, 'asked twice: no answer, then the verdict');
  assert.deepEqual(await forDocument('file:///c.md')('^(a+)+$'), VULNERABLE, 'the verdict is kept');
  assert.equal(ask.calls, 2);
});

test('no answer and an undecided verdict have retries of their own', async () => {
  const ask = scripted(undefined, UNKNOWN, undefined, VULNERABLE);
  const { onVerdict, got } = verdictFor(2_000);
  await backgroundAnalyzer(ask, onVerdict, FAST)('file:///a.md')('(a|a)*$');
  assert.deepEqual(await got, ['file:///a.md']);
  assert.equal(ask.calls, 4);
});

test('an undecided verdict is retried once, kept for a while, then analysed again when asked', async () => {
  let clock = 0;
  const ask = scripted(UNKNOWN, UNKNOWN, VULNERABLE);
  const { onVerdict, got } = verdictFor(500);
  const traced: string[] = [];
  const forDocument = backgroundAnalyzer(ask, onVerdict, { ...FAST, askAgainMs: 300_000, now: () => clock, trace: (m) => traced.push(m) });
  await forDocument('file:///a.md')('x+');
  assert.equal(await got, undefined, 'two unknowns: nothing to report');
  assert.equal(ask.calls, 2, 'one retry');
  assert.deepEqual(traced, ['unknown ReDoS verdict "x+"; retry in 20 ms if still used', 'unknown ReDoS verdict "x+"; kept 300000 ms'], 'each undecided analysis in the trace');
  clock = 299_999;
  assert.deepEqual(await forDocument('file:///a.md')('x+'), UNKNOWN);
  assert.equal(ask.calls, 2, 'kept: asked again within askAgainMs, not analysed');
  clock = 300_000;
  await forDocument('file:///a.md')('x+');
  await sleep(20);
  assert.equal(ask.calls, 3, 'asked again later: analysed again');
  assert.deepEqual(await forDocument('file:///a.md')('x+'), VULNERABLE);
});

test('a safe verdict re-diagnoses nothing and is not analysed again', async () => {
  const ask = scripted({ status: 'safe' });
  const { onVerdict, got } = verdictFor(100);
  const forDocument = backgroundAnalyzer(ask, onVerdict, FAST);
  await forDocument('file:///a.md')('^a$');
  assert.equal(await got, undefined);
  assert.deepEqual(await forDocument('file:///a.md')('^a$'), { status: 'safe' });
  assert.equal(ask.calls, 1);
});

test('a failing analysis counts as no answer and is asked again', async () => {
  let calls = 0;
  const ask: AskVerdict = async () => {
    if (calls++ === 0) throw new Error('the analysis process could not start');
    return VULNERABLE;
  };
  const traced: string[] = [];
  const { onVerdict, got } = verdictFor(2_000);
  await backgroundAnalyzer(ask, onVerdict, { ...FAST, trace: (m) => traced.push(m) })('file:///a.md')('(a|a)*$');
  assert.deepEqual(await got, ['file:///a.md']);
  assert.deepEqual(traced, ['no ReDoS verdict "(a|a)*$"; retry in 20 ms if still used']);
});

test('a retry is not run for a pattern no document that asked uses any more', async () => {
  const ask = scripted(undefined, VULNERABLE);
  const traced: string[] = [];
  const uses = new Map([['file:///a.md', true]]);
  const { onVerdict, got } = verdictFor(300);
  const forDocument = backgroundAnalyzer(ask, onVerdict, { ...FAST, trace: (m) => traced.push(m), inUse: (_, askedBy) => [...askedBy].some((u) => uses.get(u)) });
  await forDocument('file:///a.md')('(a|a)*$');
  // Edited away before the retry is due.
  uses.set('file:///a.md', false);
  assert.equal(await got, undefined, 'nothing reported');
  assert.equal(ask.calls, 1, 'not analysed again');
  assert.deepEqual(traced, ['no ReDoS verdict "(a|a)*$"; retry in 20 ms if still used', 'dropped ReDoS analysis "(a|a)*$" (unused)']);
  // Written again later: a new analysis.
  uses.set('file:///a.md', true);
  assert.deepEqual(await forDocument('file:///a.md')('(a|a)*$'), UNKNOWN);
  await sleep(20);
  assert.equal(ask.calls, 2);
  assert.deepEqual(await forDocument('file:///a.md')('(a|a)*$'), VULNERABLE);
});

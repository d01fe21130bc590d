/**
 * The language server's ReDoS analyses in the background (server/src/lsp/backgroundAnalyzer.ts):
 * an analysis that gave no answer (the process late, dead or missing) is asked again, so a
 * vulnerable pattern is still reported. CI failed on this: the e2e waited 60 s for an
 * intent-pattern-redos warning that the first, timed-out analysis had ruled out for the rest of
 * the session. An undecided verdict (recheck's own time limit) is retried once only: a pattern
 * recheck cannot decide costs a process and seconds of CPU each time (found by a tester). A retry
 * runs only if a document still uses the pattern (a tester saw one edited away analysed for minutes).
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

/**
 * Open documents as the server's diagnostics see them: `uses` says which patterns each has; a
 * document diagnosed (at once, or when the analyzer re-diagnoses it) asks for each of them, and
 * `reported` collects the documents that got a vulnerable verdict.
 */
function documents(ask: AskVerdict, options = {}) {
  const uses = new Map<string, string[]>();
  const rediagnosed: string[][] = [];
  const reported = new Set<string>();
  const diagnose = async (uri: string): Promise<void> => {
    for (const p of uses.get(uri) ?? []) if ((await forDocument(uri)(p)).status === 'vulnerable') reported.add(uri);
  };
  const forDocument = backgroundAnalyzer(ask, (uris) => {
    rediagnosed.push([...uris].sort());
    for (const u of uris) void diagnose(u);
  }, options);
  return { uses, rediagnosed, reported, diagnose, forDocument };
}

/** Waits until `done` holds, at most `ms`. */
async function until(done: () => boolean, ms = 2_000): Promise<void> {
  for (const end = Date.now() + ms; !done() && Date.now() < end; ) await sleep(5);
}

test('no answer is asked again; a vulnerable verdict then re-diagnoses every document that asked', async () => {
  const ask = scripted(undefined, VULNERABLE);
  const docs = documents(ask, FAST);
  docs.uses.set('file:///a.md', ['^(a+)+$']).set('file:///b.md', ['^(a+)+$']);
  assert.deepEqual(await docs.forDocument('file:///a.md')('^(a+)+$'), UNKNOWN, 'answers at once, before the analysis');
  await sleep(5);
  // Asked while the retry waits: this document waits for the verdict too.
  assert.deepEqual(await docs.forDocument('file:///b.md')('^(a+)+$'), UNKNOWN);
  await until(() => docs.reported.size === 2);
  assert.deepEqual([...docs.reported].sort(), ['file:///a.md', 'file:///b.md']);
  assert.deepEqual(docs.rediagnosed, [['file:///a.md', 'file:///b.md'], ['file:///a.md', 'file:///b.md']], 'when the retry is due, then with the verdict');
  assert.equal(ask.calls, 2, 'asked twice: no answer, then the verdict');
  assert.deepEqual(await docs.forDocument('file:///c.md')('^(a+)+$'), VULNERABLE, 'the verdict is kept');
  assert.equal(ask.calls, 2);
});

test('no answer and an undecided verdict have retries of their own', async () => {
  const ask = scripted(undefined, UNKNOWN, undefined, VULNERABLE);
  const docs = documents(ask, FAST);
  docs.uses.set('file:///a.md', ['(a|a)*$']);
  await docs.diagnose('file:///a.md');
  await until(() => docs.reported.size === 1);
  assert.deepEqual([...docs.reported], ['file:///a.md']);
  assert.equal(ask.calls, 4);
});

test('a retry is not run for a pattern no document uses any more', async () => {
  const ask = scripted(undefined, VULNERABLE);
  const traced: string[] = [];
  const docs = documents(ask, { ...FAST, trace: (m: string) => traced.push(m) });
  docs.uses.set('file:///a.md', ['(a|a)*$']);
  await docs.diagnose('file:///a.md');
  // Edited away before the retry is due.
  docs.uses.set('file:///a.md', []);
  await until(() => docs.rediagnosed.length === 1);
  await sleep(50);
  assert.deepEqual(docs.rediagnosed, [['file:///a.md']], 'the document that asked is diagnosed again');
  assert.equal(ask.calls, 1, 'and, not using the pattern any more, does not ask for it');
  assert.deepEqual(traced, ['no ReDoS verdict "(a|a)*$"; retry in 20 ms if still used']);
  // Written again later: analysed then, on the same schedule.
  docs.uses.set('file:///a.md', ['(a|a)*$']);
  await docs.diagnose('file:///a.md');
  await until(() => docs.reported.size === 1);
  assert.equal(ask.calls, 2);
  assert.deepEqual([...docs.reported], ['file:///a.md']);
});

test('an undecided verdict is retried once, kept for a while, then analysed again when asked', async () => {
  let clock = 0;
  const ask = scripted(UNKNOWN, UNKNOWN, VULNERABLE);
  const traced: string[] = [];
  const docs = documents(ask, { ...FAST, askAgainMs: 300_000, now: () => clock, trace: (m: string) => traced.push(m) });
  docs.uses.set('file:///a.md', ['x+']);
  await docs.diagnose('file:///a.md');
  await until(() => traced.length === 2);
  await sleep(50);
  assert.equal(docs.reported.size, 0, 'two unknowns: nothing to report');
  assert.equal(ask.calls, 2, 'one retry');
  assert.deepEqual(docs.rediagnosed, [['file:///a.md']], 'diagnosed again for the retry only');
  assert.deepEqual(traced, ['unknown ReDoS verdict "x+"; retry in 20 ms if still used', 'unknown ReDoS verdict "x+"; kept 300000 ms'], 'each undecided analysis in the trace');
  clock = 299_999;
  assert.deepEqual(await docs.forDocument('file:///a.md')('x+'), UNKNOWN);
  assert.equal(ask.calls, 2, 'kept: asked again within askAgainMs, not analysed');
  clock = 300_000;
  await docs.forDocument('file:///a.md')('x+');
  await sleep(20);
  assert.equal(ask.calls, 3, 'asked again later: analysed again');
  assert.deepEqual(await docs.forDocument('file:///a.md')('x+'), VULNERABLE);
});

test('a safe verdict re-diagnoses nothing and is not analysed again', async () => {
  const ask = scripted({ status: 'safe' });
  const docs = documents(ask, FAST);
  docs.uses.set('file:///a.md', ['^a$']);
  await docs.diagnose('file:///a.md');
  await sleep(100);
  assert.deepEqual(docs.rediagnosed, []);
  assert.deepEqual(await docs.forDocument('file:///a.md')('^a$'), { status: 'safe' });
  assert.equal(ask.calls, 1);
});

test('a failing analysis counts as no answer and is asked again', async () => {
  let calls = 0;
  const ask: AskVerdict = async () => {
    if (calls++ === 0) throw new Error('the analysis process could not start');
    return VULNERABLE;
  };
  const traced: string[] = [];
  const docs = documents(ask, { ...FAST, trace: (m: string) => traced.push(m) });
  docs.uses.set('file:///a.md', ['(a|a)*$']);
  await docs.diagnose('file:///a.md');
  await until(() => docs.reported.size === 1);
  assert.deepEqual([...docs.reported], ['file:///a.md']);
  assert.deepEqual(traced, ['no ReDoS verdict "(a|a)*$"; retry in 20 ms if still used']);
});

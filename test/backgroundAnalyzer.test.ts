/**
 * The language server's ReDoS analyses in the background (server/src/lsp/backgroundAnalyzer.ts):
 * an `unknown` verdict (a time-out of a loaded machine) is analysed again, so a vulnerable pattern
 * is still reported. CI failed on this: the e2e waited 60 s for an intent-pattern-redos warning
 * that the first, timed-out analysis had ruled out for the rest of the session.
 * Run: node --import tsx --test test/backgroundAnalyzer.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { backgroundAnalyzer } from '../server/src/lsp/backgroundAnalyzer.ts';
import type { RegexAnalyzer } from '../server/src/service/index.ts';

type Verdict = Awaited<ReturnType<RegexAnalyzer>>;
const VULNERABLE: Verdict = { status: 'vulnerable', complexity: 'exponential', attack: "'a'.repeat(31) + '!'" };

/** An analyzer that gives `verdicts` in turn (the last one from then on), counting its calls. */
function scripted(...verdicts: Verdict[]): RegexAnalyzer & { calls: number } {
  const analyze = Object.assign(async () => verdicts[Math.min(analyze.calls++, verdicts.length - 1)]!, { calls: 0 });
  return analyze;
}

/** Resolves with the documents `onVerdict` got, or undefined after `ms`. */
function verdictFor(ms: number): { onVerdict: (uris: ReadonlySet<string>) => void; got: Promise<string[] | undefined> } {
  let resolve!: (uris: string[] | undefined) => void;
  const got = new Promise<string[] | undefined>((r) => (resolve = r));
  const timer = setTimeout(() => resolve(undefined), ms);
  return { onVerdict: (uris) => (clearTimeout(timer), resolve([...uris].sort())), got };
}

test('an unknown verdict is analysed again; a vulnerable one then re-diagnoses every document that asked', async () => {
  const analyze = scripted({ status: 'unknown' }, VULNERABLE);
  const { onVerdict, got } = verdictFor(2_000);
  const forDocument = backgroundAnalyzer(analyze, onVerdict, { retryDelaysMs: [20, 20] });
  assert.deepEqual(await forDocument('file:///a.md')('^(a+)+$'), { status: 'unknown' }, 'answers at once, before the analysis');
  await sleep(5);
  // Asked while the retry waits: this document waits for the verdict too.
  assert.deepEqual(await forDocument('file:///b.md')('^(a+)+$'), { status: 'unknown' });
  assert.deepEqual(await got, ['file:///a.md', 'file:///b.md']);
  assert.equal(analyze.calls, 2, 'analysed twice: the unknown, then the verdict');
  assert.deepEqual(await forDocument('file:///c.md')('^(a+)+$'), VULNERABLE, 'the verdict is kept');
  assert.equal(analyze.calls, 2);
});

test('after its retries an unknown verdict is kept for a while, then analysed again when asked', async () => {
  let clock = 0;
  const analyze = scripted({ status: 'unknown' }, { status: 'unknown' }, VULNERABLE);
  const { onVerdict, got } = verdictFor(500);
  const traced: string[] = [];
  const forDocument = backgroundAnalyzer(analyze, onVerdict, { retryDelaysMs: [10], askAgainMs: 60_000, now: () => clock, trace: (m) => traced.push(m) });
  await forDocument('file:///a.md')('x+');
  assert.equal(await got, undefined, 'two unknowns: nothing to report');
  assert.equal(analyze.calls, 2, 'one retry');
  assert.deepEqual(traced, ['unknown ReDoS verdict "x+" (attempt 1); retry in 10 ms', 'unknown ReDoS verdict "x+" (attempt 2); kept 60000 ms'], 'each undecided analysis in the trace');
  clock = 59_999;
  assert.deepEqual(await forDocument('file:///a.md')('x+'), { status: 'unknown' });
  assert.equal(analyze.calls, 2, 'kept: asked again within askAgainMs, not analysed');
  clock = 60_000;
  await forDocument('file:///a.md')('x+');
  await sleep(20);
  assert.equal(analyze.calls, 3, 'asked again later: analysed again');
  assert.deepEqual(await forDocument('file:///a.md')('x+'), VULNERABLE);
});

test('a safe verdict re-diagnoses nothing and is not analysed again', async () => {
  const analyze = scripted({ status: 'safe' });
  const { onVerdict, got } = verdictFor(100);
  const forDocument = backgroundAnalyzer(analyze, onVerdict, { retryDelaysMs: [10] });
  await forDocument('file:///a.md')('^a$');
  assert.equal(await got, undefined);
  assert.deepEqual(await forDocument('file:///a.md')('^a$'), { status: 'safe' });
  assert.equal(analyze.calls, 1);
});

test('a failing analysis counts as unknown and is tried again', async () => {
  let calls = 0;
  const analyze: RegexAnalyzer = async () => {
    if (calls++ === 0) throw new Error('the analysis process could not start');
    return VULNERABLE;
  };
  const { onVerdict, got } = verdictFor(2_000);
  await backgroundAnalyzer(analyze, onVerdict, { retryDelaysMs: [10] })('file:///a.md')('(a|a)*$');
  assert.deepEqual(await got, ['file:///a.md']);
});

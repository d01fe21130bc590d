// A ReDoS verdict of "unknown" (the analysis timed out: a loaded machine) is not kept for the
// server's lifetime: the same pattern is analysed again once `retryUnknownMs` has passed, so an
// editor opened on a busy machine still reports a vulnerable intent pattern on a later check.
// Safe and vulnerable verdicts are kept. (docs/performance.md, "ReDoS analysis")
// Run: node --import tsx --test test/regexMemo.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoised } from '../server/src/service/workspace/regexAnalysis.ts';
import type { RegexVerdict } from '../server/src/service/validate/facts.ts';

test('an unknown verdict is analysed again after retryUnknownMs; safe and vulnerable ones are kept', async () => {
  let clock = 0;
  const answers: RegexVerdict[] = [{ status: 'unknown' }, { status: 'vulnerable', complexity: 'exponential', attack: 'a' }];
  const calls: string[] = [];
  const analyze = memoised(async (p) => (calls.push(p), answers.shift() ?? { status: 'safe' }), { retryUnknownMs: 30_000, now: () => clock });
  assert.equal((await analyze('(a+)+b')).status, 'unknown');
  clock += 10_000;
  assert.equal((await analyze('(a+)+b')).status, 'unknown', 'within the delay: the kept verdict');
  assert.equal(calls.length, 1);
  clock += 25_000;
  assert.equal((await analyze('(a+)+b')).status, 'vulnerable', 'after the delay: analysed again');
  clock += 100_000;
  assert.equal((await analyze('(a+)+b')).status, 'vulnerable', 'a vulnerable verdict is kept');
  assert.equal((await analyze('x')).status, 'safe');
  clock += 100_000;
  await analyze('x');
  assert.deepEqual(calls, ['(a+)+b', '(a+)+b', 'x'], 'safe and vulnerable verdicts are not analysed again');
});

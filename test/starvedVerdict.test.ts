/**
 * The ReDoS process's answers (server/src/lsp/starvedVerdict.ts): recheck's time limit is
 * wall-clock time, so an `unknown` reached while the process (below normal priority) had less
 * than 90 % of a core is no verdict, asked again later; one reached while it analysed is undecided.
 * Run: node --import tsx --test test/starvedVerdict.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decidedOrStarved } from '../server/src/lsp/starvedVerdict.ts';
import type { RegexAnalyzer } from '../server/src/service/index.ts';

/** An analysis that gives `verdict` after `wallMs` of clock, of which it had `cpuMs` of CPU. */
function analysis(verdict: Awaited<ReturnType<RegexAnalyzer>>, wallMs: number, cpuMs: number) {
  let wall = 1000;
  let cpu = 500;
  const analyze: RegexAnalyzer = async () => {
    wall += wallMs;
    cpu += cpuMs;
    return verdict;
  };
  return decidedOrStarved(analyze, () => cpu, () => wall);
}

test('an unknown reached with a tenth of a core is no verdict', async () => {
  assert.equal(await analysis({ status: 'unknown' }, 2000, 200)('(a|a)*b'), undefined);
});

test('an unknown reached with two thirds of a core is no verdict (a machine busy with two loops)', async () => {
  assert.equal(await analysis({ status: 'unknown' }, 2000, 1350)('(a|a)*b'), undefined);
});

test('an unknown reached while analysing is undecided', async () => {
  assert.deepEqual(await analysis({ status: 'unknown' }, 2000, 1900)('(a|a)*b'), { status: 'unknown' });
});

test('a verdict stands however little CPU it had', async () => {
  const vulnerable = { status: 'vulnerable', complexity: 'exponential', attack: "'a'.repeat(31)" } as const;
  assert.deepEqual(await analysis(vulnerable, 5000, 10)('(a+)+$'), vulnerable);
  assert.deepEqual(await analysis({ status: 'safe' }, 5000, 10)('^a$'), { status: 'safe' });
});

test('an unknown at once (no time passed) is undecided', async () => {
  assert.deepEqual(await analysis({ status: 'unknown' }, 0, 0)('x'), { status: 'unknown' });
});

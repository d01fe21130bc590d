/**
 * The language server's ReDoS process (dist/regexWorker.cjs through lsp/childProcess.ts) runs
 * recheck in a thread of its own, as the .vsix does. Run from a checkout, recheck used to start its
 * native binary from node_modules: a process whose CPU time the ReDoS process cannot see, so each
 * pattern recheck could not decide counted as starved (lsp/starvedVerdict.ts) and was asked six
 * times over four minutes instead of twice (found by a tester).
 * Run: node --import tsx --test test/regexWorker.test.ts
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { askChild } from '../server/src/lsp/childProcess.ts';
import type { RegexAnalyzer } from '../server/src/service/index.ts';
import { BUNDLE_DIR, ensureBundles } from './helpers/bundles.ts';

before(() => ensureBundles());
// The child and its channel are unref'd (they must not keep the server alive): the test keeps the loop alive itself.
const alive = setInterval(() => undefined, 1000);
after(() => clearInterval(alive));

type Verdict = Awaited<ReturnType<RegexAnalyzer>>;

/** The child processes of process `pid`, with their command lines. */
function childrenOf(pid: number | string): { pid: string; cmdline: string }[] {
  const ids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  return ids.map((c) => ({ pid: c, cmdline: readFileSync(`/proc/${c}/cmdline`, 'utf8').replaceAll('\0', ' ') }));
}

test('the analysis runs inside the ReDoS process, where its CPU time is counted', { skip: process.platform !== 'linux' && 'reads /proc for child processes' }, async () => {
  const ask = askChild<string, Verdict | undefined>(join(BUNDLE_DIR, 'dist', 'regexWorker.cjs'), { idleMs: 5_000, timeoutMs: 60_000 });
  const verdict = await ask('^(a+)+$');
  assert.equal(verdict?.status, 'vulnerable', JSON.stringify(verdict));
  const worker = childrenOf(process.pid).find((c) => c.cmdline.includes('regexWorker.cjs'));
  assert.ok(worker, 'the ReDoS process is running');
  assert.deepEqual(childrenOf(worker.pid), [], 'it started no process of its own (recheck\'s native binary)');
});

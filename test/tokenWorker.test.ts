/**
 * The language server's token process (dist/tokenWorker.cjs through lsp/childProcess.ts): the
 * counts of the tokenizer in this process, the process gone once idle (its memory back to the
 * system), no answer rather than a hang when the file is missing, and a silent child replaced.
 * Run: node --import tsx --test test/tokenWorker.test.ts
 */
import { test, before, after, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { askChild } from '../server/src/lsp/childProcess.ts';
import { BUNDLE_DIR, ensureBundles } from './helpers/bundles.ts';

before(() => ensureBundles());
// The child and its channel are unref'd (they must not keep the server alive): the test keeps the loop alive itself.
const alive = setInterval(() => undefined, 1000);
after(() => clearInterval(alive));

/** A worker file of the test's own in a temporary folder, removed after the test; it ends when the server goes. */
function workerFile(t: TestContext, name: string, onMessage: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'child-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, name);
  writeFileSync(file, `${onMessage}\nprocess.on('disconnect', () => process.exit(0));\n`);
  return file;
}

/** Whether a process with this command line part runs as a child of this one. */
function childRunning(part: string): boolean {
  const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  return children.some((c) => {
    try {
      return readFileSync(`/proc/${c}/cmdline`, 'utf8').includes(part);
    } catch {
      return false;
    }
  });
}

test('counts as the tokenizer does, then ends when idle', { skip: process.platform !== 'linux' && 'reads /proc for child processes' }, async () => {
  const ask = askChild<readonly string[], readonly number[]>(join(BUNDLE_DIR, 'dist', 'tokenWorker.cjs'), { idleMs: 300 });
  const texts = ['hello world', '', '说明：供应商', ';\n\n} // namespace functions', 'x'.repeat(5000)];
  assert.deepEqual(await ask(texts), texts.map((t) => countTokens(t)));
  assert.ok(childRunning('tokenWorker.cjs'), 'running after an answer');
  for (let i = 0; i < 50 && (childRunning('tokenWorker.cjs')); i++) await sleep(100);
  assert.equal(childRunning('tokenWorker.cjs'), false, 'gone 300 ms after its last answer');
  // Asked again: started again.
  assert.deepEqual(await ask(['hello world']), [2]);
});

/** The nice value of each thread of this process's child whose command line has `part`. */
function childThreadNice(part: string): number[] {
  const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  const child = children.find((c) => readFileSync(`/proc/${c}/cmdline`, 'utf8').includes(part));
  assert.ok(child, `a child running ${part}`);
  // Field 19 of stat is the nice value; the command name before it is in parentheses and may hold spaces.
  return readdirSync(`/proc/${child}/task`).map((t) => Number(readFileSync(`/proc/${child}/task/${t}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]));
}

test('the child gives way: each of its threads runs below normal priority, the server at its own', { skip: process.platform !== 'linux' && 'reads /proc for thread priorities' }, async () => {
  const ask = askChild<readonly string[], readonly number[]>(join(BUNDLE_DIR, 'dist', 'tokenWorker.cjs'), { idleMs: 2000 });
  assert.deepEqual(await ask(['hello world']), [2]);
  const nice = childThreadNice('tokenWorker.cjs');
  assert.ok(nice.length > 1, `several threads (V8's helpers too): ${nice.length}`);
  assert.deepEqual(nice, nice.map(() => 10));
  assert.equal(getPriority(), 0, 'this process keeps its priority');
});

test('the child is below normal priority from its start, before it lowers itself', { skip: process.platform !== 'linux' && 'thread priorities are per process elsewhere' }, async (t) => {
  // A worker that does not lower itself: it answers with the priority it was started at.
  const file = workerFile(t, 'nice.cjs', "process.on('message', (m) => process.send({ id: m.id, answer: require('node:os').getPriority() }));");
  assert.equal(await askChild<string, number>(file, { timeoutMs: 5000 })('nice'), 10);
});

test('a child that works through a queue of questions, one at a time, is not ended while it answers', async (t) => {
  // Each answer takes 200 ms; 15 questions at once take 3 s, longer than the 2 s of silence allowed
  // (which also covers the child's start on a loaded machine).
  const file = workerFile(t, 'queue.cjs', "let chain = Promise.resolve();\nprocess.on('message', (m) => { chain = chain.then(() => new Promise((r) => setTimeout(r, 200))).then(() => process.send({ id: m.id, answer: m.question * 2 })); });");
  const ask = askChild<number, number>(file, { timeoutMs: 2000 });
  const questions = Array.from({ length: 15 }, (_, i) => i);
  assert.deepEqual(await Promise.all(questions.map((n) => ask(n))), questions.map((n) => n * 2));
});

test('a question asked while the idle child is being ended is answered by a new one', async () => {
  const ask = askChild<readonly string[], readonly number[]>(join(BUNDLE_DIR, 'dist', 'tokenWorker.cjs'), { idleMs: 300 });
  assert.deepEqual(await ask(['x']), [1]);
  // Timers of one duration fire in the order they were set: this one right after the idle timer
  // that ends the child, before its exit is seen.
  await sleep(300);
  assert.deepEqual(await ask(['hello world']), [2]);
});

test('a missing worker file answers undefined at once', async () => {
  const ask = askChild<readonly string[], readonly number[]>(join(BUNDLE_DIR, 'dist', 'no-such-worker.cjs'));
  assert.equal(await ask(['x']), undefined);
});

test('a child that does not answer in time is ended; the next question starts a new one', async (t) => {
  // A worker that answers with its pid, and never answers "hang" (a stuck or stopped process).
  const file = workerFile(t, 'stuck.cjs', "process.on('message', (m) => { if (m.question !== 'hang') process.send({ id: m.id, answer: process.pid }); });");
  // Long enough for a node process to start on a loaded machine (300 ms failed once under CI's load).
  const ask = askChild<string, number>(file, { timeoutMs: 3000 });
  const first = await ask('pid');
  assert.equal(typeof first, 'number');
  assert.equal(await ask('hang'), undefined, 'no answer in time');
  const second = await ask('pid');
  assert.ok(second !== undefined && second !== first, `a new child answers (${first} then ${second})`);
  // SIGKILL is sent at the time-out; the process is reaped soon after.
  for (let i = 0; i < 50 && alivePid(first!); i++) await sleep(20);
  assert.equal(alivePid(first!), false, 'the silent child was ended');
});

function alivePid(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

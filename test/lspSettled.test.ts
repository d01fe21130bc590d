/**
 * The pending-work count behind `agentsMd/settled` (server/src/lsp/settled.ts), in process; the
 * request itself is exercised over stdio by test/lspTyping.test.ts and test/lspWorkspace.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pendingWork } from '../server/src/lsp/settled.ts';

const state = (p: Promise<unknown>) => Promise.race([p.then(() => 'settled'), new Promise((r) => setImmediate(r, 'waiting')).then(() => new Promise((r) => setImmediate(r, 'waiting')))]);

test('idle waits for tracked promises and begun work, and for work a finished one starts', async () => {
  const pending = pendingWork();
  assert.equal(await state(pending.idle()), 'settled', 'nothing pending: at once');

  let finish!: () => void;
  const work = pending.track(new Promise<void>((r) => (finish = r)));
  const idle = pending.idle();
  assert.equal(await state(idle), 'waiting');
  // The work ends and, in its `then`, starts more (a verdict scheduling a push): still not idle.
  let endMore!: () => void;
  void work.then(() => (endMore = pending.begin()));
  finish();
  await work;
  assert.equal(await state(idle), 'waiting');
  const other = pending.begin();
  endMore();
  endMore();
  assert.equal(await state(idle), 'waiting', 'ending twice counts once');
  other();
  assert.equal(await state(idle), 'settled');
});

test('a rejected tracked promise counts as finished', async () => {
  const pending = pendingWork();
  const failed = pending.track(Promise.reject(new Error('x')));
  await assert.rejects(failed);
  assert.equal(await state(pending.idle()), 'settled');
});

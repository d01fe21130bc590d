/**
 * The language server's token counts (lsp/backgroundTokens.ts; docs/performance.md, "Memory
 * given back"): counted in batches once typing pauses, the documents that asked checked again.
 * The counting process is replaced by a function here (test/tokenWorker.test.ts starts the real one).
 * Run: node --import tsx --test test/backgroundTokens.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backgroundTokens } from '../server/src/lsp/backgroundTokens.ts';
import { pendingWork } from '../server/src/lsp/settled.ts';

/** A counter that answers with each text's length, and records the batches it was sent. */
function lengths(fail = false) {
  const batches: string[][] = [];
  const count = async (texts: readonly string[]) => {
    batches.push([...texts]);
    return fail ? undefined : texts.map((t) => t.length);
  };
  return { batches, count };
}

test('texts asked for while typing go in one batch after the pause; the documents that asked are checked again', async () => {
  const { batches, count } = lengths();
  const checked: string[][] = [];
  const pending = pendingWork();
  const tokens = backgroundTokens(count, (uris) => checked.push([...uris].sort()), pending, 20);
  const a = tokens.forDocument('file:///a.md');
  const b = tokens.forDocument('file:///b.md');
  assert.equal(a('one'), undefined);
  assert.equal(a('three'), undefined);
  assert.equal(b('one'), undefined);
  assert.deepEqual(batches, [], 'nothing sent while typing');
  // `agentsMd/settled` waits for the batch and its answer.
  await pending.idle();
  assert.deepEqual(batches, [['one', 'three']]);
  assert.deepEqual(checked, [['file:///a.md', 'file:///b.md']]);
  assert.equal(a('three'), 5, 'known at once now');
  assert.equal(b('one'), 3);
});

test('a failed count checks nothing again (no loop), and the texts are asked for again next time', async () => {
  const { batches, count } = lengths(true);
  const checked: unknown[] = [];
  const pending = pendingWork();
  const tokens = backgroundTokens(count, (uris) => checked.push(uris), pending, 5);
  assert.equal(tokens.forDocument('file:///a.md')('x'), undefined);
  await pending.idle();
  assert.deepEqual(checked, []);
  assert.equal(tokens.forDocument('file:///a.md')('x'), undefined);
  await pending.idle();
  assert.deepEqual(batches, [['x'], ['x']]);
});

test('withCounts runs the computation again with the counts it lacked, at once (the hover and the lens wait for them)', async () => {
  const { batches, count } = lengths();
  const tokens = backgroundTokens(count, () => assert.fail('no document asked'), pendingWork(), 10_000);
  const sum = (c: (t: string) => number | undefined) => ['ab', 'cde'].map(c).reduce<number | undefined>((s, n) => (s === undefined || n === undefined ? undefined : s + n), 0);
  assert.equal(await tokens.withCounts(sum), 5);
  assert.deepEqual(batches, [['ab', 'cde']]);
  assert.equal(await tokens.withCounts(sum), 5);
  assert.equal(batches.length, 1, 'counted once');
});

test('withCounts gives the first answer when the count fails', async () => {
  const { count } = lengths(true);
  const tokens = backgroundTokens(count, () => undefined, pendingWork());
  assert.equal(await tokens.withCounts((c) => c('ab') ?? 'not counted'), 'not counted');
});

/**
 * The server's settings store (lsp/settings.ts) asks the client once per resource and keeps the
 * answer, but the workspace pass asks for every contract of the workspace: the store is bounded,
 * the least recently used resource asked of the client again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Connection } from 'vscode-languageserver';
import { settingsStore } from '../server/src/lsp/settings.ts';

function countingConnection() {
  const asked: string[] = [];
  const connection = {
    workspace: {
      getConfiguration: async ({ scopeUri }: { scopeUri: string }) => (asked.push(scopeUri), { maxFileBytes: 1000 + asked.length }),
    },
  } as unknown as Connection;
  return { asked, connection };
}

test('settings are asked once per resource while it is kept', async () => {
  const { asked, connection } = countingConnection();
  const store = settingsStore(connection, 8);
  store.supported = true;
  await store.of('file:///a/AGENTS.md');
  await store.of('file:///a/AGENTS.md');
  assert.deepEqual(asked, ['file:///a/AGENTS.md']);
  assert.equal(store.sizeLimit('file:///a/AGENTS.md'), 1001);
});

test('the store keeps at most its capacity: a resource pushed out is asked again, and reload asks only what is kept', async () => {
  const { asked, connection } = countingConnection();
  const store = settingsStore(connection, 8);
  store.supported = true;
  for (let i = 0; i < 100; i++) await store.of(`file:///w/c${i}/AGENTS.md`);
  assert.equal(asked.length, 100);
  await store.of('file:///w/c0/AGENTS.md');
  assert.equal(asked.length, 101, 'the first resource was evicted and asked again');
  asked.length = 0;
  await store.reload();
  assert.ok(asked.length <= 8, `reload asked ${asked.length} resources, more than the store keeps`);
  assert.ok(asked.includes('file:///w/c0/AGENTS.md'));
});

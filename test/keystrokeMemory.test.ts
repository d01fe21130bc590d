/**
 * Memory of typing (docs/performance.md, "Less per keystroke, and no document kept per
 * keystroke"): what is kept from one version to the next (items, blocks, their mentions) must not
 * keep the versions' whole texts alive. A memo of row mentions did: the heap grew by about a
 * document per HITL keystroke (14 MB per 120 edits in the server).
 * Run: node --import tsx --test test/keystrokeMemory.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./helpers/keystrokeHeap.ts', import.meta.url));
const heapAfter = (edits: number) => Number(execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', script, String(edits)], { encoding: 'utf8' }));

test('the heap after 200 HITL keystrokes is about the heap after 40: no version of the document is kept per keystroke', () => {
  const few = heapAfter(40);
  const many = heapAfter(200);
  const grown = (many - few) / 1048576;
  // A kept version is about 0.1 MB of text (the contract is two-byte): 160 of them are 16 MB.
  assert.ok(grown < 4, `the heap grew by ${grown.toFixed(1)} MB from 40 to 200 keystrokes (${(few / 1048576).toFixed(1)} → ${(many / 1048576).toFixed(1)} MB)`);
});

// Fix-all in the editor applies the safe fixes to their own result until none is left, then sends
// the edits between the document and that result (server/src/lsp/codeActions.ts): those edits
// must give exactly the result, and leave the lines both texts share untouched.
// Run: node --import tsx --test test/editsBetween.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyEdits, editsBetween } from '../server/src/service/index.ts';
import { RUNS } from './helpers/properties.ts';

const lines = fc.array(fc.constantFrom('## TOOLS', '- **If x**: → y', '', 'text', '```', '中文', 'a\r'), { maxLength: 12 });
const text = fc.tuple(lines, fc.boolean()).map(([ls, end]) => ls.join('\n') + (end ? '\n' : ''));

test('the edits between two texts turn the first into the second', () => {
  fc.assert(fc.property(text, text, (before, after) => {
    assert.equal(applyEdits(before, editsBetween(before, after)), after);
  }), { numRuns: RUNS(400) });
});

test('lines both texts share are not in any edit; equal texts give none', () => {
  const before = 'a\nb\nc\nd\n';
  const edits = editsBetween(before, 'a\nb\nX\nc\nd\nY\n');
  assert.deepEqual(edits.map((e) => [e.range.start.line, e.range.end.line, e.newText]), [[2, 2, 'X\n'], [4, 4, 'Y\n']]);
  assert.deepEqual(editsBetween(before, before), []);
});

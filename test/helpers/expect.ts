/**
 * Expectations that update themselves, as rust-analyzer's expect-test does: a test compares what
 * the code gives with what a file (a golden file, a README, the test's own source) says; with
 * `UPDATE_EXPECT=1` it writes what the code gives instead, and the change shows in `git diff`
 * for review. Run: UPDATE_EXPECT=1 npm test (or the one file).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';

export const UPDATING = process.env['UPDATE_EXPECT'] === '1';

/**
 * `actual` must equal `expected`, the text between `start` and `end` (character offsets) in
 * `file`; with UPDATE_EXPECT=1 the file's text there is replaced by `actual`.
 */
export function expectSpan(file: string, start: number, end: number, actual: string, what: string): void {
  const text = readFileSync(file, 'utf8');
  const expected = text.slice(start, end);
  if (UPDATING) {
    if (expected !== actual) writeFileSync(file, text.slice(0, start) + actual + text.slice(end));
    return;
  }
  assert.equal(actual, expected, `${what} (${file}) is out of date: run UPDATE_EXPECT=1 npm test, then check git diff`);
}

/**
 * Expectations that update themselves, as rust-analyzer's expect-test does: a test compares what
 * the code gives with what a file (a golden file, a README, the test's own source) says; with
 * `UPDATE_EXPECT=1` it writes what the code gives instead, and the change shows in `git diff`
 * for review. Run: UPDATE_EXPECT=1 npm test (or the one file).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

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

/** `actual` must be the content of the golden file `file`; with UPDATE_EXPECT=1 it is written there. */
export function expectFile(file: string, actual: string, what: string): void {
  if (UPDATING) {
    mkdirSync(dirname(file), { recursive: true });
    if (!existsSync(file) || readFileSync(file, 'utf8') !== actual) writeFileSync(file, actual);
    return;
  }
  assert.ok(existsSync(file), `${what}: the golden file ${file} is missing: run UPDATE_EXPECT=1 npm test`);
  expectSpan(file, 0, readFileSync(file, 'utf8').length, actual, what);
}

/**
 * `actual` (string entries) must be the entries of the array literal `const NAME = [ … ];` in the
 * test source `file`, one `'entry', // comment` a line, in any order. With UPDATE_EXPECT=1 the
 * array is rewritten in `actual`'s order: an entry keeps the comment of the entry it replaces
 * (same first word, same occurrence: a finding that moved keeps its note), a new one gets
 * `note(entry)` (to check by eye before committing).
 */
export function expectEntries(file: string, name: string, actual: readonly string[], note: (entry: string) => string): void {
  const text = readFileSync(file, 'utf8');
  const open = text.indexOf(`const ${name} = [\n`);
  assert.ok(open >= 0, `${file} declares const ${name} = [`);
  const start = open + `const ${name} = [\n`.length;
  const end = text.indexOf('\n];', start) + 1;
  const old = [...text.slice(start, end).matchAll(/^\s*'([^']*)',(?:\s*\/\/ ?(.*))?$/gm)].map((m) => ({ line: m[0], entry: m[1]!, comment: (m[2] ?? '').trim() }));
  const sorted = (l: readonly string[]) => [...l].sort();
  if (!UPDATING) {
    assert.deepEqual(sorted(actual), sorted(old.map((o) => o.entry)), `${name} in ${file} is out of date: run UPDATE_EXPECT=1 npm test, then check git diff`);
    return;
  }
  const seen = new Map<string, number>();
  const lines = actual.map((entry) => {
    const key = entry.split(' ')[0]!;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    const was = old.filter((o) => o.entry.split(' ')[0] === key)[n];
    if (was?.entry === entry) return was.line;
    const head = `  '${entry}', //`;
    return `${head}${' '.repeat(Math.max(1, 50 - head.length))}${was?.comment ?? note(entry)}`;
  });
  const updated = `${lines.join('\n')}\n`;
  if (updated !== text.slice(start, end)) writeFileSync(file, text.slice(0, start) + updated + text.slice(end));
}

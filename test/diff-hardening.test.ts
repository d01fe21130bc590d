// The Markdown report is pasted into pull requests: a contract's text must not become HTML there.
// And `--fail-on ""` is a usage error, not a gate that never fires.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, useCliBundle } from './helpers/cli.ts';

const { bundle, scratch } = useCliBundle('diff-hardening');

const BEFORE = readFileSync(join(REPO, 'test', 'diff-corpus', 'boundaries', 'before.md'), 'utf8');

test('HTML in a changed boundary is escaped in the Markdown report, backticks from the contract shown as text', async () => {
  const afterText = BEFORE.replace('  - ❌ Never share prices with other customers\n', '  - ❌ Never share prices with other customers\n  - ❌ Never write <!-- or <script> into `a < b` output\n');
  const ws = scratch.workspace({ 'before.md': BEFORE, 'after.md': afterText });
  const r = await bundle.run(ws, 'diff', 'before.md', 'after.md', '--format', 'markdown');
  assert.equal(r.code, 0, r.stderr);
  const row = r.stdout.split('\n').find((l) => l.includes('Never write'));
  assert.ok(row, r.stdout);
  assert.match(row, /&lt;!-- or &lt;script>/);
  assert.doesNotMatch(row.replace(/`[^`]*`/g, ''), /<!--|<script/);
  // A contract's backticks are its text, not ours: escaped, so an unclosed one cannot swallow the row (docs/ci.md).
  assert.match(row, /\\`a &lt; b\\`/);
});

test('--fail-on with no kind is a usage error', async () => {
  const ws = scratch.workspace({ 'before.md': BEFORE, 'after.md': BEFORE });
  const r = await bundle.run(ws, 'diff', 'before.md', 'after.md', '--fail-on', '');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--fail-on/);
});

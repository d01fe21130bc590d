// The Markdown report is pasted into pull requests: a contract's text must not become HTML there.
// And `--fail-on ""` is a usage error, not a gate that never fires. A section one side skipped as
// too complex is reported as not analysed, never as its items removed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, useCliBundle } from './helpers/cli.ts';
import { diffContracts, parseContract } from '../server/src/service/index.ts';

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

test('a section skipped as content-too-complex is reported as not analysed, not as its items removed', async () => {
  // 1,001 more boundaries: AGENT_IDENTITY's list runs over the block limit, so the newer side skips the section.
  const long = Array.from({ length: 1001 }, (_, i) => `  - ❌ Never do thing ${i}\n`).join('');
  const afterText = BEFORE.replace('  - ❌ Never share prices with other customers\n', `  - ❌ Never share prices with other customers\n${long}`);
  const after = parseContract(afterText);
  assert.ok(after.sections.some((s) => s.findings.some((f) => f.code === 'content-too-complex')), 'the newer side skips the section');
  const diff = diffContracts(parseContract(BEFORE), after);
  // Before: every boundary, the name and the mandate of the older side were listed as removed.
  assert.deepEqual(diff.notAnalysed, [{ section: 'identity', side: 'after' }]);
  assert.deepEqual(diff.changes.filter((c) => c.section === 'identity'), []);
  assert.deepEqual(diffContracts(after, parseContract(BEFORE)).notAnalysed, [{ section: 'identity', side: 'before' }]);
  assert.deepEqual(diffContracts(after, after).notAnalysed, [{ section: 'identity', side: 'both' }]);
  assert.equal(diffContracts(parseContract(BEFORE), parseContract(BEFORE)).notAnalysed, undefined);

  const ws = scratch.workspace({ 'before.md': BEFORE, 'after.md': afterText });
  const text = await bundle.run(ws, 'diff', 'before.md', 'after.md');
  assert.match(text.stdout, /AGENT_IDENTITY was not analysed in the newer version \(content-too-complex\)/, text.stdout);
  assert.doesNotMatch(text.stdout, /removed/, text.stdout);
  const md = await bundle.run(ws, 'diff', 'before.md', 'after.md', '--format', 'markdown');
  assert.match(md.stdout, /⚠ AGENT_IDENTITY was not analysed in the newer version/, md.stdout);
  const json = await bundle.run(ws, 'diff', 'before.md', 'after.md', '--format', 'json');
  assert.deepEqual(JSON.parse(json.stdout).notAnalysed, [{ section: 'identity', side: 'after' }]);
});

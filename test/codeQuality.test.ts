// `agents-md lint --format codequality`: GitLab's Code Quality report (docs/ci.md), as a GitLab job
// runs it. GitLab reads a JSON array of issues with `description`, `check_name`, `fingerprint`,
// `severity` (info, minor, major, critical, blocker) and `location.path` / `location.lines.begin`;
// it compares the fingerprints of the merge request's report with the target branch's to say which
// problems are new or fixed, so a fingerprint must stay the same while the problem does (lines
// moved, another language) and differ between two problems, even two with the same message.
// Run: node --import tsx --test test/codeQuality.test.ts
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useCliBundle, type Run } from './helpers/cli.ts';
import { BAD_BUDGETS_CONTRACT, ONE_WARNING_BUDGETS } from './helpers/fixtures.ts';

const { bundle, scratch } = useCliBundle('codequality');

/** Errors (a schema error, two tools with the same name and the same missing-schema message), a warning. */
const CONTRACT = `${BAD_BUDGETS_CONTRACT}
## TOOLS

| Tool | Description |
|---|---|
| a | x |
| a | y |
`;
/** A partial contract: a warning and an info. */
const PARTIAL = ONE_WARNING_BUDGETS;

interface Issue {
  description: string;
  check_name: string;
  fingerprint: string;
  severity: string;
  location: { path: string; lines: { begin: number; end: number } };
}

const issues = (run: Run) => JSON.parse(run.stdout) as Issue[];

describe('agents-md lint --format codequality', { concurrency: true }, () => {
  test('writes GitLab Code Quality issues: fields, paths relative to the root, 1-based lines, exit code as for text', async () => {
    const dir = scratch.workspace({ 'AGENTS.md': CONTRACT, 'sub/budget.agents.md': PARTIAL });
    const run = await bundle.run(dir, 'lint', '--format', 'codequality');
    assert.equal(run.code, 1, run.stderr);
    const all = issues(run);
    assert.ok(all.length >= 5, run.stdout);
    for (const i of all) {
      assert.deepEqual(Object.keys(i).sort(), ['check_name', 'description', 'fingerprint', 'location', 'severity']);
      assert.deepEqual(Object.keys(i.location).sort(), ['lines', 'path']);
      assert.ok(i.description.length > 0 && typeof i.check_name === 'string');
      assert.match(i.fingerprint, /^[0-9a-f]{64}$/);
      assert.ok(Number.isInteger(i.location.lines.begin) && i.location.lines.begin >= 1 && i.location.lines.end >= i.location.lines.begin, JSON.stringify(i));
    }
    assert.deepEqual([...new Set(all.map((i) => i.location.path))].sort(), ['AGENTS.md', 'sub/budget.agents.md']);
    const schema = all.find((i) => i.check_name === 'schema')!;
    assert.deepEqual(schema.location, { path: 'AGENTS.md', lines: { begin: 8, end: 8 } });
    assert.equal(schema.description, 'BUDGETS: Max Steps: must be of type integer.');
  });

  test('maps severities: error → major, warning → minor, info → info', async () => {
    const dir = scratch.workspace({ 'AGENTS.md': CONTRACT, 'budget.agents.md': PARTIAL });
    const json = JSON.parse((await bundle.run(dir, 'lint', '--format', 'json')).stdout) as { path: string; diagnostics: { code: string; severity: string; message: string }[] }[];
    const quality = issues(await bundle.run(dir, 'lint', '--format', 'codequality'));
    const expected: Record<string, string> = { error: 'major', warning: 'minor', info: 'info' };
    const pairs = json.flatMap((f) => f.diagnostics.map((d) => `${d.code}|${expected[d.severity]}`)).sort();
    assert.deepEqual(quality.map((i) => `${i.check_name}|${i.severity}`).sort(), pairs);
    assert.deepEqual(new Set(quality.map((i) => i.severity)), new Set(['major', 'minor', 'info']));
  });

  test('fingerprints are unique, also for two problems with the same message, in every language', async () => {
    const dir = scratch.workspace({ 'AGENTS.md': CONTRACT, 'budget.agents.md': PARTIAL });
    for (const lang of ['en', 'zh-cn']) {
      const all = issues(await bundle.run(dir, 'lint', '--format', 'codequality', '--lang', lang));
      const twins = all.filter((i) => i.check_name === 'tool-missing-schema');
      assert.equal(twins.length, 2, lang);
      assert.equal(twins[0]!.description, twins[1]!.description);
      assert.equal(new Set(all.map((i) => i.fingerprint)).size, all.length, `${lang}: ${JSON.stringify(all.map((i) => [i.check_name, i.fingerprint]))}`);
    }
  });

  test('fingerprints stay the same when lines move and in another language', async () => {
    const dir = scratch.workspace({ 'AGENTS.md': CONTRACT });
    const before = issues(await bundle.run(dir, 'lint', '--format', 'codequality'));
    const moved = scratch.workspace({ 'AGENTS.md': CONTRACT.replace('## BUDGETS\n', '## BUDGETS\n\nBudgets of the demo agent.\n') });
    const after = issues(await bundle.run(moved, 'lint', '--format', 'codequality'));
    const zh = issues(await bundle.run(dir, 'lint', '--format', 'codequality', '--lang', 'zh-cn'));
    const print = (all: Issue[]) => all.map((i) => i.fingerprint).sort();
    assert.deepEqual(print(after), print(before));
    assert.notDeepEqual(after.map((i) => i.location.lines.begin), before.map((i) => i.location.lines.begin), 'the lines did move');
    assert.deepEqual(print(zh), print(before));
    assert.notEqual(zh.find((i) => i.check_name === 'schema')!.description, before.find((i) => i.check_name === 'schema')!.description, 'the descriptions are in Chinese');
  });
});

// The semantic diff (docs/semantic-diff.md): every pair of the corpus (test/diff-corpus/<case>/
// before.md, after.md) through the engine and through the real CLI bundle (`agents-md diff --format
// json`), compared with the classification in its expected.json (checked by eye when written);
// the version advice and its diagnostics; the CLI's formats, gates and errors; and the git inputs
// (`--against`, `--index`) on a real temporary repository.
// Run: node --import tsx --test test/diff.test.ts
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffContracts, parseContract, versionAdviceDiagnostics, type Change, type SemanticDiff } from '../server/src/service/index.ts';
import { classifyDiffRule, DEFAULT_DIFF_POLICY, diffMessage, IMPACT_RULES, DIFF_MESSAGES } from '../server/src/service/host.ts';
import { readAtRevision, GitError } from '../server/src/node/gitRevision.ts';
import { REPO, useCliBundle } from './helpers/cli.ts';
import { formatDiffJson } from '../server/src/cli/format/diffJson.ts';

const CORPUS = join(REPO, 'test', 'diff-corpus');
const CASES = readdirSync(CORPUS).sort();

interface Expected {
  readonly description: string;
  readonly changes: readonly Projected[];
  readonly advice: { readonly required: string; readonly declared: string; readonly sufficient: boolean; readonly auditRowAdded: boolean };
}
type Projected = Readonly<Record<string, string>>;

const read = (name: string, file: string) => readFileSync(join(CORPUS, name, file), 'utf8');
const expectedOf = (name: string) => JSON.parse(read(name, 'expected.json')) as Expected;

/** Changes in a stable order: the classification is compared, not the display order. */
const sorted = (xs: readonly Projected[]): Projected[] => [...xs].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

/** What expected.json records of a change. */
function project(changes: readonly Change[]): Projected[] {
  return sorted(changes.map((c) => ({ reason: c.reasonId, kind: c.kind, impact: c.impact, section: c.section, itemKind: c.itemKind, identity: c.identity, ...(c.field ? { field: c.field } : {}) })));
}

function adviceOf(diff: Pick<SemanticDiff, 'advice'>): Expected['advice'] {
  const { required, declared, sufficient, auditRowAdded } = diff.advice;
  return { required, declared, sufficient, auditRowAdded };
}

function diffCase(name: string): SemanticDiff {
  return diffContracts(parseContract(read(name, 'before.md')), parseContract(read(name, 'after.md')));
}

const { bundle, scratch } = useCliBundle('diff');

describe('the diff corpus through the engine', () => {
  for (const name of CASES) {
    test(`${name}: ${expectedOf(name).description}`, () => {
      const expected = expectedOf(name);
      const diff = diffCase(name);
      assert.deepEqual(project(diff.changes), sorted(expected.changes));
      assert.deepEqual(adviceOf(diff), expected.advice);
    });
  }

  test('formatting-only edits give no change', () => {
    const formatting = CASES.filter((n) => n.startsWith('format-') || n === 'identical');
    assert.ok(formatting.length >= 8, formatting.join(', '));
    for (const name of formatting) assert.deepEqual(diffCase(name).changes, [], name);
  });

  test('every impact rule is exemplified by a corpus case and has a reason in the catalogue', () => {
    const used = new Set(CASES.flatMap((n) => expectedOf(n).changes.map((c) => c['reason'])));
    const rules = Object.keys(IMPACT_RULES);
    assert.deepEqual(rules.filter((r) => !used.has(r)), [], 'rules without a corpus example');
    assert.deepEqual([...used].filter((r) => !rules.includes(r!)), [], 'corpus reasons that are not rules');
    for (const r of rules) assert.ok(r in DIFF_MESSAGES, r);
  });

  test('each change has both sides with ranges, its rule\'s impact and bump, and a formatted reason', () => {
    for (const name of CASES) {
      for (const c of diffCase(name).changes) {
        // The default diff policy: rules that weaken a guarantee are breaking (docs/semantic-diff.md §6).
        const rule = classifyDiffRule(c.reasonId, DEFAULT_DIFF_POLICY);
        assert.equal(c.impact, rule.impact, c.id);
        assert.equal(c.bump, rule.bump, c.id);
        assert.equal(c.message, diffMessage(c.reasonId, c.args), c.id);
        for (const m of DIFF_MESSAGES[c.reasonId].matchAll(/\{(\w+)\}/g)) assert.ok(m[1]! in c.args, `${c.id}: no argument for {${m[1]}}`);
        assert.equal(c.before.value === undefined, c.kind === 'added', `${c.id}: the before value exists unless added`);
        assert.equal(c.after.value === undefined, c.kind === 'removed', `${c.id}: the after value exists unless removed`);
        for (const side of [c.before, c.after]) assert.ok(side.range.start.line >= 0 && side.range.end.line >= side.range.start.line, c.id);
      }
    }
  });

  test('a removed item keeps its source range in the before file and points at its parent in the after file', () => {
    const diff = diffCase('tool-removed');
    const [c] = diff.changes;
    assert.equal(c!.reasonId, 'tool-removed');
    const beforeLines = read('tool-removed', 'before.md').split('\n');
    assert.equal(beforeLines[c!.before.range.start.line], '### lookup_vendor');
    assert.equal(c!.before.pointer, '/tools/2');
    assert.equal(c!.after.pointer, '/tools');
    assert.equal(read('tool-removed', 'after.md').split('\n')[c!.after.range.start.line], '## TOOLS');
  });

  test('the diff of a contract with itself is empty for every sample', () => {
    for (const dir of readdirSync(join(REPO, 'samples'), { withFileTypes: true }).filter((d) => d.isDirectory())) {
      const text = readFileSync(join(REPO, 'samples', dir.name, 'AGENTS.md'), 'utf8');
      assert.deepEqual(diffContracts(parseContract(text), parseContract(text)).changes, [], dir.name);
    }
  });
});

describe('version advice as diagnostics', () => {
  test('an insufficient bump and a missing audit row are warnings on the newer file', () => {
    const after = parseContract(read('bump-unchanged', 'after.md'));
    const diff = diffContracts(parseContract(read('bump-unchanged', 'before.md')), after);
    const ds = versionAdviceDiagnostics(diff, after, 'HEAD');
    assert.deepEqual(ds.map((d) => [d.code, d.severity]), [['diff-version-bump', 'warning'], ['diff-audit-row', 'warning']]);
    const lines = read('bump-unchanged', 'after.md').split('\n');
    assert.match(lines[ds[0]!.range.start.line]!, /^version: 1\.4\.2/);
    assert.match(lines[ds[1]!.range.start.line]!, /^## VERSIONING & AUDIT/);
    assert.equal(ds[0]!.message, 'These changes since HEAD need a patch version bump; the version is still 1.4.2.');
    assert.equal(ds[1]!.message, diffMessage('diagnostic.auditRow', { ref: 'HEAD', version: '1.4.2' }));
  });

  test('a sufficient bump with a new audit row gives no diagnostic', () => {
    const after = parseContract(read('bump-major-sufficient', 'after.md'));
    const diff = diffContracts(parseContract(read('bump-major-sufficient', 'before.md')), after);
    assert.deepEqual(versionAdviceDiagnostics(diff, after, 'HEAD'), []);
  });
});

describe('agents-md diff', { concurrency: true }, () => {
  // The corpus through the JSON format in process (the engine's results are checked above), and
  // one case through the CLI's process: 59 processes checked nothing more than one does.
  type DiffJson = { before: { file: string }; after: { file: string }; changes: (Change & { after: { line: number } })[]; advice: SemanticDiff['advice'] };
  const checkJson = (name: string, json: DiffJson) => {
    const expected = expectedOf(name);
    assert.deepEqual(project(json.changes), sorted(expected.changes));
    assert.deepEqual(adviceOf(json), expected.advice);
    assert.deepEqual([json.before.file, json.after.file], ['before.md', 'after.md']);
    for (const c of json.changes) assert.equal(c.after.line, c.after.range.start.line + 1, 'one-based line next to the range');
  };
  test('the corpus in --format json', () => {
    for (const name of CASES) checkJson(name, JSON.parse(formatDiffJson({ before: { file: 'before.md' }, after: { file: 'after.md' }, diff: diffCase(name) })) as DiffJson);
  });
  test('a corpus case through the CLI (--format json)', async () => {
    const name = 'hitl';
    const run = await bundle.run(join(CORPUS, name), 'diff', 'before.md', 'after.md', '--format', 'json');
    assert.equal(run.code, 0, run.stderr);
    checkJson(name, JSON.parse(run.stdout) as DiffJson);
  });

  test('text: one line per change at file:line:col, the advice and a summary', async () => {
    const run = await bundle.run(join(CORPUS, 'bump-insufficient'), 'diff', 'before.md', 'after.md');
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stdout,
      [
        'Semantic diff: before.md → after.md',
        'before.md:9:1 removed breaking TOOLS Tool `lookup_vendor` removed: the agent can no longer call it and callers that expect it break.',
        'Version: The changes need a major bump, but the version went from 1.4.2 to 1.4.3 (patch).',
        '    The bump is required by: Tool `lookup_vendor` removed: the agent can no longer call it and callers that expect it break.',
        'Audit: VERSIONING & AUDIT has a new row for 1.4.3.',
        '1 semantic change: 1 breaking, 0 risk-increasing, 0 risk-reducing, 0 neutral.',
        '',
      ].join('\n'),
    );
  });

  test('markdown: counts, advice and a table for a pull-request comment, cells escaped', async () => {
    const dir = scratch.workspace({
      'old.md': '---\ncontract: true\nversion: 1.0.0\n---\n## CONSTRAINTS\n\n```yaml\n- type: safety_guard\n  rule: Never answer `a | b` questions.\n```\n',
      'new.md': '---\ncontract: true\nversion: 1.0.0\n---\n## CONSTRAINTS\n\n```yaml\n[]\n```\n',
    });
    const run = await bundle.run(dir, 'diff', 'old.md', 'new.md', '--format', 'markdown');
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stdout,
      [
        '### Semantic diff: `old.md` → `new.md`',
        '',
        '🔴 1 breaking · 🟠 0 risk-increasing · 🟢 0 risk-reducing · ⚪ 0 neutral',
        '',
        '**Version**: The changes need a major bump, but the version stayed 1.0.0.',
        '',
        'The bump is required by: Safety guard removed: "Never answer \\`a \\| b\\` questions.".',
        '',
        '**Audit**: VERSIONING & AUDIT has no row for 1.0.0.',
        '',
        '| Impact | Section | Change | Where |',
        '|---|---|---|---|',
        '| 🔴 breaking | CONSTRAINTS | Safety guard removed: "Never answer \\`a \\| b\\` questions.". | `old.md:8` |',
        '',
      ].join('\n'),
    );
  });

  test('no change: a short report, exit 0 even with --fail-on', async () => {
    const run = await bundle.run(join(CORPUS, 'format-reflow'), 'diff', 'before.md', 'after.md', '--fail-on', 'breaking,risk,bump');
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'Semantic diff: before.md → after.md\n✔ No semantic change.\n');
  });

  test('--fail-on breaking, risk and bump exit 1 and say why on standard error', async () => {
    const dir = join(CORPUS, 'bump-insufficient');
    const breaking = await bundle.run(dir, 'diff', 'before.md', 'after.md', '--fail-on', 'breaking');
    assert.equal(breaking.code, 1);
    assert.equal(breaking.stderr, 'agents-md: 1 breaking change(s): failing as --fail-on breaking asks.\n');
    const risk = await bundle.run(dir, 'diff', 'before.md', 'after.md', '--fail-on', 'risk');
    assert.equal(risk.code, 0, 'no risk-increasing change in this case');
    const bump = await bundle.run(dir, 'diff', 'before.md', 'after.md', '--fail-on', 'risk', '--fail-on', 'bump');
    assert.equal(bump.code, 1);
    assert.match(bump.stderr, /--fail-on bump/);
    const hitl = await bundle.run(join(CORPUS, 'hitl'), 'diff', 'before.md', 'after.md', '--fail-on', 'risk', '--format', 'json');
    assert.equal(hitl.code, 1);
    // Gates removed or loosened are breaking under the default policy, and still fail `--fail-on risk`.
    assert.equal(hitl.stderr, 'agents-md: 4 breaking change(s) remove or weaken a guarantee: failing as --fail-on risk asks.\n');
    assert.doesNotThrow(() => JSON.parse(hitl.stdout), 'the report is still printed');
  });

  test('usage errors and unreadable inputs exit 2 with a message naming the file', async () => {
    const dir = scratch.workspace({ 'a.md': '# a\n', 'bin.md': '\u0000\u0001\u0002binary' });
    const cases: [string[], RegExp][] = [
      [['diff', 'a.md'], /give a second file, or --against <ref> or --index/],
      [['diff', 'a.md', 'a.md', '--index'], /give either two files, or one file with --against or --index/],
      [['diff', 'a.md', '--against', 'HEAD', '--index'], /--against and --index cannot be used together/],
      [['diff', 'a.md', 'missing.md'], /^agents-md: missing\.md: cannot be read \(no such file or directory\)\.$/m],
      [['diff', 'a.md', 'bin.md'], /bin\.md: is not a text file/],
      [['diff', 'a.md', 'a.md', '--fail-on', 'everything'], /unknown value "everything"/],
      [['diff', 'a.md', 'a.md', '--format', 'sarif'], /argument 'sarif' is invalid/],
    ];
    for (const [args, message] of cases) {
      const run = await bundle.run(dir, ...args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message, args.join(' '));
      assert.equal(run.stdout, '', args.join(' '));
    }
  });

  test('a free-form file is compared with a note on standard error', async () => {
    const dir = scratch.workspace({ 'a.md': '# Notes\n\n## Build\n\nnpm ci\n', 'b.md': '# Notes\n\n## Build\n\nnpm install\n' });
    const run = await bundle.run(dir, 'diff', 'a.md', 'b.md');
    assert.equal(run.code, 0);
    assert.match(run.stderr, /a\.md is not a contract \(freeform\)/);
    assert.match(run.stdout, /No semantic change/);
  });
});

describe('git inputs: a real temporary repository', { concurrency: true }, () => {
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  let repo = '';
  let first = '';
  const v1 = read('hitl', 'before.md');
  const v2 = read('hitl', 'after.md');
  const v3 = v2.replace('| 8h | reject |', '| 8h | escalate |');

  before(() => {
    repo = scratch.workspace({ 'contracts/AGENTS.md': v1, 'contracts/new.agents.md': '# not committed\n' });
    git(repo, 'init', '-q');
    git(repo, 'add', 'contracts/AGENTS.md');
    git(repo, 'commit', '-q', '-m', 'v1');
    first = git(repo, 'rev-parse', 'HEAD').trim();
    git(repo, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(repo, 'contracts', 'AGENTS.md'), v2);
    git(repo, 'commit', '-q', '-am', 'v2');
    // Working copy v3; index v2; HEAD (feature) v2; main and the first commit v1.
    writeFileSync(join(repo, 'contracts', 'AGENTS.md'), v3);
  });

  test('readAtRevision reads HEAD, a branch, a commit and the index through git', async () => {
    const file = join(repo, 'contracts', 'AGENTS.md');
    const text = async (source: Parameters<typeof readAtRevision>[1]) => new TextDecoder().decode(await readAtRevision(file, source));
    assert.equal(await text({ ref: 'HEAD' }), v2);
    assert.equal(await text({ ref: 'main' }), v1);
    assert.equal(await text({ ref: first.slice(0, 10) }), v1);
    assert.equal(await text('index'), v2);
  });

  test('readAtRevision fails clearly: not a repository, unknown ref, file not in the ref or the index', async () => {
    const outside = scratch.workspace({ 'AGENTS.md': v1 });
    const fails = async (file: string, source: Parameters<typeof readAtRevision>[1], id: string) => {
      await assert.rejects(readAtRevision(file, source), (e: unknown) => e instanceof GitError && e.messageId === id && e.message.includes(file));
    };
    await fails(join(outside, 'AGENTS.md'), { ref: 'HEAD' }, 'git.notRepository');
    await fails(join(repo, 'contracts', 'AGENTS.md'), { ref: 'no-such-branch' }, 'git.unknownRef');
    await fails(join(repo, 'contracts', 'AGENTS.md'), { ref: '--output=/tmp/x' }, 'git.unknownRef');
    await fails(join(repo, 'contracts', 'new.agents.md'), { ref: 'HEAD' }, 'git.notInRef');
    await fails(join(repo, 'contracts', 'new.agents.md'), 'index', 'git.notInIndex');
  });

  test('--against HEAD, a branch and a commit; --index compares the working copy with the staged version', async () => {
    const json = async (...args: string[]) => {
      const run = await bundle.run(join(repo, 'contracts'), 'diff', 'AGENTS.md', ...args, '--format', 'json');
      assert.equal(run.code, 0, run.stderr);
      return JSON.parse(run.stdout) as { before: { file: string; ref?: string }; changes: Change[] };
    };
    const reasons = (d: { changes: Change[] }) => d.changes.map((c) => c.reasonId).sort();
    const head = await json('--against', 'HEAD');
    assert.deepEqual(head.before, { file: 'AGENTS.md', ref: 'HEAD' });
    assert.deepEqual(reasons(head), ['hitl-timeout-loosened'], 'HEAD is v2, the working copy v3');
    const index = await json('--index');
    assert.deepEqual(index.before, { file: 'AGENTS.md', ref: 'index' });
    assert.deepEqual(reasons(index), ['hitl-timeout-loosened']);
    const main = await json('--against', 'main');
    const commit = await json('--against', first);
    const fromV1 = diffContracts(parseContract(v1), parseContract(v3)).changes.map((c) => c.reasonId).sort();
    assert.deepEqual(reasons(main), fromV1);
    assert.deepEqual(reasons(commit), fromV1);
    // The index differs from HEAD once v3 is staged.
    const staged = scratch.workspace({});
    git(staged, 'init', '-q');
    writeFileSync(join(staged, 'AGENTS.md'), v1);
    git(staged, 'add', 'AGENTS.md');
    writeFileSync(join(staged, 'AGENTS.md'), v2);
    const run = await bundle.run(staged, 'diff', 'AGENTS.md', '--index', '--format', 'json');
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(reasons(JSON.parse(run.stdout)), diffContracts(parseContract(v1), parseContract(v2)).changes.map((c) => c.reasonId).sort());
  });

  test('git errors exit 2 with a message naming the file and the ref', async () => {
    const outside = scratch.workspace({ 'AGENTS.md': v1 });
    const cases: [string, string[], string][] = [
      [outside, ['AGENTS.md', '--against', 'HEAD'], 'agents-md: AGENTS.md is not inside a git repository.\n'],
      [join(repo, 'contracts'), ['AGENTS.md', '--against', 'nope'], 'agents-md: nope is not a commit in the repository of AGENTS.md.\n'],
      [join(repo, 'contracts'), ['new.agents.md', '--against', 'main'], 'agents-md: new.agents.md does not exist in main.\n'],
      [join(repo, 'contracts'), ['new.agents.md', '--index'], 'agents-md: new.agents.md is not in the git index (not staged or not tracked).\n'],
    ];
    for (const [cwd, args, stderr] of cases) {
      const run = await bundle.run(cwd, 'diff', ...args);
      assert.equal(run.code, 2, args.join(' '));
      assert.equal(run.stderr, stderr);
    }
  });
});

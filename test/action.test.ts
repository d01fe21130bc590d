// The GitHub Action (action.yml, docs/ci.md) end to end: a real git repository with base and head
// commits made here, the Action's code run with the environment GitHub sets, and a local HTTP
// server on 127.0.0.1 that plays the GitHub REST API (the Action takes its URL from
// GITHUB_API_URL, as on GitHub Enterprise). The first run creates the comment, the next push
// updates that same comment, a pull request that changes no contract says so; the SARIF it writes
// passes the SARIF Multitool with GitHub's rules when tools/sarif is installed; a contract with
// snapshots gets the eval figures of the base commit and of the pull request side by side.
// Run: node --import tsx --test test/action.test.ts
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAction } from '../server/src/action/run.ts';
import { MARKER } from '../server/src/action/comment.ts';
import { REPO } from './helpers/cli.ts';
import { fakeGitHub } from './helpers/fakeGitHub.ts';
import { MULTITOOL_MISSING, sarifMultitool, sarifProblems, validateSarif } from './helpers/sarifMultitool.ts';

const CORPUS = join(REPO, 'test', 'diff-corpus', 'guarantee-removed');

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** The comment docs/ci.md shows under "The comment": its Markdown, and the rendered quote without its `> `. */
function docsComment(): { markdown: string; rendered: string } {
  const doc = readFileSync(join(REPO, 'docs', 'ci.md'), 'utf8');
  const section = doc.slice(doc.indexOf('\n## The comment\n'));
  const markdown = /```markdown\n([\s\S]*?)\n```/.exec(section)![1]!;
  const quote = section.slice(section.indexOf('\nRendered:\n')).split('\n').slice(3);
  const rendered = quote.slice(0, quote.findIndex((l) => !l.startsWith('>'))).map((l) => l.replace(/^> ?/, ''));
  return { markdown, rendered: rendered.join('\n') };
}

describe('the GitHub Action', () => {
  const api = fakeGitHub();
  let dir: string;
  before(async () => {
    await api.listen();
    dir = mkdtempSync(join(tmpdir(), 'agents-md-action-'));
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'config', 'user.email', 'test@example.com');
    git(dir, 'config', 'user.name', 'Test');
    writeFileSync(join(dir, 'AGENTS.md'), readFileSync(join(CORPUS, 'before.md')));
    writeFileSync(join(dir, 'README.md'), 'Demo\n');
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'base');
  });
  after(() => {
    api.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the Action on pull request #7 whose base is `base`; returns its exit code and log. */
  async function run(base: string, failOn = 'breaking'): Promise<{ code: number; log: string[] }> {
    const log: string[] = [];
    const code = await runAction(api.env(dir, base, { 'fail-on': failOn, lang: 'en' }), (l) => log.push(l));
    return { code, log };
  }

  test('first run: lints, diffs against the base, creates one comment, fails on breaking', async () => {
    const base = git(dir, 'rev-parse', 'HEAD');
    git(dir, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(dir, 'AGENTS.md'), readFileSync(join(CORPUS, 'after.md')));
    git(dir, 'commit', '-q', '-am', 'loosen the contract');
    const { code, log } = await run(base);
    assert.equal(code, 1, log.join('\n'));
    assert.equal(api.comments.length, 1);
    const body = api.comments[0]!.body;
    assert.ok(body.startsWith(MARKER), body);
    assert.match(body, /^## AGENTS\.md contract review$/m);
    assert.match(body, /\*\*Lint\*\*: 1 changed contract, \d+ errors, \d+ warnings/);
    assert.match(body, /^### Semantic diff of `AGENTS\.md`$/m);
    assert.match(body, /🔴 4 breaking/);
    assert.match(body, /Hard boundary removed: "❌ Never share supplier prices with other customers"/);
    assert.ok(log.some((l) => /^::error file=AGENTS\.md,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=agents-md [a-z-]+::/.test(l)), 'lint annotations in the log');
    assert.ok(log.includes('::error file=AGENTS.md::4 breaking change(s): failing as --fail-on breaking asks.'), log.join('\n'));
    assert.ok(log.includes('Comment created (1000): 1 changed contract(s).'), log.join('\n'));
    const sarif = JSON.parse(readFileSync(join(dir, 'agents-md.sarif'), 'utf8')) as { runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
    assert.ok(sarif.runs[0]!.results.length > 0);
    assert.equal(sarif.runs[0]!.results[0]!.locations[0]!.physicalLocation.artifactLocation.uri, 'AGENTS.md');
  });

  test('a later push updates the same comment', async () => {
    const base = git(dir, 'rev-parse', 'main');
    writeFileSync(join(dir, 'AGENTS.md'), readFileSync(join(CORPUS, 'before.md'), 'utf8').replace('❌ Never initiate payments', '❌ Never initiate or approve payments'));
    git(dir, 'commit', '-q', '-am', 'keep the guarantees');
    const { code, log } = await run(base);
    assert.equal(code, 0, log.join('\n'));
    assert.equal(api.comments.length, 1, 'no second comment');
    assert.ok(log.includes('Comment updated (1000): 1 changed contract(s).'), log.join('\n'));
    assert.match(api.comments[0]!.body, /Hard boundary reworded: "❌ Never initiate payments" → "❌ Never initiate or approve payments"/);
    assert.doesNotMatch(api.comments[0]!.body, /Hard boundary removed/);
    assert.deepEqual(api.calls.filter((c) => c.startsWith('PATCH')), ['PATCH /repos/acme/agents/issues/comments/1000']);
  });

  test('a pull request that changes no contract says so', async () => {
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'checkout', '-q', '-b', 'docs');
    const base = git(dir, 'rev-parse', 'HEAD');
    writeFileSync(join(dir, 'README.md'), 'Demo, documented\n');
    git(dir, 'commit', '-q', '-am', 'docs only');
    const { code } = await run(base, 'breaking,risk,bump,lint');
    assert.equal(code, 0);
    assert.equal(api.comments.length, 1);
    assert.equal(api.comments[0]!.body, `${MARKER}\n## AGENTS.md contract review\n\n✔ No contract changed in this pull request.\n`);
  });

  test('the SARIF passes the SARIF Multitool with GitHub code scanning rules', async (t) => {
    const multitool = sarifMultitool();
    if (!multitool) {
      t.skip(MULTITOOL_MISSING);
      return;
    }
    git(dir, 'checkout', '-q', 'feature');
    await run(git(dir, 'rev-parse', 'main'));
    const input = join(dir, 'agents-md.sarif');
    const output = join(dir, 'validation.sarif');
    assert.deepEqual(sarifProblems(validateSarif(multitool, [input], output)), []);
  });
});

describe('the GitHub Action runs eval at both versions', () => {
  const api = fakeGitHub();
  let dir: string;
  before(async () => {
    await api.listen();
    dir = mkdtempSync(join(tmpdir(), 'agents-md-action-eval-'));
    cpSync(join(REPO, 'samples', 'procurement-analyzer'), join(dir, 'procurement'), { recursive: true });
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'config', 'user.email', 'test@example.com');
    git(dir, 'config', 'user.name', 'Test');
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'base');
  });
  after(() => {
    api.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the comment puts the figures of base and pull request side by side, with the path drift', async () => {
    const base = git(dir, 'rev-parse', 'HEAD');
    git(dir, 'checkout', '-q', '-b', 'no-large-purchase-gate');
    const contract = join(dir, 'procurement', 'AGENTS.md');
    const text = readFileSync(contract, 'utf8');
    const row = text.split('\n').find((l) => l.startsWith('| Large purchase |'))!;
    writeFileSync(contract, text.replace(`${row}\n`, ''));
    git(dir, 'commit', '-q', '-am', 'drop the large purchase sign-off');
    const log: string[] = [];
    const code = await runAction(api.env(dir, base, { 'fail-on': '' }), (l) => log.push(l));
    assert.equal(code, 0, log.join('\n'));
    const body = api.comments[0]!.body;
    assert.match(body, /Human sign-off "Large purchase" removed/);
    assert.ok(body.includes('**Eval**: `agents-md eval` on the snapshots of this contract, at the base commit and in this pull request.'), body);
    const table = [
      '| Figure | Base | Pull request |',
      '|---|---:|---:|',
      '| Queries meeting their expectations | 9 of 9 | 8 of 9 |',
      '| Success rate | 22.2% | 22.2% |',
      '| Average rounds | 1.11 | 1.11 |',
      '| Tokens (mean per query) | 21071 (2341) | 21071 (2341) |',
      '| Human-intervention rate | 44.4% | 44.4% |',
    ].join('\n');
    assert.ok(body.includes(table), body);
    assert.ok(body.includes('**Path drift**: 1 of 9 queries run at both versions took another path (mean distance 0.074).'), body);
    assert.ok(body.includes('- `procurement/snapshots/procurement.snapshot.yaml` › `large-purchase-rejected`: tool:check_inventory → human:reject → HUMAN_REJECTED ⇒ tool:check_inventory → human:timeout → HUMAN_TIMEOUT'), body);
    assert.ok(body.includes('1 query misses its expectations in this pull request:\n- `procurement/snapshots/procurement.snapshot.yaml` › `large-purchase-rejected`: expected code HUMAN_REJECTED, got HUMAN_TIMEOUT'), body);
    // docs/ci.md shows this comment as the Action writes it (the commit in "Where" aside), and rendered.
    assert.equal(docsComment().markdown, body.trimEnd().replace(/`[0-9a-f]{7,}:/g, '`f4115eb:'));
    assert.equal(docsComment().rendered, body.trimEnd().split('\n').slice(1).join('\n').replace(/`[0-9a-f]{7,}:/g, '`f4115eb:'));
    // The base was checked out beside the repository and removed again; nothing was written into the checkout.
    assert.equal(git(dir, 'worktree', 'list').split('\n').length, 1);
    assert.equal(git(dir, 'status', '--porcelain', '--ignored'), '?? agents-md-review.md\n?? agents-md.sarif', 'only the SARIF file and the whole review are written');
  });

  test('a renamed snapshot file: figures at both versions, but no query ran at both', async () => {
    const base = git(dir, 'rev-parse', 'main');
    const snapshot = join(dir, 'procurement', 'snapshots', 'procurement.snapshot.yaml');
    git(dir, 'mv', 'procurement/snapshots/procurement.snapshot.yaml', 'procurement/snapshots/renamed.snapshot.yaml');
    git(dir, 'commit', '-q', '-m', 'rename the snapshot');
    assert.ok(!existsSync(snapshot));
    await runAction(api.env(dir, base), () => undefined);
    const body = api.comments[0]!.body;
    assert.ok(body.includes('| Queries meeting their expectations | 9 of 9 | 8 of 9 |'), body);
    assert.ok(body.includes('**Path drift**: no query ran at both versions.'), body);
  });

  test('a new contract with snapshots has figures for the pull request only', async () => {
    const base = git(dir, 'rev-parse', 'main');
    cpSync(join(dir, 'procurement'), join(dir, 'copy'), { recursive: true });
    git(dir, 'add', 'copy');
    git(dir, 'commit', '-q', '-m', 'a second agent');
    await runAction(api.env(dir, base), () => undefined);
    const section = api.comments[0]!.body.split('\n### `copy/AGENTS.md`\n')[1]!;
    assert.ok(section.startsWith('\nA new contract: there is no earlier version to compare with.\n'), section);
    assert.ok(section.includes('| Queries meeting their expectations | — | 8 of 9 |\n| Success rate | — | 22.2% |'), section);
    assert.ok(section.includes('**Path drift**: no query ran at both versions.'), section);
  });
});

// Attack suite, the pull request as hostile input (docs/robustness.md, "The pull request is hostile
// input"): the GitHub Action's code run on a real git repository made here, against the local
// GitHub REST/GraphQL API of test/helpers/fakeGitHub.ts on 127.0.0.1. Contract names and boundary
// texts that try to break out of the comment's Markdown, file names that forge workflow commands,
// someone else's comment carrying our marker, a review longer than GitHub's comment limit, and an
// API error that echoes the token.
// Run: node --import tsx --test test/attack/pull-request.test.ts
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import type { Nodes, Root } from 'mdast';
import { runActionGuarded } from '../../server/src/action/run.ts';
import { MARKER } from '../../server/src/action/comment.ts';
import { REPO } from '../helpers/cli.ts';
import { fakeGitHub, MAX_BODY, TOKEN, VIEWER } from '../helpers/fakeGitHub.ts';

const BEFORE = readFileSync(join(REPO, 'test', 'diff-corpus', 'boundaries', 'before.md'), 'utf8');
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** Hostile contract names: out of the heading's code span, a newline and `<!--`, a forged workflow command. */
const NAMES = ['0`<details open><img src=x>`.agents.md', 'x\n<!--\n.agents.md', 'a\n::warning title=INJECTED::forged\n::add-mask::x\n::stop-commands::tok.agents.md'];
/** Boundary texts that would render live: an unclosed fence, a tracking pixel, a mention, raw HTML. */
const HOSTILE = ['  - ❌ Never open ``` a fence', '  - ❌ Never show ![pixel](https://tracker.example/p.png)', '  - ❌ Never ping @octocat for help', '  - ❌ Never write <img src="https://tracker.example/q.png"> or <!-- a comment'];
const hostileAfter = BEFORE.replace('  - ❌ Never share prices with other customers\n', `${HOSTILE.join('\n')}\n`);

/** The comment as GitHub's Markdown reads it (GFM). */
const parse = (md: string): Root => unified().use(remarkParse).use(remarkGfm).parse(md);
function walk(node: Nodes, visit: (n: Nodes) => void): void {
  visit(node);
  if ('children' in node) for (const c of node.children) walk(c as Nodes, visit);
}
/** The only HTML the comment writes itself. */
const OURS = new Set([MARKER, '<code>', '</code>', '<br>', '<sub>', '</sub>', '<del>', '</del>', '<ins>', '</ins>']);

describe('the pull request is hostile input', () => {
  const api = fakeGitHub();
  let dir: string;
  let base: string;
  before(async () => {
    await api.listen();
    dir = mkdtempSync(join(tmpdir(), 'agents-md-pr-attack-'));
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'config', 'user.email', 'test@example.com');
    git(dir, 'config', 'user.name', 'Test');
    for (const name of ['AGENTS.md', ...NAMES]) writeFileSync(join(dir, name), BEFORE);
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'base');
    base = git(dir, 'rev-parse', 'HEAD');
    git(dir, 'checkout', '-q', '-b', 'feature');
    for (const name of ['AGENTS.md', ...NAMES]) writeFileSync(join(dir, name), hostileAfter);
    git(dir, 'commit', '-q', '-am', 'hostile');
  });
  after(() => {
    api.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(extra: Record<string, string> = {}): Promise<{ code: number; log: string[] }> {
    const log: string[] = [];
    const code = await runActionGuarded({ ...api.env(dir, base, { 'fail-on': 'breaking', lang: 'en' }), ...extra }, (l) => log.push(l));
    return { code, log };
  }

  test('names and contract text cannot break out of the comment: no live HTML, image, fence or mention, every change in its table', async () => {
    const { code, log } = await run();
    assert.equal(code, 1, log.join('\n'));
    const body = api.comments.at(-1)!.body;
    const tree = parse(body);
    const html: string[] = [];
    const kinds = new Set<string>();
    const text: string[] = [];
    walk(tree, (n) => {
      kinds.add(n.type);
      if (n.type === 'html') html.push(n.value);
      if (n.type === 'text') text.push(n.value);
    });
    assert.deepEqual(html.filter((h) => !OURS.has(h)), [], 'only the HTML the comment writes itself');
    // A URL in a contract may show as a link (GFM links bare URLs), never as an image.
    for (const kind of ['image', 'code', 'imageReference', 'linkReference', 'footnoteReference', 'delete']) assert.ok(!kinds.has(kind), `no ${kind} from the contracts`);
    assert.ok(!text.some((t) => /(^|[^\w])@octocat/.test(t)), 'nobody is mentioned');
    // One heading and one table per contract, and every change a row of its own table.
    const headings = tree.children.filter((n) => n.type === 'heading' && n.depth === 3);
    assert.equal(headings.length, 1 + NAMES.length, body);
    const tables = tree.children.filter((n) => n.type === 'table');
    assert.equal(tables.length, 1 + NAMES.length);
    const rows = tables.map((t) => (t.type === 'table' ? t.children.length - 1 : 0));
    assert.ok(rows.every((r) => r === rows[0] && r >= HOSTILE.length + 1), `rows per table: ${rows.join(', ')}`);
    // The name with a newline is shown JSON-quoted, as one heading.
    // (inside a code span, `<!--` is text)
    assert.ok(body.includes('### Semantic diff of `"x\\n<!--\\n.agents.md"`\n'), body);
  });

  test('file names cannot forge workflow commands: every log line is one of our commands or plain text', async () => {
    const { log } = await run();
    const lines = log.flatMap((l) => l.split(/\r?\n|\r/));
    assert.equal(lines.length, log.length, 'no logged line holds a line break');
    for (const line of lines.filter((l) => l.startsWith('::'))) {
      const command = /^::(error|warning|notice)(?: ([^:]*))?::/.exec(line);
      assert.ok(command, `a workflow command of ours: ${line}`);
      const props = (command[2] ?? '').split(',').filter(Boolean).map((p) => p.split('='));
      for (const [key, value] of props) {
        assert.ok(['file', 'line', 'col', 'endLine', 'endColumn', 'title'].includes(key!), line);
        if (key === 'title') assert.match(value!, /^agents-md [a-z-]+$/, line);
      }
    }
    assert.ok(log.some((l) => l.startsWith('::error file=a%0A%3A%3Awarning title=INJECTED%3A%3Aforged%0A%3A%3Aadd-mask%3A%3Ax%0A%3A%3Astop-commands%3A%3Atok.agents.md::')), log.join('\n'));
  });

  test("the sticky comment: someone else's comment with our marker is never edited; ours is", async () => {
    api.comments.length = 0;
    api.comments.push({ id: 1, body: `${MARKER}\nplanted by someone else`, user: { login: 'mallory' } }, { id: 2, body: `> quoting ${MARKER}`, user: { login: VIEWER } });
    const first = await run();
    assert.ok(first.log.includes('Comment created (1000): 4 changed contract(s).') || first.log.some((l) => /^Comment created \(\d+\)/.test(l)), first.log.join('\n'));
    assert.equal(api.comments[0]!.body, `${MARKER}\nplanted by someone else`);
    assert.equal(api.comments[1]!.body, `> quoting ${MARKER}`);
    assert.equal(api.comments.length, 3);
    const second = await run();
    assert.ok(second.log.some((l) => l.startsWith(`Comment updated (${api.comments[2]!.id})`)), second.log.join('\n'));
    assert.equal(api.comments.length, 3);
    assert.equal(api.comments[0]!.body, `${MARKER}\nplanted by someone else`);
  });

  test('an API error that echoes the token: one ::error:: line without the token, exit 2', async () => {
    api.failWith = { status: 500, body: { message: `upstream said: Authorization token ${TOKEN} rejected`, token: JSON.stringify(TOKEN) } };
    try {
      const { code, log } = await run();
      assert.equal(code, 2);
      const error = log.find((l) => l.startsWith('::error::'));
      assert.ok(error, log.join('\n'));
      assert.ok(!log.join('\n').includes(TOKEN), log.join('\n'));
    } finally {
      api.failWith = undefined;
    }
  });
});

describe("a review longer than GitHub's comment limit", () => {
  const BOUNDARIES = 900;
  const api = fakeGitHub();
  let dir: string;
  before(() => api.listen());
  after(() => {
    api.server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('900 new boundaries (a list under the 1,000-line parsing limit, docs/robustness.md): the comment fits, keeps counts and bump, says how many more; the job summary and the report file hold them all', async () => {
    dir = mkdtempSync(join(tmpdir(), 'agents-md-pr-long-'));
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'config', 'user.email', 'test@example.com');
    git(dir, 'config', 'user.name', 'Test');
    writeFileSync(join(dir, 'AGENTS.md'), BEFORE);
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'base');
    const base = git(dir, 'rev-parse', 'HEAD');
    const many = Array.from({ length: BOUNDARIES }, (_, i) => `  - ❌ Never disclose internal figure number ${i} to anyone outside the finance team, not even in a summary, a table or a paraphrase`).join('\n');
    writeFileSync(join(dir, 'AGENTS.md'), BEFORE.replace('  - ❌ Never share prices with other customers\n', `  - ❌ Never share prices with other customers\n${many}\n`));
    git(dir, 'commit', '-q', '-am', 'many');
    const summary = join(dir, '..', `${dir.split('/').pop()}-summary.md`);
    writeFileSync(summary, '');
    const log: string[] = [];
    const code = await runActionGuarded({ ...api.env(dir, base, { 'fail-on': 'breaking', lang: 'en' }), GITHUB_STEP_SUMMARY: summary }, (l) => log.push(l));
    assert.equal(code, 0, log.join('\n'));
    assert.equal(api.comments.length, 1, log.join('\n'));
    const body = api.comments[0]!.body;
    assert.ok([...body].length <= MAX_BODY, `${[...body].length} characters`);
    assert.match(body, new RegExp(`🟢 ${BOUNDARIES} risk-reducing`));
    assert.match(body, /\*\*Version\*\*: /);
    const more = /… and (\d+) more changes: the whole report is in the job summary and the report file\./.exec(body);
    assert.ok(more, body.slice(-500));
    const shown = body.split('\n').filter((l) => l.startsWith('| 🟢')).length;
    assert.equal(shown + Number(more[1]), BOUNDARIES);
    const full = readFileSync(summary, 'utf8');
    assert.equal(full.split('\n').filter((l) => l.startsWith('| 🟢')).length, BOUNDARIES);
    assert.equal(readFileSync(join(dir, 'agents-md-review.md'), 'utf8'), full);
    rmSync(summary);
  });
});

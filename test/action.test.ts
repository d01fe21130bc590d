// The GitHub Action (action.yml, docs/ci.md) end to end: a real git repository with base and head
// commits made here, the Action's code run with the environment GitHub sets, and a local HTTP
// server on 127.0.0.1 that plays the GitHub REST API (the Action takes its URL from
// GITHUB_API_URL, as on GitHub Enterprise). The first run creates the comment, the next push
// updates that same comment, a pull request that changes no contract says so; the SARIF it writes
// passes the SARIF Multitool with GitHub's rules when tools/sarif is installed.
// Run: node --import tsx --test test/action.test.ts
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAction } from '../server/src/action/run.ts';
import { MARKER } from '../server/src/action/comment.ts';
import { REPO } from './helpers/cli.ts';

const CORPUS = join(REPO, 'test', 'diff-corpus', 'guarantee-removed');
const TOKEN = 'test-token';

interface Comment {
  id: number;
  body: string;
}

/** A GitHub REST API for one pull request's comments (list, create, update), on 127.0.0.1. */
function fakeGitHub(): { server: Server; comments: Comment[]; calls: string[]; url: () => string } {
  const comments: Comment[] = [];
  const calls: string[] = [];
  let next = 1000;
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      calls.push(`${req.method} ${url.pathname}`);
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `token ${TOKEN}`) return send(401, { message: 'Bad credentials' });
      if (req.method === 'GET' && url.pathname === '/repos/acme/agents/issues/7/comments') return send(200, comments);
      if (req.method === 'POST' && url.pathname === '/repos/acme/agents/issues/7/comments') {
        const c = { id: next++, body: (JSON.parse(raw) as { body: string }).body };
        comments.push(c);
        return send(201, c);
      }
      const m = /^\/repos\/acme\/agents\/issues\/comments\/(\d+)$/.exec(url.pathname);
      const c = m ? comments.find((x) => x.id === Number(m[1])) : undefined;
      if (req.method === 'PATCH' && c) {
        c.body = (JSON.parse(raw) as { body: string }).body;
        return send(200, c);
      }
      send(404, { message: 'Not Found' });
    });
  });
  return { server, comments, calls, url: () => `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

describe('the GitHub Action', () => {
  const api = fakeGitHub();
  let dir: string;
  before(async () => {
    await new Promise<void>((done) => api.server.listen(0, '127.0.0.1', done));
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
    const event = join(dir, '..', `${dir.split('/').pop()}-event.json`);
    writeFileSync(event, JSON.stringify({ pull_request: { number: 7, base: { sha: base } } }));
    const log: string[] = [];
    const env = {
      GITHUB_WORKSPACE: dir, GITHUB_EVENT_PATH: event, GITHUB_REPOSITORY: 'acme/agents', GITHUB_API_URL: api.url(),
      'INPUT_GITHUB-TOKEN': TOKEN, 'INPUT_FAIL-ON': failOn, INPUT_LANG: 'en',
    };
    const code = await runAction(env, (l) => log.push(l));
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
    let multitool: string | undefined;
    try {
      multitool = createRequire(join(REPO, 'tools', 'sarif', 'package.json'))('@microsoft/sarif-multitool') as string;
    } catch {
      multitool = undefined;
    }
    if (!multitool || !existsSync(multitool)) {
      t.skip('SARIF Multitool not installed: run npm ci --prefix tools/sarif');
      return;
    }
    git(dir, 'checkout', '-q', 'feature');
    await run(git(dir, 'rev-parse', 'main'));
    const input = join(dir, 'agents-md.sarif');
    const output = join(dir, 'validation.sarif');
    // Multitool exits 0 even when it reports errors: its own SARIF log (--output) is what tells.
    const v = spawnSync(multitool, ['validate', input, '--rule-kind', 'Sarif;Gh', '--config', join(REPO, 'tools', 'sarif', 'validate.config.xml'), '--output', output, '--log', 'ForceOverwrite'], {
      encoding: 'utf8', timeout: 120_000, env: { ...process.env, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: '1' },
    });
    assert.equal(v.status, 0, `${v.stdout}\n${v.stderr}`);
    const results = (JSON.parse(readFileSync(output, 'utf8')) as { runs: { results?: { level?: string; ruleId: string }[] }[] }).runs[0]!.results ?? [];
    assert.deepEqual(results.filter((r) => r.level === 'error' || r.level === 'warning' || r.level === undefined), []);
  });
});

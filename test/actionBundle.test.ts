// The GitHub Action's committed bundle (dist/action.cjs, docs/ci.md "How the code gets there"):
// a checkout of the repository at a tag must work as `uses:` with no build and no download, so the
// bundle is committed. It must be what `npm run build` makes of the sources (the copy in git's
// index, i.e. what the next commit holds), and it must run alone: copied to a folder with no
// node_modules anywhere above it, it reviews a pull request and writes the same comment as the
// Action's code run in-process.
// Run: node --import tsx --test test/actionBundle.test.ts
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAction } from '../server/src/action/run.ts';
import { REPO } from './helpers/cli.ts';
import { fakeGitHub } from './helpers/fakeGitHub.ts';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

describe('the Action bundle dist/action.cjs', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'agents-md-action-bundle-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  test('is committed and is what npm run build makes of the sources', (t) => {
    let committed: Buffer;
    try {
      committed = execFileSync('git', ['show', ':dist/action.cjs'], { cwd: REPO, maxBuffer: 64 * 1024 * 1024 });
    } catch {
      if (!git(REPO, 'rev-parse', '--is-inside-work-tree').startsWith('true')) return t.skip('not a git checkout: nothing committed to compare');
      return assert.fail('dist/action.cjs is not in git: run npm run build, then git add dist/action.cjs');
    }
    execFileSync(process.execPath, ['esbuild.mjs', '--only', 'action', '--outdir', join(scratch, 'build')], { cwd: REPO, stdio: 'pipe' });
    const built = readFileSync(join(scratch, 'build', 'action.cjs'));
    assert.ok(built.equals(committed), 'dist/action.cjs in git is out of date: run npm run build, then git add dist/action.cjs');
  });

  describe('runs alone', () => {
    const api = fakeGitHub();
    const repo = join(scratch, 'repo');
    const alone = join(scratch, 'alone');
    let base = '';
    before(async () => {
      await api.listen();
      cpSync(join(REPO, 'samples', 'procurement-analyzer'), join(repo, 'procurement'), { recursive: true });
      git(scratch, 'init', '-q', '-b', 'main', repo);
      git(repo, 'config', 'user.email', 'test@example.com');
      git(repo, 'config', 'user.name', 'Test');
      git(repo, 'add', '.');
      git(repo, 'commit', '-q', '-m', 'base');
      base = git(repo, 'rev-parse', 'HEAD');
      const contract = join(repo, 'procurement', 'AGENTS.md');
      writeFileSync(contract, readFileSync(contract, 'utf8').replace(/^\| Large purchase \|.*\n/m, ''));
      git(repo, 'commit', '-q', '-am', 'drop the large purchase sign-off');
      cpSync(join(REPO, 'dist', 'action.cjs'), join(alone, 'action.cjs'));
      copyFileSync(join(REPO, 'action.yml'), join(alone, 'action.yml'));
    });
    after(() => api.server.close());

    test('without node_modules, with the comment the in-process Action writes', async () => {
      assert.match(readFileSync(join(alone, 'action.yml'), 'utf8'), /^ {2}main: dist\/action\.cjs$/m);
      const env = { PATH: process.env['PATH'] ?? '', HOME: scratch, ...api.env(repo, base, { 'fail-on': 'breaking', lang: 'en' }) };
      const out = await new Promise<{ code: number; stdout: string }>((done) => {
        execFile(process.execPath, [join(alone, 'action.cjs')], { cwd: repo, env, timeout: 120_000 }, (error, stdout) => done({ code: error ? Number(error.code ?? 1) : 0, stdout }));
      });
      assert.equal(out.code, 1, out.stdout);
      assert.match(out.stdout, /^::error file=procurement\/AGENTS\.md::1 breaking change\(s\): failing as --fail-on breaking asks\.$/m);
      assert.match(out.stdout, /^Comment created \(1000\): 1 changed contract\(s\)\.$/m);
      const fromBundle = api.comments[0]!.body;
      assert.match(fromBundle, /\| Queries meeting their expectations \| 9 of 9 \| 8 of 9 \|/);
      await runAction(api.env(repo, base, { 'fail-on': 'breaking', lang: 'en' }), () => undefined);
      assert.equal(api.comments.length, 1);
      assert.equal(api.comments[0]!.body, fromBundle);
    });
  });
});

/**
 * The GitHub Action (action.yml, docs/ci.md; its entry is index.ts). On a pull
 * request: lints the contracts it touches (SARIF file for code scanning, annotations in the log),
 * diffs each against the base commit, posts or updates one review comment, and fails on the
 * `fail-on` gates (`breaking`, `risk`, `bump`, `lint`). Everything comes from the environment
 * GitHub sets (`INPUT_*`, `GITHUB_EVENT_PATH`, `GITHUB_API_URL`, `GITHUB_WORKSPACE`…).
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Lang } from '../service/index.ts';
import { diffMessage, resolveLang } from '../service/host.ts';
import { formatSarif } from '../cli/format/sarif.ts';
import { formatGithub } from '../cli/format/github.ts';
import { workflowCommand } from '../cli/format/workflowCommand.ts';
import { writeFileAtomic } from '../node/atomicWrite.ts';
import { GATES, trippedGates, type Gate } from '../cli/diff/gates.ts';
import { commentBody, upsertComment } from './comment.ts';
import { review } from './review.ts';
import { secretRedactor } from '../node/redactSecret.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** An input as GitHub passes it: `INPUT_<NAME>`, upper-cased, spaces as `_`. */
const input = (env: Env, name: string) => (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();

/**
 * Runs the Action as its entry does: an error (the API refused, the network failed) is one
 * `::error::` line, exit 2, with the token taken out of it: an API error body may echo the token,
 * and GitHub masks only the secrets registered with it (a proxy's copy may not be).
 */
export async function runActionGuarded(env: Env, log: (line: string) => void): Promise<number> {
  try {
    return await runAction(env, log);
  } catch (e) {
    const redact = secretRedactor(input(env, 'github-token'), '***');
    log(workflowCommand('error', {}, redact(`agents-md: ${e instanceof Error ? e.message : String(e)}`)));
    return 2;
  }
}

/** Runs the Action; returns the exit code. `log` receives the log lines (annotations included). */
export async function runAction(env: Env, log: (line: string) => void): Promise<number> {
  const lang: Lang = resolveLang(input(env, 'lang') || 'en') ?? 'en';
  const root = resolve(env['GITHUB_WORKSPACE'] ?? process.cwd());
  const event = JSON.parse(readFileSync(env['GITHUB_EVENT_PATH'] ?? '', 'utf8')) as { pull_request?: { number: number; base: { sha: string } } };
  const pr = event.pull_request;
  if (!pr) {
    log(workflowCommand('error', {}, diffMessage('review.notPullRequest', {}, lang)));
    return 2;
  }
  const failOn = input(env, 'fail-on').split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = failOn.filter((g) => g !== 'lint' && !(GATES as readonly string[]).includes(g));
  if (unknown.length > 0) {
    log(workflowCommand('error', {}, `agents-md: ${diffMessage('usage.failOn', { value: unknown.join(',') }, lang)}`));
    return 2;
  }

  const result = await review(root, pr.base.sha, lang);
  const sarifFile = resolve(root, input(env, 'sarif-file') || 'agents-md.sarif');
  writeFileAtomic(sarifFile, formatSarif(result.lint, { root, lang }));
  for (const line of formatGithub(result.lint, root, lang).split('\n').filter(Boolean)) log(line);

  const [owner, repo] = (env['GITHUB_REPOSITORY'] ?? '/').split('/') as [string, string];
  const { body, full } = commentBody(result, lang);
  // The whole review, whatever the comment could hold: the job summary and a file to keep as an artefact.
  const reportFile = resolve(root, input(env, 'report-file') || 'agents-md-review.md');
  writeFileAtomic(reportFile, full);
  if (env['GITHUB_STEP_SUMMARY']) appendFileSync(env['GITHUB_STEP_SUMMARY'], full);
  const comment = await upsertComment({ apiUrl: env['GITHUB_API_URL'] || 'https://api.github.com', token: input(env, 'github-token'), owner, repo, issue: pr.number }, body);
  log(diffMessage('review.summary', { action: comment.action, id: comment.id, files: result.contracts.length }, lang));
  if (env['GITHUB_OUTPUT']) appendFileSync(env['GITHUB_OUTPUT'], `comment-id=${comment.id}\nsarif-file=${sarifFile}\nreport-file=${reportFile}\n`);

  const gates = new Set(failOn.filter((g): g is Gate => g !== 'lint'));
  let failed = false;
  for (const c of result.contracts) {
    for (const t of c.diff ? trippedGates(c.diff.diff, gates) : []) {
      log(workflowCommand('error', { file: c.file }, diffMessage(t.messageId, t.args, lang)));
      failed = true;
    }
  }
  if (failOn.includes('lint') && result.counts.error > 0) {
    log(workflowCommand('error', {}, diffMessage('review.gateLint', { count: result.counts.error }, lang)));
    failed = true;
  }
  return failed ? 1 : 0;
}

/**
 * The Action's pull-request comment (docs/ci.md): one comment, found again by a hidden marker and
 * updated on every push, so that a pull request never collects a pile of them. Its body holds the
 * lint counts, the semantic diff of every changed contract (the `--format markdown` report) and
 * the eval figures of its snapshots at both versions (evalComment.ts).
 * Talks to the GitHub REST API through Octokit at `GITHUB_API_URL` (GitHub Enterprise too).
 */
import { Octokit } from '@octokit/rest';
import { type Lang } from '../service/index.ts';
import { diffMessage, format } from '../service/host.ts';
import { formatDiffMarkdown } from '../cli/format/diffMarkdown.ts';
import type { Review } from './review.ts';
import { evalLines } from './evalComment.ts';
import { literalName, mdArgs, mdCode, mdMessage } from '../cli/format/markdownText.ts';

/** The hidden marker the comment is found by. */
export const MARKER = '<!-- agents-md-action:contract-review -->';

/** GitHub refuses a comment longer than this (characters). */
export const COMMENT_LIMIT = 65_536;

/** The comment's Markdown body, each contract's change table cut after `maxChanges` rows. */
function fullBody(review: Review, lang: Lang, maxChanges = Infinity): string {
  const out = [MARKER, diffMessage('review.title', {}, lang), ''];
  if (review.contracts.length === 0 && review.deleted.length === 0) {
    out.push(diffMessage('review.noContracts', {}, lang));
    return `${out.join('\n')}\n`;
  }
  out.push(diffMessage('review.lint', { files: review.contracts.length, errors: review.counts.error, warnings: review.counts.warning }, lang), '');
  for (const c of review.contracts) {
    if (c.diff) out.push(formatDiffMarkdown(c.diff, lang, maxChanges).trimEnd(), '');
    else out.push(`### ${mdCode(literalName(c.file))}`, '', c.added ? diffMessage('review.newContract', {}, lang) : mdMessage(format(c.problem!.messageId, mdArgs(c.problem!.args, { names: ['file'] }), lang)), '');
    if (c.eval) out.push(...evalLines(c.eval, lang), '');
  }
  for (const file of review.deleted) out.push(`### ${mdCode(literalName(file))}`, '', diffMessage('review.deletedContract', {}, lang), '');
  return `${out.join('\n').trimEnd()}\n`;
}

/**
 * The comment's body, within `limit` characters (docs/ci.md, "Large pull requests"): when the whole
 * review is longer, the change tables are cut to the most rows that fit (most severe first; counts,
 * bump advice and eval figures are kept) and say how many more changes the job summary holds; a
 * review still too long is cut at the limit with the same pointer. `full` is the whole review.
 */
export function commentBody(review: Review, lang: Lang, limit = COMMENT_LIMIT): { body: string; full: string } {
  const full = fullBody(review, lang);
  if (full.length <= limit) return { body: full, full };
  let [fits, tooMany] = [0, Math.max(0, ...review.contracts.map((c) => c.diff?.diff.changes.length ?? 0))];
  while (tooMany - fits > 1) {
    const mid = Math.floor((fits + tooMany) / 2);
    if (fullBody(review, lang, mid).length <= limit) fits = mid;
    else tooMany = mid;
  }
  const body = fullBody(review, lang, fits);
  if (body.length <= limit) return { body, full };
  const tail = `\n\n${diffMessage('review.cut', {}, lang)}\n`;
  return { body: `${body.slice(0, limit - tail.length).replace(/[\ud800-\udbff]$/, '')}${tail}`, full };
}

/** Where the comment goes. */
export interface CommentTarget {
  readonly apiUrl: string;
  readonly token: string;
  readonly owner: string;
  readonly repo: string;
  readonly issue: number;
}

/**
 * Creates the review comment, or updates ours: the first comment written by the token's own
 * identity (GraphQL `viewer`, which a workflow's GITHUB_TOKEN may ask) whose body starts with the
 * marker. A comment by anyone else is never edited, whatever it contains. Returns its id and what was done.
 */
export async function upsertComment(target: CommentTarget, body: string): Promise<{ id: number; action: 'created' | 'updated' }> {
  const octokit = new Octokit({ auth: target.token, baseUrl: target.apiUrl, userAgent: 'agents-md-action' });
  const where = { owner: target.owner, repo: target.repo };
  const { viewer } = await octokit.graphql<{ viewer: { login: string } }>('query { viewer { login } }');
  const comments = await octokit.paginate(octokit.rest.issues.listComments, { ...where, issue_number: target.issue, per_page: 100 });
  const mine = comments.find((c) => c.user?.login === viewer.login && c.body?.startsWith(MARKER));
  if (mine) {
    await octokit.rest.issues.updateComment({ ...where, comment_id: mine.id, body });
    return { id: mine.id, action: 'updated' };
  }
  const created = await octokit.rest.issues.createComment({ ...where, issue_number: target.issue, body });
  return { id: created.data.id, action: 'created' };
}

/**
 * The Action's pull-request comment (docs/ci.md): one comment, found again by a hidden marker and
 * updated on every push, so that a pull request never collects a pile of them. Its body holds the
 * lint counts, the semantic diff of every changed contract (the `--format markdown` report) and
 * the eval figures of its snapshots at both versions (evalComment.ts).
 * Talks to the GitHub REST API through Octokit at `GITHUB_API_URL` (GitHub Enterprise too).
 */
import { Octokit } from '@octokit/rest';
import { diffMessage, format, type Lang } from '../service/index.ts';
import { formatDiffMarkdown } from '../cli/format/diffMarkdown.ts';
import type { Review } from './review.ts';
import { evalLines } from './evalComment.ts';

/** The hidden marker the comment is found by. */
export const MARKER = '<!-- agents-md-action:contract-review -->';

/** The comment's Markdown body. */
export function commentBody(review: Review, lang: Lang): string {
  const out = [MARKER, diffMessage('review.title', {}, lang), ''];
  if (review.contracts.length === 0 && review.deleted.length === 0) {
    out.push(diffMessage('review.noContracts', {}, lang));
    return `${out.join('\n')}\n`;
  }
  out.push(diffMessage('review.lint', { files: review.contracts.length, errors: review.counts.error, warnings: review.counts.warning }, lang), '');
  for (const c of review.contracts) {
    if (c.diff) out.push(formatDiffMarkdown(c.diff, lang).trimEnd(), '');
    else out.push(`### \`${c.file}\``, '', c.added ? diffMessage('review.newContract', {}, lang) : format(c.problem!.messageId, c.problem!.args, lang), '');
    if (c.eval) out.push(...evalLines(c.eval, lang), '');
  }
  for (const file of review.deleted) out.push(`### \`${file}\``, '', diffMessage('review.deletedContract', {}, lang), '');
  return `${out.join('\n').trimEnd()}\n`;
}

/** Where the comment goes. */
export interface CommentTarget {
  readonly apiUrl: string;
  readonly token: string;
  readonly owner: string;
  readonly repo: string;
  readonly issue: number;
}

/** Creates the review comment, or updates the one that carries the marker. Returns its id and what was done. */
export async function upsertComment(target: CommentTarget, body: string): Promise<{ id: number; action: 'created' | 'updated' }> {
  const octokit = new Octokit({ auth: target.token, baseUrl: target.apiUrl, userAgent: 'agents-md-action' });
  const where = { owner: target.owner, repo: target.repo };
  const comments = await octokit.paginate(octokit.rest.issues.listComments, { ...where, issue_number: target.issue, per_page: 100 });
  const mine = comments.find((c) => c.body?.includes(MARKER));
  if (mine) {
    await octokit.rest.issues.updateComment({ ...where, comment_id: mine.id, body });
    return { id: mine.id, action: 'updated' };
  }
  const created = await octokit.rest.issues.createComment({ ...where, issue_number: target.issue, body });
  return { id: created.data.id, action: 'created' };
}

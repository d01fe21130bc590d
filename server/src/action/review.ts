/**
 * What the GitHub Action reviews on a pull request (docs/ci.md): the contracts the pull request
 * touches (git's list of files changed since the base commit), linted (SARIF for code scanning,
 * annotations for the log) and compared with their version at the base commit by the semantic
 * diff, under each contract's diff policy, and their snapshots run at both versions
 * (evalVersions.ts). Plain data for the comment (comment.ts) and the gates.
 */
import { join } from 'node:path';
import { createLanguageService, diffContracts, type Lang } from '../service/index.ts';
import { DIFF_PREFIX } from '../service/host.ts';
import { createNodeFileSystem, fileUri } from '../node/nodeFileSystem.ts';
import { diffPolicyFor, loadVersion } from '../node/diffInputs.ts';
import { git } from './git.ts';
import { InputError } from '../node/inputError.ts';
import { lintFiles } from '../cli/lintFiles.ts';
import { countSeverities, type FileReport, type SeverityCounts } from '../cli/report.ts';
import type { DiffReport } from '../cli/diff/report.ts';
import { evalVersions, type ContractEval } from './evalVersions.ts';

/** One changed contract: its diff against the base, or why there is none (new, unreadable). */
export interface ContractReview {
  readonly file: string;
  readonly diff?: DiffReport;
  /** The contract is new in this pull request. */
  readonly added?: boolean;
  /** Why the diff could not be made: a message of the diff catalogue. */
  readonly problem?: { readonly messageId: string; readonly args: Readonly<Record<string, string | number>> };
  /** `eval` of its snapshots at base and head, when either has snapshots for it. */
  readonly eval?: ContractEval;
}

export interface Review {
  readonly contracts: readonly ContractReview[];
  /** Contracts the pull request deletes. */
  readonly deleted: readonly string[];
  readonly lint: readonly FileReport[];
  readonly counts: SeverityCounts;
}

/** A contract by its file name (docs/contract-format.md §1): `AGENTS.md` or `*.agents.md`. */
export const isContract = (path: string) => /(^|\/)AGENTS\.md$/.test(path) || /\.agents\.md$/.test(path);

/** Contract files changed between the base commit and HEAD (`git diff base...HEAD`), by status. */
export async function changedContracts(root: string, base: string): Promise<{ changed: string[]; deleted: string[] }> {
  const out = await git(root, ['diff', '--name-status', '--no-renames', '-z', `${base}...HEAD`, '--']);
  const parts = out.split('\0').filter(Boolean);
  const changed: string[] = [];
  const deleted: string[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [status, path] = [parts[i]!, parts[i + 1]!];
    if (!isContract(path)) continue;
    (status.startsWith('D') ? deleted : changed).push(path);
  }
  return { changed: changed.sort(), deleted: deleted.sort() };
}

/** Lints, diffs and evaluates the contracts a pull request changes (paths relative to `root`, the checkout). */
export async function review(root: string, base: string, lang: Lang): Promise<Review> {
  const { changed, deleted } = await changedContracts(root, base);
  const service = createLanguageService({ fs: createNodeFileSystem(), roots: [fileUri(root)] });
  const lint = (await lintFiles(service, changed.map((f) => join(root, f)), (p) => p, lang)).reports;
  const contracts: ContractReview[] = [];
  // Reports name the base version by its short commit id, as GitHub shows commits (a base that is not fetched keeps its id).
  const baseLabel = await git(root, ['rev-parse', '--short', base]).then((s) => s.trim(), () => base);
  for (const file of changed) {
    const path = join(root, file);
    try {
      const after = await loadVersion({ path, file });
      let before;
      try {
        before = await loadVersion({ path, file, git: { ref: base } });
      } catch (e) {
        // Not in the base commit: a new contract, nothing to compare with.
        if (e instanceof InputError && e.messageId === `${DIFF_PREFIX}git.notInRef`) {
          contracts.push({ file, added: true });
          continue;
        }
        throw e;
      }
      const diff = diffContracts(before.model, after.model, await diffPolicyFor(path, root));
      contracts.push({ file, diff: { before: { ...before.version, ref: baseLabel }, after: after.version, diff } });
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      contracts.push({ file, problem: { messageId: e.messageId, args: e.args } });
    }
  }
  const evals = await evalVersions(root, base, contracts.filter((c) => !c.problem).map((c) => c.file), lang);
  const withEval = contracts.map((c) => (evals.has(c.file) ? { ...c, eval: evals.get(c.file)! } : c));
  return { contracts: withEval, deleted, lint, counts: countSeverities(lint) };
}

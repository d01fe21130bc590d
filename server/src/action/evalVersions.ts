/**
 * The Action's eval of both versions (docs/ci.md, "Eval figures"): for every changed contract that
 * has snapshots, `agents-md eval` as the base commit had it (contract, snapshots and resource files
 * of a temporary checkout of the base) and as the pull request has it, the figures of each
 * (docs/dry-run.md §7) and the path drift from base to head, query by query.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { evalFigures, pathDrift, type EvalFigures, type Lang, type PathDrift, type QueryReport } from '../service/index.ts';
import { git } from './git.ts';
import { RunFolder } from '../node/runFolder.ts';
import { findSnapshots, loadEvalWork, runEvalWork } from '../cli/evalQueries.ts';

/** One version's eval of a contract's snapshots. */
export interface VersionEval {
  readonly figures: EvalFigures;
  readonly reports: readonly QueryReport[];
}

/** The eval of one changed contract: each version that has snapshots for it, and the drift between them. */
export interface ContractEval {
  readonly base?: VersionEval;
  readonly head?: VersionEval;
  /** Queries both versions ran (same snapshot path and query id) that took another path at head. */
  readonly drift?: PathDrift;
}

/** Runs the snapshots of `checkout` whose contract is one of `contracts` (relative paths); reports by contract. */
async function evalCheckout(checkout: string, contracts: readonly string[], runs: string, lang: Lang): Promise<Map<string, QueryReport[]>> {
  const wanted = new Set(contracts);
  const rel = (p: string) => relative(checkout, p).split(sep).join('/');
  const { files } = await findSnapshots([checkout], checkout, lang);
  const { work } = await loadEvalWork(files, checkout, checkout, lang, {}, (c) => wanted.has(rel(c)));
  const byContract = new Map<string, QueryReport[]>();
  const folder = RunFolder.create(runs, 'eval');
  for (const w of work) {
    const reports = await runEvalWork([w], { root: checkout, cwd: checkout, folder });
    const key = rel(w.contract.path);
    byContract.set(key, [...(byContract.get(key) ?? []), ...reports]);
  }
  return byContract;
}

const version = (reports: readonly QueryReport[] | undefined): VersionEval | undefined => (reports && reports.length > 0 ? { figures: evalFigures(reports), reports } : undefined);

/**
 * Evaluates `contracts` (paths relative to `root`, the pull request's checkout) at head and at the
 * base commit. The base is checked out with `git worktree` into a temporary folder, removed after;
 * traces are written to temporary run folders, also removed. Contracts without snapshots are absent.
 */
export async function evalVersions(root: string, base: string, contracts: readonly string[], lang: Lang): Promise<Map<string, ContractEval>> {
  const result = new Map<string, ContractEval>();
  if (contracts.length === 0) return result;
  const tmp = mkdtempSync(join(tmpdir(), 'agents-md-action-eval-'));
  const baseCheckout = join(tmp, 'base');
  try {
    const head = await evalCheckout(root, contracts, join(tmp, 'head-runs'), lang);
    // A base commit that cannot be checked out (not fetched: a shallow clone) has no figures; the
    // diff has already said why it could not read the base.
    const checkedOut = await git(root, ['worktree', 'add', '--detach', '--quiet', baseCheckout, base]).then(() => true, () => false);
    const before = checkedOut ? await evalCheckout(baseCheckout, contracts, join(tmp, 'base-runs'), lang) : new Map<string, QueryReport[]>();
    for (const file of contracts) {
      const b = version(before.get(file));
      const h = version(head.get(file));
      if (!b && !h) continue;
      result.set(file, { ...(b ? { base: b } : {}), ...(h ? { head: h } : {}), ...(b && h ? { drift: pathDrift(h.reports, b.reports) } : {}) });
    }
  } finally {
    await git(root, ['worktree', 'remove', '--force', baseCheckout]).catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  }
  return result;
}

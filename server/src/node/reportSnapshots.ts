/**
 * The snapshots of the workspace report (docs/workspace.md, "The report"): found under the root
 * with the dry run's globs and matched to their contract by its naming rule, for `agents-md report`
 * and the editor's Contracts overview alike.
 */
import type { ReportSnapshotInput } from '../service/index.ts';
import { contractForSnapshot, loadSnapshot, SNAPSHOT_EXCLUDES, SNAPSHOT_GLOBS } from './dryRunHost.ts';
import { fileUri, globFiles } from './nodeFileSystem.ts';
import { displayPath } from './paths.ts';

/** Snapshots under `root` whose contract is one of `contracts` (URIs). Unreadable snapshots are skipped: `agents-md eval` reports them. */
export async function reportSnapshots(root: string, contracts: ReadonlySet<string>): Promise<ReportSnapshotInput[]> {
  const out: ReportSnapshotInput[] = [];
  for (const path of await globFiles(root, SNAPSHOT_GLOBS, SNAPSHOT_EXCLUDES)) {
    try {
      const { read } = await loadSnapshot(path, root);
      if (!read.snapshot) continue;
      const contract = contractForSnapshot(path, read.snapshot);
      const contractUri = contract ? fileUri(contract) : undefined;
      if (contractUri && contracts.has(contractUri)) out.push({ path: displayPath(root, path), contractUri, snapshot: read.snapshot });
    } catch {
      // An unreadable snapshot exercises nothing; `agents-md eval` says why.
    }
  }
  return out;
}

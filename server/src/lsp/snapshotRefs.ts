/**
 * References and rename across the snapshots of a contract (docs/dry-run.md, "Snapshots"): a
 * tool or pool renamed in the contract is renamed where its snapshots name it too, so that the
 * dry run does not break silently.
 */
import { dirname, relative } from 'node:path';
import { crossContractPlaces, readSnapshot, snapshotNames, type FileSystem, type LocationResult, type SharedName, type Workspace } from '../service/index.ts';
import { decodeText } from '../service/host.ts';
import { contractForSnapshot, SNAPSHOT_EXCLUDES, SNAPSHOT_GLOBS } from '../node/dryRunHost.ts';
import { fileUri, globFiles, uriToPath } from '../node/nodeFileSystem.ts';
import { isWithin, samePath } from '../node/paths.ts';

/** The workspace folder holding `path`, else its own folder. */
export function rootOf(roots: readonly string[], path: string): string {
  return roots.find((r) => !relative(r, path).startsWith('..')) ?? dirname(path);
}

/** Snapshot files that may belong to the contract at `contractPath`: under its workspace folder and beside it, sorted. */
export async function snapshotFiles(contractPath: string, roots: readonly string[]): Promise<string[]> {
  // A workspace folder is searched in depth (a bounded walk); a contract outside every folder
  // only beside it and in its `snapshots` folder: never a walk of its whole disk (docs/robustness.md).
  const root = roots.find((r) => isWithin(r, contractPath));
  const searches: [string, readonly string[]][] = root
    ? [[root, SNAPSHOT_GLOBS]]
    : [[dirname(contractPath), SNAPSHOT_GLOBS.flatMap((g) => [g.replace('**/', ''), g.replace('**/', 'snapshots/')])]];
  const files = new Set<string>();
  for (const [folder, globs] of searches) for (const file of await globFiles(folder, globs, SNAPSHOT_EXCLUDES)) files.add(file);
  return [...files].sort();
}

/** Every place in the contract's snapshots that names tool or pool `name` (`fs` reads open documents' text first). */
export async function snapshotPlaces(contractUri: string, target: { kind: string; name: string }, roots: readonly string[], fs: FileSystem): Promise<LocationResult[]> {
  const contractPath = uriToPath(contractUri);
  if (!contractPath || (target.kind !== 'tool' && target.kind !== 'pool')) return [];
  const out: LocationResult[] = [];
  for (const file of await snapshotFiles(contractPath, roots)) {
    const uri = fileUri(file);
    const bytes = await fs.readFile(uri).catch(() => undefined);
    if (!bytes) continue;
    const { text } = decodeText(bytes);
    const { snapshot } = readSnapshot(text, { lang: /\.json$/i.test(file) ? 'json' : 'yaml' });
    const named = snapshot ? contractForSnapshot(file, snapshot) : undefined;
    if (!named || !samePath(named, contractPath)) continue;
    for (const n of snapshotNames(text)) if (n.kind === target.kind && n.name === target.name) out.push({ uri, range: n.range });
  }
  return out;
}

/**
 * Where the name is used outside the contract at `contractUri`: its snapshots, and for a shared
 * pool or resource the other contracts that name it and their snapshots (docs/workspace.md).
 */
export async function placesElsewhere(workspace: Workspace, contractUri: string, target: SharedName, roots: readonly string[], fs: FileSystem): Promise<LocationResult[]> {
  const inContracts = await crossContractPlaces(workspace, contractUri, target);
  const contracts = [contractUri, ...new Set(inContracts.map((p) => p.uri))];
  const inSnapshots = await Promise.all(contracts.map((uri) => snapshotPlaces(uri, target, roots, fs)));
  return [...inContracts, ...inSnapshots.flat()];
}

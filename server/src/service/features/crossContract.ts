/**
 * References and rename across contracts (docs/workspace.md, "In the editor"): a memory pool or a
 * resource file is shared by name, so the places that name it in the other contracts of the
 * workspace belong to its references, and renaming a shared pool renames it in each of them.
 */
import type { Workspace } from '../workspace/resolveFacts.ts';
import { parseContract } from '../parse/parseContract.ts';
import { decodeText } from '../text/decode.ts';
import { referencesOf } from '../model/references.ts';
import { resourceKey } from '../model/digest.ts';
import { places } from './navigation.ts';
import type { LocationResult } from './types.ts';

/** What a place names: kinds shared between contracts by name. */
export interface SharedName {
  readonly kind: string;
  readonly name: string;
}

/** Larger contracts are not read for references (as for their summaries: docs/robustness.md). */
const MAX_BYTES = 5 * 1024 * 1024;

/**
 * Places in the workspace's other contracts (all but `fromUri`) that name `target`, a pool or a
 * resource; declarations included. Resources match by path without a resource root
 * (`configs/resources/a.csv` and `a.csv` are one file). Other kinds: none.
 */
export async function crossContractPlaces(workspace: Workspace, fromUri: string, target: SharedName): Promise<LocationResult[]> {
  if (target.kind !== 'pool' && target.kind !== 'resource') return [];
  const roots = (await workspace.configFor(fromUri)).config.resourceRoots;
  const key = target.kind === 'resource' ? resourceKey(target.name, roots) : target.name;
  const out: LocationResult[] = [];
  for (const uri of await workspace.contractUris()) {
    if (uri === fromUri) continue;
    const bytes = await workspace.options.fs.readFile(uri).catch(() => undefined);
    if (!bytes || bytes.length > MAX_BYTES) continue;
    const { text } = decodeText(bytes);
    // Most contracts do not mention the name: skip their parse.
    if (!text.includes(key)) continue;
    const model = parseContract(text);
    const names =
      target.kind === 'pool'
        ? [target.name]
        : [...new Set(referencesOf(model).references.filter((r) => r.kind === 'resource' && resourceKey(r.name, roots) === key).map((r) => r.name))];
    for (const name of names) for (const range of places(model, { kind: target.kind, name }, true)) out.push({ uri, range });
  }
  return out;
}

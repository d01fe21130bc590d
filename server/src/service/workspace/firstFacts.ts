/**
 * What a document's first diagnostics use when the workspace has many contracts not read yet
 * (docs/performance.md, "The first seconds after opening"): its configuration alone, so that
 * they do not wait seconds for every other contract to be parsed; the rules that need the
 * workspace wait for the full facts.
 */
import type { ExternalName, WorkspaceFacts } from '../validate/facts.ts';
import type { ConfigProblem, Workspace } from './resolveFacts.ts';

/** More other contracts than this not read yet, and the first diagnostics do not wait for them. */
export const FEW_UNREAD = 8;

const ZERO = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** The facts of `uri` from its configuration alone, marked `workspacePending`. */
export async function configFacts(workspace: Workspace, uri: string): Promise<WorkspaceFacts & { configProblems: readonly ConfigProblem[] }> {
  const { config, uri: configUri, problems } = await workspace.configFor(uri);
  const externalPools = new Map<string, ExternalName[]>();
  for (const p of config.sharedPools) externalPools.set(p.name, [...(externalPools.get(p.name) ?? []), { name: p.name, uri: configUri ?? '', range: ZERO }]);
  return { config, ...(configUri ? { configUri } : {}), externalPools, externalAgents: new Map(), resources: new Map(), regex: new Map(), contracts: [], workspacePending: true, configProblems: problems };
}

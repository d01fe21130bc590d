/**
 * What another contract contributes to a contract's checks (its pools, agent names and digest),
 * made from its text alone, and kept between runs by a host that can (`SummaryStore`).
 */
import type { ExternalName } from '../validate/facts.ts';
import type { ParsedContract } from '../parse/parseContract.ts';
import { referencesOf } from '../model/references.ts';
import { normaliseName } from '../model/names.ts';
import { digestOf, type ContractDigest } from '../model/digest.ts';

const ZERO = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** Declarations another contract contributes to the workspace (plain data: it can cross threads). */
export interface ContractSummary {
  readonly pools: readonly ExternalName[];
  readonly agents: readonly ExternalName[];
  readonly digest?: ContractDigest;
}

/**
 * Contract summaries kept between runs. `get` answers only for the file as it is now; `set`
 * keeps a summary made from the file as it was when `get` was asked.
 */
export interface SummaryStore {
  get(uri: string): ContractSummary | undefined;
  set(uri: string, summary: ContractSummary): void;
}

/** The summary of `model`, the contract at `uri` (`path` relative to its workspace root). */
export function summarise(model: ParsedContract, uri: string, path: string): ContractSummary {
  if (model.kind === 'freeform') return { pools: [], agents: [] };
  const refs = referencesOf(model);
  const pools = [...(refs.names.get('pool')?.values() ?? [])].map((d) => ({ name: d.name, uri, range: d.range }));
  const agents: ExternalName[] = [];
  const id = refs.declarations.find((d) => d.pointer === '/identity/name');
  if (id) agents.push({ name: id.name, uri, range: id.range });
  const fmName = normaliseName(model.data['name']);
  if (fmName && fmName !== id?.name) agents.push({ name: fmName, uri, range: ZERO });
  return { pools, agents, digest: { ...digestOf(model), uri, path } };
}

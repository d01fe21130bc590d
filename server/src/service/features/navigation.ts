import type { Position, Range } from '../types.ts';
import type { ParsedContract } from '../parse/parseContract.ts';
import type { LocationResult, TextEditResult } from './types.ts';
import type { WorkspaceFacts } from '../validate/facts.ts';
import { EMPTY_FACTS } from '../validate/facts.ts';
import { referencesOf, type Declaration, type Reference } from '../model/references.ts';
import { contains } from './position.ts';
import { innerRange, textAt } from '../model/text.ts';

type Named = Declaration | (Reference & { via?: string });

/** The declaration or reference under the cursor (resources included). */
export function nameAt(model: ParsedContract, p: Position): Named | undefined {
  const refs = referencesOf(model);
  return [...refs.declarations, ...refs.references].find((x) => contains(x.range, p));
}

/**
 * Go to definition: the declaration of the tool, pool, role, entity, scenario or layer under the
 * cursor, in this contract or, for pools and agents, in another contract or the config
 * (`facts`); for a resource, the file. Empty when nothing is declared.
 */
export function definition(model: ParsedContract, uri: string, p: Position, facts: WorkspaceFacts = EMPTY_FACTS): LocationResult[] {
  const n = nameAt(model, p);
  if (!n) return [];
  if (n.kind === 'resource') {
    const st = facts.resources.get(n.name);
    return st?.status === 'found' ? [{ uri: st.uri, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }] : [];
  }
  const decl = referencesOf(model).names.get(n.kind)?.get(n.name);
  if (decl) return [{ uri, range: decl.range }];
  const ext = n.kind === 'pool' ? facts.externalPools.get(n.name) : n.kind === 'role' ? facts.externalAgents.get(n.name) : undefined;
  return (ext ?? []).filter((e) => e.uri).map((e) => ({ uri: e.uri, range: e.range }));
}

/**
 * Every place in this contract that names the same thing as the cursor, declarations included on
 * request; each place once (a name that is both declared and referenced at one spot, or written
 * in backticks, is one place).
 */
export function references(model: ParsedContract, uri: string, p: Position, includeDeclaration = true): LocationResult[] {
  const n = nameAt(model, p);
  if (!n) return [];
  return places(model, n, includeDeclaration).map((range) => ({ uri, range }));
}

/** The ranges of the name itself at each place that names `n`, in document order, each once. */
export function places(model: ParsedContract, n: { kind: string; name: string }, includeDeclaration: boolean): Range[] {
  const refs = referencesOf(model);
  const same = (x: { kind: string; name: string }) => x.kind === n.kind && x.name === n.name;
  const declared = refs.declarations.filter(same).map((x) => nameRange(model, x));
  const key = (r: Range) => `${r.start.line}:${r.start.character}`;
  const skip = new Set(includeDeclaration ? [] : declared.map(key));
  const seen = new Set<string>();
  const out: Range[] = [];
  for (const range of [...(includeDeclaration ? declared : []), ...refs.references.filter(same).map((x) => nameRange(model, x))]) {
    const k = key(range);
    if (seen.has(k) || skip.has(k)) continue;
    seen.add(k);
    out.push(range);
  }
  return out.sort((a, b) => a.start.line - b.start.line || a.start.character - b.start.character);
}

/** What can be renamed at a place, or why it is not (a message id of features/messages.ts and its arguments). */
export type RenamePlace = { readonly range: Range; readonly placeholder: string } | { readonly refused: 'rename.resourcePath'; readonly args: { readonly path: string } };

/**
 * The range to rename, when the cursor is on a name declared in this contract, or on a pool
 * another contract declares (`facts`: a shared pool is renamed in every contract, docs/workspace.md).
 * A resource path is refused with the reason: the file would have to move with it, and half a
 * rename (the paths changed, the file not) would break every pin.
 */
export function prepareRename(model: ParsedContract, p: Position, facts: WorkspaceFacts = EMPTY_FACTS): RenamePlace | undefined {
  const n = nameAt(model, p);
  if (n?.kind === 'resource') return { refused: 'rename.resourcePath', args: { path: n.name } };
  if (!n) return undefined;
  const shared = n.kind === 'pool' && facts.externalPools.get(n.name)?.some((e) => e.uri);
  if (!referencesOf(model).names.get(n.kind)?.has(n.name) && !shared) return undefined;
  return { range: nameRange(model, n), placeholder: n.name };
}

/** The part of a reference's range that is the name itself (`device_id` inside `{{extracted_device_id}}`). */
function nameRange(model: ParsedContract, x: { range: Range; name: string }): Range {
  const text = textAt(model, x.range);
  if (text === x.name) return x.range;
  const at = text.lastIndexOf(x.name);
  return at >= 0 ? innerRange(model, x.range, at, at + x.name.length) : x.range;
}

/**
 * Rename a declared name and every reference to it in this contract. Returns no edits when the
 * cursor is not on a declared name or `newName` is empty.
 */
export function rename(model: ParsedContract, p: Position, newName: string, facts: WorkspaceFacts = EMPTY_FACTS): TextEditResult[] {
  const n = nameAt(model, p);
  const place = prepareRename(model, p, facts);
  if (!n || !newName.trim() || !place || 'refused' in place) return [];
  return places(model, n, true).map((range) => ({ range, newText: newName }));
}

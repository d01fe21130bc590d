/**
 * References follow renames, in prose too (docs/semantic-diff.md §5). A renamed pool or tool is
 * mentioned in tool descriptions, boundaries, guards, failure conditions, freshness rows…; those
 * mentions changing with the rename are no change of their own. The diff runs a second time with
 * the old names replaced by the new ones in the older model (except where they are declared, so
 * that the rename itself is still found); what disappears only followed a rename and is listed
 * under it (`Change.follows`), what remains is a change of its own.
 */
import type { ParsedContract } from '../parse/parseContract.ts';
import type { NotedRename } from './builder.ts';
import { normaliseName } from '../model/names.ts';
import type { Change, FollowedReference } from './types.ts';

const WORD = /[A-Za-z0-9_]/;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A matcher of the old names as whole names: an ASCII identifier is not matched inside a longer
 * one (`kb_reference_v2`), while CJK text around a name needs no spaces.
 */
function namePattern(names: readonly string[]): RegExp | undefined {
  const alternatives = [...new Set(names)].filter((n) => n !== '').sort((a, b) => b.length - a.length).map((n) => {
    const head = WORD.test(n[0]!) ? '(?<![A-Za-z0-9_])' : '';
    const tail = WORD.test(n[n.length - 1]!) ? '(?![A-Za-z0-9_])' : '';
    return `${head}${escape(n)}${tail}`;
  });
  return alternatives.length === 0 ? undefined : new RegExp(alternatives.join('|'), 'gu');
}

/** The older model with every renamed name replaced by its new name, except at `renames`' own declarations. */
export function followRenames(model: ParsedContract, renames: readonly NotedRename[]): ParsedContract {
  const to = new Map(renames.map((r) => [r.from, r.to]));
  const pattern = namePattern(renames.map((r) => r.from));
  if (!pattern) return model;
  // The audit table is history: its rows keep the names of their time.
  const keep = new Set([...renames.map((r) => r.pointer), '/versioning']);
  const text = (s: string) => s.replace(pattern, (m) => to.get(m) ?? m);
  const walk = (v: unknown, pointer: string): unknown => {
    if (keep.has(pointer)) return v;
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${pointer}/${i}`));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[text(k)] = walk(x, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      return out;
    }
    return v;
  };
  return { ...model, data: walk(model.data, '') as ParsedContract['data'] };
}

/** The value at a JSON Pointer of a model's data (undefined when there is none). */
function valueAt(data: unknown, pointer: string): unknown {
  let node = data;
  for (const part of pointer.split('/').slice(1)) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/**
 * The changes of the second run, with their older values as written (not with the new names),
 * and each first-run change that disappeared listed under the rename it followed.
 */
export function groupFollowers(first: readonly Change[], second: readonly Change[], renames: readonly NotedRename[], before: ParsedContract): Change[] {
  const kept = new Set(second.map((c) => c.id));
  const renameOf = (r: NotedRename) => second.find((c) => normaliseName(c.before.value) === r.from && normaliseName(c.after.value) === r.to);
  const follows = new Map<Change, FollowedReference[]>();
  for (const c of first) {
    if (kept.has(c.id)) continue;
    const text = JSON.stringify(c.before.value ?? c.after.value ?? '');
    const r = renames.find((x) => namePattern([x.from])!.test(text)) ?? renames[0]!;
    const owner = renameOf(r);
    if (!owner) continue;
    const list = follows.get(owner) ?? [];
    list.push({ section: c.section, itemKind: c.itemKind, identity: c.identity, ...(c.field ? { field: c.field } : {}), pointer: c.after.pointer, range: c.after.range });
    follows.set(owner, list);
  }
  return second.map((c) => {
    const original = c.before.value === undefined ? undefined : valueAt(before.data, c.before.pointer);
    const withBefore = original === undefined || c.kind === 'renamed' ? c : { ...c, before: { ...c.before, value: original } };
    const f = follows.get(c);
    return f ? { ...withBefore, follows: f } : withBefore;
  });
}

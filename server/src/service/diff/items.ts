/**
 * The two shapes of compared values: lists of items matched by identity (tools, pools, HITL
 * rows, failure entries…) and objects compared field by field (AGENT_IDENTITY, BUDGETS, the
 * front matter). Both are field comparators, so a list can sit in an object (TRIGGER's
 * `required_entities`) and an object in a list item.
 */
import type { NameKind } from '../schema/sections.ts';
import { segment, type DiffBuilder, type Scope } from './builder.ts';
import { asObject, fieldRef, keysOf, other, type FieldDiff } from './fields.ts';
import { matchItems } from './match.ts';
import { canonical, same, words } from './normalise.ts';
import type { RuleId } from './rules.ts';
import type { ItemKind } from './types.ts';
import { normaliseName } from '../model/names.ts';

type Obj = Record<string, unknown>;
/** A list element read as an item, with its identity keys. */
interface Wrapped {
  readonly item: Obj;
  readonly keys: readonly (string | undefined)[];
}

/** Maps a before-side name of a declared kind to its after-side name (identity on the after side). */
export type Resolve = (kind: NameKind, name: string) => string;

/** Least word similarity of two named items' contents for a rename with edits. */
export const RENAMED = 0.7;
/** Fewest words of content for a rename with edits: small items (a table row) are renamed only when otherwise identical. */
const RENAME_WORDS = 8;

/** The words a rename with edits is judged on, or undefined when there are too few. */
function renameWords(content: string | undefined): string[] | undefined {
  const ws = content === undefined ? [] : words(content);
  return ws.length >= RENAME_WORDS ? ws : undefined;
}

/** How a list's items are matched, classified and compared. */
export interface ListSpec {
  readonly itemKind: ItemKind;
  /** Identity keys, tried in order (match.ts). */
  readonly keys: readonly ((item: Obj, resolve: Resolve) => string | undefined)[];
  /** The identity shown for an item. */
  readonly name: (item: Obj) => string;
  /** Reads a raw list element as an item (default: objects as they are, anything else as `{ value }`). */
  readonly read?: (raw: unknown) => Obj;
  /** The field that holds a named item's name: not compared as a field, left out of rename detection. */
  readonly identityField?: string;
  /** The kind of name the identity field declares: renames are recorded so references follow them. */
  readonly declares?: NameKind;
  /** The kind of declared name the identity field refers to: following a declaration's rename is no change. */
  readonly refers?: NameKind;
  /** Named items: the rule of a rename (same content, or content similar at `RENAMED`, under another name). */
  readonly renamed?: RuleId;
  /** Items without a stable name: words compared to pair an edited item with its former self. */
  readonly similar?: { readonly words: (item: Obj) => readonly string[] | undefined; readonly threshold: number };
  readonly added: RuleId | ((item: Obj) => RuleId);
  readonly removed: RuleId | ((item: Obj) => RuleId);
  /** Message arguments of an added or removed item, besides `name`. */
  readonly args?: (item: Obj) => Record<string, string>;
  /** Matched items are compared as a whole under this rule instead of field by field. */
  readonly whole?: RuleId;
  readonly fields?: Readonly<Record<string, FieldDiff>>;
  /** Fields that `fields` does not name (default: `field-changed`). */
  readonly rest?: FieldDiff;
  /** Compares what spans several fields of a matched pair. */
  readonly then?: (d: DiffBuilder, scope: Scope, before: Obj, after: Obj) => void;
}

const asItem = (raw: unknown): Obj => asObject(raw) ?? { value: raw };
const pick = (r: RuleId | ((item: Obj) => RuleId), item: Obj): RuleId => (typeof r === 'function' ? r(item) : r);

/** A list of items (see ListSpec). */
export function list(spec: ListSpec): FieldDiff {
  const read = spec.read ?? asItem;
  // What a rename keeps: the item without its name; an item that is only a name has nothing to recognise it by.
  const contentOf = (item: Obj): string | undefined => {
    const rest = Object.fromEntries(Object.entries(item).filter(([k]) => k !== spec.identityField));
    return Object.keys(rest).length === 0 ? undefined : canonical(rest);
  };
  return (d, scope, ref, b, a) => {
    const wrap = (v: unknown, resolve: Resolve): Wrapped[] =>
      (Array.isArray(v) ? v : []).map((raw) => {
        const item = read(raw);
        return { item, keys: spec.keys.map((k) => k(item, resolve)) };
      });
    const xs = wrap(b, (kind, name) => d.renamed(kind, name));
    const ys = wrap(a, (_kind, name) => name);
    const m = matchItems(xs, ys, {
      keys: spec.keys.map((_, i) => (w: Wrapped) => w.keys[i]),
      ...(spec.renamed ? { content: (w: Wrapped) => contentOf(w.item), similar: { words: (w: Wrapped) => renameWords(contentOf(w.item)), threshold: RENAMED } } : {}),
      ...(spec.similar ? { similar: { words: (w: Wrapped) => spec.similar!.words(w.item), threshold: spec.similar.threshold } } : {}),
    });
    const itemScope = (item: Obj, bi: number | undefined, ai: number | undefined): Scope => {
      const identity = spec.name(item);
      return {
        section: scope.section,
        itemKind: spec.itemKind,
        identity,
        path: `${scope.path}/${segment(ref.name)}/${segment(identity)}`,
        before: bi === undefined ? ref.before : `${ref.before}/${bi}`,
        after: ai === undefined ? ref.after : `${ref.after}/${ai}`,
      };
    };

    for (const p of m.pairs) {
      const x = p.before.item;
      const y = p.after.item;
      // Most items are unchanged: nothing to compare field by field.
      if (p.by === 'key' && same(x, y)) continue;
      const s = itemScope(y, p.beforeIndex, p.afterIndex);
      if (spec.identityField && spec.renamed) renamedItem(d, spec, s, x, y);
      if (spec.whole) {
        if (!same(x, y)) d.report(spec.whole, 'changed', s, { before: { pointer: s.before, value: x }, after: { pointer: s.after, value: y } });
        continue;
      }
      for (const k of keysOf(x, y)) {
        if (k === spec.identityField) continue;
        (spec.fields?.[k] ?? spec.rest ?? other)(d, s, fieldRef(s, k), x[k], y[k]);
      }
      spec.then?.(d, s, x, y);
    }
    for (const { item: { item }, index } of m.removed) {
      const s = itemScope(item, index, undefined);
      d.report(pick(spec.removed, item), 'removed', s, { before: { pointer: s.before, value: item }, after: { pointer: s.after }, args: { text: spec.name(item), ...spec.args?.(item) } });
    }
    for (const { item: { item }, index } of m.added) {
      const s = itemScope(item, undefined, index);
      d.report(pick(spec.added, item), 'added', s, { before: { pointer: s.before }, after: { pointer: s.after, value: item }, args: { text: spec.name(item), ...spec.args?.(item) } });
    }
  };
}

/** Reports a named item whose name changed, and records the rename for references. */
function renamedItem(d: DiffBuilder, spec: ListSpec, s: Scope, x: Obj, y: Obj): void {
  const field = spec.identityField!;
  const from = normaliseName(x[field]);
  const to = normaliseName(y[field]);
  // A reference that follows a rename reported where the name is declared is no change.
  if (from === to || (spec.refers && d.renamed(spec.refers, from) === to)) return;
  if (spec.declares) d.noteRename(spec.declares, from, to);
  d.report(spec.renamed!, 'renamed', s, {
    field,
    before: { pointer: `${s.before}/${segment(field)}`, value: from },
    after: { pointer: `${s.after}/${segment(field)}`, value: to },
  });
}

/**
 * An object compared field by field under its own scope (named in messages like the scope it is
 * in: a section's title); `then` compares what spans several fields (AGENT_IDENTITY's boundaries).
 */
export function object(fields: Readonly<Record<string, FieldDiff>>, rest: FieldDiff = other, then?: (d: DiffBuilder, scope: Scope, b: Obj, a: Obj) => void): FieldDiff {
  return (d, scope, ref, b, a) => {
    const s: Scope = { ...scope, path: ref.name ? `${scope.path}/${segment(ref.name)}` : scope.path, before: ref.before, after: ref.after };
    const bo = asObject(b) ?? {};
    const ao = asObject(a) ?? {};
    for (const k of keysOf(bo, ao)) (fields[k] ?? rest)(d, s, fieldRef(s, k), bo[k], ao[k]);
    then?.(d, s, bo, ao);
  };
}

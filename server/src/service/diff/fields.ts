/**
 * Field comparators: small functions that compare one field of a matched item (or of an object
 * section) and report what changed under the impact rules they are given. The section specs
 * (sections.ts) say which comparator and which rules each field gets; this module knows nothing
 * of particular sections.
 */
import { kindOf, segment, type DiffBuilder, type FieldRef, type Scope } from './builder.ts';
import { matchItems } from './match.ts';
import { brief, canonical, conditionScope, normText, same, words } from './normalise.ts';
import type { RuleId } from './rules.ts';
import type { ItemKind } from './types.ts';
import type { NameKind } from '../schema/sections.ts';
import { normaliseName } from '../model/names.ts';

/** Compares one field; `before`/`after` are undefined where the field is absent. */
export type FieldDiff = (d: DiffBuilder, scope: Scope, ref: FieldRef, before: unknown, after: unknown) => void;

/** The sub-field `key` of a field. */
export function subRef(ref: FieldRef, key: string): FieldRef {
  return { name: `${ref.name}.${key}`, before: `${ref.before}/${segment(key)}`, after: `${ref.after}/${segment(key)}` };
}

/** A field of an item in `scope`. */
export function fieldRef(scope: Scope, key: string): FieldRef {
  return { name: key, before: `${scope.before}/${segment(key)}`, after: `${scope.after}/${segment(key)}` };
}

const report = (d: DiffBuilder, rule: RuleId, scope: Scope, ref: FieldRef, before: unknown, after: unknown) =>
  d.report(rule, kindOf(before, after), scope, { field: ref.name, before: { pointer: ref.before, value: before }, after: { pointer: ref.after, value: after } });

/** Any difference is `changed` (and `added`/`removed` when given). */
export function value(changed: RuleId, added: RuleId = changed, removed: RuleId = changed): FieldDiff {
  return (d, scope, ref, b, a) => {
    if (same(b, a)) return;
    report(d, b === undefined ? added : a === undefined ? removed : changed, scope, ref, b, a);
  };
}

/** Documentation: descriptions, examples, prose read by people. */
export const doc: FieldDiff = value('doc-changed');

/** Fields no spec names: any difference is `field-changed`. */
export const other: FieldDiff = value('field-changed');

/** No change is reported for this field (it is the item's identity, or bookkeeping). */
export const ignore: FieldDiff = () => {};

/** Values on an ordered scale (`none` < `read` < `write` < `external`); `fallback` stands for an absent value. */
export function rank(order: readonly string[], up: RuleId, down: RuleId, fallback?: string): FieldDiff {
  return (d, scope, ref, b, a) => {
    const x = order.indexOf(String(b ?? fallback));
    const y = order.indexOf(String(a ?? fallback));
    if (x === y && x >= 0) return;
    if (x < 0 || y < 0) return other(d, scope, ref, b, a);
    report(d, y > x ? up : down, scope, ref, b, a);
  };
}

/** The rules of a quantity; `null`: an appearing or disappearing value is not reported (another field explains it). */
export interface QuantityRules {
  readonly up: RuleId;
  readonly down: RuleId;
  readonly added?: RuleId | null;
  readonly removed?: RuleId | null;
  readonly changed?: RuleId;
}

/**
 * Quantities (numbers, durations, times): `up`/`down` when both sides read as numbers (`read`),
 * `added`/`removed` when one side is absent, `changed` when they cannot be compared.
 */
export function quantity(read: (v: unknown) => number | undefined, rules: QuantityRules): FieldDiff {
  return (d, scope, ref, b, a) => {
    if (same(b, a)) return;
    const changed = rules.changed ?? 'field-changed';
    if (b === undefined || a === undefined) {
      const rule = b === undefined ? rules.added : rules.removed;
      if (rule !== null) report(d, rule ?? changed, scope, ref, b, a);
      return;
    }
    const x = read(b);
    const y = read(a);
    if (x === undefined || y === undefined) return report(d, changed, scope, ref, b, a);
    if (x !== y) report(d, y > x ? rules.up : rules.down, scope, ref, b, a);
  };
}

/** A number as written (`10000`, or the string `"10,000"`). */
export const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d[\d,_]*(?:\.\d+)?\s*$/.test(v) ? Number(v.replace(/[,_\s]/g, '')) : undefined);

/** Booleans: `on` when it becomes true, `off` when it becomes false; absent reads as `fallback`. */
export function flag(on: RuleId, off: RuleId, fallback = false): FieldDiff {
  return (d, scope, ref, b, a) => {
    const x = typeof b === 'boolean' ? b : b === undefined ? fallback : undefined;
    const y = typeof a === 'boolean' ? a : a === undefined ? fallback : undefined;
    if (x === undefined || y === undefined) return other(d, scope, ref, b, a);
    if (x !== y) report(d, y ? on : off, scope, ref, b, a);
  };
}

/** A condition: `wider`/`narrower` when only its numeric thresholds moved (normalise.ts, conditionScope). */
export function condition(wider: RuleId, narrower: RuleId, changed: RuleId): FieldDiff {
  return (d, scope, ref, b, a) => {
    if (same(b, a)) return;
    const s = conditionScope(b, a);
    report(d, s === 'wider' ? wider : s === 'narrower' ? narrower : changed, scope, ref, b, a);
  };
}

/** The elements of a list field, with the pointer index of each; `split` reads a string field as a list. */
function elements(v: unknown, split?: (s: string) => string[]): { name: string; index?: number }[] {
  if (Array.isArray(v)) return v.map((x, index) => ({ name: normaliseName(x), index })).filter((e) => e.name !== '');
  if (typeof v === 'string') return (split ? split(v) : [v]).map((name) => ({ name: normaliseName(name) })).filter((e) => e.name !== '');
  return v === undefined || v === null ? [] : [{ name: normaliseName(v) }];
}

/** Options of `set`. */
export interface SetOptions {
  /** Reads a string field (a `Write By` cell) as a list. */
  readonly split?: (s: string) => string[];
  /** The message argument that names the element (default `name`; then `name` is the item). */
  readonly arg?: string;
  /** The elements refer to declared names of this kind: a rename of the declaration is followed. */
  readonly refers?: NameKind;
}

/**
 * A list of names compared as a set (order and duplicates mean nothing): one change per name
 * added or removed.
 */
export function set(itemKind: ItemKind, added: RuleId, removed: RuleId, options: SetOptions = {}): FieldDiff {
  return (d, scope, ref, b, a) => {
    const refers = options.refers;
    const xs = elements(b, options.split).map((e) => (refers ? { ...e, name: d.renamed(refers, e.name) } : e));
    const ys = elements(a, options.split);
    const inB = new Set(xs.map((x) => x.name));
    const inA = new Set(ys.map((y) => y.name));
    const at = (p: string, e: { index?: number }) => (e.index === undefined ? p : `${p}/${e.index}`);
    const emit = (rule: RuleId, e: { name: string; index?: number }, present: 'before' | 'after') =>
      d.report(rule, present === 'after' ? 'added' : 'removed', scope, {
        field: ref.name,
        itemKind,
        identity: e.name,
        path: `${scope.path}/${segment(ref.name)}/${segment(e.name)}`,
        before: { pointer: present === 'before' ? at(ref.before, e) : ref.before, ...(present === 'before' ? { value: e.name } : {}) },
        after: { pointer: present === 'after' ? at(ref.after, e) : ref.after, ...(present === 'after' ? { value: e.name } : {}) },
        args: options.arg ? { [options.arg]: e.name, name: scope.identity } : { name: e.name },
      });
    const seen = new Set<string>();
    const once = (name: string) => !seen.has(name) && seen.add(name) !== undefined;
    for (const e of xs) if (!inA.has(e.name) && once(e.name)) emit(removed, e, 'before');
    for (const e of ys) if (!inB.has(e.name) && once(e.name)) emit(added, e, 'after');
  };
}

/** A list whose order matters (source priority); `split` cuts each element further. Any difference is one change. */
export function ordered(changed: RuleId, split: (s: string) => string[] = (s) => [s]): FieldDiff {
  const flat = (v: unknown) => (v === undefined ? [] : Array.isArray(v) ? v : [v]).flatMap((x) => split(String(x))).map(normaliseName).filter(Boolean);
  return (d, scope, ref, b, a) => {
    const xs = flat(b);
    const ys = flat(a);
    if (canonical(xs) !== canonical(ys)) report(d, changed, scope, ref, b === undefined ? undefined : xs.join(' > '), a === undefined ? undefined : ys.join(' > '));
  };
}

/** Rules of a list of prose items (policy rules, completion criteria, stories). */
export interface ProseRules {
  readonly itemKind: ItemKind;
  readonly added: RuleId;
  readonly removed: RuleId;
  readonly reworded: RuleId;
  /** For conditions whose thresholds moved (`relevance_score > 0.72` → `> 0.5`). */
  readonly wider?: RuleId;
  readonly narrower?: RuleId;
  /** Items are compared as written (regular expressions), not with case and whitespace folded. */
  readonly exact?: boolean;
}

/** Least word similarity for two prose items to be the same item reworded. */
export const REWORDED = 0.5;

/**
 * A list of prose items, matched by their normalised text (case and whitespace do not count),
 * then by word similarity: unmatched items are added or removed, similar ones reworded.
 */
export function prose(rules: ProseRules): FieldDiff {
  return (d, scope, ref, b, a) => {
    const xs = Array.isArray(b) ? b.map(String) : typeof b === 'string' ? [b] : [];
    const ys = Array.isArray(a) ? a.map(String) : typeof a === 'string' ? [a] : [];
    const key = rules.exact ? (s: string) => s.trim() : (s: string) => normText(s).toLowerCase();
    const m = matchItems(xs, ys, { keys: [key], similar: { words, threshold: REWORDED } });
    const at = (p: string, i: number) => (Array.isArray(b) || Array.isArray(a) ? `${p}/${i}` : p);
    const emit = (rule: RuleId, kind: 'added' | 'removed' | 'changed', bi: number | undefined, ai: number | undefined) => {
      const t = ai !== undefined ? ys[ai]! : xs[bi!]!;
      d.report(rule, kind, scope, {
        field: ref.name,
        itemKind: rules.itemKind,
        identity: brief(t, 60),
        path: `${scope.path}/${segment(ref.name)}/${segment(key(bi !== undefined ? xs[bi]! : t))}`,
        before: bi !== undefined ? { pointer: at(ref.before, bi), value: xs[bi] } : { pointer: ref.before },
        after: ai !== undefined ? { pointer: at(ref.after, ai), value: ys[ai] } : { pointer: ref.after },
        args: { field: ref.name },
      });
    };
    for (const p of m.pairs) {
      if (p.by === 'key') continue;
      const s = conditionScope(p.before, p.after);
      const rule = s === 'wider' && rules.wider ? rules.wider : s === 'narrower' && rules.narrower ? rules.narrower : rules.reworded;
      emit(rule, 'changed', p.beforeIndex, p.afterIndex);
    }
    for (const r of m.removed) emit(rules.removed, 'removed', r.index, undefined);
    for (const x of m.added) emit(rules.added, 'added', undefined, x.index);
  };
}

/** An object (an absent one reads as empty) compared key by key with `fields` (others with `rest`), under the field's name. */
export function nested(fields: Readonly<Record<string, FieldDiff>>, rest: FieldDiff = other): FieldDiff {
  return (d, scope, ref, b, a) => {
    const bo = b === undefined ? {} : asObject(b);
    const ao = a === undefined ? {} : asObject(a);
    if (!bo || !ao) return other(d, scope, ref, b, a);
    for (const k of keysOf(bo, ao)) (fields[k] ?? rest)(d, scope, subRef(ref, k), bo[k], ao[k]);
  };
}

/** A map keyed by names (`tool_timeouts`): each key's value compared with `each`, the key naming the change. */
export function map(each: FieldDiff): FieldDiff {
  return (d, scope, ref, b, a) => {
    const bo = asObject(b) ?? {};
    const ao = asObject(a) ?? {};
    for (const k of keysOf(bo, ao)) each(d, { ...scope, identity: normaliseName(k) }, subRef(ref, k), bo[k], ao[k]);
  };
}

/** The value if it is a plain object. */
export function asObject(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** The keys of two objects, before's order first. */
export function keysOf(b: Record<string, unknown>, a: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(b), ...Object.keys(a)])];
}

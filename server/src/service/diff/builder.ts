/**
 * Collects the changes of one diff: turns "rule R fired on this item/field with these values"
 * into a `Change` with both sides' pointers and source ranges, the rule's impact and bump, and
 * its formatted reason. Used by every comparator; holds no logic of its own about contracts.
 */
import type { Range } from '../types.ts';
import type { ParsedContract } from '../parse/parseContract.ts';
import type { NameKind } from '../schema/sections.ts';
import { locate } from '../model/locate.ts';
import { ZERO_RANGE } from '../types.ts';
import { IMPACT_RULES, type RuleId } from './rules.ts';
import { diffMessage } from './diffMessage.ts';
import { brief } from './normalise.ts';
import type { Change, ChangeKind, DiffSection, DiffSide, ItemKind } from './types.ts';

/** The item being compared: what it is and where it sits on each side. */
export interface Scope {
  readonly section: DiffSection;
  readonly itemKind: ItemKind;
  /** Human-readable identity (a tool name, a scenario). */
  readonly identity: string;
  /** Logical path by identities (`/tools/check_inventory`). */
  readonly path: string;
  /** Absolute JSON Pointers of the item in each model (where it would be, on the side where it is absent). */
  readonly before: string;
  readonly after: string;
}

/** A field of the scope's item: its display name (`circuit_breaker.failures`) and pointers on each side. */
export interface FieldRef {
  readonly name: string;
  readonly before: string;
  readonly after: string;
}

/**
 * One side of a reported change: a pointer and the value there. Where the value is absent
 * (undefined), the pointer may be where it would be: the change keeps its nearest existing parent.
 */
export interface Loc {
  readonly pointer: string;
  readonly value?: unknown;
}

/** What a comparator reports besides the rule and the kind. Missing fields default to the scope's. */
export interface ReportAt {
  readonly field?: string;
  readonly itemKind?: ItemKind;
  readonly identity?: string;
  readonly path?: string;
  readonly before: Loc;
  readonly after: Loc;
  /** Message arguments beyond the defaults (`name`, `field`, `before`, `after`, `text`). */
  readonly args?: Readonly<Record<string, string | number>>;
}

/** `~` and `/` escaped for a JSON Pointer segment (RFC 6901). */
export function segment(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The kind of a change from the presence of its two values. */
export function kindOf(before: unknown, after: unknown): ChangeKind {
  return before === undefined ? 'added' : after === undefined ? 'removed' : 'changed';
}

export class DiffBuilder {
  readonly changes: Change[] = [];
  private readonly ids = new Map<string, number>();
  /**
   * Declared names that were renamed (`tool`: `check_stock` → `check_inventory`). A reference
   * that follows a rename (a requirement on the renamed pool, an approval of the renamed tool) is
   * no change: the rename is reported once, where the name is declared.
   */
  private readonly renames = new Map<NameKind, Map<string, string>>();

  constructor(
    readonly before: ParsedContract,
    readonly after: ParsedContract,
  ) {}

  /** Records that a declared name of `kind` was renamed. */
  noteRename(kind: NameKind, from: string, to: string): void {
    let m = this.renames.get(kind);
    if (!m) this.renames.set(kind, (m = new Map()));
    m.set(from, to);
  }

  /** A before-side name of `kind` as the after side calls it. */
  renamed(kind: NameKind, name: string): string {
    return this.renames.get(kind)?.get(name) ?? name;
  }

  /** Records one change classified by `rule`. */
  report(rule: RuleId, kind: ChangeKind, scope: Scope, at: ReportAt): void {
    const { impact, bump } = IMPACT_RULES[rule];
    const path = at.path ?? (at.field ? `${scope.path}/${at.field.split('.').map(segment).join('/')}` : scope.path);
    const identity = at.identity ?? scope.identity;
    const args = {
      name: identity,
      ...(at.field ? { field: at.field } : {}),
      before: brief(at.before.value),
      after: brief(at.after.value),
      text: brief(at.after.value ?? at.before.value),
      ...at.args,
    };
    let id = `${rule}:${path}`;
    const seen = this.ids.get(id) ?? 0;
    this.ids.set(id, seen + 1);
    if (seen > 0) id += `#${seen + 1}`;
    this.changes.push({
      id,
      kind,
      section: scope.section,
      itemKind: at.itemKind ?? scope.itemKind,
      identity,
      path,
      ...(at.field ? { field: at.field } : {}),
      before: side(this.before, at.before),
      after: side(this.after, at.after),
      impact,
      bump,
      reasonId: rule,
      args,
      message: diffMessage(rule, args),
    });
  }
}

function side(model: ParsedContract, loc: Loc): DiffSide {
  const pointer = loc.value === undefined ? existing(model, loc.pointer) : loc.pointer;
  const range: Range = (pointer && locate(model, pointer)?.value) || ZERO_RANGE;
  return loc.value === undefined ? { pointer, range } : { pointer, value: loc.value, range };
}

/** The longest prefix of `pointer` that names a value in the model ('' when none does). */
function existing(model: ParsedContract, pointer: string): string {
  let node: unknown = model.data;
  let found = '';
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node || typeof node !== 'object' || !(key in node)) break;
    node = (node as Record<string, unknown>)[key];
    found += `/${part}`;
  }
  return found;
}

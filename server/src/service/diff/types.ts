/**
 * The semantic diff's plain data (docs/semantic-diff.md): what changed between two
 * versions of a contract in terms of its model (tools, pools, boundaries, HITL gates…), with an
 * impact and a reason per change, and the version bump the changes require. Positions are LSP
 * positions (0-based line, UTF-16 character), like everywhere in the service.
 */
import type { Range } from '../types.ts';
import type { RuleId } from './rules.ts';
import type { DiffMessageId } from './messages.ts';
import type { WordSegment } from './wordDiff.ts';

export type { WordSegment } from './wordDiff.ts';
import type { Bump, DiffSection, Impact } from './impact.ts';

export type { Bump, DiffSection, Impact };

/**
 * `renamed`: the identity (a name, an error code) changed and the item was recognised by its
 * content; the change's before and after values are then the old and new names.
 */
export type ChangeKind = 'added' | 'removed' | 'changed' | 'renamed';

/** What kind of thing a change is about; `field` is a plain field of an item or section. */
export type ItemKind =
  | 'field' | 'boundary' | 'permission' | 'confirmation' | 'role' | 'layer' | 'policy-rule' | 'override-reason'
  | 'freshness' | 'pool' | 'metadata-field' | 'requirement' | 'intent-pattern' | 'entity' | 'tool' | 'schema-property'
  | 'constraint' | 'failure' | 'scenario' | 'approval' | 'criterion' | 'output-field' | 'audit-row' | 'clause'
  | 'pii-field' | 'resource' | 'anchor' | 'story';

/** One side of a change. */
export interface DiffSide {
  /**
   * Absolute JSON Pointer into the model of this side (`/tools/1/input_schema`). On the side where
   * the value does not exist, the pointer of the nearest thing that does (its item or section).
   */
  readonly pointer: string;
  /** The model value, absent on the side where it does not exist. */
  readonly value?: unknown;
  /**
   * The value's source range; on the side where it does not exist, the range of its item or
   * section (so that a view can align both sides), or the start of the file.
   */
  readonly range: Range;
}

/** One semantic change. */
export interface Change {
  /** Stable within a diff: the reason and the logical path (`tool-removed:/tools/check_inventory`). */
  readonly id: string;
  readonly kind: ChangeKind;
  readonly section: DiffSection;
  readonly itemKind: ItemKind;
  /** Human-readable identity: a tool name, a scenario, `create_approval_draft.input_schema.sku`, a boundary's text. */
  readonly identity: string;
  /** Logical path by identities rather than indices (`/tools/check_inventory/input_schema/properties/sku`). */
  readonly path: string;
  /** The field of the item that changed, when the change is about one field. */
  readonly field?: string;
  readonly before: DiffSide;
  readonly after: DiffSide;
  readonly impact: Impact;
  /** The bump this change alone requires. */
  readonly bump: Bump;
  /** The impact rule (rules.ts) that classified the change; also the id of its message template. */
  readonly reasonId: RuleId;
  readonly args: Readonly<Record<string, string | number>>;
  /** The reason (messages.ts), `reasonId` formatted with `args`: English unless localised (`localiseChange`). */
  readonly message: string;
  /**
   * On a rename: the places that mention the old name and changed only to follow the rename
   * (a tool description, a boundary, a freshness row). They are no change of their own.
   */
  readonly follows?: readonly FollowedReference[];
  /** On a change of a text (prose, a list of texts): what changed, word by word (wordDiff.ts). */
  readonly words?: readonly WordSegment[];
  /** The impact rule removes or weakens one of the contract's guarantees (docs/semantic-diff.md §6, "Diff policy"). */
  readonly weakens?: true;
}

/** A place that followed a rename: what it is and where it is in the newer version. */
export interface FollowedReference {
  readonly section: DiffSection;
  readonly itemKind: ItemKind;
  readonly identity: string;
  readonly field?: string;
  readonly pointer: string;
  readonly range: Range;
}

/** How the declared version moved from one side to the other. */
export type DeclaredBump = Bump | 'downgrade' | 'unknown';

/** What the changes require of the declared version and the audit table. */
export interface VersionAdvice {
  /** `version` of each side without a leading `v`; absent when the front matter has none. */
  readonly declaredBefore?: string;
  readonly declaredAfter?: string;
  /** The largest bump any change requires. */
  readonly required: Bump;
  /** The id of the change that requires it (the first in the diff's order); absent when nothing is required. */
  readonly drivenBy?: string;
  /** The bump actually declared; `unknown` when either version is missing or not semver. */
  readonly declared: DeclaredBump;
  /** The declared bump is at least the required one (true when nothing is required). */
  readonly sufficient: boolean;
  /** VERSIONING & AUDIT of the after side has a row for `declaredAfter`. */
  readonly auditRowPresent: boolean;
  /** …and the before side had none: the row was added by this change. */
  readonly auditRowAdded: boolean;
  /**
   * The advice in one sentence (English unless localised: `localiseAdvice`), from the diff's
   * messages. `args` hold machine values, the same in every language: `required` and `declared`
   * are bumps (`major`, `none`, `unknown`…), `before` and `after` versions or `none`.
   */
  readonly messageId: DiffMessageId;
  readonly args: Readonly<Record<string, string | number>>;
  readonly message: string;
  /** The audit table's state in one sentence (`version`: the declared version, or `none`). */
  readonly audit: { readonly messageId: DiffMessageId; readonly args: Readonly<Record<string, string | number>>; readonly message: string };
}

/** The semantic diff of two contracts. */
export interface SemanticDiff {
  /** By section, then in document order of the after side (a removed item at its nearest existing parent), then by id. */
  readonly changes: readonly Change[];
  readonly advice: VersionAdvice;
  /** Changes per impact. */
  readonly counts: Readonly<Record<Impact, number>>;
  /**
   * Sections not compared because a side skipped them as `content-too-complex` (their items are
   * unknown there, not removed): no change of theirs is listed. Absent when every section was compared.
   */
  readonly notAnalysed?: readonly NotAnalysed[];
}

/** A section the diff did not compare, and on which side it was not analysed. */
export interface NotAnalysed {
  readonly section: DiffSection;
  readonly side: 'before' | 'after' | 'both';
}

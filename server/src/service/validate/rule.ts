import type { Range, Severity } from '../types.ts';
import type { Finding, PointerSpan, SectionModel } from '../model/types.ts';
import type { ParsedContract } from '../parse/parseContract.ts';
import type { RulePreset, WorkspaceFacts } from './facts.ts';

/** Where a rule is documented, for its docs: a section of docs/ (or a standard such as CommonMark). */
export type RuleSource = string;

/**
 * A rule's bad and good example: whole documents, shown in docs/rules.md and run as fixtures
 * (test/rules.test.ts: the bad one triggers the rule, the good one does not). Both are linted
 * as `AGENTS.md` at the root of a workspace holding `workspace.files` (paths relative to the
 * root) and, when given, `workspace.config` as `.agents-md.json`. Empty strings mean the rule
 * has no document example (its findings come from the file's bytes or from a bug).
 */
export interface RuleExample {
  readonly bad: string;
  readonly good: string;
  /**
   * Where the bad example's finding is: a snippet of the bad example (once in it) with the
   * finding's exact range between `⟦` and `⟧` (test/fixes.test.ts checks it).
   */
  readonly at?: string;
  /** Rules with a fix: the bad example after applying it, or `true` when that is the good example. */
  readonly fixed?: string | true;
  readonly workspace?: { readonly files?: Readonly<Record<string, string>>; readonly config?: Readonly<Record<string, unknown>> };
}

/**
 * A rule's description, shared by the validator, the docs generator, hover on a diagnostic's code
 * and code actions. `messages.default` is the English message template; `{name}` placeholders take the
 * finding's `args`. Other keys are variants selected by `Finding.variant`.
 */
export interface RuleMeta {
  readonly code: string;
  readonly severity: Severity;
  /** One line: what the rule checks. */
  readonly summary: string;
  /** Markdown: why it matters and how to fix it. */
  readonly description: string;
  readonly source: RuleSource;
  readonly messages: { readonly default: string } & Readonly<Record<string, string>>;
  readonly examples: RuleExample;
  /** Rules that need the workspace (other files, config lists) say so; the docs show it. */
  readonly needsWorkspace?: boolean;
  /**
   * The preset that turns the rule on: `recommended` (the default) or `strict` (style and
   * quality advice, off unless the config says `extends: strict` or sets the rule).
   */
  readonly preset?: RulePreset;
  /**
   * What fixes the rule's findings, for docs/rules.md: `safe` (applied by `agents-md lint --fix`
   * and fix-on-save) or `quickfix` (offered in the editor, applied by the user).
   */
  readonly fixKind?: 'safe' | 'quickfix';
  /** `document` rules compare sections with each other; they do not run on partial contracts. */
  readonly scope?: 'section' | 'document';
}

/** Everything a rule may read. Plain data; rules never do I/O. */
export interface RuleContext {
  readonly model: ParsedContract;
  readonly data: Readonly<Record<string, unknown>>;
  readonly facts: WorkspaceFacts;
  /**
   * The workspace configuration (`facts.config`). A rule that reads it here rather than through
   * `facts` is still reused on an edit elsewhere while the configuration is the same object.
   */
  readonly config: WorkspaceFacts['config'];
  /** The rule's options from configuration (`{ severity, options }` form), or `{}`. */
  readonly options: Readonly<Record<string, unknown>>;
  /** The section (or preamble, for front-matter keys) that supplies a model key. */
  section(key: string): SectionModel | undefined;
  /** The source span of an absolute JSON Pointer (`/tools/0/name`), or of its nearest ancestor unless `exact`. */
  locate(pointer: string, exact?: boolean): PointerSpan | undefined;
  /**
   * The findings `check` makes about item `index` of array section `key` (a tool, a HITL row),
   * reused while the item is the same object at the same index and position as at the document's
   * last validation, and `also` is the same string. `check` may read only that item (its value
   * and, through `locate`, its places) and what `also` says: a rule re-checks only the tool an
   * edit changed (docs/performance.md).
   */
  item(key: string, index: number, check: () => Iterable<Finding>, also?: string): readonly Finding[];
}

/** The part of a finding (or diagnostic) a fix reads: where, and its structured arguments. */
export interface FixTarget {
  readonly range: Range;
  readonly args?: Readonly<Record<string, string | number>>;
}

/**
 * A rule's fix for one finding: a title (message id of the features catalogue and its
 * arguments), the edits, and whether `agents-md lint --fix` and fix-on-save may apply it
 * unattended (`safe`: it changes only the text the finding points at, to what the message said).
 */
export interface RuleFix {
  readonly titleId: string;
  readonly titleArgs?: Readonly<Record<string, string | number>>;
  readonly edits: readonly { readonly range: Range; readonly newText: string }[];
  readonly safe: boolean;
}

/** What a fix may need beyond the finding and the model: today's date (YYYY-MM-DD) for audit rows. */
export interface FixContext {
  readonly today: string;
}

/** A rule: its meta, a check unless its findings come from the parser, and its fix beside it. */
export interface Rule extends RuleMeta {
  check?(ctx: RuleContext): Iterable<Finding>;
  fix?(target: FixTarget, model: ParsedContract, context: FixContext): RuleFix | undefined;
  /** Other repairs the editor offers after `fix` (never applied by fix-all): another reading of the finding. */
  alternatives?(target: FixTarget, model: ParsedContract, context: FixContext): readonly RuleFix[];
}

import type { Root } from 'mdast';
import type { Range } from '../types.ts';
import type { RelatedMessageId } from './relatedMessages.ts';
import type { SectionSpec } from '../schema/sections.ts';

/**
 * The source of one value in the model: the range of its key (label, header cell or YAML key)
 * when it has one, and of the value itself.
 */
export interface PointerSpan {
  readonly key?: Range;
  readonly value: Range;
}

/** JSON Pointer (RFC 6901, relative to a section's value) → source span. */
export type SourceMap = ReadonlyMap<string, PointerSpan>;

/**
 * Something a parser or rule found, before configuration gives it a severity and the message
 * catalogue its text. `code` is a rule code from the rule catalogue; `args` fill its message.
 */
export interface Finding {
  readonly code: string;
  readonly range: Range;
  readonly args?: Readonly<Record<string, string | number>>;
  /** Message variant within the rule (its `messages` key), when a rule has more than one. */
  readonly variant?: string;
  readonly related?: readonly RelatedFinding[];
}

/** Another place a finding points at, with the id and arguments of its note (relatedMessages.ts). */
export interface RelatedFinding {
  /** The document's URI; the finding's own document when omitted. */
  readonly uri?: string;
  readonly range: Range;
  readonly messageId: RelatedMessageId;
  readonly args?: Readonly<Record<string, string | number>>;
}

/** A heading anywhere in the document, for the outline and navigation. */
export interface HeadingInfo {
  readonly depth: number;
  readonly text: string;
  readonly range: Range;
}

/** A paragraph of prose inside a section (for the readability rule). */
export interface ProseInfo {
  readonly range: Range;
  readonly length: number;
}

/** An HTML comment, for inline configuration (`<!-- agents-md-disable … -->`). */
export interface CommentInfo {
  readonly range: Range;
  readonly text: string;
}

/**
 * One top-level block run of a slice (docs/performance.md, "Incremental parsing"): its text and
 * its remark tree with positions relative to that text. Immutable and shared between versions
 * of a document: a block whose text is unchanged is not parsed again.
 */
export interface MarkdownBlock {
  readonly text: string;
  readonly tree: Root;
}

/**
 * One parsed slice of a document: the preamble (front matter and anything before the first
 * H2) or an H2 section. Immutable; reused as is when its text is unchanged and only moved by
 * `shiftSection` when lines above it were added or removed.
 */
export interface SectionModel {
  readonly kind: 'preamble' | 'section';
  /** First line (0-based) and end line (exclusive) in the document. */
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
  /** True when the document starts with a BOM (preamble only): line 0 characters are shifted by 1. */
  readonly bom: boolean;
  /** The H2 title as written (plain text) and its range; absent for the preamble. */
  readonly title?: string;
  readonly titleRange?: Range;
  /** Range of the whole section, heading to last line. */
  readonly range: Range;
  /** The recognised section, when the title names one. */
  readonly spec?: SectionSpec;
  /** The section's value (object, array or JSON Schema), built from its Markdown. */
  readonly value?: unknown;
  readonly map: SourceMap;
  /** Front matter (preamble only): its data, source map and range. */
  readonly frontMatter?: { readonly value: Record<string, unknown>; readonly map: SourceMap; readonly range: Range };
  readonly findings: readonly Finding[];
  readonly headings: readonly HeadingInfo[];
  readonly prose: readonly ProseInfo[];
  readonly comments: readonly CommentInfo[];
  /** Fenced code blocks: language, range and the range of the opening line (for folding and grammar). */
  readonly fences: readonly { readonly lang: string; readonly range: Range }[];
  /** Top-level GFM tables (the code actions insert rows and disable rules around them). */
  readonly tables: readonly Range[];
  /** The slice's top-level blocks with their remark trees, reused by the next edit when unchanged. */
  readonly blocks: readonly MarkdownBlock[];
}

/** How a file was recognised (docs/contract-format.md, "Contract or free-form"). */
export type DocumentKind = 'contract' | 'partial' | 'freeform';

/** The contract model: plain data built from all sections and front matter. */
export type ContractData = Readonly<Record<string, unknown>>;

/** A parsed document. Immutable. */
export interface ContractModel {
  readonly text: string;
  readonly lineCount: number;
  readonly kind: DocumentKind;
  /** `sections[0]` is always the preamble. */
  readonly sections: readonly SectionModel[];
  /** Model key → the section (or the preamble, for front-matter keys) that supplies it. */
  readonly owners: ReadonlyMap<string, SectionModel>;
  readonly data: ContractData;
}

/** A parsed document plus findings that need the whole document (duplicates, recognition). */
export interface ParsedContract extends ContractModel {
  readonly findings: readonly Finding[];
}

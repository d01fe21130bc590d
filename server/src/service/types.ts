/**
 * Plain data shared by every layer of the language service. Positions follow LSP:
 * `line` and `character` are 0-based and `character` counts UTF-16 code units.
 */

/** A 0-based line and UTF-16 character offset, as LSP counts them. */
export interface Position {
  readonly line: number;
  readonly character: number;
}

/** A half-open range [start, end) of positions. */
export interface Range {
  readonly start: Position;
  readonly end: Position;
}

/** Diagnostic severities, from most to least severe. `off` only appears in configuration. */
export type Severity = 'error' | 'warning' | 'info' | 'hint';

/** A location in another place (or the same file) that explains a diagnostic. */
export interface RelatedLocation {
  /** The document's URI; the diagnostic's own document when omitted. */
  readonly uri?: string;
  readonly range: Range;
  /** The note in English (or in the language the diagnostic was localised to). */
  readonly message: string;
  /** The note's message id and arguments (server/src/service/model/relatedMessages.ts). */
  readonly messageId: string;
  readonly args?: Readonly<Record<string, string | number>>;
}

/**
 * One finding of the validator. `messageId` and `args` rebuild `message` in any shipped language
 * (`localiseDiagnostic`, server/src/service/l10n/); `message` is the English text unless localised.
 */
export interface ContractDiagnostic {
  /** The stable rule code, e.g. `hitl-needs-fallback`. */
  readonly code: string;
  readonly severity: Severity;
  readonly range: Range;
  readonly message: string;
  readonly messageId: string;
  readonly args: Readonly<Record<string, string | number>>;
  readonly related?: readonly RelatedLocation[];
}

export const ZERO_RANGE: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** A range from two positions. */
export function range(start: Position, end: Position): Range {
  return { start, end };
}

/** True when `a` is before `b`. */
export function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

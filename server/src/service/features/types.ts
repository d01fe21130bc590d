import type { Range } from '../types.ts';

/** Plain-data results of the editor features, shaped after LSP but independent of it. */

/** Hover text (Markdown) and the range it describes. */
export interface HoverResult {
  readonly contents: string;
  readonly range: Range;
}

/** What a completion item stands for; the server maps it to LSP's CompletionItemKind. */
export type CompletionEntryKind = 'section' | 'field' | 'value' | 'reference' | 'variable' | 'snippet' | 'rule';

export interface CompletionEntry {
  readonly label: string;
  readonly kind: CompletionEntryKind;
  readonly detail?: string;
  /** Markdown. */
  readonly documentation?: string;
  /** Text to insert; a snippet (`${1:…}`) when `snippet` is true. */
  readonly insertText: string;
  readonly snippet?: boolean;
  /** The range the insert text replaces (the word being typed). */
  readonly range: Range;
  readonly sortText?: string;
  readonly filterText?: string;
}

export interface LocationResult {
  readonly uri: string;
  readonly range: Range;
}

export interface TextEditResult {
  readonly range: Range;
  readonly newText: string;
}

/** The kind of an outline entry, mapped by the server to LSP's SymbolKind. */
export type SymbolEntryKind = 'section' | 'tool' | 'pool' | 'entity' | 'scenario' | 'failure' | 'layer' | 'field' | 'version' | 'heading';

export interface SymbolEntry {
  readonly name: string;
  readonly detail?: string;
  readonly kind: SymbolEntryKind;
  readonly range: Range;
  readonly selectionRange: Range;
  readonly children: readonly SymbolEntry[];
}

/** A folding range; lines are 0-based and inclusive. */
export interface FoldingEntry {
  readonly startLine: number;
  readonly endLine: number;
  readonly kind?: 'comment' | 'region';
}

/** A code action: edits to this document, linked to the diagnostics it fixes. */
export interface CodeActionEntry {
  readonly title: string;
  readonly kind: 'quickfix' | 'source' | 'refactor';
  /** Codes of the diagnostics it fixes (the server matches them to the request's diagnostics). */
  readonly fixes: readonly string[];
  readonly edits: readonly TextEditResult[];
  readonly isPreferred?: boolean;
}

/**
 * The editor features behind one signature: `(document, position?, options, token)`, the shape
 * of vscode-markdown-languageservice. A document is a parsed contract with its URI and, once
 * gathered, its workspace facts; a feature asked after its token was cancelled returns its empty
 * answer without working. The features themselves stay plain functions of the model, one module
 * each (hover.ts, completion.ts, navigation.ts, symbols.ts, codeActions.ts).
 */
import type { Position, Range } from '../types.ts';
import type { ParsedContract } from '../model/types.ts';
import type { WorkspaceFacts } from '../validate/facts.ts';
import type { TokenCounter } from '../export/cost.ts';
import { format } from '../l10n/format.ts';
import { hover } from './hover.ts';
import { costLenses, type LensEntry } from './toolCost.ts';
import { completion } from './completion.ts';
import { definition, prepareRename, references, rename } from './navigation.ts';
import { documentSymbols, foldingRanges } from './symbols.ts';
import { codeActions, fixAll, safeFixCandidates, type DiagnosticRef } from './codeActions.ts';
import { convertToContract } from './scaffold.ts';
import type { CodeActionEntry, CompletionEntry, FoldingEntry, HoverResult, LocationResult, SymbolEntry, TextEditResult } from './types.ts';

/** A contract as the features see it. */
export interface ContractDocument {
  readonly uri: string;
  readonly model: ParsedContract;
  /** What the workspace says (other contracts, configuration), when gathered; the document alone otherwise. */
  readonly facts?: WorkspaceFacts;
  /** How the hover and the lens count the tools' tokens (the language server's own process); here when omitted. */
  readonly countTokens?: TokenCounter;
}

/** Asked for by the client that no longer needs the answer (LSP's `CancellationToken` fits). */
export interface CancellationToken {
  readonly isCancellationRequested: boolean;
}

/** A token that is never cancelled, for callers that cannot cancel (the CLI, tests). */
export const NOT_CANCELLED: CancellationToken = { isCancellationRequested: false };

/** Options every feature takes: the display language (`en`, `zh-cn`; others are English). */
export interface FeatureOptions {
  readonly lang?: string;
}

export interface ReferencesOptions extends FeatureOptions {
  /** Include the declaration itself (default true). */
  readonly includeDeclaration?: boolean;
}

export interface RenameOptions extends FeatureOptions {
  readonly newName: string;
}

export interface CodeActionOptions extends FeatureOptions {
  /** The diagnostics in the range that the actions may fix. */
  readonly diagnostics: readonly DiagnosticRef[];
  /** Today's date (YYYY-MM-DD) for audit rows; the real date when omitted. */
  readonly today?: string;
}

export interface FixAllOptions extends FeatureOptions {
  /** The document's diagnostics (all of them: the safe fixes of each are applied). */
  readonly diagnostics: readonly DiagnosticRef[];
}

/** The editor features of the language service. */
export interface DocumentFeatures {
  hover(document: ContractDocument, position: Position, options: FeatureOptions, token: CancellationToken): HoverResult | undefined;
  completion(document: ContractDocument, position: Position, options: FeatureOptions, token: CancellationToken): CompletionEntry[];
  definition(document: ContractDocument, position: Position, options: FeatureOptions, token: CancellationToken): LocationResult[];
  references(document: ContractDocument, position: Position, options: ReferencesOptions, token: CancellationToken): LocationResult[];
  /** The name to rename, or why the place under the cursor is not renamed (`refused`, in `options.lang`). */
  prepareRename(document: ContractDocument, position: Position, options: FeatureOptions, token: CancellationToken): { range: Range; placeholder: string } | { refused: string } | undefined;
  rename(document: ContractDocument, position: Position, options: RenameOptions, token: CancellationToken): TextEditResult[];
  documentSymbols(document: ContractDocument, options: FeatureOptions, token: CancellationToken): SymbolEntry[];
  foldingRanges(document: ContractDocument, options: FeatureOptions, token: CancellationToken): FoldingEntry[];
  codeActions(document: ContractDocument, range: Range, options: CodeActionOptions, token: CancellationToken): CodeActionEntry[];
  /** The rules' safe fixes as one set of non-overlapping edits (`agents-md lint --fix`, `source.fixAll.agentsMd`) and the codes fixed. */
  fixAll(document: ContractDocument, options: FixAllOptions, token: CancellationToken): { edits: TextEditResult[]; fixed: string[] };
  /** Whether fix-all has a safe fix to start from (cheap: the fixes are not checked against their result). */
  hasSafeFix(document: ContractDocument, options: FixAllOptions, token: CancellationToken): boolean;
  /** The lenses of the document's own content: what the tools cost per request (toolCost.ts). */
  codeLenses(document: ContractDocument, options: FeatureOptions, token: CancellationToken): LensEntry[];
}

/** The features, each answering empty once its token is cancelled. */
export const DOCUMENT_FEATURES: DocumentFeatures = {
  hover: (d, p, o, t) => (t.isCancellationRequested ? undefined : hover(d.model, p, { ...o, ...(d.facts ? { facts: d.facts } : {}), ...(d.countTokens ? { countTokens: d.countTokens } : {}) })),
  completion: (d, p, o, t) => (t.isCancellationRequested ? [] : completion(d.model, p, o)),
  definition: (d, p, _o, t) => (t.isCancellationRequested ? [] : definition(d.model, d.uri, p, d.facts)),
  references: (d, p, o, t) => (t.isCancellationRequested ? [] : references(d.model, d.uri, p, o.includeDeclaration ?? true)),
  prepareRename: (d, p, o, t) => {
    const place = t.isCancellationRequested ? undefined : prepareRename(d.model, p, d.facts);
    return place && 'refused' in place ? { refused: format(place.refused, place.args, o.lang) } : place;
  },
  rename: (d, p, o, t) => (t.isCancellationRequested ? [] : rename(d.model, p, o.newName, d.facts)),
  documentSymbols: (d, o, t) => (t.isCancellationRequested ? [] : documentSymbols(d.model, o.lang)),
  foldingRanges: (d, _o, t) => (t.isCancellationRequested ? [] : foldingRanges(d.model)),
  // The range narrows nothing yet: the client sends the diagnostics of the range it asks about.
  codeActions: (d, _r, o, t) => {
    if (t.isCancellationRequested) return [];
    const today = o.today ?? new Date().toISOString().slice(0, 10);
    return [...codeActions(d.model, o.diagnostics, { ...(o.lang ? { lang: o.lang } : {}), ...(d.facts ? { facts: d.facts } : {}), today }), ...convertToContract(d.model, { today, ...(o.lang ? { lang: o.lang } : {}) })];
  },
  fixAll: (d, o, t) => (t.isCancellationRequested ? { edits: [], fixed: [] } : fixAll(d.model, o.diagnostics, d.facts ? { facts: d.facts } : {})),
  hasSafeFix: (d, o, t) => !t.isCancellationRequested && safeFixCandidates(d.model, o.diagnostics).length > 0,
  codeLenses: (d, o, t) => (t.isCancellationRequested ? [] : costLenses(d.model, o.lang, d.countTokens)),
};

import {
  CompletionItemKind, DiagnosticSeverity, DiagnosticTag, ErrorCodes, FoldingRangeKind, InsertTextFormat, MarkupKind, ResponseError, SymbolKind,
  type CompletionItem, type Diagnostic, type DocumentSymbol, type FoldingRange, type Range,
} from 'vscode-languageserver';
import type { CompletionEntry, ContractDiagnostic, FoldingEntry, SymbolEntry } from '../service/index.ts';

/** Converts the service's plain results to LSP types. No logic beyond the mapping. */

const SEVERITY = { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, info: DiagnosticSeverity.Information, hint: DiagnosticSeverity.Hint } as const;

/** A diagnostic with its rule code, a link to the rule's docs, and related locations. */
export function toDiagnostic(d: ContractDiagnostic, uri: string, docsBase: string): Diagnostic {
  return {
    range: d.range,
    severity: SEVERITY[d.severity],
    code: d.code,
    codeDescription: { href: `${docsBase}#${d.code}` },
    source: 'agents-md',
    message: d.message,
    ...(d.code === 'unknown-field' || d.code === 'unrecognised-content' ? { tags: [DiagnosticTag.Unnecessary] } : {}),
    ...(d.related?.length ? { relatedInformation: d.related.map((r) => ({ location: { uri: r.uri ?? uri, range: r.range }, message: r.message })) } : {}),
    // The arguments let code actions rebuild their edits without re-running the rule.
    data: { args: d.args },
  };
}

const COMPLETION_KIND = {
  section: CompletionItemKind.Module,
  field: CompletionItemKind.Property,
  value: CompletionItemKind.EnumMember,
  reference: CompletionItemKind.Reference,
  variable: CompletionItemKind.Variable,
  snippet: CompletionItemKind.Snippet,
  rule: CompletionItemKind.Keyword,
} as const;

export function toCompletionItem(c: CompletionEntry): CompletionItem {
  return {
    label: c.label,
    kind: COMPLETION_KIND[c.kind],
    ...(c.detail ? { detail: c.detail } : {}),
    ...(c.documentation ? { documentation: { kind: MarkupKind.Markdown, value: c.documentation } } : {}),
    textEdit: { range: c.range, newText: c.insertText },
    insertTextFormat: c.snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
    ...(c.sortText ? { sortText: c.sortText } : {}),
    ...(c.filterText ? { filterText: c.filterText } : {}),
  };
}

const SYMBOL_KIND = {
  section: SymbolKind.Module,
  heading: SymbolKind.String,
  tool: SymbolKind.Function,
  pool: SymbolKind.Struct,
  entity: SymbolKind.Variable,
  scenario: SymbolKind.Event,
  failure: SymbolKind.Event,
  layer: SymbolKind.Field,
  field: SymbolKind.Property,
  version: SymbolKind.Constant,
} as const;

export function toDocumentSymbol(s: SymbolEntry): DocumentSymbol {
  return { name: s.name || ' ', ...(s.detail ? { detail: s.detail } : {}), kind: SYMBOL_KIND[s.kind], range: s.range, selectionRange: s.selectionRange, children: s.children.map(toDocumentSymbol) };
}

export function toFoldingRange(f: FoldingEntry): FoldingRange {
  return { startLine: f.startLine, endLine: f.endLine, ...(f.kind === 'comment' ? { kind: FoldingRangeKind.Comment } : f.kind === 'region' ? { kind: FoldingRangeKind.Region } : {}) };
}

/** `prepareRename`'s answer; a refusal is an error whose message the client shows instead of "cannot be renamed". */
export function toRenamePlace(place: { range: Range; placeholder: string } | { refused: string } | undefined): { range: Range; placeholder: string } | null {
  if (place && 'refused' in place) throw new ResponseError(ErrorCodes.InvalidRequest, place.refused);
  return place ?? null;
}

import { SemanticTokensBuilder } from 'vscode-languageserver';
import { highlights, HIGHLIGHT_TYPES, ruleMarkdown } from '../service/index.ts';
import { toDocumentSymbol, toFoldingRange } from './convert.ts';
import { DOCUMENT_KIND, RULE_DOC, type DocumentKindParams, type DocumentKindResult, type RuleDocParams, type RuleDocResult } from './customRequests.ts';
import { contract, type DocumentStates } from './documentState.ts';
import type { ServerContext } from './serverContext.ts';

/** Document symbols, semantic tokens, folding ranges, the document's kind and a rule's page. */
export function registerOutline(ctx: ServerContext, docs: DocumentStates): void {
  const { connection, session } = ctx;
  connection.onDocumentSymbol((p, token) => docs.withDoc(p.textDocument.uri, [], (doc, s) => session.service!.documentSymbols(contract(doc, s), { lang: session.lang }, token).map(toDocumentSymbol)));
  connection.languages.semanticTokens.on((p) =>
    docs.withDoc(p.textDocument.uri, { data: [] }, (_, s) => {
      const b = new SemanticTokensBuilder();
      for (const h of highlights(s.model)) b.push(h.line, h.character, h.length, HIGHLIGHT_TYPES.indexOf(h.type), 0);
      return b.build();
    }),
  );
  connection.onRequest(DOCUMENT_KIND, (p: DocumentKindParams): DocumentKindResult => docs.withDoc(p.uri, { kind: 'freeform' }, (_, s) => ({ kind: s.model.kind })));
  connection.onRequest(RULE_DOC, (p: RuleDocParams): RuleDocResult => ({ markdown: ruleMarkdown(String(p?.code), session.lang) ?? null }));
  connection.onFoldingRanges((p, token) => docs.withDoc(p.textDocument.uri, [], (doc, s) => session.service!.foldingRanges(contract(doc, s), {}, token).map(toFoldingRange)));
}

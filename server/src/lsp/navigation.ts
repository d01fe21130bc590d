import type { TextEdit } from 'vscode-languageserver';
import { nameAt, type ParsedContract } from '../service/index.ts';
import { toCompletionItem, toRenamePlace } from './convert.ts';
import { contract, type DocumentStates } from './documentState.ts';
import { SNAPSHOT_FILE, type ServerContext } from './serverContext.ts';
import { placesElsewhere } from './snapshotRefs.ts';

/** Hover, completion, definition, references and rename of open contracts. */
export function registerNavigation(ctx: ServerContext, docs: DocumentStates): void {
  const { connection, documents, session } = ctx;
  connection.onHover(async (p, token) => {
    const doc = documents.get(p.textDocument.uri);
    if (!doc || !session.service || SNAPSHOT_FILE.test(doc.uri)) return null;
    const state = docs.stateOf(doc);
    const document = contract(doc, state, await docs.lastFacts(doc, state));
    // A tool's or TOOLS's hover waits for its token counts (a process of the server's own).
    const h = await docs.tokens.withCounts((countTokens) => session.service!.hover({ ...document, countTokens }, p.position, { lang: session.lang }, token));
    return h ? { contents: { kind: 'markdown', value: h.contents }, range: h.range } : null;
  });
  connection.onCompletion((p, token) => docs.withDoc(p.textDocument.uri, [], (doc, s) => session.service!.completion(contract(doc, s), p.position, { lang: session.lang }, token).map(toCompletionItem)));
  connection.onDefinition(async (p, token) => {
    const doc = documents.get(p.textDocument.uri);
    if (!doc || !session.service || SNAPSHOT_FILE.test(doc.uri)) return [];
    const state = docs.stateOf(doc);
    return session.service.definition(contract(doc, state, await docs.lastFacts(doc, state)), p.position, { lang: session.lang }, token);
  });
  /** Where the contract's snapshots, and for a shared pool or resource the other contracts, name what is under the cursor (docs/workspace.md). */
  const elsewhere = (uri: string, model: ParsedContract, position: { line: number; character: number }) => {
    const n = nameAt(model, position);
    return n ? placesElsewhere(session.service!.workspace, uri, n, ctx.rootPaths(), ctx.fs) : Promise.resolve([]);
  };
  connection.onReferences((p, token) =>
    docs.withDoc(p.textDocument.uri, Promise.resolve([]), async (doc, s) => [
      ...session.service!.references(contract(doc, s), p.position, { includeDeclaration: p.context.includeDeclaration }, token),
      ...(await elsewhere(doc.uri, s.model, p.position)),
    ]),
  );
  connection.onPrepareRename((p, token) =>
    docs.withDoc(p.textDocument.uri, Promise.resolve(null), async (doc, s) => toRenamePlace(session.service!.prepareRename(contract(doc, s, await docs.lastFacts(doc, s)), p.position, { lang: session.lang }, token))),
  );
  connection.onRenameRequest((p, token) =>
    docs.withDoc(p.textDocument.uri, Promise.resolve(null), async (doc, s) => {
      const edits = session.service!.rename(contract(doc, s, await docs.lastFacts(doc, s)), p.position, { newName: p.newName }, token);
      if (edits.length === 0) return null;
      const changes: Record<string, TextEdit[]> = { [doc.uri]: [...edits] };
      for (const place of await elsewhere(doc.uri, s.model, p.position)) (changes[place.uri] ??= []).push({ range: place.range, newText: p.newName });
      return { changes };
    }),
  );
}

/**
 * Results a command asks the server for on demand (a proof, conformance grades), kept per
 * document: shown in the Problems panel under their own source, placed again by the server on the
 * new text once typing pauses (nothing recomputed), dropped when the document closes. The
 * commands' code lenses read them.
 */
import * as vscode from 'vscode';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import type { LanguageClient } from 'vscode-languageclient/node.js';

/** Typing must pause this long before kept results are placed on the new text (ms). */
const PLACE_DELAY_MS = 300;

export interface KeptResults<R> {
  /** The client the results came from (their ranges are converted with it); set by the command. */
  client: LanguageClient | undefined;
  get(uri: vscode.Uri): R | undefined;
  /** Keeps and shows `r` for `uri` (null: forgets it). */
  show(uri: vscode.Uri, r: R | null): void;
  /** Fires when a document's results change: code lenses ask again. */
  readonly changed: vscode.Event<void>;
}

/** `place` asks the server for the kept results placed on a document's current text. */
export function keptResults<R extends { readonly diagnostics: readonly Diagnostic[] }>(
  context: vscode.ExtensionContext,
  source: string,
  place: (client: LanguageClient, uri: string) => Promise<R | null>,
): KeptResults<R> {
  const diagnostics = vscode.languages.createDiagnosticCollection(source);
  const results = new Map<string, R>();
  const changed = new vscode.EventEmitter<void>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const kept: KeptResults<R> = {
    client: undefined,
    get: (uri) => results.get(uri.toString()),
    show(uri, r) {
      const key = uri.toString();
      if (!r) {
        results.delete(key);
        diagnostics.delete(uri);
      } else {
        results.set(key, r);
        diagnostics.set(uri, r.diagnostics.map((d) => kept.client!.protocol2CodeConverter.asDiagnostic(d)));
      }
      changed.fire();
    },
    changed: changed.event,
  };
  const placeLater = (doc: vscode.TextDocument) => {
    const key = doc.uri.toString();
    const client = kept.client;
    if (!results.has(key) || !client) return;
    clearTimeout(timers.get(key));
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        void place(client, key).then((r) => kept.show(doc.uri, r), () => undefined);
      }, PLACE_DELAY_MS),
    );
  };
  context.subscriptions.push(
    diagnostics,
    changed,
    vscode.workspace.onDidChangeTextDocument((e) => (e.contentChanges.length > 0 ? placeLater(e.document) : undefined)),
    vscode.workspace.onDidCloseTextDocument((d) => (results.has(d.uri.toString()) ? kept.show(d.uri, null) : undefined)),
  );
  return kept;
}

/**
 * Prove in the editor (docs/prove.md, "In the editor"): the `agentsMd/prove` request proves the
 * open contract on demand (the command, its code lens, a save after a proof; never per keystroke)
 * and keeps the findings per document. Each finding is a diagnostic of its own source at its
 * clause, the witness as related information. While the user edits, a kept finding moves with
 * its clause as long as the clause's data (its heading, fields, schema or row) is unchanged; a
 * changed clause waits for the next proof (the command, or the client's proof on save).
 */
import { DiagnosticSeverity, LSPErrorCodes, ResponseError, type CancellationToken, type Connection, type Diagnostic, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { locate, proveContract, proveResult, proveText, witnessData, type ParsedContract, type ProveFinding } from '../service/index.ts';
import { format } from '../service/host.ts';
import { z3Solver } from '../node/z3Solver.ts';
import { PROVE, type ProveParams, type ProveViewResult } from './customRequests.ts';

export interface ProveHost {
  readonly lang: () => string;
  /** The open contract's current model (undefined: not open, or not a contract). */
  readonly model: (uri: string) => ParsedContract | undefined;
  /** The `file:` URL of the folder holding prove.md, which each finding's code links to. */
  readonly docsFolder: string;
}

export const PROVE_SOURCE = 'agents-md prove';
/** The documents whose findings are kept (the oldest proved is forgotten first). */
const MAX_KEPT = 32;

interface Kept {
  readonly version: number;
  /** Each finding with its clause's data when it was proved (JSON). */
  readonly findings: readonly { readonly finding: ProveFinding; readonly clause: string }[];
}

/** The contract data at a JSON Pointer, as JSON ('' when there is none). */
function clauseData(model: ParsedContract, pointer: string): string {
  let at: unknown = model.data;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    at = typeof at === 'object' && at !== null && Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined;
  }
  return JSON.stringify(at) ?? '';
}

function diagnostic(f: ProveFinding, uri: string, host: ProveHost, lang: string): Diagnostic {
  return {
    range: f.range,
    severity: DiagnosticSeverity.Error,
    code: f.obligation,
    codeDescription: { href: `${host.docsFolder}/prove.md#${f.obligation}` },
    source: PROVE_SOURCE,
    message: format('prove.lsp.diagnostic', { message: proveText(f.message, lang), result: proveResult(f, lang) }, lang),
    ...(f.witness ? { relatedInformation: [{ location: { uri, range: f.range }, message: format('prove.witness', { witness: JSON.stringify(witnessData(f.witness)) }, lang) }] } : {}),
  };
}

/** The kept findings on the current model: each whose clause (found again by its pointer) holds the data it held. */
function place(kept: Kept, uri: string, model: ParsedContract, host: ProveHost, lang: string): ProveViewResult {
  const placed = kept.findings.flatMap(({ finding, clause }) => {
    const range = locate(model, finding.pointer)?.value;
    return range && clauseData(model, finding.pointer) === clause ? [{ ...finding, range }] : [];
  });
  return { summary: format('prove.summary', { count: placed.length, files: 1 }, lang), version: kept.version, diagnostics: placed.map((f) => diagnostic(f, uri, host, lang)) };
}

export function registerProve(connection: Connection, documents: TextDocuments<TextDocument>, host: ProveHost): void {
  const kept = new Map<string, Kept>();
  connection.onRequest(PROVE, async (p: ProveParams, token: CancellationToken): Promise<ProveViewResult | null> => {
    const lang = host.lang();
    const doc = documents.get(p.uri);
    const model = doc && host.model(p.uri);
    if (!doc || !model || model.kind === 'freeform') return null;
    if (p.run) {
      // The version proved: the document may change while the contract is proved.
      const version = doc.version;
      const findings = await proveContract(model, { solver: await z3Solver() });
      if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, format('lsp.requestCancelled', {}, lang));
      kept.delete(p.uri);
      kept.set(p.uri, { version, findings: findings.map((finding) => ({ finding, clause: clauseData(model, finding.pointer) })) });
      if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
    }
    const k = kept.get(p.uri);
    // The model again: the document may have changed while the contract was proved.
    const current = host.model(p.uri);
    return k && current ? place(k, p.uri, current, host, lang) : null;
  });
  documents.onDidClose((e) => kept.delete(e.document.uri));
}

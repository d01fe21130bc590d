/**
 * The skeletons behind the client's "New AGENTS.md contract" and "New snapshot for this contract"
 * commands (docs/vscode.md, "Getting started"): the service writes them, the client writes the files.
 * A new contract's name and error codes are chosen apart from the workspace's other contracts.
 */
import { ResponseError, ErrorCodes, type Connection, type TextDocuments } from 'vscode-languageserver/node.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { AGENT_KINDS, newContract, parseContract, snapshotSkeleton, workspaceDigests, type LanguageService } from '../service/index.ts';
import { NEW_CONTRACT, NEW_SNAPSHOT, type NewContractParams, type NewContractResult, type NewSnapshotParams, type NewSnapshotResult } from './customRequests.ts';

const today = () => new Date().toISOString().slice(0, 10);

export interface ScaffoldHost {
  readonly service: () => LanguageService | undefined;
  /** The UI's language: the snapshot's comment and placeholders are written in it. */
  readonly lang: () => string;
}

export function registerScaffold(connection: Connection, documents: TextDocuments<TextDocument>, host: ScaffoldHost): void {
  connection.onRequest(NEW_CONTRACT, async (p: NewContractParams): Promise<NewContractResult> => {
    if (typeof p?.name !== 'string' || !AGENT_KINDS.includes(p.kind)) throw new ResponseError(ErrorCodes.InvalidParams, NEW_CONTRACT);
    // Compared with the workspace's contracts, so that the new one starts with no cross-contract finding.
    const workspace = host.service()?.workspace;
    return newContract({ name: p.name, kind: p.kind, today: today() }, workspace ? await workspaceDigests(workspace) : []);
  });
  connection.onRequest(NEW_SNAPSHOT, (p: NewSnapshotParams): NewSnapshotResult => {
    const text = documents.get(p?.uri)?.getText() ?? (typeof p?.text === 'string' ? p.text : undefined);
    if (text === undefined) throw new ResponseError(ErrorCodes.InvalidParams, String(p?.uri));
    return { text: snapshotSkeleton(parseContract(text), { today: today(), lang: host.lang() }) };
  });
}

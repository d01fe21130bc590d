/**
 * The custom request `agentsMd/semanticDiff` (docs/semantic-diff.md): the semantic diff of an open
 * (or saved) contract against an older version of it: its version at a git ref, in the git index,
 * or another file. Returns the diff and the version advice as diagnostics on the document
 * (`diff-version-bump`, `diff-audit-row`). For the editor's "Show semantic diff" view.
 */
import { readFile } from 'node:fs/promises';
import { ResponseError, ErrorCodes, type Connection, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { decodeText, diffContracts, diffMessage, parseContract, versionAdviceDiagnostics, type ContractDiagnostic, type SemanticDiff } from '../service/index.ts';
import { GitError, readAtRevision, sourceLabel, type GitSource } from '../node/gitRevision.ts';
import { uriToPath } from '../node/nodeFileSystem.ts';

/** What to compare the document with: a commit-ish, the index, or another file (`file:` URI). */
export type DiffAgainst = { readonly ref: string } | { readonly file: string } | 'index';

export interface SemanticDiffParams {
  /** The newer version: an open document, or a file on disk. */
  readonly uri: string;
  readonly against: DiffAgainst;
}

export interface SemanticDiffResult {
  readonly diff: SemanticDiff;
  /** The version advice as diagnostics on `uri` (empty when the bump and audit row are fine). */
  readonly diagnostics: readonly ContractDiagnostic[];
}

export const SEMANTIC_DIFF_REQUEST = 'agentsMd/semanticDiff';

async function readFileUri(uri: string): Promise<Uint8Array> {
  const path = uriToPath(uri);
  try {
    if (path === undefined) throw new Error('not a file: URI');
    return await readFile(path);
  } catch (e) {
    throw new ResponseError(ErrorCodes.InvalidParams, diffMessage('input.unreadable', { file: path ?? uri, reason: (e as NodeJS.ErrnoException).code ?? String(e) }));
  }
}

/** Registers the request on a connection; `documents` supplies the text of open documents. */
export function registerSemanticDiff(connection: Connection, documents: TextDocuments<TextDocument>): void {
  connection.onRequest(SEMANTIC_DIFF_REQUEST, async (params: SemanticDiffParams): Promise<SemanticDiffResult> => {
    const open = documents.get(params.uri)?.getText();
    const after = parseContract(open ?? decodeText(await readFileUri(params.uri)).text);
    const against = params.against;
    let bytes: Uint8Array;
    let label: string;
    if (typeof against === 'object' && 'file' in against) {
      bytes = await readFileUri(against.file);
      label = uriToPath(against.file) ?? against.file;
    } else {
      const path = uriToPath(params.uri);
      if (path === undefined) throw new ResponseError(ErrorCodes.InvalidParams, diffMessage('input.unreadable', { file: params.uri, reason: 'not a file: URI' }));
      const source: GitSource = against === 'index' ? 'index' : { ref: against.ref };
      try {
        bytes = await readAtRevision(path, source);
      } catch (e) {
        if (e instanceof GitError) throw new ResponseError(ErrorCodes.InvalidParams, e.message, { messageId: e.messageId, args: e.args });
        throw e;
      }
      label = sourceLabel(source);
    }
    const diff = diffContracts(parseContract(decodeText(bytes).text), after);
    return { diff, diagnostics: versionAdviceDiagnostics(diff, after, label) };
  });
}

/**
 * The semantic diff in the language server (docs/semantic-diff.md): the `agentsMd/semanticDiff`
 * request behind the editor's diff view (the open contract against a git ref, the index or another
 * file, answered as a localised `ViewNode` tree), `agentsMd/revisionText` for the older side's
 * virtual document, and the version advice against HEAD as diagnostics on the open contract.
 */
import { ResponseError, ErrorCodes, type Connection, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { diffContracts, diffTree, parseContract, versionAdviceDiagnostics, type ContractDiagnostic, type DiffPolicy, type ParsedContract } from '../service/index.ts';
import { diffMessage, diffSummary } from '../service/host.ts';
import { sourceLabel, type GitSource } from '../node/gitRevision.ts';
import { InputError } from '../node/inputError.ts';
import { loadVersion, type LoadedVersion, type VersionSource } from '../node/diffInputs.ts';
import { uriToPath } from '../node/nodeFileSystem.ts';
import {
  REVISION_TEXT, SEMANTIC_DIFF,
  type RevisionTextParams, type RevisionTextResult, type SemanticDiffParams, type SemanticDiffResult,
} from './customRequests.ts';

/** The scheme of a contract's text at a git ref or in the index (the client's content provider). */
const REVISION_SCHEME = 'agents-md-rev';
/** How long the HEAD version of a file is reused for the version advice diagnostics (ms). */
const HEAD_TTL_MS = 10_000;

/** `agents-md-rev:/path/AGENTS.md?ref=HEAD` or `?index`. */
function revisionUri(path: string, source: GitSource): string {
  return URI.from({ scheme: REVISION_SCHEME, path, query: source === 'index' ? 'index' : `ref=${encodeURIComponent(source.ref)}` }).toString();
}

function parseRevisionUri(uri: string): { path: string; source: GitSource } | undefined {
  const u = URI.parse(uri);
  if (u.scheme !== REVISION_SCHEME) return undefined;
  if (u.query === 'index') return { path: u.fsPath, source: 'index' };
  const ref = /^ref=(.*)$/.exec(u.query)?.[1];
  return ref === undefined ? undefined : { path: u.fsPath, source: { ref: decodeURIComponent(ref) } };
}

/** A request error the client shows as is, in the user's language. */
function invalid(message: string, data?: object): ResponseError<unknown> {
  return new ResponseError(ErrorCodes.InvalidParams, message, data);
}

/**
 * The server side of the semantic diff; `lang()` is the client's display language, `policyFor`
 * the diff policy of the configuration that applies to a document.
 */
export function registerSemanticDiff(connection: Connection, documents: TextDocuments<TextDocument>, lang: () => string, policyFor: (uri: string) => Promise<DiffPolicy>): {
  /** The version advice against HEAD for an open contract (empty outside a git repository). */
  headAdvice(uri: string, model: ParsedContract): Promise<ContractDiagnostic[]>;
} {
  // The shared reader of diff inputs (node/diffInputs.ts): the CLI's size, binary and git checks.
  const read = async (source: VersionSource): Promise<LoadedVersion> => {
    try {
      return await loadVersion(source);
    } catch (e) {
      if (e instanceof InputError) throw invalid(e.text(lang()), { messageId: e.messageId, args: e.args });
      throw e;
    }
  };
  const pathOf = (uri: string): string => {
    const path = uriToPath(uri);
    if (path === undefined) throw invalid(diffMessage('input.unreadable', { file: uri, reason: 'file:' }, lang()));
    return path;
  };

  connection.onRequest(SEMANTIC_DIFF, async (params: SemanticDiffParams): Promise<SemanticDiffResult> => {
    const open = documents.get(params.uri)?.getText();
    const after = open !== undefined ? parseContract(open) : (await read({ path: pathOf(params.uri), file: pathOf(params.uri) })).model;
    const { against } = params;
    let beforeUri: string;
    let before: LoadedVersion;
    if (against.kind === 'file') {
      beforeUri = against.uri;
      before = await read({ path: pathOf(against.uri), file: pathOf(against.uri) });
    } else {
      const path = pathOf(params.uri);
      const source: GitSource = against.kind === 'index' ? 'index' : { ref: against.ref };
      beforeUri = revisionUri(path, source);
      before = await read({ path, file: path, git: source });
    }
    const diff = diffContracts(before.model, after, await policyFor(params.uri));
    return { summary: diff.changes.length === 0 ? diffMessage('report.noChanges', {}, lang()) : diffSummary(diff, lang()), tree: diffTree(diff, { beforeUri, afterUri: params.uri, lang: lang() }), beforeUri };
  });

  connection.onRequest(REVISION_TEXT, async (params: RevisionTextParams): Promise<RevisionTextResult> => {
    const r = parseRevisionUri(params.uri);
    if (!r) throw invalid(diffMessage('input.unreadable', { file: params.uri, reason: REVISION_SCHEME }, lang()));
    return { text: (await read({ path: r.path, file: r.path, git: r.source })).text };
  });

  const heads = new Map<string, { at: number; model: Promise<ParsedContract | undefined> }>();
  return {
    async headAdvice(uri, model) {
      const path = uriToPath(uri);
      if (path === undefined) return [];
      let head = heads.get(uri);
      if (!head || Date.now() - head.at > HEAD_TTL_MS) {
        // Outside a repository, or a file not committed yet: no advice, not an error.
        head = { at: Date.now(), model: loadVersion({ path, file: path, git: { ref: 'HEAD' } }).then((v) => v.model, () => undefined) };
        heads.set(uri, head);
        if (heads.size > 200) heads.delete(heads.keys().next().value!);
      }
      const before = await head.model;
      return before ? versionAdviceDiagnostics(diffContracts(before, model, await policyFor(uri)), model, sourceLabel({ ref: 'HEAD' })) : [];
    },
  };
}

/**
 * The custom requests and notifications between the VS Code client and the language server, beyond
 * LSP: the dry run (docs/dry-run.md), the semantic diff (docs/semantic-diff.md), conformance (docs/conformance.md) and prove (docs/prove.md). Both sides import these names and
 * shapes, so the two cannot drift. URIs are strings; ranges are LSP ranges.
 */
import type { Diagnostic } from 'vscode-languageserver-protocol';
import type { Range, ViewLocation, ViewNode, ViewNodeKind } from '../service/index.ts';

export type { ViewLocation, ViewNode, ViewNodeKind };

/** Client → server: the snapshots found for a contract (by the naming rule in docs/dry-run.md). */
export const LIST_SNAPSHOTS = 'agentsMd/listSnapshots';
export interface ListSnapshotsParams {
  readonly uri: string;
}
export interface SnapshotChoice {
  readonly uri: string;
  /** The snapshot's file name relative to the contract's folder. */
  readonly label: string;
  /** Each query's id and what it is about: its description, else its query text. */
  readonly queries: readonly { readonly id: string; readonly about: string }[];
  /** Why the snapshot cannot run (it does not parse, it names another contract), in the user's language. */
  readonly problem?: string;
}
export interface ListSnapshotsResult {
  readonly snapshots: readonly SnapshotChoice[];
}

/** Client → server: whether an open document is a contract, a partial contract or a free-form file (docs/contract-format.md). */
export const DOCUMENT_KIND = 'agentsMd/documentKind';
export interface DocumentKindParams {
  readonly uri: string;
}
export interface DocumentKindResult {
  readonly kind: 'contract' | 'partial' | 'freeform';
}

/** Client → server: the text of a new contract (docs/vscode.md, "Getting started"), complete and linting clean. */
export const NEW_CONTRACT = 'agentsMd/newContract';
export interface NewContractParams {
  /** The agent's name as the user typed it. */
  readonly name: string;
  readonly kind: 'read-only' | 'acting';
}
export interface NewContractResult {
  /** The name as the contract writes it (snake_case), for the folder. */
  readonly name: string;
  readonly text: string;
}

/** Client → server: a snapshot skeleton for a contract (open, or its text sent along), one query per FAILURE_PROTOCOL entry. */
export const NEW_SNAPSHOT = 'agentsMd/newSnapshot';
export interface NewSnapshotParams {
  readonly uri: string;
  /** The contract's text, for a contract the server has not seen opened yet (picked from the workspace). */
  readonly text?: string;
}
export interface NewSnapshotResult {
  readonly text: string;
}

/** Client → server: a rule's own text in the user's language (docs/rules.md), for a rule code's link. */
export const RULE_DOC = 'agentsMd/ruleDoc';
export interface RuleDocParams {
  readonly code: string;
}
export interface RuleDocResult {
  /** Markdown; null for an unknown code. */
  readonly markdown: string | null;
}

/** Client → server: dry-runs the contract on a snapshot (one query, or all of them). Cancellable. */
export const RUN_AGENT = 'agentsMd/runAgent';
export interface RunAgentParams {
  readonly uri: string;
  readonly snapshotUri: string;
  /** Run only this query; all of the snapshot's queries when omitted. */
  readonly queryId?: string;
  /** Chosen by the client; names the progress notifications and human-decision requests of this run. */
  readonly runId: string;
  /** The model endpoint's API key from the client's secret storage, for this run only; never stored. */
  readonly apiKey?: string;
  /** False in an untrusted workspace: only the scripted model may run. */
  readonly trusted: boolean;
}
export interface RunAgentResult {
  readonly runId: string;
  /** One line, in the user's language, e.g. "2 of 3 queries as expected". */
  readonly summary: string;
  readonly ok: boolean;
  /** The trace files written under `.agents-md/runs/`. */
  readonly traceUris: readonly string[];
  readonly tree: readonly ViewNode[];
}

/** Server → client: the run's tree so far, after each event. */
export const RUN_PROGRESS = 'agentsMd/runProgress';
export interface RunProgressParams {
  readonly runId: string;
  /** What the run is doing now, for the progress notification. */
  readonly message: string;
  readonly tree: readonly ViewNode[];
}

/** Server → client: a HUMAN_IN_THE_LOOP gate paused the run; the user approves or rejects. */
export const HUMAN_DECISION = 'agentsMd/humanDecision';
export interface HumanDecisionParams {
  readonly runId: string;
  /** The question, in the user's language (scenario and what the agent wants to do). */
  readonly message: string;
  /** The HITL row that asks for the decision. */
  readonly location?: ViewLocation;
}
export interface HumanDecisionResult {
  /** `timeout`: nobody answers within the scenario's SLA (what a query expecting HUMAN_TIMEOUT needs). */
  readonly decision: 'approve' | 'reject' | 'timeout';
  /** Who decided (recorded in the trace as `decided_by`). */
  readonly decidedBy?: string;
}

/** Where the "before" side of a semantic diff comes from. */
export type DiffAgainst =
  | { readonly kind: 'ref'; readonly ref: string }
  | { readonly kind: 'file'; readonly uri: string }
  | { readonly kind: 'index' };

/** Client → server: the semantic diff of a contract against another version. */
export const SEMANTIC_DIFF = 'agentsMd/semanticDiff';
export interface SemanticDiffParams {
  readonly uri: string;
  readonly against: DiffAgainst;
}
export interface SemanticDiffResult {
  /** One line, in the user's language: counts by impact and the version advice. */
  readonly summary: string;
  readonly tree: readonly ViewNode[];
  /** The "before" document: a file URI, or an `agents-md-rev:` URI whose text `REVISION_TEXT` returns. */
  readonly beforeUri: string;
}

/** Client → server: the text of an `agents-md-rev:` URI (a contract at a git ref or in the index). */
export const REVISION_TEXT = 'agentsMd/revisionText';
export interface RevisionTextParams {
  readonly uri: string;
}
export interface RevisionTextResult {
  readonly text: string;
}

/** Client → server: a run as a picture (docs/dry-run.md, "A run as a picture"): the page of a trace, beside another run of it. */
export const RUN_PAGE = 'agentsMd/runPage';
export interface RunPageParams {
  readonly traceUri: string;
  /** The run shown beside it; when omitted, the previous run of the same query, if any. */
  readonly besideUri?: string;
  /** Fresh per page: the page's Content-Security-Policy allows only its own style and script. */
  readonly nonce: string;
}
export interface RunPageResult {
  readonly title: string;
  readonly html: string;
  /** Where each clause the page names is (JSON Pointer → location), for its clicks. */
  readonly clauses: Readonly<Record<string, ViewLocation>>;
  /** The trace shown beside, if any. */
  readonly besideUri?: string;
}

/** Client → server: forks a run at an event (as `agents-md trace fork`), going on with a decision. */
export const FORK_RUN = 'agentsMd/forkRun';
export interface ForkRunParams {
  readonly traceUri: string;
  readonly at: string;
  readonly decision?: 'approve' | 'reject';
}
export interface ForkRunResult {
  /** The fork's trace. */
  readonly traceUri: string;
  /** One line in the user's language: the fork's outcome. */
  readonly summary: string;
}

/** Client → server: the Contracts overview (docs/workspace.md, "In the editor"): the workspace report's page, as `agents-md report --format html` makes it, with links. */
export const CONTRACTS_OVERVIEW = 'agentsMd/contractsOverview';
export interface ContractsOverviewParams {
  /** Fresh per page: the page's Content-Security-Policy allows only its own style and script. */
  readonly nonce: string;
}
export interface ContractsOverviewResult {
  readonly title: string;
  readonly html: string;
  /** The contracts on the page (URIs): the only files its links may open. */
  readonly contracts: readonly string[];
}

/**
 * Client → server: the open contract graded against production traces (docs/conformance.md,
 * "In the editor"). With `traces` the server reads and grades them and keeps the grades for the
 * document; without it, the kept grades placed on the document's current text (after edits), or
 * null when it was never checked. Cancellable.
 */
export const CONFORMANCE = 'agentsMd/conformance';
export interface ConformanceParams {
  readonly uri: string;
  /** A trace file or folder: an absolute path or a `file:` URI. */
  readonly traces?: string;
}
export interface ConformanceClauseView {
  /** The clause's JSON Pointer into the contract data. */
  readonly pointer: string;
  readonly range: Range;
  /** The clause in the user's language ("approval of `create_approval_draft`"). */
  readonly label: string;
  readonly grade: 'exercised' | 'never' | 'violated';
  readonly violations: number;
  /** The code lens text: grade and verdict ("exercised 12× · attested"). */
  readonly lens: string;
  /** The qualifications, when the verdict is qualified ('' otherwise). */
  readonly detail: string;
}
export interface ConformanceViewResult {
  /** The trace file or folder graded, as a path. */
  readonly traces: string;
  /** One line: runs, spans, violations, clauses exercised. */
  readonly summary: string;
  readonly clauses: readonly ConformanceClauseView[];
  /** One per violated clause (source `agents-md conformance`), each run and span as related information. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Client → server: answered once the server has nothing under way that could still send or change
 * diagnostics (docs/performance.md, "Knowing the server has settled"); a test's way to know that
 * nothing more is coming.
 */
export const SETTLED = 'agentsMd/settled';
export type SettledParams = Record<string, never>;
export type SettledResult = Record<string, never>;

/**
 * Client → server: the open contract proved against bypasses (docs/prove.md, "In the editor").
 * With `run` the server proves the document's current text and keeps the findings; without it, the
 * kept findings placed on the current text (a finding whose clause changed is left out until the
 * next proof), or null when it was never proved. Cancellable.
 */
export const PROVE = 'agentsMd/prove';
export interface ProveParams {
  readonly uri: string;
  readonly run?: boolean;
}
export interface ProveViewResult {
  /** One line in the user's language: how many findings. */
  readonly summary: string;
  /** The document version proved. */
  readonly version: number;
  /** One per finding (source `agents-md prove`, code the obligation), the witness as related information. */
  readonly diagnostics: readonly Diagnostic[];
}

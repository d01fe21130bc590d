/**
 * The AGENTS.md contract language service's front door: `createLanguageService()`, the functions
 * of whole contracts (diff, dry run, trace, report, export, conformance) and their types, with no
 * dependency on VS Code or LSP. The CLI, the language server and tests are thin adapters over it
 * (ARCHITECTURE.md). File access comes through the injected `FileSystem` of a `Workspace`. The
 * utilities hosts share with the service (caches, hashes, display width, decoding, messages and
 * their localisation, the rule catalogue, the diff's wording and policy, the ReDoS analyzer) are
 * the second entry, `host.ts`.
 */
import type { ContractDiagnostic } from './types.ts';
import type { Finding, SectionModel } from './model/types.ts';
import { parseContract, parseContractSteps, type ParsedContract } from './parse/parseContract.ts';
import { validateContract, validateSteps } from './validate/validate.ts';
import { decodeText } from './text/decode.ts';
import { Workspace, type ConfigProblem, type WorkspaceOptions } from './workspace/resolveFacts.ts';
import { EMPTY_FACTS, type RulePreset, type WorkspaceFacts } from './validate/facts.ts';
import { NO_FILES } from './workspace/fileSystem.ts';
import { LineIndex } from './text/lineIndex.ts';
import type { RegexAnalyzer } from './workspace/regexAnalysis.ts';
import type { TokenCounter } from './providers/tokens.ts';
import { DOCUMENT_FEATURES, type DocumentFeatures } from './features/service.ts';

export type { ContractDiagnostic, Position, Range, Severity, RelatedLocation } from './types.ts';
export type { ParsedContract } from './parse/parseContract.ts';
export type { FileSystem } from './workspace/fileSystem.ts';
export type { WorkspaceFacts, ResolvedConfig, RulePreset } from './validate/facts.ts';
export type { ConfigProblem } from './workspace/resolveFacts.ts';
export type { ContractSummary, SummaryStore } from './workspace/contractSummary.ts';
export { Workspace, CONFIG_NAMES, FEW_UNREAD } from './workspace/resolveFacts.ts';
export type { Rule, RuleMeta } from './validate/rule.ts';
export { parseContract } from './parse/parseContract.ts';
export { contractLikeSection } from './model/recognition.ts';
export { validateContract } from './validate/validate.ts';
export type { RegexAnalyzer } from './workspace/regexAnalysis.ts';
export { SECTIONS } from './schema/sections.ts';
// Every owner of a message set registered, so that `format()` knows all of them.
import './messageSets.ts';
export type { Lang } from './l10n/lang.ts';
export { locate } from './model/locate.ts';

/** Default size above which a file is not analysed (bytes). */
export const DEFAULT_MAX_FILE_BYTES = 4 * 1024 * 1024;

/** Options of the language service. */
export interface LanguageServiceOptions extends Partial<WorkspaceOptions> {
  /** Files larger than this many bytes are reported (`file-too-large`) and not analysed. */
  readonly maxFileBytes?: number;
}

/** The result of linting one file. */
export interface LintResult {
  readonly uri: string;
  readonly model?: ParsedContract;
  readonly diagnostics: readonly ContractDiagnostic[];
  /** Problems in the configuration that applies to the file (the CLI exits 2 on these). */
  readonly configProblems: readonly ConfigProblem[];
}

/** Options of `lintBytes`. */
export interface LintOptions {
  /** The rule preset when no config file chooses one (the editor's setting). */
  readonly preset?: RulePreset;
  /** The size limit in bytes when it is not the service's (a per-resource setting). */
  readonly maxBytes?: number;
  /** How the rules count tokens when not here (the language server: its token process). */
  readonly countTokens?: TokenCounter;
}

/**
 * The language service, the one front door of the adapters (ARCHITECTURE.md, entry points). Every
 * method is safe on any input: it returns, it does not throw. The editor features take
 * `(document, position?, options, token)` (features/service.ts).
 */
export interface LanguageService extends DocumentFeatures {
  readonly workspace: Workspace;
  /**
   * Parses a document, reusing the unchanged sections of the last model parsed for the same
   * URI (the incremental edit path). Pure apart from that per-URI cache.
   */
  parse(uri: string, text: string): ParsedContract;
  /**
   * `parse` in steps: yields after each section it builds. The sections of a parse abandoned half
   * way are kept for the URI's next parse (docs/performance.md, "The first seconds after opening").
   */
  parseSteps(uri: string, text: string): Generator<void, ParsedContract>;
  /**
   * Gathers what validation needs from the workspace (config, other contracts, resources, ReDoS
   * verdicts); `analyzeRegex` replaces the service's analyzer for this call (`false`: no ReDoS analysis).
   */
  facts(uri: string, model: ParsedContract, analyzeRegex?: RegexAnalyzer | false): Promise<WorkspaceFacts & { configProblems: readonly ConfigProblem[] }>;
  /** Validates a parsed document against facts gathered before. Synchronous. */
  validate(model: ParsedContract, facts?: WorkspaceFacts, fileFindings?: readonly Finding[]): ContractDiagnostic[];
  /** `validate` in steps: yields after each rule; the rules run so far are kept for the next version. */
  validateSteps(model: ParsedContract, facts?: WorkspaceFacts): Generator<void, ContractDiagnostic[]>;
  /**
   * Decodes, parses, gathers facts and validates a file's bytes in one call. `size` is the file's
   * size when the bytes were not read because it is over the limit (docs/robustness.md).
   */
  lintBytes(uri: string, bytes: Uint8Array, size?: number, options?: LintOptions): Promise<LintResult>;
  /** Drops the cached model of a closed document. */
  forget(uri: string): void;
}

/** Creates a language service over a workspace (none: the document is seen on its own). */
export function createLanguageService(options: LanguageServiceOptions = {}): LanguageService {
  const workspace = new Workspace({ fs: options.fs ?? NO_FILES, roots: options.roots ?? [], ...(options.analyzeRegex ? { analyzeRegex: options.analyzeRegex } : {}), ...(options.yieldTurn ? { yieldTurn: options.yieldTurn } : {}), ...(options.summaryStore ? { summaryStore: options.summaryStore } : {}) });
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const last = new Map<string, ParsedContract>();
  /** Sections built by a stepwise parse not finished (abandoned for a newer version). */
  const spare = new Map<string, SectionModel[]>();
  const service: LanguageService = {
    ...DOCUMENT_FEATURES,
    workspace,
    parse(uri, text) {
      const model = parseContract(text, last.get(uri), spare.get(uri));
      spare.delete(uri);
      last.set(uri, model);
      return model;
    },
    *parseSteps(uri, text) {
      const steps = parseContractSteps(text, last.get(uri), spare.get(uri));
      const built = [...(spare.get(uri) ?? [])];
      spare.set(uri, built);
      for (let r = steps.next(); ; r = steps.next()) {
        if (r.done) {
          if (spare.get(uri) === built) spare.delete(uri);
          last.set(uri, r.value);
          return r.value;
        }
        built.push(r.value);
        yield;
      }
    },
    facts: (uri, model, analyzeRegex) => workspace.facts(uri, model, analyzeRegex),
    validate: (model, facts = EMPTY_FACTS, fileFindings = []) => validateContract(model, facts, fileFindings),
    validateSteps: (model, facts = EMPTY_FACTS) => validateSteps(model, facts),
    async lintBytes(uri, bytes, size = bytes.length, options = {}) {
      const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
      const empty = parseContract('');
      const limit = options.maxBytes ?? maxBytes;
      if (size > limit) {
        const d = validateContract(empty, EMPTY_FACTS, [{ code: 'file-too-large', range: zero, args: { size, limit } }]);
        return { uri, diagnostics: d, configProblems: [] };
      }
      const decoded = decodeText(bytes);
      if (decoded.binary) {
        return { uri, diagnostics: validateContract(empty, EMPTY_FACTS, [{ code: 'file-not-text', range: zero }]), configProblems: [] };
      }
      const fileFindings: Finding[] = [];
      if (decoded.utf16) fileFindings.push({ code: 'invalid-utf8', range: zero, variant: 'utf16' });
      if (decoded.invalidUtf8At !== undefined) {
        const at = new LineIndex(decoded.text).positionAt(decoded.invalidUtf8At);
        fileFindings.push({ code: 'invalid-utf8', range: { start: at, end: { line: at.line, character: at.character + 1 } } });
      }
      const model = parseContract(decoded.text);
      const found = await workspace.facts(uri, model);
      // A config file's `extends` wins over the caller's preset (docs/rules.md, "Presets").
      const preset = options.preset && !found.config.preset ? { ...found, config: { ...found.config, preset: options.preset } } : found;
      const facts = options.countTokens ? { ...preset, countTokens: options.countTokens } : preset;
      return { uri, model, diagnostics: validateContract(model, facts, fileFindings), configProblems: facts.configProblems };
    },
    forget(uri) {
      last.delete(uri);
      spare.delete(uri);
    },
  };
  return service;
}

export { NOT_CANCELLED, type CancellationToken, type CodeActionOptions, type ContractDocument, type DocumentFeatures, type FeatureOptions, type FixAllOptions, type ReferencesOptions, type RenameOptions } from './features/service.ts';
export { schemaDocs, ruleDocs } from './features/hover.ts';
export type { LensEntry } from './features/toolCost.ts';
export { applyEdits, editsBetween, MAX_FIX_PASSES, type DiagnosticRef } from './features/codeActions.ts';
export { sectionSkeleton } from './features/snippets.ts';
export { fence, ruleMarkdown, ruleSection } from './features/ruleDoc.ts';
export { AGENT_KINDS, agentName, contractSkeleton, convertToContract, newContract, workspaceDigests, type AgentKind, type SkeletonOptions } from './features/scaffold.ts';
export { snapshotSkeleton, type SnapshotSkeletonOptions } from './run/snapshot/snapshotSkeleton.ts';
export { nameAt } from './features/navigation.ts';
export { crossContractPlaces, type SharedName } from './features/crossContract.ts';
export { highlights, HIGHLIGHT_TYPES, type Highlight, type HighlightType } from './features/highlights.ts';
export type * from './features/types.ts';
export { diffContracts } from './diff/diffContracts.ts';
export type { DiffPolicy } from './diff/policy.ts';
export { versionAdviceDiagnostics } from './diff/diagnostics.ts';
export type * from './diff/types.ts';
export { diffTree, type DiffTreeOptions } from './features/diffTree.ts';
export * from './run/index.ts';
export { traceTree, type TraceRun, type TraceTreeOptions } from './features/traceTree.ts';
export type { ModelSettings } from './validate/facts.ts';
export type { ViewNode, ViewNodeKind, ViewLocation } from './features/viewNode.ts';
export { buildReport, proveSummary, withProduction, withProve, type ProductionSummary, type ProveSummary, CLAUSES, type WorkspaceReport, type ContractRow, type ReportContractInput, type ReportSnapshotInput, type ClauseId } from './report/build.ts';
export { reportText, reportMarkdown, reportJson } from './report/render.ts';
export { reportHtml, type ReportHtmlOptions } from './report/html.ts';
export * from './conformance/index.ts';
export type { ContractDigest } from './model/digest.ts';
export { workspaceSymbols, type WorkspaceSymbol } from './workspace/symbols.ts';
export { PROFILES, TARGETS, profileOf, type ProviderProfile, type Target } from './providers/profiles.ts';
export { EXPORT_TARGETS, exportContract, exportedSystemPrompt, toolDescription, type ExportTarget } from './export/exports.ts';
export { requestCost, type RequestCost } from './export/cost.ts';
export type { TokenCounter } from './providers/tokens.ts';
export { cedarExport, hitlApproval, toolApproval, rolesOf, type CedarExport, type ForbiddenTool, type HumanClause } from './export/cedar.ts';
export type { CedarType } from './export/cedarExpr.ts';
export { proveContract, proveResult, proveText, replayWitness, witnessData, witnessSnapshot, OBLIGATIONS, WITNESS_QUERY, type Obligation, type ProveFinding, type ProveMessage, type ProveSolver, type SmtAnswer, type SmtQuery, type SmtValue, type Witness } from './prove/index.ts';
export { resourceValues } from './run/engine/resourceValues.ts';
export { mcpDrift } from './export/mcpDrift.ts';

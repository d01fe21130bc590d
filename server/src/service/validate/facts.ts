import type { Range, Severity } from '../types.ts';
import type { ContractDigest } from '../model/digest.ts';
import type { TokenCounter } from '../providers/tokens.ts';

/**
 * The dry run's model settings (the LLM, not the contract model; docs/model-providers.md:
 * scripted by default, or an OpenAI-compatible endpoint), as written in the configuration file's `model`
 * property, a VS Code setting or CLI flags. Never an API key: only the name of the environment
 * variable that holds it (see docs/model-providers.md).
 */
export interface ModelSettings {
  readonly provider?: 'scripted' | 'openai';
  /** `http(s)://host[:port]/path` up to the API version; requests go to `{baseUrl}/chat/completions`. */
  readonly baseUrl?: string;
  readonly model?: string;
  /** Environment variable holding the API key; must start with `AGENTS_MD_`. */
  readonly apiKeyEnv?: string;
  /** Per-request timeout, in milliseconds. */
  readonly timeoutMs?: number;
  /** Retries after a network error, timeout, HTTP 429 or 5xx. */
  readonly retries?: number;
}

/** `recommended` (the default): findings worth acting on; `strict` adds style and quality advice. */
export type RulePreset = 'recommended' | 'strict';

/** A rule's setting in configuration: a severity, `off`, or a severity with options. */
export type RuleSetting = Severity | 'off' | { readonly severity?: Severity | 'off'; readonly options?: Readonly<Record<string, unknown>> };

/** The configuration (schemas/config.schema.json) after `extends` and defaults are applied. */
export interface ResolvedConfig {
  /** The rule preset (`extends: strict`); undefined when no config file chose one (docs/rules.md, "Presets"). */
  readonly preset?: RulePreset;
  readonly rules: Readonly<Record<string, RuleSetting>>;
  readonly contracts: { readonly include: readonly string[]; readonly exclude: readonly string[] };
  readonly sharedPools: readonly { readonly name: string; readonly description?: string; readonly metadata?: readonly string[] }[];
  readonly roles: readonly string[];
  /** Known compliance clause ids; undefined when the workspace keeps no list (the rule then stays quiet). */
  readonly complianceClauses?: readonly string[];
  readonly overrideReasons: readonly string[];
  readonly resourceRoots: readonly string[];
  readonly verbs: readonly string[];
  /** The providers the contract's tools are sent to (`targets`, docs/providers.md); rule `provider-schema` checks against their profiles. */
  readonly targets?: readonly string[];
  /** The semantic diff's policy, as written (read with `diffPolicyOf`). */
  readonly diff?: unknown;
  /** The dry run's model, as written (merge and check with `resolveModelSettings`). */
  readonly model?: ModelSettings;
}

export const DEFAULT_CONFIG: ResolvedConfig = {
  rules: {},
  contracts: { include: ['**/AGENTS.md', '**/*.agents.md'], exclude: ['**/node_modules/**', '**/.git/**'] },
  sharedPools: [],
  roles: ['System', 'System Auto', 'Human'],
  overrideReasons: ['data_error', 'policy_change', 'user_request'],
  resourceRoots: ['configs/resources'],
  verbs: [],
};

/** A name declared outside the document: in another contract or in the configuration file. */
export interface ExternalName {
  readonly name: string;
  readonly uri: string;
  readonly range: Range;
}

/** What the workspace says about a resource a contract references. */
export type ResourceStatus =
  /** `sha256`: the file's, when the contract pins one (`resources[].sha256`); read only then. */
  | { readonly status: 'found'; readonly uri: string; readonly sha256?: string }
  | { readonly status: 'missing'; readonly tried: readonly string[] }
  /** The name leads outside the workspace folder: not looked up, never read (docs/robustness.md). */
  | { readonly status: 'outside' }
  /** `no-workspace`: the document is in no workspace folder; `too-large`: `size` bytes is over the hashing limit `limit`. */
  | { readonly status: 'unchecked'; readonly reason: 'no-workspace' }
  | { readonly status: 'unchecked'; readonly reason: 'too-large'; readonly size: number; readonly limit: number };

/** The ReDoS analysis of one intent pattern (recheck), if it ran. */
export interface RegexVerdict {
  readonly status: 'safe' | 'vulnerable' | 'unknown';
  readonly complexity?: 'exponential' | 'polynomial';
  /** An attack string that shows the blow-up, abbreviated. */
  readonly attack?: string;
}

/**
 * Everything validation needs from outside the document, gathered asynchronously beforehand
 * (workspace/resolveFacts.ts) so that validation itself stays synchronous and pure.
 */
export interface WorkspaceFacts {
  readonly config: ResolvedConfig;
  readonly configUri?: string;
  /** Pools declared by other contracts in the workspace, and `sharedPools` in the config. */
  readonly externalPools: ReadonlyMap<string, readonly ExternalName[]>;
  /** Agents (identity names) declared by other contracts: may appear as roles. */
  readonly externalAgents: ReadonlyMap<string, readonly ExternalName[]>;
  /** Resource references as written (`vendor_whitelist.csv`) → what the workspace has. */
  readonly resources: ReadonlyMap<string, ResourceStatus>;
  /** Intent pattern source → ReDoS verdict. Patterns without one were not analysed. */
  readonly regex: ReadonlyMap<string, RegexVerdict>;
  /** The other contracts of the workspace, for the cross-contract rules (docs/workspace.md). */
  readonly contracts?: readonly ContractDigest[];
  /**
   * The other contracts are still being read (the first diagnostics of a large workspace do not
   * wait for them): the rules that need the workspace wait too, rather than judge without it.
   */
  readonly workspacePending?: boolean;
  /** How tokens are counted (the language server counts in a process of its own); here when omitted. */
  readonly countTokens?: TokenCounter;
}

/** Facts for a document seen alone: default configuration, nothing known outside it. */
export const EMPTY_FACTS: WorkspaceFacts = {
  config: DEFAULT_CONFIG,
  externalPools: new Map(),
  externalAgents: new Map(),
  resources: new Map(),
  regex: new Map(),
};

import { URI, Utils } from 'vscode-uri';
import { parse as parseYaml } from 'yaml';
import type { FileSystem } from './fileSystem.ts';
import { DEFAULT_CONFIG, type ExternalName, type RegexVerdict, type ResolvedConfig, type ResourceStatus, type WorkspaceFacts } from '../validate/facts.ts';
import { analysedPatterns, type RegexAnalyzer } from './regexAnalysis.ts';
import { ruleOff } from '../validate/validate.ts';
import { parseContract, type ParsedContract } from '../parse/parseContract.ts';
import { referencesOf } from '../model/references.ts';
import { unquote } from '../model/names.ts';
import type { ContractDigest } from '../model/digest.ts';
import { summarise, type ContractSummary, type SummaryStore } from './contractSummary.ts';
import { decodeText } from '../text/decode.ts';
import { validateConfig, type ConfigMessage } from './configSchema.ts';
import { format } from '../l10n/format.ts';
import { sha256Hex } from '../util/sha256.ts';
import { Lru } from '../util/lru.ts';

/** Names of the configuration file, in the order they are looked for in each folder. */
export const CONFIG_NAMES = ['.agents-md.json', '.agents-md.yaml', '.agents-md.yml'] as const;

/**
 * A problem with a configuration file: the CLI exits 2 on these, the server shows them in the
 * file. `message` is English; `messageId` and `args` give it in another language (`format`).
 */
export interface ConfigProblem extends ConfigMessage {
  readonly uri: string;
  readonly message: string;
}

function configProblem(uri: string, messageId: string, args: Readonly<Record<string, string | number>> = {}): ConfigProblem {
  return { uri, messageId, args, message: format(messageId, args) };
}

/** Options of a workspace: its folders (multi-root), file access and regex analyzer. */
export interface WorkspaceOptions {
  readonly fs: FileSystem;
  /** Workspace folder URIs. Empty for a file opened on its own. */
  readonly roots: readonly string[];
  readonly analyzeRegex?: RegexAnalyzer;
  /** Largest resource hashed, in bytes (default 64 MiB); larger ones are reported unchecked. */
  readonly maxResourceBytes?: number;
  /** Entries per cache (contract summaries, configurations, hashes, file stats); default `SUMMARY_CACHE_SIZE` for summaries, `WORKSPACE_CACHE_SIZE` for the others. */
  readonly cacheSize?: number;
  /**
   * Lets the host answer what came in before a summary is made (the server: one turn of its event
   * loop; file reads are synchronous, so awaiting them alone yields to nothing). A summary seeded
   * meanwhile (by a worker) is taken rather than made again.
   */
  readonly yieldTurn?: () => Promise<void>;
  /** Summaries kept from an earlier run (the CLI's disk cache): one found there is not made again. */
  readonly summaryStore?: SummaryStore;
}

const ZERO = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** More other contracts than this not read yet, and a document's first diagnostics do not wait for them (`configFacts`). */
export const FEW_UNREAD = 8;

/** Adds a name declared elsewhere to its list. */
function add(m: Map<string, ExternalName[]>, n: ExternalName): void {
  const list = m.get(n.name);
  if (list) list.push(n);
  else m.set(n.name, [n]);
}

/** The configuration's shared pools, as pools declared elsewhere (in the configuration file). */
function configPools(config: ResolvedConfig, configUri: string | undefined): Map<string, ExternalName[]> {
  const pools = new Map<string, ExternalName[]>();
  for (const p of config.sharedPools) add(pools, { name: p.name, uri: configUri ?? '', range: ZERO });
  return pools;
}

/** A summary another thread is making, awaited here. */
interface Waiting {
  readonly promise: Promise<ContractSummary>;
  readonly resolve: (summary: Promise<ContractSummary>) => void;
}

/** Entries per cache of a `Workspace` (configurations, hashes, file stats). */
export const WORKSPACE_CACHE_SIZE = 4096;

/**
 * Contract summaries kept (each a digest of a few KB): as many as a walk lists contracts (10,000,
 * `WALK_LIMITS.files`). Every lint reads every other contract's summary in the same order, and an
 * LRU cache smaller than that list misses on every read of such a scan: at 5,000 contracts with
 * 4,096 entries each lint parsed every other contract again, and a workspace pass never ended.
 */
export const SUMMARY_CACHE_SIZE = 10_000;

/**
 * The workspace as validation sees it: configuration per folder, the pools and agents declared
 * by every contract, resource files and their hashes. Caches what it reads; `invalidate(uri)`
 * drops what depends on a changed file (the language server calls it on file events).
 */
export class Workspace {
  // Bounded (ARCHITECTURE.md, invariants) yet larger than a workspace's contracts and resources,
  // so that gathering facts for one contract does not evict what the next one needs.
  private readonly summaries: Lru<string, Promise<ContractSummary>>;
  /** The summaries made so far (what `indexedSummary` answers from without waiting). */
  private readonly made: Lru<string, ContractSummary>;
  private readonly configs: Lru<string, Promise<{ config: ResolvedConfig; uri?: string; problems: ConfigProblem[] }>>;
  private contractList: Promise<string[]> | undefined;
  private listed: readonly string[] = [];
  private readonly hashes: Lru<string, Promise<string | undefined>>;
  private readonly stats: Lru<string, ReturnType<FileSystem['stat']>>;

  constructor(readonly options: WorkspaceOptions) {
    const size = options.cacheSize ?? WORKSPACE_CACHE_SIZE;
    this.summaries = new Lru(options.cacheSize ?? SUMMARY_CACHE_SIZE);
    this.made = new Lru(options.cacheSize ?? SUMMARY_CACHE_SIZE);
    this.configs = new Lru(size);
    this.hashes = new Lru(size);
    this.stats = new Lru(size);
  }

  /**
   * Forgets what was derived from `uri` (a contract, a config file or a resource). `changed`:
   * its content changed; `structure`: it was created or deleted, so file lists and lookups are
   * stale too.
   */
  invalidate(uri: string, kind: 'changed' | 'structure' = 'structure'): void {
    this.summaries.delete(uri);
    this.made.delete(uri);
    this.hashes.delete(uri);
    this.stats.delete(uri);
    if (CONFIG_NAMES.some((n) => uri.endsWith('/' + n))) this.configs.clear();
    if (kind === 'structure') {
      this.contractList = undefined;
      this.configs.clear();
      this.stats.clear();
    }
  }

  /** `fs.stat`, cached until the file is invalidated (resource lookups run on every validation). */
  private stat(uri: string): ReturnType<FileSystem['stat']> {
    let hit = this.stats.get(uri);
    if (!hit) {
      hit = this.options.fs.stat(uri);
      this.stats.set(uri, hit);
    }
    return hit;
  }

  /** `uri` relative to its root folder, for messages; the URI itself outside every root. */
  pathOf(uri: string): string {
    const root = this.rootOf(uri);
    return root ? relative(URI.parse(root), URI.parse(uri)) : uri;
  }

  /** The root folder that contains `uri`, if any. */
  rootOf(uri: string): string | undefined {
    return this.options.roots.filter((r) => uri.startsWith(r.endsWith('/') ? r : r + '/')).sort((a, b) => b.length - a.length)[0];
  }

  /**
   * The configuration that applies to a document: the nearest config file in its folder or
   * an ancestor up to its workspace root, with `extends` followed (at most 5 levels) and
   * defaults applied. Problems (unreadable file, invalid YAML/JSON, schema errors) are returned.
   */
  configFor(uri: string): Promise<{ config: ResolvedConfig; uri?: string; problems: ConfigProblem[] }> {
    const dir = Utils.dirname(URI.parse(uri)).toString();
    let hit = this.configs.get(dir);
    if (!hit) {
      hit = this.findConfig(dir, this.rootOf(uri));
      this.configs.set(dir, hit);
    }
    return hit;
  }

  private async findConfig(dir: string, root: string | undefined): Promise<{ config: ResolvedConfig; uri?: string; problems: ConfigProblem[] }> {
    let folder = URI.parse(dir);
    for (let depth = 0; depth < 64; depth++) {
      for (const name of CONFIG_NAMES) {
        const candidate = Utils.joinPath(folder, name).toString();
        const st = await this.options.fs.stat(candidate);
        if (st?.type === 'file') {
          const problems: ConfigProblem[] = [];
          const raw = await this.loadConfig(candidate, problems, 0);
          // `contracts` is merged key by key: a file that sets only `include` keeps the default `exclude`.
          const contracts = { ...DEFAULT_CONFIG.contracts, ...(raw['contracts'] && typeof raw['contracts'] === 'object' ? raw['contracts'] : {}) };
          return { config: { ...DEFAULT_CONFIG, ...raw, contracts } as ResolvedConfig, uri: candidate, problems };
        }
      }
      if (!root || folder.toString() === URI.parse(root).toString()) break;
      const parent = Utils.dirname(folder);
      if (parent.toString() === folder.toString()) break;
      folder = parent;
    }
    return { config: DEFAULT_CONFIG, problems: [] };
  }

  private async loadConfig(uri: string, problems: ConfigProblem[], depth: number): Promise<Record<string, unknown>> {
    const bytes = await this.options.fs.readFile(uri);
    if (!bytes) {
      problems.push(configProblem(uri, 'config.unreadable'));
      return {};
    }
    let data: unknown;
    try {
      data = parseYaml(decodeText(bytes).text, { maxAliasCount: 100 });
    } catch (e) {
      problems.push(configProblem(uri, uri.endsWith('.json') ? 'config.invalidJson' : 'config.invalidYaml', { detail: String((e as Error).message).split('\n')[0]! }));
      return {};
    }
    if (data === null || data === undefined) return {};
    for (const p of validateConfig(data)) problems.push(configProblem(uri, p.messageId, p.args));
    if (typeof data !== 'object' || Array.isArray(data)) return {};
    const own = data as Record<string, unknown>;
    // `extends: strict` (or `recommended`) picks a rule preset rather than a file (docs/rules.md, "Presets").
    if (own['extends'] === 'strict' || own['extends'] === 'recommended') {
      const { extends: preset, ...rest } = own;
      return { ...rest, preset };
    }
    if (typeof own['extends'] === 'string' && depth < 5) {
      const base = await this.loadConfig(Utils.joinPath(Utils.dirname(URI.parse(uri)), own['extends']).toString(), problems, depth + 1);
      const rules = { ...((base['rules'] as object) ?? {}), ...((own['rules'] as object) ?? {}) };
      return { ...base, ...own, rules };
    }
    return own;
  }

  /**
   * The contracts as last listed, kept when the list is invalidated: what a deleted folder took
   * with it is known after it went (without reading the disk).
   */
  lastListed(): readonly string[] {
    return this.listed;
  }

  /**
   * Every contract of the workspace: each root's files matching the `contracts` globs of the
   * configuration at that root. The root's, whichever document asks first: a nested config file
   * (samples/.agents-md.json) configures its contracts, not what the workspace holds.
   */
  contractUris(): Promise<string[]> {
    this.contractList ??= (async () => {
      const all = await Promise.all(
        this.options.roots.map(async (r) => {
          const { config } = await this.configFor(`${r.replace(/\/$/, '')}/AGENTS.md`);
          return this.options.fs.findFiles(r, config.contracts.include, config.contracts.exclude);
        }),
      );
      return (this.listed = all.flat().sort());
    })();
    return this.contractList;
  }

  /**
   * The facts of `uri` from its configuration alone, marked `workspacePending`: what its first
   * diagnostics use while more than `FEW_UNREAD` other contracts are not read yet
   * (docs/performance.md, "Other contracts do not hold up the first diagnostics").
   */
  async configFacts(uri: string): Promise<WorkspaceFacts & { configProblems: readonly ConfigProblem[] }> {
    const { config, uri: configUri, problems } = await this.configFor(uri);
    return { config, ...(configUri ? { configUri } : {}), externalPools: configPools(config, configUri), externalAgents: new Map(), resources: new Map(), regex: new Map(), contracts: [], workspacePending: true, configProblems: problems };
  }

  /** How many contracts other than `uri` have no summary yet: what its facts would wait for. */
  async unsummarised(uri: string): Promise<number> {
    const others = await this.contractUris();
    return others.filter((u) => u !== uri && !this.made.get(u)).length;
  }

  /** Pools and agent names another contract declares (parsed once, cached until invalidated). */
  summaryOf(uri: string): Promise<ContractSummary> {
    const hit = this.summaries.get(uri);
    if (hit) return hit;
    // Being made by another thread: wait for it (made here after all if that thread stops first).
    if (this.expected?.has(uri)) {
      let waiting = this.expected.get(uri);
      if (!waiting) {
        let resolve!: (s: Promise<ContractSummary>) => void;
        waiting = { promise: new Promise<ContractSummary>((r) => (resolve = r)), resolve };
        this.expected.set(uri, waiting);
      }
      return waiting.promise;
    }
    return this.track(uri, this.makeSummary(uri));
  }

  /** Caches `summary` as the summary of `uri`, and keeps it for `indexedSummary` once made. */
  private track(uri: string, summary: Promise<ContractSummary>): Promise<ContractSummary> {
    this.summaries.set(uri, summary);
    // Not kept when the file changed (invalidated) or a summary was seeded while it was being made.
    void summary.then((made) => this.summaries.get(uri) === summary && this.made.set(uri, made));
    return summary;
  }

  private async makeSummary(uri: string): Promise<ContractSummary> {
    if (this.options.yieldTurn) {
      await this.options.yieldTurn();
      const seeded = this.made.get(uri);
      if (seeded) return seeded;
    }
    const store = this.options.summaryStore;
    const kept = store?.get(uri);
    if (kept) return kept;
    const bytes = await this.options.fs.readFile(uri);
    if (!bytes || bytes.length > 5 * 1024 * 1024) return { pools: [], agents: [] };
    try {
      const made = summarise(parseContract(decodeText(bytes).text), uri, this.pathOf(uri));
      store?.set(uri, made);
      return made;
    } catch {
      // Another file's problem must not break this one's checks; it is reported when linted itself.
      return { pools: [], agents: [] };
    }
  }

  /**
   * The summary of `uri` if it has been made (or seeded) already, without making it: what a
   * request answered during the first workspace pass reads (docs/workspace.md, "In the editor").
   */
  indexedSummary(uri: string): ContractSummary | undefined {
    return this.made.get(uri);
  }

  /**
   * Summaries another thread is making (the server's workspace pass): until they are seeded,
   * `summaryOf` waits for them rather than making them a second time. `settle()` when that
   * thread is done: a summary it did not seed is made here, when it is asked for (a summary
   * already awaited at once), never eagerly.
   */
  expectSummaries(uris: readonly string[]): { settle(): void } {
    const expected: Map<string, Waiting | undefined> = new Map(uris.filter((uri) => !this.summaries.get(uri)).map((uri) => [uri, undefined]));
    this.expected = expected;
    return {
      settle: () => {
        if (this.expected === expected) this.expected = undefined;
        for (const [uri, waiting] of expected) if (waiting) waiting.resolve(this.summaryOf(uri));
        expected.clear();
      },
    };
  }

  private expected: Map<string, Waiting | undefined> | undefined;

  /**
   * Summaries made elsewhere (another thread of the same run read the same files), kept as if
   * made here, so that they are not made again. Invalidation drops them as any other.
   */
  seedSummaries(entries: readonly (readonly [string, ContractSummary])[]): void {
    for (const [uri, summary] of entries) {
      this.expected?.get(uri)?.resolve(Promise.resolve(summary));
      this.expected?.delete(uri);
      this.summaries.set(uri, Promise.resolve(summary));
      this.made.set(uri, summary);
    }
  }

  private sha256(uri: string): Promise<string | undefined> {
    let hit = this.hashes.get(uri);
    if (!hit) {
      hit = (async () => {
        const bytes = await this.options.fs.readFile(uri);
        return bytes ? sha256Hex(bytes) : undefined;
      })();
      this.hashes.set(uri, hit);
    }
    return hit;
  }

  /**
   * Gathers the facts validation needs about `model` (the document at `uri`): configuration,
   * pools and agents declared elsewhere, resource files and their SHA-256, and ReDoS verdicts
   * for intent patterns. Never throws; what cannot be found is reported in the facts.
   */
  /** `analyze` overrides the workspace's analyzer for this call (a per-resource setting; `false`: none). */
  async facts(uri: string, model: ParsedContract, analyze: RegexAnalyzer | false | undefined = this.options.analyzeRegex): Promise<WorkspaceFacts & { configProblems: readonly ConfigProblem[] }> {
    const { config, uri: configUri, problems } = await this.configFor(uri);
    const externalPools = configPools(config, configUri);
    const externalAgents = new Map<string, ExternalName[]>();
    const needsOthers = model.kind !== 'freeform';
    const contracts: ContractDigest[] = [];
    if (needsOthers && this.options.roots.length > 0) {
      const others = (await this.contractUris()).filter((u) => u !== uri);
      // One contract at a time: each summary is a parse, and a read between two of them lets the
      // server answer other requests; all read at once made one uninterrupted run of parses
      // (1,000 contracts: a hover waited 24 s; docs/robustness.md, "Workspace scale").
      for (const other of others) {
        const s = await this.summaryOf(other);
        for (const p of s.pools) add(externalPools, p);
        for (const a of s.agents) add(externalAgents, a);
        if (s.digest) contracts.push(s.digest);
      }
    }
    const resources = needsOthers ? await this.resolveResources(uri, model, config) : new Map<string, ResourceStatus>();
    const regex = new Map<string, RegexVerdict>();
    // The rule's settings are read only for a contract with patterns to analyse.
    const sources = analyze ? analysedPatterns(model) : [];
    if (analyze && sources.length > 0 && !ruleOff(model, config, 'intent-pattern-redos', model.owners.get('trigger'))) {
      const verdicts = await Promise.all(sources.map((p) => analyze(p)));
      sources.forEach((p, i) => regex.set(p, verdicts[i]!));
    }
    return { config, ...(configUri ? { configUri } : {}), externalPools, externalAgents, resources, regex, contracts, configProblems: problems };
  }

  private async resolveResources(uri: string, model: ParsedContract, config: ResolvedConfig): Promise<Map<string, ResourceStatus>> {
    const out = new Map<string, ResourceStatus>();
    const names = new Set(referencesOf(model).references.filter((r) => r.kind === 'resource').map((r) => r.name));
    // A file's SHA-256 only where the contract pins one: hashing starts WebCrypto (about 8 ms of a CLI run).
    const pinned = new Set<string>();
    for (const r of (Array.isArray(model.data['resources']) ? model.data['resources'] : []) as Record<string, unknown>[]) {
      const n = unquote(r?.['path']);
      if (n) names.add(n);
      if (n && r?.['sha256'] !== undefined) pinned.add(n);
    }
    const root = this.rootOf(uri);
    const docDir = Utils.dirname(URI.parse(uri));
    for (const name of names) {
      if (!root) {
        out.set(name, { status: 'unchecked', reason: 'no-workspace' });
        continue;
      }
      const rootUri = URI.parse(root);
      const candidates = [...config.resourceRoots.map((d) => Utils.joinPath(rootUri, d, name)), Utils.joinPath(docDir, name), Utils.joinPath(rootUri, name)];
      // A resource is read only inside the workspace folder: `../../.ssh/id_rsa` must not become a run's answer.
      if (candidates.some((c) => relative(rootUri, c) === c.path)) {
        out.set(name, { status: 'outside' });
        continue;
      }
      let found: ResourceStatus | undefined;
      for (const c of candidates) {
        const st = await this.stat(c.toString());
        if (st?.type !== 'file') continue;
        const limit = this.options.maxResourceBytes ?? 64 * 1024 * 1024;
        if (st.size > limit) {
          found = { status: 'unchecked', reason: 'too-large', size: st.size, limit };
          break;
        }
        if (!pinned.has(name)) {
          found = { status: 'found', uri: c.toString() };
          break;
        }
        const sha = await this.sha256(c.toString());
        if (sha) found = { status: 'found', uri: c.toString(), sha256: sha };
        break;
      }
      out.set(name, found ?? { status: 'missing', tried: [...new Set(candidates.map((c) => relative(rootUri, c)))] });
    }
    return out;
  }
}

function relative(root: URI, target: URI): string {
  const r = root.path.endsWith('/') ? root.path : root.path + '/';
  return target.path.startsWith(r) ? target.path.slice(r.length) || '.' : target.path;
}

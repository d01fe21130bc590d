import type { TextDocument } from 'vscode-languageserver-textdocument';
import { FEW_UNREAD, parseContract, type ContractDocument, type ParsedContract, type RegexAnalyzer, type RulePreset, type WorkspaceFacts } from '../service/index.ts';
import { SNAPSHOT_FILE, type ServerContext } from './serverContext.ts';
import type { ServerSettings } from './settings.ts';
import { runSteps } from './steps.ts';
import type { BackgroundTokens } from './backgroundTokens.ts';
import { exceedsBytes } from './textSize.ts';

/** What the server keeps per open document: the model of one version, and its facts once gathered. */
export interface DocState {
  readonly version: number;
  readonly model: ParsedContract;
  facts?: Promise<WorkspaceFacts>;
}

/**
 * The facts with the rule preset: a config file's `extends` wins over the editor setting (docs/rules.md, "Presets").
 * The same configuration object each time for a configuration and preset: a rule that reads only
 * sections and the configuration is then reused on a keystroke elsewhere (validate/ruleCache.ts).
 */
export function withPreset(facts: WorkspaceFacts, settings: ServerSettings): WorkspaceFacts {
  const preset: RulePreset = facts.config.preset ?? (settings.preset === 'strict' ? 'strict' : 'recommended');
  let byPreset = presetConfigs.get(facts.config);
  if (!byPreset) presetConfigs.set(facts.config, (byPreset = new Map()));
  let config = byPreset.get(preset);
  if (!config) byPreset.set(preset, (config = { ...facts.config, preset }));
  return { ...facts, config };
}
const presetConfigs = new WeakMap<WorkspaceFacts['config'], Map<RulePreset, WorkspaceFacts['config']>>();

export function contract(doc: TextDocument, state: DocState, facts?: WorkspaceFacts): ContractDocument {
  return { uri: doc.uri, model: state.model, ...(facts ? { facts } : {}) };
}

export interface DocumentStates {
  /** The token counts (a process of the server's own): the diagnostics' counter per document, the hover's and lens's wait. */
  readonly tokens: BackgroundTokens;
  /** The model of the document's current version, parsed from the previous version's when there is one. */
  stateOf(doc: TextDocument): DocState;
  /**
   * `stateOf` in steps that let edits and requests in (the first parse of a large document):
   * undefined once the document has a newer version.
   */
  stateSteps(doc: TextDocument): Promise<DocState | undefined>;
  factsOf(doc: TextDocument, state: DocState): Promise<WorkspaceFacts>;
  /**
   * The facts a validation of this version uses now: `factsOf`, or while more than a few other
   * contracts are still being read (a first open in a large workspace), the configuration's
   * alone (`workspacePending`) and `full`, which resolves once the rest is read.
   */
  firstFacts(doc: TextDocument, state: DocState): Promise<{ facts: WorkspaceFacts; full?: Promise<WorkspaceFacts> }>;
  /** The facts if they are ready within 200 ms (hover and rename use them when they can). */
  lastFacts(doc: TextDocument, state: DocState): Promise<WorkspaceFacts | undefined>;
  /** `f` of an open contract (not a snapshot) once the service exists, else `fallback`. */
  withDoc<T>(uri: string, fallback: T, f: (doc: TextDocument, state: DocState) => T): T;
  /** The cached model of an open contract. */
  openModel(uri: string): ParsedContract | undefined;
  /** The facts of these documents (all when undefined) are stale. */
  dropFacts(uris?: Iterable<string>): void;
  forget(uri: string): void;
  clear(): void;
}

/** The document cache per version. `regexFor(uri)` is the ReDoS analyser one document's facts use; `tokens` counts their tokens. */
export function documentStates(ctx: ServerContext, regexFor: (uri: string) => RegexAnalyzer, tokens: BackgroundTokens): DocumentStates {
  const states = new Map<string, DocState>();
  const { documents, session, settings } = ctx;
  /** Facts as a document's checks read them: with the server's token counter for it. */
  const withTokens = (uri: string, facts: WorkspaceFacts): WorkspaceFacts => ({ ...facts, countTokens: tokens.forDocument(uri) });
  const self: DocumentStates = {
    tokens,
    stateOf(doc) {
      const cached = states.get(doc.uri);
      if (cached && cached.version === doc.version) return cached;
      const text = doc.getText();
      // Over the size limit no feature parses the document (hover, outline…: docs/robustness.md), as diagnostics do not.
      const tooLarge = exceedsBytes(text, settings.sizeLimit(doc.uri)) !== undefined;
      const state: DocState = { version: doc.version, model: tooLarge ? parseContract('') : session.service!.parse(doc.uri, text) };
      states.set(doc.uri, state);
      return state;
    },
    async stateSteps(doc) {
      const version = doc.version;
      const current = () => (states.get(doc.uri)?.version === version ? states.get(doc.uri) : undefined);
      const text = doc.getText();
      if (current() || exceedsBytes(text, settings.sizeLimit(doc.uri)) !== undefined) return self.stateOf(doc);
      // Stale once the document changed, or once a request parsed this version meanwhile.
      const model = await runSteps(session.service!.parseSteps(doc.uri, text), () => documents.get(doc.uri)?.version !== version || current() !== undefined);
      if (documents.get(doc.uri)?.version !== version) return undefined;
      if (model === undefined) return current();
      const state: DocState = { version, model };
      states.set(doc.uri, state);
      return state;
    },
    async factsOf(doc, state) {
      const s = await settings.of(doc.uri);
      state.facts ??= session.service!.facts(doc.uri, state.model, s.checkRegexBacktracking ? regexFor(doc.uri) : false).then((f) => withTokens(doc.uri, f));
      return state.facts;
    },
    async firstFacts(doc, state) {
      const full = self.factsOf(doc, state);
      const service = session.service!;
      if (state.model.kind === 'freeform' || (await service.workspace.unsummarised(doc.uri)) <= FEW_UNREAD) return { facts: await full };
      return { facts: withTokens(doc.uri, await service.workspace.configFacts(doc.uri)), full };
    },
    lastFacts: async (doc, state) => (await Promise.race([self.factsOf(doc, state), new Promise<undefined>((r) => setTimeout(r, 200, undefined))])) ?? undefined,
    withDoc(uri, fallback, f) {
      const doc = documents.get(uri);
      if (!doc || !session.service || SNAPSHOT_FILE.test(uri)) return fallback;
      return f(doc, self.stateOf(doc));
    },
    openModel(uri) {
      const doc = documents.get(uri);
      return doc && session.service && !SNAPSHOT_FILE.test(uri) ? self.stateOf(doc).model : undefined;
    },
    dropFacts(uris) {
      if (!uris) for (const s of states.values()) s.facts = undefined;
      else for (const uri of uris) {
        const state = states.get(uri);
        if (state) state.facts = undefined;
      }
    },
    forget: (uri) => void states.delete(uri),
    clear: () => states.clear(),
  };
  return self;
}

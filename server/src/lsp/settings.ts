import type { Connection } from 'vscode-languageserver';
import { DEFAULT_MAX_FILE_BYTES, type RulePreset } from '../service/index.ts';
import { Lru } from '../service/host.ts';

/** Settings under `agentsMd.*`, read per resource. */
export interface ServerSettings {
  readonly enable: boolean;
  /** Run the ReDoS analysis of intent patterns (recheck). */
  readonly checkRegexBacktracking: boolean;
  readonly maxFileBytes: number;
  /** Compare the contract with git HEAD and warn when the version bump or the audit row is missing. */
  readonly versionAdvice: boolean;
  /** The rule preset when no config file chooses one (docs/rules.md, "Presets"). */
  readonly preset: RulePreset;
  /** Where runs are sent as OpenTelemetry spans over OTLP/HTTP ('' for nowhere; docs/tracing.md). */
  readonly otlpEndpoint: string;
}

export const DEFAULT_SETTINGS: ServerSettings = { enable: true, checkRegexBacktracking: true, maxFileBytes: DEFAULT_MAX_FILE_BYTES, versionAdvice: true, preset: 'recommended', otlpEndpoint: '' };

/**
 * Resources whose settings are kept: the workspace pass asks for every contract's, so the store is
 * bounded; a resource evicted is asked of the client again when next needed.
 */
export const SETTINGS_CACHE_SIZE = 4096;

/** Each resource's settings, asked of the client once and kept until they change, the document closes or the cache is full. */
export interface SettingsStore {
  /** Whether the client answers `workspace/configuration`; without it every resource has the defaults. */
  supported: boolean;
  of(uri: string): Promise<ServerSettings>;
  /** The size limit of a resource once its settings are known (features read it synchronously). */
  sizeLimit(uri: string): number;
  forget(uri: string): void;
  /** Asks again for every resource asked before; true when any of them changed. */
  reload(): Promise<boolean>;
}

export function settingsStore(connection: Connection, capacity = SETTINGS_CACHE_SIZE): SettingsStore {
  const cache = new Lru<string, Promise<ServerSettings>>(capacity);
  const sizeLimits = new Lru<string, number>(capacity);
  const store: SettingsStore = {
    supported: false,
    of(uri) {
      if (!store.supported) return Promise.resolve(DEFAULT_SETTINGS);
      let s = cache.get(uri);
      if (!s) {
        s = connection.workspace
          .getConfiguration({ scopeUri: uri, section: 'agentsMd' })
          .then((v: Partial<ServerSettings> | null) => ({ ...DEFAULT_SETTINGS, ...(v ?? {}) }))
          .catch(() => DEFAULT_SETTINGS)
          .then((settings) => (sizeLimits.set(uri, settings.maxFileBytes), settings));
        cache.set(uri, s);
      }
      return s;
    },
    sizeLimit: (uri) => sizeLimits.get(uri) ?? DEFAULT_MAX_FILE_BYTES,
    forget: (uri) => void cache.delete(uri),
    async reload() {
      const before = new Map(cache.entries());
      cache.clear();
      let changed = false;
      for (const [uri, old] of before) if (JSON.stringify(await old) !== JSON.stringify(await store.of(uri))) changed = true;
      return changed;
    },
  };
  return store;
}

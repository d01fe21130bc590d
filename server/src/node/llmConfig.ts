/**
 * Builds the dry run's `ModelProvider` from model settings (service/run/llm/llmSettings.ts), with
 * the API key and the workspace's trust supplied by the host (the key is passed per
 * run and never stored). See docs/model-providers.md.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLanguageService, createScriptedModel, ModelError, resolveModelSettings, type ModelProvider, type ModelSettings, type SnapshotQuery } from '../service/index.ts';
import { format } from '../service/host.ts';
import { bareUrl, createOpenAiProvider } from './openaiProvider.ts';
import { createNodeFileSystem, fileUri } from './nodeFileSystem.ts';
import { displayPath, isWithin } from './paths.ts';

/** What the host (CLI, language server) knows that settings must not hold. */
export interface ModelHost {
  /** Whether the workspace is trusted (VS Code's workspace trust; the CLI passes `true`). */
  readonly trusted: boolean;
  /** The environment the key variable is read from (the CLI passes `process.env`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** A key handed over for this run (VS Code's secret storage); wins over the environment. */
  readonly apiKey?: string;
  /** Builds the scripted model; called only when `provider` is `scripted`. */
  readonly scripted: () => ModelProvider;
  /** The fetch the endpoint provider uses (default: the global one). */
  readonly fetch?: typeof fetch;
  /**
   * The repository's configuration file, when it is what names the endpoint (the CLI): such an
   * endpoint is used only when it is one of `trustedEndpoints` (docs/model-providers.md, "Whose
   * endpoint").
   */
  readonly endpointFromRepository?: string;
  /** Base URLs the user confirmed (`--trust-endpoint`, `AGENTS_MD_TRUSTED_ENDPOINTS`). */
  readonly trustedEndpoints?: readonly string[];
}

/** The environment variable listing the endpoints a user trusts, separated by spaces or commas. */
export const TRUSTED_ENDPOINTS_ENV = 'AGENTS_MD_TRUSTED_ENDPOINTS';

/** `AGENTS_MD_TRUSTED_ENDPOINTS` and the `--trust-endpoint` flags, as one list. */
export function trustedEndpoints(env: Readonly<Record<string, string | undefined>>, flags: readonly string[] = []): string[] {
  return [...(env[TRUSTED_ENDPOINTS_ENV] ?? '').split(/[\s,]+/).filter(Boolean), ...flags];
}

/** A base URL as compared for trust: parsed, without a trailing slash; `undefined` when not a URL. */
function endpointKey(url: string): string | undefined {
  return URL.canParse(url) ? new URL(url).href.replace(/\/+$/, '') : undefined;
}

/**
 * The provider that the settings ask for. `layers` are merged by `resolveModelSettings` (later
 * over earlier, e.g. `[config.model, editorSettings, cliFlags]`). The API key is the host's
 * `apiKey` when non-empty, else the environment variable named by `apiKeyEnv` when non-empty,
 * else none (local servers such as Ollama need none). Throws `ModelError('MODEL_UNAVAILABLE')`
 * when the settings are not valid (`model.settings.invalid` lists the problems), when an
 * endpoint is asked for in an untrusted workspace or named by the repository's configuration
 * without the user's confirmation (both checked before the key is read), or when
 * `createOpenAiProvider` refuses the base URL or the key.
 */
export function createModelProvider(layers: readonly (ModelSettings | undefined)[], host: ModelHost): ModelProvider {
  const resolved = resolveModelSettings(layers);
  if ('problems' in resolved) throw new ModelError('MODEL_UNAVAILABLE', format('model.settings.invalid', { problems: resolved.problems.map((p) => format(p.messageId, p.args)).join('; ') }));
  const { settings } = resolved;
  if (settings.provider === 'scripted') return host.scripted();
  const baseUrl = settings.baseUrl ?? '';
  const shown = URL.canParse(baseUrl) ? bareUrl(new URL(baseUrl)) : baseUrl;
  if (!host.trusted) throw new ModelError('MODEL_UNAVAILABLE', format('model.untrusted', { endpoint: shown }), undefined, { id: 'model.untrusted', args: { endpoint: shown } });
  if (host.endpointFromRepository !== undefined) {
    const key = endpointKey(baseUrl);
    if (key === undefined || !(host.trustedEndpoints ?? []).some((t) => endpointKey(t) === key)) {
      throw new ModelError('MODEL_UNAVAILABLE', format('model.endpoint.unconfirmed', { endpoint: shown, config: host.endpointFromRepository }), undefined, { id: 'model.endpoint.unconfirmed', args: { endpoint: shown, config: host.endpointFromRepository } });
    }
  }
  const apiKey = host.apiKey || host.env[settings.apiKeyEnv] || undefined;
  return createOpenAiProvider({
    baseUrl,
    model: settings.model ?? '',
    timeoutMs: settings.timeoutMs,
    retries: settings.retries,
    ...(apiKey ? { apiKey } : {}),
    ...(host.fetch ? { fetch: host.fetch } : {}),
  });
}

/**
 * The command line's model for the queries of `contractPath`: the `model` section of the
 * configuration file that applies to the contract, with the endpoint it names used only when the
 * user confirmed it (`trusted`: `--trust-endpoint` and `AGENTS_MD_TRUSTED_ENDPOINTS`). Returns a
 * provider per query (the scripted model is the query's own); throws `ModelError` as
 * `createModelProvider` does, before any request.
 */
export async function configuredModel(root: string, contractPath: string, env: Readonly<Record<string, string | undefined>>, trusted: readonly string[]): Promise<(query: SnapshotQuery) => ModelProvider> {
  const workspace = isWithin(root, contractPath) ? root : dirname(contractPath);
  const service = createLanguageService({ fs: createNodeFileSystem(() => [workspace]), roots: [fileUri(workspace)] });
  const { config, uri } = await service.workspace.configFor(fileUri(contractPath));
  const fromRepository = config.model?.baseUrl !== undefined && uri !== undefined ? displayPath(process.cwd(), fileURLToPath(uri)) : undefined;
  const host = { trusted: true, env, trustedEndpoints: trusted, ...(fromRepository !== undefined ? { endpointFromRepository: fromRepository } : {}) };
  // Checked once before any query runs, so that a refused endpoint stops the command at once.
  createModelProvider([config.model], { ...host, scripted: () => createScriptedModel([]) });
  return (query) => createModelProvider([config.model], { ...host, scripted: () => createScriptedModel(query.model) });
}

/**
 * Builds the dry run's `ModelProvider` from model settings (service/run/llmSettings.ts), with
 * the API key and the workspace's trust supplied by the host (the key is passed per
 * run and never stored). See docs/model-providers.md.
 */
import { ModelError, resolveModelSettings, type ModelProvider, type ModelSettings } from '../service/index.ts';
import { bareUrl, createOpenAiProvider } from './openaiProvider.ts';
import { format } from '../service/index.ts';

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
}

/**
 * The provider that the settings ask for. `layers` are merged by `resolveModelSettings` (later
 * over earlier, e.g. `[config.model, editorSettings, cliFlags]`). The API key is the host's
 * `apiKey` when non-empty, else the environment variable named by `apiKeyEnv` when non-empty,
 * else none (local servers such as Ollama need none). Throws `ModelError('MODEL_UNAVAILABLE')`
 * when the settings are not valid (`model.settings.invalid` lists the problems), when an
 * endpoint is asked for in an untrusted workspace (checked before the key is read), or when
 * `createOpenAiProvider` refuses the base URL or the key.
 */
export function createModelProvider(layers: readonly (ModelSettings | undefined)[], host: ModelHost): ModelProvider {
  const resolved = resolveModelSettings(layers);
  if ('problems' in resolved) throw new ModelError('MODEL_UNAVAILABLE', format('model.settings.invalid', { problems: resolved.problems.map((p) => format(p.messageId, p.args)).join('; ') }));
  const { settings } = resolved;
  if (settings.provider === 'scripted') return host.scripted();
  const baseUrl = settings.baseUrl ?? '';
  if (!host.trusted) throw new ModelError('MODEL_UNAVAILABLE', format('model.untrusted', { endpoint: URL.canParse(baseUrl) ? bareUrl(new URL(baseUrl)) : baseUrl }));
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

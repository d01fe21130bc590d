import { configSchema, type JsonSchema } from '../../schema/schemas.ts';
import { validateConfig, type ConfigMessage } from '../../workspace/configSchema.ts';
import type { ModelSettings } from '../../validate/facts.ts';

export type { ModelSettings };


/** Model settings with every default applied; `baseUrl` and `model` are set when `provider` is `openai`. */
export type ResolvedModelSettings = Required<Pick<ModelSettings, 'provider' | 'apiKeyEnv' | 'timeoutMs' | 'retries'>> &
  Pick<ModelSettings, 'baseUrl' | 'model'>;

/**
 * The JSON Schema of `ModelSettings`: the `model` property of schemas/config.schema.json (with
 * its titles, descriptions, defaults and Chinese texts), for hosts that offer the same settings
 * elsewhere (VS Code settings, CLI help).
 */
export const MODEL_SETTINGS_SCHEMA = (configSchema['properties'] as Record<string, JsonSchema>)['model'] as JsonSchema;

const defaultOf = (key: keyof ModelSettings): unknown => ((MODEL_SETTINGS_SCHEMA['properties'] as Record<string, JsonSchema>)[key] as JsonSchema)['default'];

/** The defaults, read from the schema so that the docs and the code cannot disagree. */
export const DEFAULT_MODEL_SETTINGS = {
  provider: defaultOf('provider'),
  apiKeyEnv: defaultOf('apiKeyEnv'),
  timeoutMs: defaultOf('timeoutMs'),
  retries: defaultOf('retries'),
} as ResolvedModelSettings;

/**
 * Merges model settings, later layers over earlier ones, field by field (an `undefined` field
 * leaves the earlier value), over `DEFAULT_MODEL_SETTINGS`; the host decides the layers' order,
 * typically configuration file < editor settings < command-line flags. The merged settings are
 * checked against `MODEL_SETTINGS_SCHEMA`; problems read like configuration problems
 * (`model.baseUrl: must match pattern "^https?://"`). Never throws.
 */
export function resolveModelSettings(
  layers: readonly (ModelSettings | undefined)[],
): { readonly settings: ResolvedModelSettings } | { readonly problems: readonly ConfigMessage[] } {
  const merged: Record<string, unknown> = { ...DEFAULT_MODEL_SETTINGS };
  for (const layer of layers) {
    // A malformed configuration file (`"model": "openai"`) is reported by its own validation.
    if (typeof layer !== 'object' || layer === null || Array.isArray(layer)) continue;
    for (const [key, value] of Object.entries(layer)) if (value !== undefined) merged[key] = value;
  }
  const problems = validateConfig({ model: merged });
  return problems.length > 0 ? { problems } : { settings: merged as ResolvedModelSettings };
}

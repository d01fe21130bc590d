/**
 * Provider profiles: what each target (a model provider's tool or response-format API, or MCP)
 * accepts of a JSON Schema and of a tool definition, as plain data with the day it was checked
 * and the pages it was checked against (docs/providers.md). Limits change: re-check the sources
 * and update `checked` with the data.
 */

export const TARGETS = ['openai-strict', 'anthropic', 'anthropic-strict', 'gemini', 'mcp'] as const;
export type Target = (typeof TARGETS)[number];

export interface ProviderProfile {
  readonly id: Target;
  /** The day the data was last checked against `sources` (YYYY-MM-DD). */
  readonly checked: string;
  readonly sources: readonly string[];
  /** Tool (function) names: a regular expression (whole name) and a length limit. */
  readonly toolName: { readonly pattern: string; readonly maxLength: number };
  /** Property names inside parameter schemas, when the target restricts them. */
  readonly propertyName?: { readonly pattern: string; readonly maxLength: number };
  readonly maxDescriptionLength?: number;
  /** The schemas the target receives: tool outputs (MCP `outputSchema`), the contract's OUTPUT_SCHEMA as a response format. */
  readonly toolOutput: boolean;
  readonly responseFormat: boolean;
  /** The only keywords accepted (a subset such as OpenAPI 3.0's); undefined: any JSON Schema keyword not in `rejected`. */
  readonly keywords?: readonly string[];
  readonly rejected?: readonly string[];
  /** Every property listed in `required` (optional values are nullable instead). */
  readonly allRequired?: boolean;
  /** `additionalProperties: false` on every object. */
  readonly closedObjects?: boolean;
  /** `type` is one name, never a list (nullable instead of `[x, "null"]`). */
  readonly singleType?: boolean;
  /** The schema's root is `type: object`. */
  readonly rootObject: boolean;
  /** `minItems` at most this. */
  readonly maxMinItems?: number;
  /** Nesting levels of objects and arrays in one schema. */
  readonly maxDepth?: number;
  /** Object properties and enum values over all schemas of one request. */
  readonly maxProperties?: number;
  readonly maxEnumValues?: number;
  /** Tools per request, and optional parameters over all tools. */
  readonly maxTools?: number;
  readonly maxOptional?: number;
}

/** Keywords of JSON Schema 2020-12 that no strict decoder compiles. */
const APPLICATORS = ['not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'patternProperties', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames', 'minProperties', 'maxProperties', 'contains', 'minContains', 'maxContains', 'prefixItems'];

export const PROFILES: Readonly<Record<Target, ProviderProfile>> = {
  'openai-strict': {
    id: 'openai-strict',
    checked: '2026-12-01',
    sources: ['https://platform.openai.com/docs/guides/structured-outputs#supported-schemas', 'https://platform.openai.com/docs/guides/function-calling#strict-mode'],
    toolName: { pattern: '^[a-zA-Z0-9_-]+$', maxLength: 64 },
    maxDescriptionLength: 1024,
    toolOutput: false,
    responseFormat: true,
    rejected: ['allOf', 'oneOf', 'uniqueItems', 'minLength', 'maxLength', ...APPLICATORS],
    allRequired: true,
    closedObjects: true,
    rootObject: true,
    maxDepth: 10,
    maxProperties: 5000,
    maxEnumValues: 1000,
  },
  anthropic: {
    id: 'anthropic',
    checked: '2026-12-01',
    sources: ['https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use'],
    toolName: { pattern: '^[a-zA-Z0-9_-]+$', maxLength: 64 },
    toolOutput: false,
    responseFormat: false,
    rootObject: true,
  },
  'anthropic-strict': {
    id: 'anthropic-strict',
    checked: '2026-12-01',
    sources: ['https://docs.claude.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations', 'https://docs.claude.com/en/docs/agents-and-tools/tool-use/strict-tool-use'],
    toolName: { pattern: '^[a-zA-Z0-9_-]+$', maxLength: 64 },
    toolOutput: false,
    responseFormat: true,
    rejected: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'maxItems', 'uniqueItems', 'oneOf', ...APPLICATORS],
    closedObjects: true,
    rootObject: true,
    maxMinItems: 1,
    maxTools: 20,
    maxOptional: 24,
  },
  gemini: {
    id: 'gemini',
    checked: '2026-12-01',
    sources: ['https://ai.google.dev/api/caching#FunctionDeclaration', 'https://ai.google.dev/api/caching#Schema', 'https://ai.google.dev/gemini-api/docs/function-calling'],
    toolName: { pattern: '^[a-zA-Z_][a-zA-Z0-9_.:-]*$', maxLength: 64 },
    propertyName: { pattern: '^[a-zA-Z_][a-zA-Z0-9_]*$', maxLength: 64 },
    toolOutput: false,
    responseFormat: true,
    keywords: ['type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems', 'minItems', 'properties', 'required', 'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'example', 'anyOf', 'propertyOrdering', 'default', 'items', 'minimum', 'maximum'],
    singleType: true,
    rootObject: true,
  },
  mcp: {
    id: 'mcp',
    checked: '2026-12-01',
    sources: ['https://modelcontextprotocol.io/specification/2025-11-25/server/tools', 'https://modelcontextprotocol.io/specification/2025-11-25/schema#tool'],
    toolName: { pattern: '^[A-Za-z0-9_.-]+$', maxLength: 128 },
    toolOutput: true,
    responseFormat: false,
    rootObject: true,
  },
};

/** The profile of a target name, if it is one. */
export function profileOf(name: string): ProviderProfile | undefined {
  return (TARGETS as readonly string[]).includes(name) ? PROFILES[name as Target] : undefined;
}

import { contractSchema, schemaById, type JsonSchema } from './schemas.ts';

function deref(s: JsonSchema, root: JsonSchema): { schema: JsonSchema; root: JsonSchema } {
  let schema = s;
  let r = root;
  for (let i = 0; i < 10; i++) {
    const ref = schema['$ref'];
    if (typeof ref !== 'string') break;
    if (ref.startsWith('#/')) {
      let node: unknown = r;
      for (const part of ref.slice(2).split('/')) node = (node as Record<string, unknown> | undefined)?.[part];
      if (!node || typeof node !== 'object') break;
      schema = { ...(node as JsonSchema), ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$ref')) };
    } else {
      const target = schemaById(ref);
      if (!target) break;
      r = target;
      schema = { ...target, ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$ref')) };
    }
  }
  return { schema, root: r };
}

/**
 * The schema of the value at an absolute JSON Pointer into the contract data, following
 * `properties`, `items`, `additionalProperties`, `$ref` and the first matching branch of
 * `oneOf`/`anyOf`. Undefined where the contract schema does not describe the value (inside
 * a tool's own `input_schema`, for example).
 */
export function schemaAt(pointer: string): JsonSchema | undefined {
  let { schema, root } = deref(contractSchema, contractSchema);
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    let next: JsonSchema | undefined;
    const candidates = [schema, ...((schema['oneOf'] ?? schema['anyOf'] ?? []) as JsonSchema[]).map((x) => deref(x, root).schema)];
    for (const c of candidates) {
      const props = c['properties'] as Record<string, JsonSchema> | undefined;
      if (props?.[part]) next = props[part];
      else if (/^\d+$/.test(part) && c['items'] && typeof c['items'] === 'object') next = c['items'] as JsonSchema;
      else if (c['additionalProperties'] && typeof c['additionalProperties'] === 'object') next = c['additionalProperties'] as JsonSchema;
      if (next) break;
    }
    if (!next) return undefined;
    ({ schema, root } = deref(next, root));
  }
  return schema;
}

/** A schema annotation in a language (`x-l10n`), falling back to English. */
export function annotation(schema: JsonSchema, key: 'title' | 'markdownDescription' | 'description', lang = 'en'): string | undefined {
  const l10n = (schema['x-l10n'] as Record<string, Record<string, unknown>> | undefined)?.[lang.toLowerCase()];
  const v = l10n?.[key] ?? schema[key];
  return typeof v === 'string' ? v : undefined;
}

/** The enum descriptions of a schema in a language, falling back to English. */
export function enumDescriptions(schema: JsonSchema, lang = 'en'): readonly string[] {
  const l10n = (schema['x-l10n'] as Record<string, Record<string, unknown>> | undefined)?.[lang.toLowerCase()];
  const v = l10n?.['enumDescriptions'] ?? schema['enumDescriptions'];
  return Array.isArray(v) ? (v as string[]) : [];
}

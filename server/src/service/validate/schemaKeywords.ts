import { closest } from '../schema/normalise.ts';

/**
 * Keywords other formats put in JSON Schemas (OpenAPI's `example`, `nullable`, …): unknown to JSON
 * Schema, harmless, and never a misspelling of one of its keywords.
 */
const FOREIGN = new Set(['example', 'nullable', 'discriminator', 'xml', 'externalDocs', 'readonly', 'writeonly']);

/** Keys whose value is a map of names to schemas, an array of schemas, or one schema. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const SCHEMA_ONE = ['items', 'additionalProperties', 'additionalItems', 'unevaluatedProperties', 'unevaluatedItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];

const MAX_NODES = 5000;

/**
 * Where a schema uses a keyword that ajv's strict mode reported unknown (`unknown`) and that is a
 * near miss of a keyword it knows (`requried` → `required`): a JSON Pointer per occurrence, at
 * schema positions only (a property named `requried` is a name, not a keyword). Keys starting
 * with `x-` and other formats' keywords are left alone. Bounded.
 */
export function misspeltKeywords(schema: object, unknown: ReadonlySet<string>, known: readonly string[]): { path: string; variant: 'misspeltKeyword'; detail: string; suggestion: string }[] {
  const suggestions = new Map<string, string>();
  for (const k of unknown) {
    if (k.startsWith('x-') || FOREIGN.has(k.toLowerCase())) continue;
    const near = closest(k, known.filter((x) => !x.startsWith('x-')), Math.min(2, Math.max(1, Math.floor(k.length / 3))));
    if (near) suggestions.set(k, near);
  }
  const out: { path: string; variant: 'misspeltKeyword'; detail: string; suggestion: string }[] = [];
  if (suggestions.size === 0) return out;
  let nodes = 0;
  const esc = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
  const visit = (s: unknown, at: string): void => {
    if (!s || typeof s !== 'object' || Array.isArray(s) || ++nodes > MAX_NODES) return;
    const o = s as Record<string, unknown>;
    for (const [k, v] of Object.entries(o)) {
      const suggestion = suggestions.get(k);
      if (suggestion) out.push({ path: `${at}/${esc(k)}`, variant: 'misspeltKeyword', detail: k, suggestion });
      if (SCHEMA_MAPS.includes(k) && v && typeof v === 'object') for (const [name, sub] of Object.entries(v)) visit(sub, `${at}/${esc(k)}/${esc(name)}`);
      if (SCHEMA_LISTS.includes(k) && Array.isArray(v)) v.forEach((sub, i) => visit(sub, `${at}/${k}/${i}`));
      if (SCHEMA_ONE.includes(k)) visit(v, `${at}/${k}`);
    }
  };
  visit(schema, '');
  return out;
}

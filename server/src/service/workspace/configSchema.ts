import Ajv2020 from 'ajv/dist/2020.js';
import { configSchema } from '../catalogue/schemas.ts';
import { RULES } from '../validate/catalogue.ts';

let validate: ReturnType<Ajv2020['compile']> | undefined;

/**
 * Validates a configuration file's data against schemas/config.schema.json and checks that
 * every rule it configures exists. Returns readable problems (`rules.foo: unknown rule`).
 */
export function validateConfig(data: unknown): string[] {
  if (!validate) {
    const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true });
    validate = ajv.compile(configSchema as object);
  }
  const problems = new Set<string>();
  const rules = (data as { rules?: unknown } | null)?.rules;
  const known = new Set(RULES.map((r) => r.code));
  const unknownRules = rules && typeof rules === 'object' ? Object.keys(rules).filter((k) => !known.has(k)) : [];
  if (!validate(data)) {
    for (const e of validate.errors ?? []) {
      const path = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
      const params = e.params as { additionalProperty?: string; allowedValues?: unknown[]; propertyName?: string };
      // Branch, condition and name errors repeat what the specific messages below say.
      if (e.keyword === 'anyOf' || e.keyword === 'if' || e.keyword === 'oneOf' || e.keyword === 'propertyNames' || params.propertyName !== undefined || (e as { propertyName?: string }).propertyName !== undefined) continue;
      if (unknownRules.some((k) => path === `rules.${k}` || path.startsWith(`rules.${k}.`))) continue;
      // A rule set to an object is checked by the object branch; the string branch's errors are noise.
      const rule = /^rules\.([^.]+)$/.exec(path)?.[1];
      if (rule && typeof (rules as Record<string, unknown>)[rule] === 'object') continue;
      if (e.keyword === 'additionalProperties') problems.add(`${path ? `${path}.` : ''}${params.additionalProperty}: unknown setting`);
      else if (e.keyword === 'enum') problems.add(`${path || '(root)'}: must be one of ${(params.allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')}`);
      else if (!(e.keyword === 'type' && /^rules\./.test(path))) problems.add(`${path || '(root)'}: ${e.message ?? e.keyword}`);
    }
  }
  for (const k of unknownRules) problems.add(`rules.${k}: unknown rule`);
  return [...problems];
}

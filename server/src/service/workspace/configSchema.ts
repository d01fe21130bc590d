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
  const problems: string[] = [];
  if (!validate(data)) {
    for (const e of validate.errors ?? []) problems.push(`${e.instancePath.replace(/^\//, '').replace(/\//g, '.') || '(root)'} ${e.message ?? e.keyword}`);
  }
  const rules = (data as { rules?: unknown } | null)?.rules;
  if (rules && typeof rules === 'object') {
    const known = new Set(RULES.map((r) => r.code));
    for (const k of Object.keys(rules)) if (!known.has(k)) problems.push(`rules.${k}: unknown rule`);
  }
  return problems;
}

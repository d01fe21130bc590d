import { configSchema } from '../schema/schemas.ts';
import { configValidator } from '../validate/ajv.ts';
import { RULES } from '../validate/catalogue.ts';
import { schemaErrorMessage } from '../validate/ajvMessages.ts';
import { ruleMessageId } from '../validate/messages.ts';
import { closest } from '../schema/normalise.ts';

/** A configuration problem as a message id and its arguments (workspace/messages.ts). */
export interface ConfigMessage {
  readonly messageId: string;
  readonly args: Readonly<Record<string, string | number>>;
}

/**
 * The semantic diff's impact rules (docs/semantic-diff.md §9), as `npm run generate` lists them in
 * the schema under `diff.impacts` (the diff is a layer this one may not import). Read when used:
 * the generator itself loads this module before the list exists.
 */
const impactRuleNames = (): readonly string[] =>
  (configSchema as { properties: { diff: { properties: { impacts: { propertyNames?: { enum: string[] } } } } } }).properties.diff.properties.impacts.propertyNames?.enum ?? [];

/**
 * Validates a configuration file's data against schemas/config.schema.json and checks that
 * every rule it configures exists, and every impact rule its diff policy sets (with the nearest
 * name). Returns the problems as messages (`config.unknownRule` with `{ rule: 'foo' }` reads
 * "rules.foo: unknown rule"), each once.
 */
export function validateConfig(data: unknown): ConfigMessage[] {
  const validate = configValidator();
  const problems = new Map<string, ConfigMessage>();
  const add = (messageId: string, args: Record<string, string | number>) => problems.set(`${messageId}|${JSON.stringify(args)}`, { messageId, args });
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
      if (e.keyword === 'additionalProperties') add('config.unknownSetting', { path: `${path ? `${path}.` : ''}${params.additionalProperty}` });
      else if (!(e.keyword === 'type' && /^rules\./.test(path))) {
        const m = schemaErrorMessage(e, path || '/');
        add(ruleMessageId('schema', m.variant), m.args);
      }
    }
  }
  for (const k of unknownRules) add('config.unknownRule', { rule: k });
  const impacts = (data as { diff?: { impacts?: unknown } } | null)?.diff?.impacts;
  if (impacts && typeof impacts === 'object' && !Array.isArray(impacts)) {
    const names = impactRuleNames();
    for (const k of Object.keys(impacts).filter((name) => !names.includes(name))) {
      const near = closest(k, names);
      add(near ? 'config.unknownImpactRuleNear' : 'config.unknownImpactRule', near ? { rule: k, near } : { rule: k });
    }
  }
  return [...problems.values()];
}

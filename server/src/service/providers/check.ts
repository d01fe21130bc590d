/**
 * Checks a JSON Schema and a tool definition against a provider profile (profiles.ts): every
 * keyword, shape or limit the target rejects, as a problem with the JSON Pointer (relative to the
 * schema) where it is. Plain data in and out; the rule `provider-schema` places the problems in
 * the contract and words them (docs/providers.md).
 */
import type { ProviderProfile } from './profiles.ts';

type Args = Readonly<Record<string, string | number>>;

/** One thing a target rejects: where (relative pointer; `key`: the key itself is meant), which message variant, its arguments. */
export interface ProfileProblem {
  readonly path: string;
  readonly key: boolean;
  readonly variant: string;
  readonly args: Args;
}

/** Counts a request's limits are about, summed over all schemas of a contract. */
export interface SchemaTally {
  properties: number;
  enumValues: number;
  optional: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const esc = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
const typesOf = (s: Obj): string[] => (Array.isArray(s['type']) ? s['type'].map(String) : typeof s['type'] === 'string' ? [s['type']] : []);

/** Subschemas of a schema, with their relative pointers and whether they nest one level deeper. */
function children(s: Obj): { path: string; schema: unknown; deeper: boolean }[] {
  const out: { path: string; schema: unknown; deeper: boolean }[] = [];
  for (const k of ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']) {
    if (isObj(s[k])) for (const [name, v] of Object.entries(s[k])) out.push({ path: `/${k}/${esc(name)}`, schema: v, deeper: k === 'properties' || k === 'patternProperties' });
  }
  for (const k of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    if (Array.isArray(s[k])) s[k].forEach((v, i) => out.push({ path: `/${k}/${i}`, schema: v, deeper: k === 'prefixItems' }));
  }
  for (const k of ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties']) {
    if (isObj(s[k])) out.push({ path: `/${k}`, schema: s[k], deeper: k === 'items' || k === 'additionalProperties' });
  }
  return out;
}

/**
 * The problems of one schema for one target. `tally` (optional) collects the counts that the
 * target limits per request (`requestProblems`).
 */
export function schemaProblems(schema: unknown, profile: ProviderProfile, tally?: SchemaTally): ProfileProblem[] {
  const problems: ProfileProblem[] = [];
  const add = (path: string, key: boolean, variant: string, args: Args = {}) => problems.push({ path, key, variant, args });
  if (!isObj(schema)) return problems;
  if (profile.rootObject && !(typesOf(schema).length === 1 && typesOf(schema)[0] === 'object')) add(schema['type'] !== undefined ? '/type' : '', false, 'root');
  const accepted = profile.keywords ? new Set(profile.keywords) : undefined;
  const rejected = new Set(profile.rejected ?? []);
  const refused = (k: string) => rejected.has(k) || (accepted !== undefined && !accepted.has(k));
  let depthReported = false;
  const walk = (s: Obj, path: string, depth: number) => {
    if (profile.maxDepth !== undefined && depth > profile.maxDepth && !depthReported) {
      depthReported = true;
      add(path, false, 'depth', { limit: profile.maxDepth, count: depth });
    }
    for (const k of Object.keys(s)) {
      if (refused(k)) add(`${path}/${esc(k)}`, true, 'default', { keyword: k });
    }
    if (profile.singleType && Array.isArray(s['type'])) add(`${path}/type`, false, 'typeList');
    if (profile.maxMinItems !== undefined && typeof s['minItems'] === 'number' && s['minItems'] > profile.maxMinItems) add(`${path}/minItems`, false, 'minItems', { limit: profile.maxMinItems });
    const props = isObj(s['properties']) ? Object.keys(s['properties']) : [];
    const isObject = typesOf(s).includes('object') || props.length > 0;
    const required = new Set(Array.isArray(s['required']) ? s['required'].map(String) : []);
    if (tally) {
      tally.properties += props.length;
      tally.optional += props.filter((p) => !required.has(p)).length;
      if (Array.isArray(s['enum'])) tally.enumValues += s['enum'].length;
    }
    if (isObject && profile.closedObjects && s['additionalProperties'] !== false) add(path, false, 'closed');
    for (const p of props) {
      if (profile.allRequired && !required.has(p)) add(`${path}/properties/${esc(p)}`, true, 'required', { property: p });
      const rule = profile.propertyName;
      if (rule && (p.length > rule.maxLength || !new RegExp(rule.pattern).test(p))) add(`${path}/properties/${esc(p)}`, true, 'property', { property: p, pattern: rule.pattern, limit: rule.maxLength });
    }
    // Inside a rejected keyword, the keyword's own finding says it all.
    for (const c of children(s)) if (isObj(c.schema) && !refused(c.path.split('/')[1]!)) walk(c.schema, path + c.path, c.deeper ? depth + 1 : depth);
  };
  walk(schema, '', 1);
  return problems;
}

/** The problems of a tool's name and description for one target (paths relative to the tool). */
export function toolProblems(name: string, description: string, profile: ProviderProfile): ProfileProblem[] {
  const problems: ProfileProblem[] = [];
  const { pattern, maxLength } = profile.toolName;
  if (name.length > maxLength || !new RegExp(pattern).test(name)) problems.push({ path: '/name', key: false, variant: 'name', args: { tool: name, pattern, limit: maxLength } });
  const limit = profile.maxDescriptionLength;
  if (limit !== undefined && description.length > limit) problems.push({ path: '/description', key: false, variant: 'description', args: { tool: name, limit, count: description.length } });
  return problems;
}

/** The per-request limits a contract's tools exceed, given the tallies of all its schemas. */
export function requestProblems(toolCount: number, tally: SchemaTally, profile: ProviderProfile): ProfileProblem[] {
  const problems: ProfileProblem[] = [];
  const check = (limit: number | undefined, count: number, variant: string) => {
    if (limit !== undefined && count > limit) problems.push({ path: '', key: false, variant, args: { limit, count } });
  };
  check(profile.maxTools, toolCount, 'tools');
  check(profile.maxOptional, tally.optional, 'optional');
  check(profile.maxProperties, tally.properties, 'properties');
  check(profile.maxEnumValues, tally.enumValues, 'enums');
  return problems;
}

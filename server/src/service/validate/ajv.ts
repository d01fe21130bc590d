import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import Ajv2019 from 'ajv/dist/2019.js';
import Ajv07 from 'ajv/dist/ajv.js';
import AjvDraft04 from 'ajv-draft-04';
import draft06MetaSchema from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import addFormats from 'ajv-formats';
import { RE2JS } from 're2js';
import { Lru } from '../util/lru.ts';
import { configSchema, contractSchema, sectionSchemas, type JsonSchema } from '../schema/schemas.ts';
import { misspeltKeywords } from './schemaKeywords.ts';
import * as generatedCode from './contractValidators.cjs';

const VOCABULARY = ['x-section', 'x-aliases', 'x-bullets', 'x-heading-items', 'x-list-separators', 'x-reference', 'x-declares', 'x-l10n', 'markdownDescription', 'enumDescriptions', 'defaultSnippets'];

/**
 * `pattern` and `patternProperties` of user-written schemas (tool input/output schemas run by the
 * dry run) match on RE2, never on a backtracking engine: `^(a+)+$` stays linear. A pattern RE2
 * cannot compile (lookaround, backreferences) is a compile error of the schema.
 */
const re2RegExp = Object.assign(
  (pattern: string, flags: string) => {
    const re = RE2JS.compile(pattern, flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
    // ajv caches compiled patterns by `toString()`: it must name the pattern.
    return { test: (s: string) => re.matcher(s).find(), toString: () => `/${pattern}/${flags}` };
  },
  { code: 'RE2JS' },
);

/** The drafts a user-written schema may name in `$schema` (docs/contract-format.md), each with its own ajv class. */
type Draft = '2020-12' | '2019-09' | 'draft-07' | 'draft-04';

/**
 * The keywords ajv's strict mode found unknown while a user schema compiles (`requried`), collected
 * only during `checkJsonSchema`'s compile; otherwise its warnings are dropped.
 */
let unknownKeywords: Set<string> | undefined;
const strictLogger = {
  log: () => undefined,
  warn: (msg: unknown) => {
    const m = /unknown keyword: "([^"]*)"/.exec(String(msg));
    if (m && unknownKeywords) unknownKeywords.add(m[1]!);
  },
  error: () => undefined,
};

/**
 * `regExpCode`: ajv writes the validators' code (`code.source`, for the generated contract
 * validators), naming the RE2 function by this expression.
 */
function createAjv(verbose = false, draft: Draft = '2020-12', regExpCode?: string): Ajv2020 {
  const regExp = regExpCode === undefined ? re2RegExp : Object.assign((p: string, f: string) => re2RegExp(p, f), { code: regExpCode });
  const options = { allErrors: true, verbose, strict: false, strictSchema: 'log', logger: strictLogger, allowUnionTypes: true, validateSchema: false, code: { regExp, source: regExpCode !== undefined, lines: regExpCode !== undefined } } as const;
  const ajv = draft === '2019-09' ? new Ajv2019(options) : draft === 'draft-07' ? new Ajv07(options) : draft === 'draft-04' ? new AjvDraft04(options) : new Ajv2020(options);
  // The draft-07 class reads draft-06 schemas too, once it knows their meta-schema.
  if (draft === 'draft-07') ajv.addMetaSchema(draft06MetaSchema);
  (addFormats as unknown as (a: typeof ajv) => void)(ajv);
  ajv.addVocabulary(VOCABULARY);
  return ajv as Ajv2020;
}

/** The draft a schema's `$schema` names: 2020-12 when it names none; undefined for an unknown one. */
function draftOf(schema: object): Draft | undefined {
  const id = (schema as { $schema?: unknown }).$schema;
  if (id === undefined) return '2020-12';
  if (typeof id !== 'string') return undefined;
  const m = /^https?:\/\/json-schema\.org\/(?:draft-(0[467])\/schema|draft\/(2019-09|2020-12)\/schema)#?$/.exec(id);
  if (!m) return undefined;
  return m[2] ? (m[2] as Draft) : m[1] === '04' ? 'draft-04' : 'draft-07';
}

const userAjv = new Map<Draft, Ajv2020>();
/** The ajv instance for a user-written schema's draft (created on first use). */
function ajvFor(draft: Draft): Ajv2020 {
  let a = userAjv.get(draft);
  if (!a) userAjv.set(draft, (a = createAjv(false, draft)));
  return a;
}

/**
 * One validator per property of the contract schema (a section or a front-matter key), and
 * `items` for an array section whose schema checks nothing of the array but its type and its
 * items (every array section): its items are validated one by one.
 */
interface PropertyValidator {
  readonly whole: ValidateFunction;
  readonly items?: ValidateFunction;
  /** Where the items' schema is, as the whole validator's `schemaPath`s say it. */
  readonly itemsPath?: string;
}
let propertyValidators: ReadonlyMap<string, PropertyValidator> | undefined;
/** Each section value's (and array item's) errors, relative to it, while it is the same object (an edit elsewhere leaves it untouched). */
const valueErrors = new WeakMap<object, Map<string, readonly ErrorObject[]>>();
/** How many times ajv has validated a value of each property (`tools`) or an item (`tools/items`): tests count them (docs/performance.md). */
const validations = new Map<string, number>();
export const schemaValidations = (key: string): number => validations.get(key) ?? 0;

/** The keywords of an array section's schema that validate nothing (ids, annotations, our vocabulary). */
const ANNOTATIONS = new Set(['$schema', '$id', 'title', 'description', 'markdownDescription', 'examples', '$comment', ...VOCABULARY]);

/** What is validated per property: its schema, and its items' schema (and where it is) for an array section validated item by item. */
interface PropertyPlan {
  readonly key: string;
  readonly schema: JsonSchema;
  readonly items?: { readonly schema: object; readonly path: string };
}
function propertyPlan(): PropertyPlan[] {
  return Object.entries((contractSchema as { properties: Record<string, JsonSchema> }).properties).map(([key, schema]) => {
    const ref = schema['$ref'];
    const section = typeof ref === 'string' ? sectionSchemas.find((x) => x['$id'] === ref) : undefined;
    const perItem = section?.['type'] === 'array' && section['items'] !== undefined && Object.keys(section).every((w) => w === 'type' || w === 'items' || ANNOTATIONS.has(w) || w.startsWith('x-'));
    // Compiled on their own (the section schemas have no `$ref` for them to resolve against their root).
    const items = perItem && !JSON.stringify(section['items']).includes('"$ref"') ? { schema: section['items'] as object, path: `${String(ref)}/items` } : undefined;
    return { key, schema, ...(items ? { items } : {}) };
  });
}

/**
 * Compiles the contract's validators at run time, keyed by property (`tools`) and by an array
 * section's items (`tools/items`): what scripts/contractValidators.ts writes as standalone code
 * (`regExpCode` given), and what test/contractValidators.test.ts compares the generated ones with.
 */
export function compileContractValidators(regExpCode?: string): { readonly ajv: Ajv2020; readonly validators: Record<string, ValidateFunction> } {
  // `verbose` keeps the offending value and its schema on each error: messages quote the value and the schema's example.
  const ajv = createAjv(true, '2020-12', regExpCode);
  for (const s of sectionSchemas) ajv.addSchema(s as object);
  const validators: Record<string, ValidateFunction> = {};
  // Each under its key as its id, which standalone code names it by (the schemas' `$ref`s are absolute).
  const add = (key: string, schema: object) => (validators[key] = ajv.addSchema(schema, key).getSchema(key)!);
  for (const { key, schema, items } of propertyPlan()) {
    add(key, schema);
    if (items) add(`${key}/items`, items.schema);
  }
  return { ajv, validators };
}

let generated: Readonly<Record<string, ValidateFunction>> | undefined;
/**
 * The contract's validators, generated at build time (`npm run generate`), keyed as
 * `compileContractValidators` keys them: a command that validates a contract compiles no schema
 * of ours (docs/performance.md, "Start-up").
 */
export const contractValidators = (): Readonly<Record<string, ValidateFunction>> => (generated ??= generatedCode.contract(re2RegExp));

function loadProperties(): ReadonlyMap<string, PropertyValidator> {
  const validators = contractValidators();
  const out = new Map<string, PropertyValidator>();
  for (const { key, items } of propertyPlan()) {
    out.set(key, { whole: validators[key]!, ...(items ? { items: validators[`${key}/items`]!, itemsPath: items.path } : {}) });
  }
  return out;
}

/** `value`'s errors under `key` (relative to it), kept while it is the same object. */
function errorsOf(value: unknown, key: string, validate: ValidateFunction): readonly ErrorObject[] {
  const keep = value !== null && typeof value === 'object';
  const cached = keep ? valueErrors.get(value)?.get(key) : undefined;
  if (cached) return cached;
  validations.set(key, (validations.get(key) ?? 0) + 1);
  validate(value);
  const errors = validate.errors ?? [];
  if (keep) {
    let perKey = valueErrors.get(value);
    if (!perKey) valueErrors.set(value, (perKey = new Map()));
    perKey.set(key, errors);
  }
  return errors;
}

/** Errors relative to a value, from the root; `schemaPath` as the whole section's validator says it when `schemaAt` is given. */
const prefixed = (errors: readonly ErrorObject[], prefix: string, schemaAt?: string) =>
  errors.map((e) => ({ ...e, instancePath: prefix + e.instancePath, ...(schemaAt ? { schemaPath: schemaAt + e.schemaPath.slice(1) } : {}) }));

/** The schema errors of one property of the contract data, or of one item of an array section (`index`), from the root. */
export interface DataErrors {
  readonly key: string;
  readonly index?: number;
  readonly errors: readonly ErrorObject[];
}

/**
 * Validates contract data against the contract schema, property by property: the schema has no
 * constraint across properties, so this gives ajv's errors for the whole object (its unknown
 * keys aside, which unknown-field reports), with each error's `instancePath` from the root,
 * grouped by property and by item of an array section (groups without errors left out). A value
 * that is the same object as at the last call is not validated again, nor is an item of an array
 * section: typing in one tool re-validates that tool only (docs/performance.md).
 */
export function contractDataErrors(data: Readonly<Record<string, unknown>>): DataErrors[] {
  propertyValidators ??= loadProperties();
  const out: DataErrors[] = [];
  for (const [key, { whole, items, itemsPath }] of propertyValidators) {
    if (!(key in data)) continue;
    const value = data[key];
    const prefix = `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!items || !Array.isArray(value)) {
      const errors = errorsOf(value, key, whole);
      if (errors.length > 0) out.push({ key, errors: prefixed(errors, prefix) });
      continue;
    }
    // The array's type holds; ajv (allErrors) would report its items' errors in order.
    for (let i = 0; i < value.length; i++) {
      const errors = errorsOf(value[i], `${key}/items`, items);
      if (errors.length > 0) out.push({ key, index: i, errors: prefixed(errors, `${prefix}/${i}`, itemsPath) });
    }
  }
  return out;
}

/** `contractDataErrors` as one list. */
export function validateContractData(data: Readonly<Record<string, unknown>>): readonly ErrorObject[] {
  return contractDataErrors(data).flatMap((g) => g.errors);
}

/**
 * A problem of a user-written JSON Schema: where (JSON Pointer inside the schema, '' for its root)
 * and the meta-schema error, or `notObject` (neither an object nor a boolean), or the compiler's
 * own message (an unresolvable `$ref`, a bad pattern).
 */
export type SchemaProblem =
  | { readonly path: string; readonly error: ErrorObject }
  | { readonly path: ''; readonly notObject: true }
  | { readonly path: string; readonly compileError: string }
  /** `$schema` names a draft we do not know, or `"$ref": "#"` loops back to the root (`refLoop`). */
  | { readonly path: string; readonly variant: 'unknownDraft' | 'refLoop'; readonly detail: string }
  /** A keyword ajv's strict mode does not know that is a near miss of one it does (`requried`). */
  | { readonly path: string; readonly variant: 'misspeltKeyword'; readonly detail: string; readonly suggestion: string };

export const META_2020 = 'https://json-schema.org/draft/2020-12/schema';

/**
 * The 2020-12 meta-schema's validator as `validateSchema` compiles it for a user-written schema
 * (keyed `2020-12`): what scripts/contractValidators.ts writes as standalone code (`regExpCode`
 * given), and what test/contractValidators.test.ts compares the generated one with.
 */
export function compileMetaSchema(regExpCode?: string): { readonly ajv: Ajv2020; readonly validators: Record<string, ValidateFunction> } {
  const ajv = createAjv(false, '2020-12', regExpCode);
  return { ajv, validators: { '2020-12': ajv.getSchema(META_2020)! } };
}

let generatedMeta: ValidateFunction | undefined;
/** The 2020-12 meta-schema's validator, generated at build time (`npm run generate`). */
export const metaSchemaValidator = (): ValidateFunction => (generatedMeta ??= generatedCode.metaSchema(re2RegExp)['2020-12']!);

/**
 * The configuration file's validator (schemas/config.schema.json, keyed `config`), compiled at run
 * time with the options `validateConfig` reads its errors by: what scripts/contractValidators.ts
 * writes as standalone code (`source`), and what test/contractValidators.test.ts compares the
 * generated one with.
 */
export function compileConfigValidator(source = false): { readonly ajv: Ajv2020; readonly validators: Record<string, ValidateFunction> } {
  const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true, code: { source, lines: source } });
  return { ajv, validators: { config: ajv.addSchema(configSchema as object, 'config').getSchema('config')! } };
}

let generatedConfig: ValidateFunction | undefined;
/** The configuration file's validator, generated at build time (`npm run generate`): a run that reads a config file compiles no schema (about 75 ms). */
export const configValidator = (): ValidateFunction => (generatedConfig ??= generatedCode.config(re2RegExp)['config']!);

/**
 * The meta-schema errors of a schema of `draft` (undefined when it is valid), as `validateSchema`
 * gives them; by the generated validator when `$schema` is absent or names 2020-12 as ajv knows it.
 */
function metaSchemaErrors(schema: object, draft: Draft): readonly ErrorObject[] | undefined {
  const id = (schema as { $schema?: unknown }).$schema;
  const validate = draft === '2020-12' && (id === undefined || id === META_2020 || id === `${META_2020}#`) ? metaSchemaValidator() : undefined;
  if (validate) return validate(schema) ? undefined : (validate.errors ?? []);
  const ajv = ajvFor(draft);
  return ajv.validateSchema(schema) ? undefined : (ajv.errors ?? []);
}

const schemaChecks = new Lru<string, SchemaProblem[]>(500);

/**
 * Checks that a value is a valid JSON Schema (draft 2020-12 meta-schema, plus a compile, which
 * catches unresolvable `$ref`s and bad patterns). Returns the problems, empty when valid.
 */
export function checkJsonSchema(schema: unknown): SchemaProblem[] {
  const key = JSON.stringify(schema) ?? 'undefined';
  const hit = schemaChecks.get(key);
  if (hit) return hit;
  const result = checkJsonSchemaUncached(schema);
  schemaChecks.set(key, result);
  return result;
}

function checkJsonSchemaUncached(schema: unknown): SchemaProblem[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return typeof schema === 'boolean' ? [] : [{ path: '', notObject: true }];
  }
  const draft = draftOf(schema);
  if (!draft) return [{ path: '/$schema', variant: 'unknownDraft', detail: JSON.stringify((schema as { $schema?: unknown }).$schema) }];
  const metaAjv = ajvFor(draft);
  const metaErrors = metaSchemaErrors(schema, draft);
  if (metaErrors) {
    // The most specific error first: anyOf/oneOf wrap the errors of their branches.
    const errors = [...metaErrors].sort((a, b) => Number(a.keyword === 'anyOf' || a.keyword === 'oneOf') - Number(b.keyword === 'anyOf' || b.keyword === 'oneOf'));
    return errors.map((e) => ({ path: e.instancePath, error: e }));
  }
  // A fresh copy: ajv caches compiled schemas by object, and a cached one logs nothing.
  const copy = JSON.parse(JSON.stringify(schema)) as object;
  const unknown = new Set<string>();
  unknownKeywords = unknown;
  try {
    metaAjv.compile(copy);
    metaAjv.removeSchema(copy);
  } catch (e) {
    return [{ path: '', compileError: String((e as Error).message).split('\n')[0]! }];
  } finally {
    unknownKeywords = undefined;
  }
  const loop = selfReferenceLoop(schema);
  if (loop !== undefined) return [{ path: `${loop}/$ref`, variant: 'refLoop', detail: '#' }];
  return misspeltKeywords(schema, unknown, Object.keys(metaAjv.RULES.all));
}

const compiled = new WeakMap<object, ValidateFunction | null>();

/**
 * The compiled validator of a contract's JSON Schema (a tool's input or output schema, an output
 * schema), cached per schema object; undefined when the schema does not compile (the validator
 * reports that schema at its place).
 */
export function compiledSchema(schema: object): ValidateFunction | undefined {
  let v = compiled.get(schema);
  if (v === undefined) {
    try {
      const draft = draftOf(schema);
      v = draft && selfReferenceLoop(schema) === undefined ? ajvFor(draft).compile(schema) : null;
    } catch {
      v = null;
    }
    compiled.set(schema, v);
  }
  return v ?? undefined;
}

/**
 * Where a schema refers to its root again before any keyword that moves into the value
 * (`{ "$ref": "#" }`, `{ "allOf": [{ "$ref": "#" }] }`): checking a value would recurse forever
 * (a `RangeError` in ajv). The pointer of that `$ref`, or undefined.
 */
function selfReferenceLoop(schema: object, at = ''): string | undefined {
  const s = schema as Record<string, unknown>;
  if (s['$ref'] === '#') return at;
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const list = s[key];
    if (!Array.isArray(list)) continue;
    for (const [i, sub] of list.entries()) {
      const hit = sub && typeof sub === 'object' ? selfReferenceLoop(sub as object, `${at}/${key}/${i}`) : undefined;
      if (hit !== undefined) return hit;
    }
  }
  for (const key of ['not', 'if', 'then', 'else']) {
    const sub = s[key];
    const hit = sub && typeof sub === 'object' ? selfReferenceLoop(sub as object, `${at}/${key}`) : undefined;
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** Validates data against an already valid JSON Schema (used for examples). */
export function validateAgainst(schema: object, data: unknown): readonly ErrorObject[] {
  const v = compiledSchema(schema);
  if (!v || v(data)) return [];
  return v.errors ?? [];
}

export type { ErrorObject };

import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { RE2JS } from 're2js';
import { Lru } from '../util/lru.ts';
import { contractSchema, sectionSchemas, type JsonSchema } from '../schema/schemas.ts';

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

function createAjv(verbose = false): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, verbose, strict: false, allowUnionTypes: true, validateSchema: false, code: { regExp: re2RegExp } });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addVocabulary(VOCABULARY);
  return ajv;
}

// `verbose` keeps the offending value and its schema on each error: messages quote the value and the schema's example.
const ajv = createAjv(true);
for (const s of sectionSchemas) ajv.addSchema(s as object);
let contractValidator: ValidateFunction | undefined;

/** The compiled contract schema (compiled once per process, on first use). */
export function validateContractData(data: unknown): readonly ErrorObject[] {
  contractValidator ??= ajv.compile(contractSchema as object);
  contractValidator(data);
  return contractValidator.errors ?? [];
}

const metaAjv = createAjv();
/**
 * A problem of a user-written JSON Schema: where (JSON Pointer inside the schema, '' for its root)
 * and the meta-schema error, or `notObject` (neither an object nor a boolean), or the compiler's
 * own message (an unresolvable `$ref`, a bad pattern).
 */
export type SchemaProblem =
  | { readonly path: string; readonly error: ErrorObject }
  | { readonly path: ''; readonly notObject: true }
  | { readonly path: ''; readonly compileError: string };

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
  const ok = metaAjv.validateSchema(schema as JsonSchema as object);
  if (!ok) {
    // The most specific error first: anyOf/oneOf wrap the errors of their branches.
    const errors = [...(metaAjv.errors ?? [])].sort((a, b) => Number(a.keyword === 'anyOf' || a.keyword === 'oneOf') - Number(b.keyword === 'anyOf' || b.keyword === 'oneOf'));
    return errors.map((e) => ({ path: e.instancePath, error: e }));
  }
  try {
    metaAjv.compile(schema as object);
    metaAjv.removeSchema(schema as object);
  } catch (e) {
    return [{ path: '', compileError: String((e as Error).message).split('\n')[0]! }];
  }
  return [];
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
      v = metaAjv.compile(schema);
    } catch {
      v = null;
    }
    compiled.set(schema, v);
  }
  return v ?? undefined;
}

/** Validates data against an already valid JSON Schema (used for examples). */
export function validateAgainst(schema: object, data: unknown): readonly ErrorObject[] {
  const v = compiledSchema(schema);
  if (!v || v(data)) return [];
  return v.errors ?? [];
}

export type { ErrorObject };

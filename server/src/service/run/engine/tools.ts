/**
 * Tool calls in the dry run (docs/dry-run.md "The pipeline", step 4): arguments
 * checked against the tool's `input_schema` with ajv (the expected and actual values go back to
 * the model as `INVALID_INPUT`), the snapshot's mock chosen by its `match`, results checked
 * against `output_schema` and truncated. Pure helpers; the loop is in engine.ts.
 */
import type { ErrorObject } from 'ajv';
import type { ToolMock } from '../snapshot/snapshot.ts';
import { compiledSchema } from '../../validate/ajv.ts';
import { equal } from './expression.ts';
import type { MessageRef } from '../runMessage.ts';

/** The first mock whose `match` is contained in `args` (by value); a mock without `match` matches any call. */
export function findMock(mocks: readonly ToolMock[] | undefined, args: unknown): ToolMock | undefined {
  const a = args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  return (mocks ?? []).find((m) => !m.match || Object.entries(m.match).every(([k, v]) => Object.prototype.hasOwnProperty.call(a, k) && equal(a[k], v)));
}

/** A schema check that failed: ajv's first error, as "expected" (the rule, a message) and "got" (the value). */
export interface SchemaProblem {
  /** Where in the value, e.g. `/sku` (empty for the value itself). */
  readonly at: string;
  /** `expected.<keyword>`; `expected.rule` quotes ajv's own message for the other keywords. */
  readonly expected: MessageRef;
  readonly got: string;
}

/** The value at a JSON Pointer inside `data`, as short JSON text (`undefined` when absent). */
function valueAt(data: unknown, pointer: string): string {
  let v: unknown = data;
  for (const seg of pointer.split('/').slice(1)) {
    const key = seg.replace(/~1/g, '/').replace(/~0/g, '~');
    v = v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  }
  const text = v === undefined ? 'undefined' : JSON.stringify(v);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

function describe(e: ErrorObject, data: unknown): SchemaProblem {
  const params = e.params as { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] };
  const path = e.instancePath || '/';
  if (e.keyword === 'required' && params.missingProperty) return { at: `${e.instancePath}/${params.missingProperty}`, expected: { id: 'expected.required', args: { path, property: params.missingProperty } }, got: 'undefined' };
  if (e.keyword === 'additionalProperties' && params.additionalProperty) return { at: `${e.instancePath}/${params.additionalProperty}`, expected: { id: 'expected.additional', args: { path, property: params.additionalProperty } }, got: valueAt(data, `${e.instancePath}/${params.additionalProperty}`) };
  const expected: MessageRef = e.keyword === 'enum' ? { id: 'expected.enum', args: { path, values: (params.allowedValues ?? []).map((x) => JSON.stringify(x)).join(', ') } } : { id: 'expected.rule', args: { path, rule: e.message ?? e.keyword } };
  return { at: e.instancePath, expected, got: valueAt(data, e.instancePath) };
}

/** The detail of a check that could not be made: the schema does not compile (lint's `invalid-json-schema`). */
export const SCHEMA_UNUSABLE: MessageRef = { id: 'detail.schema-unusable', args: {} };

/** Whether a contract schema compiles, so that a check against it means something. */
export function schemaUsable(schema: Readonly<Record<string, unknown>> | undefined): boolean {
  return !schema || compiledSchema(schema) !== undefined;
}

/**
 * Checks `data` against a contract schema. Undefined when it passes, or when there is no schema
 * or it does not compile (the linter reports such a schema; the run does not guess).
 */
export function schemaProblem(schema: Readonly<Record<string, unknown>> | undefined, data: unknown): SchemaProblem | undefined {
  if (!schema) return undefined;
  const validate = compiledSchema(schema);
  if (!validate || validate(data)) return undefined;
  const errors = [...(validate.errors ?? [])].sort((a, b) => Number(a.keyword === 'anyOf' || a.keyword === 'oneOf') - Number(b.keyword === 'anyOf' || b.keyword === 'oneOf'));
  return errors[0] ? describe(errors[0], data) : { at: '', expected: { id: 'expected.valid', args: {} }, got: valueAt(data, '') };
}

/** Text cut to `max` characters (default 1200), with the lengths shown and kept. */
export function truncate(text: string, max: number): { readonly text: string; readonly truncated: boolean; readonly total: number } {
  if (text.length <= max) return { text, truncated: false, total: text.length };
  return { text: text.slice(0, max), truncated: true, total: text.length };
}

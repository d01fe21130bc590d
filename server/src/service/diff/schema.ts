/**
 * Compares two JSON Schemas the way their users see them (docs/semantic-diff.md, "Schemas"): a
 * tool's input schema is what callers must send, so accepting less is breaking; an output schema
 * (a tool's result, OUTPUT_SCHEMA, the output_format constraint) is what consumers read, so
 * guaranteeing less or allowing more is breaking. Properties are matched by name; a property
 * removed and another added with the same schema is a rename. Keywords this module cannot judge
 * (`anyOf`, `$ref`, …) are reported as a change of unknown compatibility, which counts as breaking.
 */
import type { DiffBuilder, FieldRef, Scope } from './builder.ts';
import { kindOf, segment } from './builder.ts';
import type { FieldDiff } from './fields.ts';
import { asObject, keysOf } from './fields.ts';
import { matchItems } from './match.ts';
import { brief, canonical, same } from './normalise.ts';
import type { RuleId } from './rules.ts';

/** Whose schema it is: callers send `input`; consumers read `output`. */
export type SchemaDirection = 'input' | 'output';

const RULES = {
  input: {
    narrowed: 'input-type-narrowed', widened: 'input-type-widened', changed: 'input-schema-changed', removed: 'input-property-removed',
    renamed: 'input-property-renamed', addedRequired: 'input-property-required-added', addedOptional: 'input-property-optional-added',
    nowRequired: 'input-property-now-required', nowOptional: 'input-property-now-optional',
  },
  output: {
    narrowed: 'output-type-narrowed', widened: 'output-type-widened', changed: 'output-schema-changed', removed: 'output-property-removed',
    renamed: 'output-property-renamed', addedRequired: 'output-property-added', addedOptional: 'output-property-added',
    nowRequired: 'output-property-now-required', nowOptional: 'output-property-now-optional',
  },
} as const satisfies Record<SchemaDirection, Record<string, RuleId>>;

/** Keywords that only document: any change among them is one `doc-changed`. */
const DOC = new Set(['description', 'title', 'examples', 'example', 'default', '$comment', 'deprecated', 'readOnly', 'writeOnly', 'x-aliases', 'x-l10n']);
/** Lower bounds (a larger value accepts less) and upper bounds (a smaller value accepts less). */
const LOWER = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
const UPPER = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);
/** Keywords whose presence restricts and whose absence does not; a changed value cannot be judged. */
const RESTRICTING = new Set(['pattern', 'format', 'uniqueItems', 'const', 'additionalProperties']);
/** Keywords walked structurally. */
const STRUCTURE = new Set(['type', 'enum', 'properties', 'required', 'items']);

type Verdict = 'narrowed' | 'widened' | 'changed' | undefined;

/**
 * A JSON Schema field (`input_schema`, `output_schema`, OUTPUT_SCHEMA's value). `owner` names
 * whose schema it is in messages (a tool, `OUTPUT_SCHEMA`); a `qualified` identity also names the
 * field (`check_inventory.input_schema.sku` rather than `OUTPUT_SCHEMA.items`).
 */
export function schema(direction: SchemaDirection, owner: (scope: Scope) => string, qualified: boolean): FieldDiff {
  return (d, scope, ref, b, a) => {
    if (same(b, a)) return;
    const label = owner(scope);
    walk({ d, scope, ref, rules: RULES[direction], label, prefix: qualified ? `${label}.${ref.name}` : label, root: qualified ? ref.name : label }, '', '', b ?? {}, a ?? {});
  };
}

interface Walk {
  readonly d: DiffBuilder;
  readonly scope: Scope;
  readonly ref: FieldRef;
  readonly rules: (typeof RULES)[SchemaDirection];
  /** Whose schema it is, for messages. */
  readonly label: string;
  /** The identity of the schema's root; properties append `.name`. */
  readonly prefix: string;
  /** The schema's root as a "property" in messages. */
  readonly root: string;
}

/** Compares the schemas at relative pointer `rel` (display path `prop`). */
function walk(w: Walk, rel: string, prop: string, b: unknown, a: unknown, aRel = rel): void {
  const bo = asObject(b);
  const ao = asObject(a);
  if (!bo || !ao) {
    if (!same(b, a)) emit(w, w.rules.changed, 'changed', rel, aRel, prop, b, a, { keyword: 'schema' });
    return;
  }
  let docChanged = false;
  for (const k of keysOf(bo, ao)) {
    const x = bo[k];
    const y = ao[k];
    if (STRUCTURE.has(k) || same(x, y)) continue;
    if (DOC.has(k)) docChanged = true;
    else judge(w, rel, aRel, prop, k, x, y, verdictOf(k, x, y));
  }
  if (docChanged) {
    w.d.report('doc-changed', 'changed', w.scope, {
      field: w.ref.name, itemKind: 'schema-property', identity: identity(w, prop), path: pathOf(w, rel),
      before: { pointer: w.ref.before + rel, value: bo }, after: { pointer: w.ref.after + aRel, value: ao },
      args: { name: identity(w, prop), field: 'description' },
    });
  }
  judge(w, rel, aRel, prop, 'type', bo['type'], ao['type'], setVerdict(types(bo['type']), types(ao['type'])));
  judge(w, rel, aRel, prop, 'enum', bo['enum'], ao['enum'], setVerdict(list(bo['enum']), list(ao['enum'])));
  properties(w, rel, aRel, prop, bo, ao);
  if (!same(bo['items'], ao['items'])) walk(w, `${rel}/items`, `${prop}[]`, bo['items'] ?? {}, ao['items'] ?? {}, `${aRel}/items`);
}

/** Reports a keyword's verdict under the direction's rules. */
function judge(w: Walk, rel: string, aRel: string, prop: string, keyword: string, x: unknown, y: unknown, verdict: Verdict): void {
  if (!verdict) return;
  emit(w, w.rules[verdict], kindOf(x, y), `${rel}/${segment(keyword)}`, `${aRel}/${segment(keyword)}`, prop, x, y, { keyword });
}

/** Whether a keyword's change makes the schema accept less, more, or something else. */
function verdictOf(k: string, x: unknown, y: unknown): Verdict {
  const nx = typeof x === 'number' ? x : undefined;
  const ny = typeof y === 'number' ? y : undefined;
  if (LOWER.has(k) || UPPER.has(k)) {
    if (x === undefined) return 'narrowed';
    if (y === undefined) return 'widened';
    if (nx === undefined || ny === undefined) return 'changed';
    return (LOWER.has(k) ? ny > nx : ny < nx) ? 'narrowed' : 'widened';
  }
  if (RESTRICTING.has(k)) {
    // `additionalProperties: true` and `uniqueItems: false` restrict nothing, like absence.
    const open = (v: unknown) => v === undefined || v === true || (k === 'uniqueItems' && v === false);
    if (open(x) && !open(y)) return 'narrowed';
    if (!open(x) && open(y)) return 'widened';
    return 'changed';
  }
  return 'changed';
}

/** Sets of allowed values: fewer is narrowed, more is widened. `undefined` means unrestricted. */
function setVerdict(x: Set<string> | undefined, y: Set<string> | undefined): Verdict {
  if (!x && !y) return undefined;
  if (!x) return 'narrowed';
  if (!y) return 'widened';
  const xInY = [...x].every((v) => y.has(v));
  const yInX = [...y].every((v) => x.has(v));
  return xInY && yInX ? undefined : yInX ? 'narrowed' : xInY ? 'widened' : 'changed';
}

/** The JSON types a `type` keyword allows; `number` includes `integer`. */
function types(t: unknown): Set<string> | undefined {
  const ts = typeof t === 'string' ? [t] : Array.isArray(t) ? t.map(String) : undefined;
  if (!ts) return undefined;
  const s = new Set(ts);
  if (s.has('number')) s.add('integer');
  return s;
}

function list(v: unknown): Set<string> | undefined {
  return Array.isArray(v) ? new Set(v.map(canonical)) : undefined;
}

interface Prop {
  readonly name: string;
  readonly schema: unknown;
  readonly required: boolean;
}

function props(o: Record<string, unknown>): Prop[] {
  const required = new Set(Array.isArray(o['required']) ? o['required'].map(String) : []);
  const ps = asObject(o['properties']) ?? {};
  return Object.entries(ps).map(([name, schema]) => ({ name, schema, required: required.has(name) }));
}

/** Properties matched by name, then by identical schema (a rename). */
function properties(w: Walk, rel: string, aRel: string, prop: string, bo: Record<string, unknown>, ao: Record<string, unknown>): void {
  const bp = props(bo);
  const ap = props(ao);
  if (bp.length === 0 && ap.length === 0) return;
  const m = matchItems(bp, ap, { keys: [(p) => p.name], content: (p) => canonical(p.schema) });
  const sub = (r: string, p: Prop) => `${r}/properties/${segment(p.name)}`;
  const name = (p: Prop) => (prop ? `${prop}.${p.name}` : p.name);
  for (const pair of m.pairs) {
    const x = pair.before;
    const y = pair.after;
    if (pair.by === 'content') emit(w, w.rules.renamed, 'renamed', sub(rel, x), sub(aRel, y), name(y), x.name, y.name, {});
    if (x.required !== y.required) {
      emit(w, y.required ? w.rules.nowRequired : w.rules.nowOptional, 'changed', sub(rel, x), sub(aRel, y), name(y), x.required, y.required, { keyword: 'required' });
    }
    if (!same(x.schema, y.schema)) walk(w, sub(rel, x), name(y), x.schema, y.schema, sub(aRel, y));
  }
  for (const r of m.removed) emit(w, w.rules.removed, 'removed', sub(rel, r.item), aRel, name(r.item), r.item.schema, undefined, {});
  for (const x of m.added) emit(w, x.item.required ? w.rules.addedRequired : w.rules.addedOptional, 'added', rel, sub(aRel, x.item), name(x.item), undefined, x.item.schema, {});
}

function identity(w: Walk, prop: string): string {
  return prop ? `${w.prefix}.${prop}` : w.prefix;
}

function pathOf(w: Walk, rel: string): string {
  return `${w.scope.path}/${segment(w.ref.name)}${rel}`;
}

/**
 * Reports one schema change. `bRel`/`aRel` point at the value on each side (where it would be,
 * when absent); the logical path follows the before side unless the value is new.
 */
function emit(w: Walk, rule: RuleId, kind: 'added' | 'removed' | 'changed' | 'renamed', bRel: string, aRel: string, prop: string, x: unknown, y: unknown, args: Record<string, string>): void {
  w.d.report(rule, kind, w.scope, {
    field: w.ref.name,
    itemKind: 'schema-property',
    identity: identity(w, prop),
    path: pathOf(w, x === undefined ? aRel : bRel),
    before: { pointer: w.ref.before + bRel, value: x },
    after: { pointer: w.ref.after + aRel, value: y },
    args: { schema: w.label, property: prop || w.root, before: brief(x), after: brief(y), ...args },
  });
}

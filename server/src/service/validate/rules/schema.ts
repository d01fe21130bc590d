import type { Rule, RuleContext } from '../rule.ts';
import { contractDataErrors, type ErrorObject } from '../ajv.ts';
import { schemaErrorMessage } from '../ajvMessages.ts';
import { sectionByKey } from '../../schema/sections.ts';
import { closest } from '../../schema/normalise.ts';
import { innerRange, textAt } from '../../model/text.ts';
import type { ParsedContract } from '../../parse/parseContract.ts';
import type { Range } from '../../types.ts';
import type { Finding } from '../../model/types.ts';

type Locate = RuleContext['locate'];
import { FM, itemLines, misspelt } from './util.ts';

// The schema rule: every value against the contract's JSON Schemas, one message per place, in the
// contract's own words (docs/contract-format.md §9), with a fix for a near-miss enum value.

/** The keyword that explains a group of errors at one place best: an enum says more than a type. */
const KEYWORD_RANK = ['required', 'enum', 'const', 'type', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'minItems', 'pattern'];
const rank = (k: string) => (KEYWORD_RANK.includes(k) ? KEYWORD_RANK.indexOf(k) : KEYWORD_RANK.length);

/** The name of an array item, as users call it: a tool's `name`, a HITL row's `scenario`. */
function itemName(item: unknown): string | undefined {
  const o = item && typeof item === 'object' ? (item as Record<string, unknown>) : undefined;
  for (const k of ['name', 'scenario', 'pool', 'layer', 'version', 'type']) {
    const v = o?.[k];
    if (typeof v === 'string' && v.trim()) return v.replace(/`/g, '').trim();
  }
  return undefined;
}

/**
 * Where a value is, in the contract's own words (docs/contract-format.md §9): `/tools/1/side_effects`
 * → ``TOOLS `create_refund`: side_effects``, `/budgets/max_steps` → `BUDGETS: max_steps`,
 * `/version` → `version`. Never a JSON Pointer.
 */
export function readablePath(pointer: string, data: Readonly<Record<string, unknown>>, label?: string): string {
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (parts.length === 0) return 'front matter';
  const spec = sectionByKey(parts[0]!);
  if (!spec) return parts.join('.');
  let where = spec.title;
  let rest = parts.slice(1);
  if (spec.shape === 'array' && rest.length > 0 && /^\d+$/.test(rest[0]!)) {
    const index = Number(rest[0]);
    const name = itemName((data[spec.key] as unknown[] | undefined)?.[index]);
    where += name ? ` \`${name}\`` : ` #${index + 1}`;
    rest = rest.slice(1);
  }
  // The field as the user labelled it (`Side Effects`), when the value has a label of its own.
  if (label && rest.length > 0 && !/^\d+$/.test(rest[rest.length - 1]!)) rest = [...rest.slice(0, -1), label];
  const field = rest.map((p, k) => (/^\d+$/.test(p) ? `[${Number(p) + 1}]` : `${k > 0 ? '.' : ''}${p}`)).join('').replace(/\.\[/g, '[');
  return field ? `${where}: ${field}` : where;
}

export const schema: Rule = {
  code: 'schema',
  severity: 'error',
  fixKind: 'safe',
  summary: 'Values match the contract\'s JSON Schemas (types, enums, ranges, required fields).',
  description: 'Every section is validated against its schema in `schemas/sections/` with ajv; the error lands on the exact key or value, in a bullet, a table cell or a YAML block, and names the item (the tool, the HITL scenario) it belongs to. One wrong value gives one message, the most telling one (an allowed-values list rather than a type), naming the field by the label you wrote (`Side Effects`). A value close to an allowed one (`readx`) gets a "did you mean" and a fix; a duration without a unit names the units accepted, and its quick fix reads the number as seconds (`60` → `60s`). Hover a field to see what it accepts.',
  source: 'docs/contract-format.md §9; docs/schema-conventions.md',
  messages: {
    default: '{path}: {detail}.',
    frontMatter: 'The front matter must be a mapping of `key: value` lines.',
    required: '{path}: required field "{field}" is missing.',
    enum: '{path}: must be one of {allowed}.',
    enumValue: '{path}: must be one of {allowed}; {value} is not one of them.',
    enumSuggest: '{path}: must be one of {allowed}; {value} is not one of them. Did you mean "{suggestion}"?',
    duration: '{path}: {value} has no unit; write a duration such as {example} (units: {units}).',
    type: '{path}: must be of type {type}.',
    limit: '{path}: must be {comparison} {limit}.',
    empty: '{path}: must not be empty.',
    minLength: '{path}: must be at least {limit} characters long.',
    minItems: '{path}: must have at least {limit} items.',
    pattern: '{path}: must match the pattern {pattern}.',
    patternExample: '{path}: {value} does not have the expected form; write it like {example}.',
    format: '{path}: must be a valid {format}.',
  },
  examples: {
    bad: `${FM}\n## TOOLS\n\n### \`get_order\`\n\n- **Description**: Returns an order by id.\n- **Side Effects**: reed\n`,
    good: `${FM}\n## TOOLS\n\n### \`get_order\`\n\n- **Description**: Returns an order by id.\n- **Side Effects**: read\n`,
    at: `⟦reed⟧`,
    fixed: true,
  },
  *check({ model, data, locate, item }) {
    // An array section's item is checked on its own, and its findings kept while it is unchanged.
    for (const group of contractDataErrors(data)) {
      const find = () => schemaFindings(model, data, locate, group.errors);
      yield* group.index === undefined ? find() : item(group.key, group.index, find);
    }
  },
  fix: (d, model) => {
    // A near-miss enum value (`readx` → `read`) or a duration's missing unit (`60` → `60s`): only
    // the value's own text is replaced. The unit is a guess, so that fix is not `safe`.
    const raw = d.args?.['raw'];
    const unit = d.args?.['unit'];
    const suggestion = unit !== undefined && raw !== undefined ? `${raw}${unit}` : d.args?.['suggestion'];
    if (suggestion === undefined || raw === undefined) return undefined;
    const range = only(model, d.range, String(raw));
    return range ? { titleId: 'action.changeValue', titleArgs: { value: String(suggestion) }, edits: [{ range, newText: String(suggestion) }], safe: unit === undefined } : undefined;
  },
};

/** The findings of some schema errors: one message per place. */
function* schemaFindings(model: ParsedContract, data: Readonly<Record<string, unknown>>, locate: Locate, errors: readonly ErrorObject[]): Generator<Finding> {
  // One message per place: ajv reports `side_effects: true` as a type and an enum error.
  const best = new Map<string, ErrorObject>();
  for (const e of errors) {
    if (e.keyword === 'if' || e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    // Unknown keys are reported by unknown-field where they are read; skip ajv's copy.
    if (e.keyword === 'additionalProperties') continue;
    // Faults with a rule of their own are reported by that rule (invalid-version).
    if (e.instancePath === '/version' && e.keyword === 'pattern') continue;
    // A required field written with a misspelt label is unknown-field's finding (one mistake, one diagnostic).
    if (e.keyword === 'required' && misspeltHere(model, e.instancePath, String((e.params as Record<string, unknown>)['missingProperty']), locate)) continue;
    const key = e.keyword === 'required' ? `${e.instancePath}|required|${String((e.params as Record<string, unknown>)['missingProperty'])}` : e.instancePath;
    const prev = best.get(key);
    if (!prev || rank(e.keyword) < rank(prev.keyword)) best.set(key, e);
  }
  for (const e of best.values()) {
    const span = locate(e.instancePath);
    if (!span) continue;
    const own = locate(e.instancePath, true);
    const { variant, args } = schemaErrorMessage(e, readablePath(e.instancePath, data, own?.key ? userLabel(model, own.key) : undefined));
    const suggestion = variant === 'enumValue' ? enumSuggestion(e) : undefined;
    const range = variant === 'required' ? (span.key ?? span.value) : span.value;
    if (suggestion) yield { code: 'schema', range, args: { ...args, suggestion, raw: String(e.data) }, variant: 'enumSuggest' };
    // A bare number as a duration most often means seconds (other formats' `timeout_s`): offered, not applied unattended.
    else if (variant === 'duration') yield { code: 'schema', range, args: { ...args, raw: String(e.data), unit: 's' }, variant };
    else yield { code: 'schema', range, args, ...(variant ? { variant } : {}) };
  }
}

/** Whether `field` of the section or array item at `pointer` (`/failure_protocol/0`) was written with a misspelt label. */
function misspeltHere(model: ParsedContract, pointer: string, field: string, locate: Parameters<typeof itemLines>[3]): boolean {
  const [section, index] = pointer.split('/').slice(1);
  if (!section) return false;
  return misspelt(model, section, field, index !== undefined && /^\d+$/.test(index) ? itemLines(model, section, Number(index), locate) : undefined);
}

/** The range of `needle` inside `outer`, when it occurs there exactly once. */
export function only(model: ParsedContract, outer: Range, needle: string): Range | undefined {
  const text = textAt(model, outer);
  const at = needle ? text.indexOf(needle) : -1;
  if (at < 0 || text.lastIndexOf(needle) !== at) return undefined;
  return innerRange(model, outer, at, at + needle.length);
}

/** A label as written (`**Side Effects**:`, `side_effects:`, a table header) without its markup. */
function userLabel(model: ParsedContract, range: Range): string | undefined {
  const label = textAt(model, range).replace(/[`*|]/g, '').replace(/\s*[:：]\s*$/, '').trim();
  return label && label.length <= 40 && !label.includes('\n') ? label : undefined;
}

/** The allowed value a wrong string value most likely means (`readx` → `read`, `Write` → `write`). */
function enumSuggestion(e: ErrorObject): string | undefined {
  const p = e.params as Record<string, unknown>;
  const allowed = (Array.isArray(p['allowedValues']) ? p['allowedValues'] : [p['allowedValue']]).filter((v): v is string => typeof v === 'string');
  return typeof e.data === 'string' && e.data.trim() ? closest(e.data.trim().toLowerCase(), allowed) : undefined;
}

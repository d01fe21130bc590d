import type { ErrorObject } from 'ajv/dist/2020.js';

/** A value as the user wrote it, short: strings bare in backticks, others as JSON. */
function shown(v: unknown): string {
  const t = typeof v === 'string' ? v : JSON.stringify(v) ?? String(v);
  return `\`${t.length > 40 ? `${t.slice(0, 37)}…` : t}\``;
}

/**
 * An ajv error as a message variant of rule `schema` and its arguments, so that schema errors are
 * whole translatable templates rather than ajv's English text (docs/localisation.md). Keywords without a
 * variant keep ajv's text in `{detail}` (the `schema` default message); the contract schemas use
 * only the keywords mapped here. `path` is the readable location (`budgets.max_steps`).
 */
export function schemaErrorMessage(e: ErrorObject, path: string): { variant?: string; args: Record<string, string | number> } {
  const p = e.params as Record<string, unknown>;
  const list = (v: unknown) => (Array.isArray(v) ? v : [v]).map((x) => JSON.stringify(x)).join(', ');
  switch (e.keyword) {
    case 'required':
      return { variant: 'required', args: { path, field: String(p['missingProperty'] ?? '') } };
    case 'enum':
    case 'const': {
      const allowed = list(p['allowedValues'] ?? p['allowedValue'] ?? []);
      return 'data' in e ? { variant: 'enumValue', args: { path, allowed, value: shown(e.data) } } : { variant: 'enum', args: { path, allowed } };
    }
    case 'type':
      return { variant: 'type', args: { path, type: (Array.isArray(p['type']) ? p['type'] : String(p['type']).split(',')).join(' | ') } };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { variant: 'limit', args: { path, comparison: String(p['comparison']), limit: Number(p['limit']) } };
    case 'minLength':
      return Number(p['limit']) === 1 ? { variant: 'empty', args: { path } } : { variant: 'minLength', args: { path, limit: Number(p['limit']) } };
    case 'minItems':
      return { variant: 'minItems', args: { path, limit: Number(p['limit']) } };
    case 'pattern': {
      // A long regular expression tells a reader nothing: show an example of the form instead.
      const examples = (e.parentSchema as Record<string, unknown> | undefined)?.['examples'];
      const example = Array.isArray(examples) && examples.length > 0 ? shown(examples[0]) : undefined;
      const pattern = String(p['pattern']);
      const units = durationUnits(pattern);
      if (units && example && 'data' in e && /^\s*\d+(?:\.\d+)?\s*$/.test(String(e.data))) return { variant: 'duration', args: { path, value: shown(e.data), example, units } };
      if (example && 'data' in e) return { variant: 'patternExample', args: { path, value: shown(e.data), example } };
      return { variant: 'pattern', args: { path, pattern: pattern.length > 40 ? `${pattern.slice(0, 37)}…` : pattern } };
    }
    case 'format':
      return { variant: 'format', args: { path, format: String(p['format']) } };
    default:
      return { args: { path, detail: e.message ?? e.keyword } };
  }
}

/**
 * The short units a duration pattern accepts (`ms, s, m, h, d`), or undefined when the pattern is
 * not a duration's (the schemas write durations as a number and a unit, docs/contract-format.md).
 */
function durationUnits(pattern: string): string | undefined {
  const m = /^\^\\d\+\(\\\.\\d\+\)\?\\s\*\(([^)]*)\)\$$/.exec(pattern);
  if (!m) return undefined;
  const units = m[1]!.split('|').filter((u) => ['ms', 's', 'm', 'h', 'd'].includes(u));
  return units.length ? units.join(', ') : undefined;
}

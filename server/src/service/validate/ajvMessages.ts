import type { ErrorObject } from 'ajv/dist/2020.js';

/**
 * An ajv error as a message variant of rule `schema` and its arguments, so that schema errors are
 * whole translatable templates rather than ajv's English text (issue 6). Keywords without a
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
      return { variant: 'enum', args: { path, allowed: list(p['allowedValues'] ?? []) } };
    case 'const':
      return { variant: 'enum', args: { path, allowed: list(p['allowedValue']) } };
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
    case 'pattern':
      return { variant: 'pattern', args: { path, pattern: String(p['pattern']) } };
    case 'format':
      return { variant: 'format', args: { path, format: String(p['format']) } };
    default:
      return { args: { path, detail: e.message ?? e.keyword } };
  }
}

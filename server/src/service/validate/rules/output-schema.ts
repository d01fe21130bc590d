import type { Rule } from '../rule.ts';
import { arr, FM, obj, str } from './util.ts';
import { parseExpression, type PathStep } from '../../model/expression.ts';

export const confidenceRange: Rule = {
  code: 'confidence-range',
  severity: 'warning',
  summary: 'Confidence fields in OUTPUT_SCHEMA are numbers bounded to [0, 1].',
  description: 'An output verifier coerces or retries when `confidence_score` is `"high"` instead of a number in 0.0–1.0. Declare the bounds so that the verifier (and the dry run) can check them: `type: number, minimum: 0, maximum: 1`.',
  source: 'docs/contract-format.md §9, OUTPUT_SCHEMA',
  messages: { default: '"{field}" should be `type: number` with `minimum: 0` and `maximum: 1`.' },
  examples: {
    bad: `${FM}\n## OUTPUT_SCHEMA\n\n\`\`\`yaml\ntype: object\nproperties:\n  confidence_score:\n    type: number\n\`\`\`\n`,
    good: `${FM}\n## OUTPUT_SCHEMA\n\n\`\`\`yaml\ntype: object\nproperties:\n  confidence_score:\n    type: number\n    minimum: 0.0\n    maximum: 1.0\n\`\`\`\n`,
    at: `⟦confidence_score⟧`,
  },
  *check({ data, locate }) {
    const walk = function* (schema: unknown, pointer: string, depth: number): Generator<{ field: string; pointer: string }> {
      const s = obj(schema);
      if (!s || depth > 20) return;
      const props = obj(s['properties']);
      if (props) {
        for (const [k, v] of Object.entries(props)) {
          const p = `${pointer}/properties/${k}`;
          const ps = obj(v);
          if (/confidence/i.test(k) && ps) {
            const ok = ps['type'] === 'number' && typeof ps['minimum'] === 'number' && typeof ps['maximum'] === 'number' && (ps['minimum'] as number) >= 0 && (ps['maximum'] as number) <= 1;
            if (!ok) yield { field: k, pointer: p };
          }
          yield* walk(v, p, depth + 1);
        }
      }
      if (s['items']) yield* walk(s['items'], `${pointer}/items`, depth + 1);
    };
    for (const hit of walk(data['output_schema'], '/output_schema', 0)) {
      const span = locate(hit.pointer);
      if (span) yield { code: 'confidence-range', range: span.key ?? span.value, args: { field: hit.field } };
    }
  },
};

/** Every `output.…` path an expression reads, whatever its operators (a generic walk over the tree). */
function outputPaths(node: unknown, out: { steps: readonly PathStep[]; text: string }[] = [], depth = 0): { steps: readonly PathStep[]; text: string }[] {
  if (!node || typeof node !== 'object' || depth > 100) return out;
  const n = node as { kind?: unknown; root?: unknown; steps?: readonly PathStep[]; text?: string };
  if (n.kind === 'path') {
    if (n.root === 'output' && n.steps) out.push({ steps: n.steps, text: n.text ?? '' });
    return out;
  }
  for (const v of Object.values(node)) for (const x of Array.isArray(v) ? v : [v]) outputPaths(x, out, depth + 1);
  return out;
}

/**
 * Whether a schema rules out the path: it lists its `properties`, without `additionalProperties`,
 * `patternProperties` or branches that could add more, and the field is not among them (followed
 * into `items` for `[*]` and indexes). Unknown (false) as soon as the schema does not say.
 */
function undeclared(schema: unknown, steps: readonly PathStep[], depth = 0): string | undefined {
  const s = obj(schema);
  const step = steps[0];
  if (!s || !step || depth > 20) return undefined;
  if ('field' in step) {
    const props = obj(s['properties']);
    if (!props || s['$ref'] !== undefined || s['patternProperties'] !== undefined || ['allOf', 'anyOf', 'oneOf'].some((k) => s[k] !== undefined) || (s['additionalProperties'] !== undefined && s['additionalProperties'] !== false)) return undefined;
    return step.field in props ? undeclared(props[step.field], steps.slice(1), depth + 1) : step.field;
  }
  return undeclared(s['items'], steps.slice(1), depth + 1);
}

export const guardFieldUndeclared: Rule = {
  code: 'guard-field-undeclared',
  severity: 'warning',
  scope: 'document',
  summary: 'A safety guard\'s check reads output fields that OUTPUT_SCHEMA declares.',
  description: 'A guard such as `output.vendor_constraints IN vendor_whitelist.csv` holds only while the answer has `vendor_constraints`. When OUTPUT_SCHEMA lists its properties and the field is not among them (it was renamed or removed), the dry run finds no value and the guard is never checked. Declare the property, or fix the path in the check. A schema that allows other properties (`additionalProperties`, `patternProperties`, `anyOf`…) is not second-guessed.',
  source: 'docs/contract-format.md §9, CONSTRAINTS and OUTPUT_SCHEMA',
  messages: { default: 'The guard\'s check reads `{path}`, but OUTPUT_SCHEMA does not declare "{field}": the guard is never checked. Declare it or fix the path.' },
  examples: {
    bad: `${FM}\n## CONSTRAINTS\n\n\`\`\`yaml\n- type: safety_guard\n  rule: Only whitelisted vendors.\n  check: "output.vendor IN vendor_whitelist.csv"\n\`\`\`\n\n## OUTPUT_SCHEMA\n\n\`\`\`yaml\ntype: object\nproperties:\n  vendor_name: { type: string }\n\`\`\`\n`,
    good: `${FM}\n## CONSTRAINTS\n\n\`\`\`yaml\n- type: safety_guard\n  rule: Only whitelisted vendors.\n  check: "output.vendor_name IN vendor_whitelist.csv"\n\`\`\`\n\n## OUTPUT_SCHEMA\n\n\`\`\`yaml\ntype: object\nproperties:\n  vendor_name: { type: string }\n\`\`\`\n`,
    at: `  check: ⟦"output.vendor IN vendor_whitelist.csv"⟧`,
  },
  *check({ data, locate }) {
    const schema = data['output_schema'];
    if (!obj(schema)) return;
    const constraints = arr(data['constraints']);
    for (let i = 0; i < constraints.length; i++) {
      const c = obj(constraints[i]);
      const check = c?.['type'] === 'safety_guard' ? str(c['check']) : undefined;
      const parsed = check === undefined ? undefined : parseExpression(check);
      if (!parsed?.ok) continue;
      const span = locate(`/constraints/${i}/check`, true);
      const seen = new Set<string>();
      for (const p of outputPaths(parsed.expr)) {
        const field = undeclared(schema, p.steps);
        if (field === undefined || seen.has(field) || !span) continue;
        seen.add(field);
        yield { code: 'guard-field-undeclared', range: span.value, args: { path: p.text, field } };
      }
    }
  },
};

export const OUTPUT_SCHEMA_RULES: readonly Rule[] = [confidenceRange, guardFieldUndeclared];

import type { Rule } from '../rule.ts';
import { FM, obj } from './util.ts';

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

export const OUTPUT_SCHEMA_RULES: readonly Rule[] = [confidenceRange];

import type { FixTarget, Rule, RuleFix } from '../rule.ts';
import { arr, FM, obj, type Obj } from './util.ts';
import { declaredOutputs, schemaProperties } from './schemaWalk.ts';
import { normaliseName } from '../../model/names.ts';
import { innerRange, textAt } from '../../model/text.ts';
import { closest } from '../../schema/normalise.ts';
import { only } from './schema.ts';

export const overrideReasonUnknown: Rule = {
  code: 'override-reason-unknown',
  severity: 'warning',
  fixKind: 'safe',
  summary: 'Human-override reason codes come from the known list.',
  description: 'Human overrides take their reason from a fixed list (`data_error`, `policy_change`, `user_request`) so that the audit log can be aggregated. A reason outside the list breaks that report. The list is the config file\'s `overrideReasons`. A near miss (`policy_chnage`) gets a "did you mean" and a fix.',
  source: 'docs/contract-format.md §9, MEMORY_POLICY',
  needsWorkspace: true,
  messages: {
    default: 'Override reason "{reason}" is not in the known list ({known}). Use one of them or add it to overrideReasons in the config.',
    suggest: 'Override reason "{reason}" is not in the known list ({known}). Did you mean "{suggestion}"?',
  },
  examples: {
    bad: `${FM}\n## MEMORY_POLICY\n\n- **Override Reasons**: \`data_error\`, \`policy_chnage\`\n`,
    good: `${FM}\n## MEMORY_POLICY\n\n- **Override Reasons**: \`data_error\`, \`policy_change\`\n`,
    at: `⟦\`policy_chnage\`⟧`,
    fixed: true,
  },
  *check({ data, config, locate }) {
    const known = new Set(config.overrideReasons);
    const reasons = arr(obj(data['memory_policy'])?.['override_reasons']);
    for (let i = 0; i < reasons.length; i++) {
      const r = normaliseName(reasons[i]);
      if (!r || known.has(r)) continue;
      const span = locate(`/memory_policy/override_reasons/${i}`);
      const suggestion = closest(r, known);
      if (span) yield { code: 'override-reason-unknown', range: span.value, args: { reason: r, known: [...known].join(', '), ...(suggestion ? { suggestion } : {}) }, ...(suggestion ? { variant: 'suggest' } : {}) };
    }
  },
  fix: (d, model) => {
    // A near miss of a known reason (`policy_chnage`): only the reason's own text is replaced.
    const suggestion = d.args?.['suggestion'];
    const range = suggestion === undefined ? undefined : only(model, d.range, String(d.args?.['reason'] ?? ''));
    return range ? { titleId: 'action.changeValue', titleArgs: { value: String(suggestion) }, edits: [{ range, newText: String(suggestion) }], safe: true } : undefined;
  },
};

const THRESHOLD = /\b([a-z_]*(?:confidence|relevance|score|probability))\s*(>=|<=|>|<|=)\s*(-?\d+(?:\.\d+)?)/gi;

/**
 * Whether the contract declares `name` on a scale beyond [0, 1]: an integer, or a `maximum` above 1,
 * in a tool's output schema or OUTPUT_SCHEMA (`risk_score: { type: integer, maximum: 100 }`).
 */
function declaredBeyondFraction(data: Readonly<Obj>, name: string): boolean {
  return declaredOutputs(data).some(({ schema }) => schemaProperties(schema).some((p) => {
    if (p.name !== name || !p.schema) return false;
    const type = p.schema['type'];
    const max = [p.schema['maximum'], p.schema['exclusiveMaximum']].find((m) => typeof m === 'number') as number | undefined;
    return max !== undefined ? max > 1 : type === 'integer' || (Array.isArray(type) && type.includes('integer'));
  }));
}

export const thresholdRange: Rule = {
  code: 'threshold-range',
  severity: 'error',
  fixKind: 'quickfix',
  summary: 'Confidence and score thresholds are numbers in [0, 1].',
  description: 'Write gates compare scores in [0, 1], e.g. Semantic Chunks are admitted with `relevance_score > 0.72` and `confidence > 0.85`. A threshold such as `confidence > 85` (a percentage) admits nothing, silently. Names ending in `confidence`, `relevance`, `score` or `probability` are checked (`summary_confidence`, `aml_risk_score`), except a score the contract itself declares on another scale: an integer, or a `maximum` above 1, in a tool\'s output schema or OUTPUT_SCHEMA (`risk_score: { type: integer, maximum: 100 }`). The quick fix writes a percentage as its fraction (`85` → `0.85`).',
  source: 'docs/contract-format.md §9, MEMORY_POLICY',
  messages: { default: 'Threshold {expr} is outside [0, 1]: {name} is a fraction, not a percentage.' },
  examples: {
    bad: `${FM}\n## MEMORY_POLICY\n\n### Write Admission\n\n- Semantic Chunk: \`relevance_score > 72\` and \`confidence > 0.85\`\n`,
    good: `${FM}\n## MEMORY_POLICY\n\n### Write Admission\n\n- Semantic Chunk: \`relevance_score > 0.72\` and \`confidence > 0.85\`\n`,
    at: `⟦relevance_score > 72⟧`,
    fixed: true,
  },
  *check({ model, data, locate }) {
    const policy = obj(data['memory_policy']);
    if (!policy) return;
    for (const [key, value] of Object.entries(policy)) {
      const items = Array.isArray(value) ? value : [value];
      for (let i = 0; i < items.length; i++) {
        if (typeof items[i] !== 'string') continue;
        const pointer = Array.isArray(value) ? `/memory_policy/${key}/${i}` : `/memory_policy/${key}`;
        const span = locate(pointer);
        if (!span) continue;
        const raw = textAt(model, span.value);
        for (const m of raw.matchAll(THRESHOLD)) {
          const n = Number(m[3]);
          if ((n >= 0 && n <= 1) || declaredBeyondFraction(data, m[1]!)) continue;
          yield { code: 'threshold-range', range: innerRange(model, span.value, m.index!, m.index! + m[0].length), args: { expr: m[0], name: m[1]!, value: m[3]! } };
        }
      }
    }
  },
  fix: fractionFix,
};

/** A percentage (`72`, at the end of the finding's range) as the fraction it means (`0.72`); nothing above 100. */
function fractionFix(d: FixTarget): RuleFix | undefined {
  const value = String(d.args?.['value'] ?? '');
  const n = Number(value);
  if (!value || !(n > 1 && n <= 100) || d.range.start.line !== d.range.end.line) return undefined;
  const fraction = String(Number((n / 100).toFixed(6)));
  const range = { start: { line: d.range.end.line, character: d.range.end.character - value.length }, end: d.range.end };
  return { titleId: 'action.changeValue', titleArgs: { value: fraction }, edits: [{ range, newText: fraction }], safe: false };
}

export const MEMORY_POLICY_RULES: readonly Rule[] = [overrideReasonUnknown, thresholdRange];

import type { Rule } from '../rule.ts';
import { arr, FM, obj, str } from './util.ts';
import { checkPatternDialect } from '../regexDialect.ts';
import { normaliseName, unquote } from '../../model/names.ts';

export const intentPatternSyntax: Rule = {
  code: 'intent-pattern-syntax',
  severity: 'error',
  summary: 'Intent patterns are valid regular expressions in the documented dialect (JavaScript syntax, RE2 semantics).',
  description: 'Patterns are run on RE2, which matches in linear time whatever the input. RE2 has no lookaround (`(?=…)`, `(?<!…)`) and no backreferences (`\\1`); rewrite such patterns, or split them into two patterns.',
  source: 'docs/contract-format.md §7.3 (intent patterns)',
  messages: {
    default: 'Intent pattern is not a valid regular expression: {detail}.',
    re2: 'Intent pattern uses syntax RE2 does not support ({detail}); lookaround and backreferences are not available.',
  },
  examples: {
    bad: `${FM}\n## TRIGGER\n\n- **Intent Patterns**:\n  - \`为什么.*报错(?!了)\`\n`,
    good: `${FM}\n## TRIGGER\n\n- **Intent Patterns**:\n  - \`为什么.*报错\`\n`,
  },
  *check({ data, locate }) {
    const patterns = arr(obj(data['trigger'])?.['intent_patterns']);
    for (let i = 0; i < patterns.length; i++) {
      const p = unquote(patterns[i]);
      const r = checkPatternDialect(p);
      if (r.ok) continue;
      const span = locate(`/trigger/intent_patterns/${i}`);
      if (span) yield { code: 'intent-pattern-syntax', range: span.value, args: { detail: r.detail }, ...(r.engine === 're2' ? { variant: 're2' } : {}) };
    }
  },
};

export const intentPatternRedos: Rule = {
  code: 'intent-pattern-redos',
  severity: 'warning',
  summary: 'Intent patterns do not backtrack catastrophically.',
  description: 'agents-md runs patterns on RE2, but the runtime that deploys the contract may use a backtracking engine (Python `re`, JavaScript `RegExp`), where a pattern such as `(\\w+\\s?)+$` takes exponential time on a crafted query. The analysis (recheck) runs off the typing path and its verdicts are cached. By default only exponential blow-ups are reported; set the option `polynomial: true` to also report polynomial ones such as `.*a.*b`.',
  source: 'docs/contract-format.md §7.3; docs/robustness.md',
  needsWorkspace: true,
  messages: {
    default: 'This pattern can take exponential time on a backtracking engine (attack string: {attack}). Remove nested quantifiers or make the alternatives disjoint.',
    polynomial: 'This pattern can take polynomial time on a backtracking engine (attack string: {attack}). Remove nested quantifiers or make the alternatives disjoint.',
  },
  examples: {
    bad: `${FM}\n## TRIGGER\n\n- **Intent Patterns**:\n  - \`^(\\w+\\s?)+$\`\n`,
    good: `${FM}\n## TRIGGER\n\n- **Intent Patterns**:\n  - \`^[\\w\\s]+$\`\n`,
  },
  *check({ data, facts, locate, options }) {
    const patterns = arr(obj(data['trigger'])?.['intent_patterns']);
    for (let i = 0; i < patterns.length; i++) {
      const v = facts.regex.get(unquote(patterns[i]));
      if (!v || v.status !== 'vulnerable') continue;
      if (v.complexity !== 'exponential' && options['polynomial'] !== true) continue;
      const span = locate(`/trigger/intent_patterns/${i}`);
      if (span) yield { code: 'intent-pattern-redos', range: span.value, args: { attack: v.attack ?? '?' }, ...(v.complexity === 'exponential' ? {} : { variant: 'polynomial' }) };
    }
  },
};

export const entityUnsatisfiable: Rule = {
  code: 'entity-unsatisfiable',
  severity: 'warning',
  preset: 'strict',
  summary: 'Every required entity can be extracted from a query.',
  description: 'Boot-time validation stops when a required entity is not extracted. An entity can be extracted when it has its own `pattern`, or when an intent pattern captures it with a named group (`(?<device_id>[A-Z]-\\d{3})`). Otherwise only a model can produce it (the plain-name style, which is fine for production), and the dry run cannot check it: the strict preset asks for a pattern.',
  source: 'docs/contract-format.md §7.3 (extraction patterns)',
  messages: { default: 'Entity "{entity}" has no extraction pattern: give it a `pattern`, or capture it in an intent pattern as (?<{entity}>…).' },
  examples: {
    bad: `${FM}\n## TRIGGER\n\n\`\`\`yaml\nintent_patterns: ["为什么.*报错"]\nrequired_entities: [device_id]\n\`\`\`\n`,
    good: `${FM}\n## TRIGGER\n\n\`\`\`yaml\nintent_patterns: ["为什么.*报错"]\nrequired_entities:\n  - name: device_id\n    pattern: "[A-Z]-\\\\d{3}"\n\`\`\`\n`,
  },
  *check({ data, locate }) {
    const trigger = obj(data['trigger']);
    if (!trigger) return;
    const groups = new Set(arr(trigger['intent_patterns']).flatMap((p) => {
      const r = checkPatternDialect(unquote(p));
      return r.ok ? [...r.groups] : [];
    }));
    const entities = arr(trigger['required_entities']);
    for (let i = 0; i < entities.length; i++) {
      const e = entities[i];
      const name = normaliseName(typeof e === 'string' ? e : obj(e)?.['name']);
      if (!name || groups.has(name) || str(obj(e)?.['pattern'])) continue;
      const span = locate(`/trigger/required_entities/${i}`);
      if (span) yield { code: 'entity-unsatisfiable', range: span.value, args: { entity: name } };
    }
  },
};

export const TRIGGER_RULES: readonly Rule[] = [intentPatternSyntax, intentPatternRedos, entityUnsatisfiable];

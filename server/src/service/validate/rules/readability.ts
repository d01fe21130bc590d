import type { Rule } from '../rule.ts';
import { FM } from './util.ts';

const RULE_SECTIONS = new Set(['identity', 'memory_policy', 'failure_protocol', 'human_in_the_loop', 'constraints', 'compliance', 'budgets']);

export const proseRules: Rule = {
  code: 'prose-rules',
  severity: 'info',
  preset: 'strict',
  summary: 'Rules are written as bullets or tables, not long prose paragraphs.',
  description: 'A paragraph that mixes trigger conditions, actions, preconditions and exceptions reads well once and is unmaintainable after: every new condition breaks it and its diffs are unreadable. In rule-bearing sections, split paragraphs of 280 characters or more into a table or bullets (one condition per row).',
  source: 'docs/contract-format.md §4 (the three writing forms)',
  messages: { default: 'This {length}-character paragraph states rules in prose. Put them in a table or bullets, one condition per row.' },
  examples: {
    bad: `${FM}\n## HUMAN_IN_THE_LOOP\n\nWhen the user mentions words such as urgent, today or immediately and the request concerns hardware, skip the usual three-day price comparison and call fast_track_approval directly, but only if the user's department has had no overspend in the last 30 days and this budget does not exceed 15% of the department's monthly limit.\n`,
    good: `${FM}\n## HUMAN_IN_THE_LOOP\n\n| Scenario | Trigger Condition | Required Action | SLA |\n|---|---|---|---|\n| Urgent hardware | urgency words and hardware request | Department head approves fast track | 4h |\n`,
  },
  *check({ model }) {
    for (const s of model.sections) {
      if (!s.spec || !RULE_SECTIONS.has(s.spec.key)) continue;
      for (const p of s.prose) yield { code: 'prose-rules', range: p.range, args: { length: p.length } };
    }
  },
};

export const READABILITY_RULES: readonly Rule[] = [proseRules];

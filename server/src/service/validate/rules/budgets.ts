import type { Rule } from '../rule.ts';
import { FM, obj } from './util.ts';

export const budgetsIncomplete: Rule = {
  code: 'budgets-incomplete',
  severity: 'warning',
  summary: 'BUDGETS sets max steps, a token budget and a timeout.',
  description: '"An agent without budget control is not a product but an incident": a test agent without a step limit called a search API hundreds of times. Every agent needs a maximum number of loop rounds, a token budget per task and a timeout with a fallback.',
  source: 'docs/contract-format.md §9, BUDGETS',
  messages: { default: 'BUDGETS does not set {missing}.' },
  examples: {
    bad: `${FM}\n## BUDGETS\n\n- **Max Steps**: 20\n`,
    good: `${FM}\n## BUDGETS\n\n- **Max Steps**: 20\n- **Token Budget**: 10000\n- **Timeout**: 5m\n- **On Timeout**: return partial results and hand over to a human\n`,
  },
  *check({ data, section }) {
    const b = obj(data['budgets']);
    const s = section('budgets');
    if (!b || !s) return;
    const missing = [['max_steps', 'Max Steps'], ['token_budget', 'Token Budget'], ['timeout', 'Timeout']].filter(([k]) => b[k!] === undefined).map(([, l]) => `**${l}**`);
    if (missing.length) yield { code: 'budgets-incomplete', range: s.titleRange ?? s.range, args: { missing: missing.join(', ') } };
  },
};

export const BUDGETS_RULES: readonly Rule[] = [budgetsIncomplete];

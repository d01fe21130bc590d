import type { Rule } from '../rule.ts';
import { FM, misspelt, obj } from './util.ts';

export const budgetsIncomplete: Rule = {
  code: 'budgets-incomplete',
  severity: 'warning',
  summary: 'BUDGETS sets max steps, a token budget and a timeout.',
  description: 'Seed 003 §2.4: "an agent without budget control is not a product but an incident". A test agent without a step limit called a search API hundreds of times. Every agent needs a maximum number of loop rounds, a token budget per task and a timeout with a fallback.',
  source: 'seed 003 §2.4; seed 004 §3.3 (max steps 20/50/100)',
  messages: { default: 'BUDGETS does not set {missing}.' },
  examples: {
    bad: `${FM}\n## BUDGETS\n\n- **Max Steps**: 20\n`,
    good: `${FM}\n## BUDGETS\n\n- **Max Steps**: 20\n- **Token Budget**: 10000\n- **Timeout**: 5m\n- **On Timeout**: return partial results and hand over to a human\n`,
  },
  *check({ model, data, section }) {
    const b = obj(data['budgets']);
    const s = section('budgets');
    if (!b || !s) return;
    // A field written under another spelling (`timeout_s`) is unknown-field's finding, not a missing one.
    const missing = [['max_steps', 'Max Steps'], ['token_budget', 'Token Budget'], ['timeout', 'Timeout']].filter(([k]) => b[k!] === undefined && !misspelt(model, 'budgets', k!)).map(([, l]) => `**${l}**`);
    if (missing.length) yield { code: 'budgets-incomplete', range: s.titleRange ?? s.range, args: { missing: missing.join(', ') } };
  },
};

export const BUDGETS_RULES: readonly Rule[] = [budgetsIncomplete];

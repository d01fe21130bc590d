import type { Rule } from '../rule.ts';
import { FM, misspelt, obj } from './util.ts';
import type { ParsedContract } from '../../parse/parseContract.ts';
import { lineIndexOf } from '../../model/text.ts';
import { at, endOfContent, lineAfter, pos, siblingLine } from '../fixText.ts';

export const budgetsIncomplete: Rule = {
  code: 'budgets-incomplete',
  severity: 'warning',
  fixKind: 'quickfix',
  summary: 'BUDGETS sets max steps, a token budget and a timeout.',
  description: '"An agent without budget control is not a product but an incident": a test agent without a step limit called a search API hundreds of times. Every agent needs a maximum number of loop rounds, a token budget per task and a timeout with a fallback.',
  source: 'docs/contract-format.md §9, BUDGETS',
  messages: { default: 'BUDGETS does not set {missing}.' },
  examples: {
    bad: `${FM}\n## BUDGETS\n\n- **Max Steps**: 20\n`,
    good: `${FM}\n## BUDGETS\n\n- **Max Steps**: 20\n- **Token Budget**: 10000\n- **Timeout**: 5m\n- **On Timeout**: return partial results and hand over to a human\n`,
    at: `⟦BUDGETS⟧`,
    fixed: `${FM}\n## BUDGETS\n\n- **Max Steps**: 20\n- **Token Budget**: 10000\n- **Timeout**: 5m\n`,
  },
  *check({ model, data, section }) {
    const b = obj(data['budgets']);
    const s = section('budgets');
    if (!b || !s) return;
    const missing = missingBudgets(model);
    if (missing.length) yield { code: 'budgets-incomplete', range: s.titleRange ?? s.range, args: { missing: missing.map((m) => `**${m.label}**`).join(', ') } };
  },
  fix: (_d, model) => {
    // The missing budgets after the last bullet, or as keys before the closing fence of a YAML block.
    const s = model.owners.get('budgets');
    const missing = missingBudgets(model);
    if (!s || s.kind !== 'section' || missing.length === 0) return undefined;
    const last = endOfContent(model, s).line;
    const idx = lineIndexOf(model);
    const title = { titleId: 'action.addBudgets', titleArgs: { section: 'BUDGETS' }, safe: false };
    const form = siblingLine(model, last);
    if (form?.kind === 'bullet') return { ...title, edits: [lineAfter(model, last, missing.map((m) => `${form.indent}- **${m.label}**: ${m.value}`).join('\n'))] };
    const fence = /^(\s*)(`{3,}|~{3,})\s*$/.exec(idx.lineText(last));
    const key = last > 0 ? siblingLine(model, last - 1) : undefined;
    if (fence && key?.kind === 'yaml') return { ...title, edits: [{ range: at(pos(last, 0)), newText: missing.map((m) => `${key.indent}${m.key}: ${m.value}\n`).join('') }] };
    return undefined;
  },
};

/** The budgets a contract should set and does not (a misspelt one is unknown-field's finding), with the values the fix proposes. */
function missingBudgets(model: ParsedContract): { key: string; label: string; value: string }[] {
  const b = obj(model.data['budgets']) ?? {};
  return [
    { key: 'max_steps', label: 'Max Steps', value: '20' },
    { key: 'token_budget', label: 'Token Budget', value: '10000' },
    { key: 'timeout', label: 'Timeout', value: '5m' },
  ].filter((m) => b[m.key] === undefined && !misspelt(model, 'budgets', m.key));
}

export const BUDGETS_RULES: readonly Rule[] = [budgetsIncomplete];

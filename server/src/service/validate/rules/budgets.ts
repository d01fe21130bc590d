import type { Rule } from '../rule.ts';
import { brokenBlockLines, FM, misspelt, obj } from './util.ts';
import type { ParsedContract } from '../../parse/parseContract.ts';
import { lineIndexOf, textAt } from '../../model/text.ts';
import { at, endOfContent, lineAfter, pos, siblingLine } from '../fixText.ts';
import { contractView } from '../../model/contractView.ts';

export const budgetsIncomplete: Rule = {
  code: 'budgets-incomplete',
  severity: 'warning',
  fixKind: 'quickfix',
  summary: 'BUDGETS sets max steps, a token budget and a timeout.',
  description: '"An agent without budget control is not a product but an incident": a test agent without a step limit called a search API hundreds of times. Every agent needs a maximum number of loop rounds, a token budget per task and a timeout with a fallback. BUDGETS written as a code block that does not parse is not reported here: the block\'s `yaml-syntax` or `json-syntax` error says what to fix.',
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
    if (!b || !s || brokenBlockLines(s).length > 0) return;
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

const TOOL = (timeout: string) =>
  `## TOOLS\n\n### \`lookup_record\`\n\n- **Description**: Reads one record by its id.\n- **Side Effects**: read\n- **Timeout**: ${timeout}\n\n\`\`\`yaml\ninput_schema:\n  type: object\n  required: [record_id]\n  properties:\n    record_id: { type: string, examples: [R-1] }\noutput_schema:\n  type: object\n\`\`\`\n\n`;
const RUN_TIMEOUT = `## BUDGETS\n\n- **Max Steps**: 20\n- **Token Budget**: 10000\n- **Timeout**: 2m\n`;

export const toolTimeoutOverBudget: Rule = {
  code: 'tool-timeout-over-budget',
  severity: 'warning',
  fixKind: 'quickfix',
  summary: "No tool's timeout is longer than the run's whole timeout.",
  description: "BUDGETS' **Timeout** ends the whole run; a tool's own timeout (its **Timeout** in TOOLS, or its entry in **Tool Timeouts**) bounds one call. A tool allowed to wait longer than the run never reaches its own timeout: the run's timeout fires first, so the FAILURE_PROTOCOL entry written for that tool's timeout never applies and the caller gets the run's timeout instead. Give the tool a timeout shorter than the run's.",
  source: 'docs/contract-format.md §9, BUDGETS',
  messages: {
    default: '`{tool}` may wait {toolTimeout} for one call, longer than the whole run may take ({runTimeout}, the Timeout of BUDGETS): the run ends first and this timeout never applies. Make it no longer than {runTimeout}.',
    runDefault: '`{tool}` may wait {toolTimeout} for one call, longer than the whole run may take ({runTimeout}, the default when BUDGETS sets no Timeout): the run ends first and this timeout never applies. Make it no longer than {runTimeout}, or give the run a longer Timeout.',
  },
  examples: {
    bad: `${FM}\n${TOOL('5m')}${RUN_TIMEOUT}`,
    good: `${FM}\n${TOOL('2m')}${RUN_TIMEOUT}`,
    at: `- **Timeout**: ⟦5m⟧`,
    fixed: true,
  },
  *check({ model, locate }) {
    const view = contractView(model);
    const run = view.budgets;
    // Without a BUDGETS **Timeout** the run still ends, at the dry run's default (docs/dry-run.md).
    const runSpan = run.timeoutPointer ? locate(run.timeoutPointer, true) : undefined;
    const runTimeout = runSpan ? textAt(model, runSpan.value) : `${run.timeoutMs / 60_000}m`;
    for (const tool of view.tools.values()) {
      if (!tool.timeoutPointer || tool.timeoutMs <= run.timeoutMs) continue;
      const span = locate(tool.timeoutPointer, true);
      if (!span) continue;
      yield {
        code: 'tool-timeout-over-budget',
        range: span.value,
        args: { tool: tool.name, toolTimeout: textAt(model, span.value), runTimeout },
        ...(runSpan ? { related: [{ range: runSpan.value, messageId: 'related.declaredHere' }] } : { variant: 'runDefault' }),
      };
    }
  },
  fix: (d) => {
    // The run's own timeout text: the tool may then wait as long as the run, never longer.
    const runTimeout = d.args?.['runTimeout'];
    if (runTimeout === undefined) return undefined;
    return { titleId: 'action.changeValue', titleArgs: { value: String(runTimeout) }, edits: [{ range: d.range, newText: String(runTimeout) }], safe: false };
  },
};

export const BUDGETS_RULES: readonly Rule[] = [budgetsIncomplete, toolTimeoutOverBudget];

/**
 * What the tools cost, where the editor shows it (docs/providers.md, "Token cost"): the hover on
 * the TOOLS title and on a tool's name, and a code lens on the TOOLS title. The counts are the
 * ones `agents-md lint --stats` prints (export/cost.ts). The lens and the hover on TOOLS give one
 * figure, said in words: the tool definitions sent with every request (issue 26: two unnamed
 * totals read as a contradiction).
 */
import type { Range } from '../types.ts';
import type { ParsedContract } from '../parse/parseContract.ts';
import { budgetPercent, toolCostOf, toolsCost } from '../export/cost.ts';
import type { TokenCounter } from '../export/cost.ts';
import { format } from '../l10n/format.ts';

/** A code lens: where it stands and its text (the adapter adds the command). */
export interface LensEntry {
  readonly range: Range;
  readonly title: string;
}

const toolsSection = (model: ParsedContract) => (model.kind !== 'freeform' ? model.sections.find((s) => s.spec?.key === 'tools' && s.titleRange) : undefined);

/**
 * The one figure of the TOOLS title's hover and code lens: the tool definitions' tokens per
 * request, and their share of the budget; "not counted yet" while `count` has no answer.
 */
function toolsFigure(model: ParsedContract, lang: string, count?: TokenCounter): string {
  const c = toolsCost(model, count);
  if (!c.tools) return format('lens.cost.pending', {}, lang);
  const tokens = c.tools.tokens;
  const percent = budgetPercent(tokens, c.budget);
  return percent !== undefined ? format('lens.cost.budget', { tokens, percent }, lang) : format('lens.cost', { tokens }, lang);
}

/** The line the hover on the TOOLS title adds: the same figure as the code lens. */
export function toolsSectionCost(model: ParsedContract, lang: string, count?: TokenCounter): string[] {
  return [toolsFigure(model, lang, count)];
}

/** The line the hover on a tool adds: its own definition's tokens; undefined for a name that is no tool of the contract, or not counted yet. */
export function toolCost(model: ParsedContract, name: string, lang: string, count?: TokenCounter): string | undefined {
  const tally = toolCostOf(model, name, count);
  return tally && format('hover.cost.tool', { tokens: tally.tokens }, lang);
}

/** The code lens on the TOOLS title: the tool definitions' tokens per request and their share of the budget. */
export function costLenses(model: ParsedContract, lang = 'en', count?: TokenCounter): LensEntry[] {
  const section = toolsSection(model);
  if (!section?.titleRange) return [];
  const title = toolsFigure(model, lang, count);
  return [{ range: { start: section.titleRange.start, end: section.titleRange.start }, title }];
}

/**
 * What a contract costs per model request (docs/providers.md, "Token cost"): the tokens of its
 * tool definitions and of its system prompt, as the exports send them, against its BUDGETS token
 * budget. Counted by providers/tokens.ts (`o200k_base`).
 */
import type { ParsedContract } from '../parse/parseContract.ts';
import { contractView } from '../model/contractView.ts';
import { requestTokens, textTokens, toolDefinitionTokens, TOKEN_ENCODING } from '../providers/tokens.ts';
import { exportedSystemPrompt, toolDescription } from './exports.ts';

export interface RequestCost {
  readonly encoding: string;
  readonly tools: number;
  readonly systemPrompt: number;
  /** The whole request: system message and tool definitions, with the chat format's own tokens. */
  readonly total: number;
  readonly budget?: number;
  /** Each tool's own definition, by name (the hover on a tool; docs/providers.md, "Token cost"). */
  readonly byTool: ReadonlyMap<string, number>;
}

/** Parsed contracts and their cost: a hover or a code lens asks again at every move of the cursor. */
const costs = new WeakMap<ParsedContract, RequestCost>();

/** The percentage of the budget that `tokens` take, rounded; undefined without a budget. */
export function budgetPercent(tokens: number, budget: number | undefined): number | undefined {
  return budget !== undefined && budget > 0 ? Math.round((tokens / budget) * 100) : undefined;
}

export function requestCost(model: ParsedContract): RequestCost {
  let cost = costs.get(model);
  if (!cost) costs.set(model, (cost = countCost(model)));
  return cost;
}

function countCost(model: ParsedContract): RequestCost {
  const view = contractView(model);
  const prompt = exportedSystemPrompt(view);
  const tools = [...view.tools.values()].map((t) => ({ name: t.name, description: toolDescription(t), parameters: t.inputSchema ?? { type: 'object', properties: {} } }));
  return {
    encoding: TOKEN_ENCODING,
    tools: toolDefinitionTokens(tools),
    systemPrompt: textTokens(prompt),
    total: requestTokens(prompt, tools),
    ...(view.budgets.tokenBudget !== undefined ? { budget: view.budgets.tokenBudget } : {}),
    byTool: new Map(tools.map((t) => [t.name, toolDefinitionTokens([t])])),
  };
}

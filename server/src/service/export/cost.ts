/**
 * What a contract costs per model request (docs/providers.md, "Token cost"): the tokens of its
 * tool definitions and of its system prompt, as the exports send them, against its BUDGETS token
 * budget. Counted by providers/tokens.ts (`o200k_base`).
 */
import type { ParsedContract } from '../parse/parseContract.ts';
import { contractView } from '../model/contractView.ts';
import { countHere, requestTokens, textTokens, toolDefinitionTally, toolDefinitionTokens, TOKEN_ENCODING, type TokenCounter, type TokenTally, type ToolDefinition } from '../providers/tokens.ts';
import { exportedSystemPrompt, toolDescription } from './exports.ts';

/** How the editor's figures count tokens (providers/tokens.ts): the features reach it through this module. */
export type { TokenCounter };

export interface RequestCost {
  readonly encoding: string;
  readonly tools: number;
  readonly systemPrompt: number;
  /** The whole request: system message and tool definitions, with the chat format's own tokens. */
  readonly total: number;
  readonly budget?: number;
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

/** The tool definitions as the exports send them, per parsed contract. */
const definitions = new WeakMap<ParsedContract, readonly ToolDefinition[]>();
function toolDefinitions(model: ParsedContract): readonly ToolDefinition[] {
  let tools = definitions.get(model);
  if (!tools) {
    tools = [...contractView(model).tools.values()].map((t) => ({ name: t.name, description: toolDescription(t), parameters: t.inputSchema ?? { type: 'object', properties: {} } }));
    definitions.set(model, tools);
  }
  return tools;
}

/** What the editor shows of the tools' cost: their definitions' tokens (undefined: not counted yet) and the budget. */
export interface ToolsCost {
  readonly tools: TokenTally | undefined;
  readonly budget?: number;
}

/** The tools' cost as `count` counts it (the server's counter answers later: the editor's figures ask again then). */
export function toolsCost(model: ParsedContract, count: TokenCounter = countHere): ToolsCost {
  const budget = contractView(model).budgets.tokenBudget;
  return { tools: toolDefinitionTally(toolDefinitions(model), count), ...(budget !== undefined ? { budget } : {}) };
}

/** One tool's own definition, as `count` counts it; undefined for a name that is no tool of the contract, or not counted yet. */
export function toolCostOf(model: ParsedContract, name: string, count: TokenCounter = countHere): TokenTally | undefined {
  const tool = toolDefinitions(model).find((t) => t.name === name);
  return tool && toolDefinitionTally([tool], count);
}

function countCost(model: ParsedContract): RequestCost {
  const view = contractView(model);
  const prompt = exportedSystemPrompt(view);
  const tools = toolDefinitions(model);
  return {
    encoding: TOKEN_ENCODING,
    tools: toolDefinitionTokens(tools),
    systemPrompt: textTokens(prompt),
    total: requestTokens(prompt, tools),
    ...(view.budgets.tokenBudget !== undefined ? { budget: view.budgets.tokenBudget } : {}),
  };
}

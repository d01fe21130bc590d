/**
 * Token counts of what every model request carries: the tool definitions and the system prompt
 * (docs/providers.md, "Token cost"). Counted with gpt-tokenizer's `o200k_base` encoding (OpenAI's
 * GPT-4o, GPT-4.1, GPT-5 and o-series models) and OpenAI's function-calling accounting, the only
 * family with a published offline tokenizer; other providers tokenise differently.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { computeChatCompletionTokenCount, type ChatCompletionFunctionDefinition } from 'gpt-tokenizer/functionCalling';

export const TOKEN_ENCODING = 'o200k_base';

/** A tool definition as sent: its name, description and parameters (a JSON Schema). */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** The definitions in the tokenizer's terms: it formats any JSON Schema, though its types name a subset. */
const functionsOf = (tools: readonly ToolDefinition[]) => tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }) as unknown as ChatCompletionFunctionDefinition);

/** Tokens of a text. */
export function textTokens(text: string): number {
  return countTokens(text);
}

/** Tokens the tool definitions add to a request (OpenAI's function-calling accounting). */
export function toolDefinitionTokens(tools: readonly ToolDefinition[]): number {
  if (tools.length === 0) return 0;
  return computeChatCompletionTokenCount({ messages: [], functions: functionsOf(tools) }, countTokens) - computeChatCompletionTokenCount({ messages: [] }, countTokens);
}

/** UTF-8 bytes of a text: every token is at least one byte, so never fewer than its tokens. */
const utf8Bytes = (text: string): number => new TextEncoder().encode(text).length;

/**
 * At most the tokens the tool definitions add (`toolDefinitionTokens` never exceeds it): the
 * same accounting with bytes for tokens, so without the tokenizer and its tables, which a lint
 * then need not load (docs/performance.md, "Start-up").
 */
export function toolDefinitionTokensAtMost(tools: readonly ToolDefinition[]): number {
  if (tools.length === 0) return 0;
  return computeChatCompletionTokenCount({ messages: [], functions: functionsOf(tools) }, utf8Bytes);
}

/** Tokens of a request holding only a system prompt and the tool definitions. */
export function requestTokens(systemPrompt: string, tools: readonly ToolDefinition[]): number {
  return computeChatCompletionTokenCount({ messages: [{ role: 'system', content: systemPrompt }], ...(tools.length ? { functions: functionsOf(tools) } : {}) }, countTokens);
}

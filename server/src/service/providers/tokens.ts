/**
 * Token counts of what every model request carries: the tool definitions and the system prompt
 * (docs/providers.md, "Token cost"). Counted with gpt-tokenizer's `o200k_base` encoding (OpenAI's
 * GPT-4o, GPT-4.1, GPT-5 and o-series models) and OpenAI's function-calling accounting, the only
 * family with a published offline tokenizer; other providers tokenise differently.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { computeChatCompletionTokenCount, formatFunctionDefinitions, type ChatCompletionFunctionDefinition } from 'gpt-tokenizer/functionCalling';

export const TOKEN_ENCODING = 'o200k_base';

/** A tool definition as sent: its name, description and parameters (a JSON Schema). */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** The definitions in the tokenizer's terms: it formats any JSON Schema, though its types name a subset. */
const functionsOf = (tools: readonly ToolDefinition[]) => tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }) as unknown as ChatCompletionFunctionDefinition);

/**
 * Tokens of a text, or undefined while the counter has no answer yet: the language server counts
 * in a process of its own (lsp/backgroundTokens.ts), so that the tokenizer's tables never sit in
 * the server's heap (docs/performance.md, "Memory given back").
 */
export type TokenCounter = (text: string) => number | undefined;

/** The tokenizer in this process: every text counted at once (the CLI, the Action, tests). */
export const countHere: TokenCounter = (text) => countTokens(text);

/** Tokens of a text, counted here. */
export function textTokens(text: string): number {
  return countTokens(text);
}

/** A count, or an estimate where some piece had no count yet (from the same tool's last count, scaled by length). */
export interface TokenTally {
  readonly tokens: number;
  readonly estimated: boolean;
}

/**
 * How the function-calling accounting writes the definitions: `HEAD`, then each tool's part
 * followed by `SEP`, then `TAIL`. Every part ends in `) => any`, and the tokenizer's pre-split
 * (o200k_base's pattern) always cuts before the `;` that follows: `)` ends a run of punctuation
 * (a space comes next), ` any` is a word. So the text counts as the sum of its pieces `HEAD` +
 * part 0, `SEP` + part i, `SEP` + `TAIL`, and a piece counted once is not counted again.
 */
const HEAD = 'namespace functions {\n\n';
const SEP = ';\n\n';
const TAIL = '} // namespace functions';
/** Each tool definition's part, while it is the same object; undefined when the library writes it otherwise than above. */
const parts = new WeakMap<ToolDefinition, string | null>();
/**
 * A bounded memo (this layer imports nothing of ours: no LRU): emptied when full, which only
 * means counting some pieces again.
 */
function memo<V>(limit: number) {
  const m = new Map<string, V>();
  return {
    get: (k: string) => m.get(k),
    set(k: string, v: V) {
      if (m.size >= limit) m.clear();
      m.set(k, v);
    },
  };
}
/** Tokens of each piece (a tool's part with what precedes it). */
const pieceTokens = memo<number>(2000);
/**
 * Each tool's last counted piece, by name and place (first or not): what an estimate scales while
 * its new text is being counted. One per caller (`tokenEstimates()`): the same tool written
 * otherwise (the export's wording) would make another's estimates wrong.
 */
export type TokenEstimates = ReturnType<typeof tokenEstimates>;
export const tokenEstimates = () => memo<{ readonly chars: number; readonly tokens: number }>(2000);
/** How many tool definitions the tokenizer has read: tests count them (docs/performance.md). */
let counted = 0;
export const toolTokenCounts = (): number => counted;

function partOf(tool: ToolDefinition): string | undefined {
  let part = parts.get(tool);
  if (part === undefined) {
    const text = formatFunctionDefinitions(functionsOf([tool]));
    const ok = text.startsWith(HEAD) && text.endsWith(SEP + TAIL) && text.length >= HEAD.length + SEP.length + TAIL.length;
    part = ok ? text.slice(HEAD.length, text.length - SEP.length - TAIL.length) : null;
    if (part !== null && !part.endsWith(') => any')) part = null;
    parts.set(tool, part);
  }
  return part ?? undefined;
}

function piece(text: string, tools: number, count: TokenCounter): number | undefined {
  let n = pieceTokens.get(text);
  if (n === undefined) {
    n = count(text);
    if (n === undefined) return undefined;
    counted += tools;
    pieceTokens.set(text, n);
  }
  return n;
}

/**
 * Tokens the tool definitions add to a request (OpenAI's function-calling accounting), exactly
 * as counted on the whole text, but piece by piece: the definitions of unchanged tools (the same
 * objects, or the same text) are not tokenised again, so typing in one tool counts that tool only.
 * A piece `count` has no answer for yet is estimated from the same tool's last count in
 * `estimates`; undefined when some piece has neither (every piece is still asked for, so one
 * round counts them all).
 */
export function toolDefinitionTally(tools: readonly ToolDefinition[], count: TokenCounter = countHere, estimates?: TokenEstimates): TokenTally | undefined {
  if (tools.length === 0) return { tokens: 0, estimated: false };
  const written = tools.map(partOf);
  if (written.some((p) => p === undefined)) return wholeTally(tools, count);
  // The request's own overhead cancels out; the definitions add their text and 9 tokens.
  const tail = piece(SEP + TAIL, 0, count);
  let total = 9 + (tail ?? 0);
  let unknown = tail === undefined;
  let estimated = false;
  written.forEach((p, i) => {
    const text = (i === 0 ? HEAD : SEP) + p!;
    const id = `${i === 0 ? 'first' : 'next'}\u0000${tools[i]!.name}`;
    const n = piece(text, 1, count);
    if (n !== undefined) {
      estimates?.set(id, { chars: text.length, tokens: n });
      total += n;
      return;
    }
    const last = estimates?.get(id);
    if (last) total += Math.round((last.tokens * text.length) / Math.max(1, last.chars));
    else unknown = true;
    estimated = true;
  });
  return unknown ? undefined : { tokens: total, estimated };
}

/** The definitions counted on their whole text, when the library writes them otherwise than in pieces. */
function wholeTally(tools: readonly ToolDefinition[], count: TokenCounter): TokenTally | undefined {
  let unknown = false;
  const c = (text: string) => {
    const n = count(text);
    if (n === undefined) unknown = true;
    return n ?? 0;
  };
  counted += tools.length;
  const tokens = computeChatCompletionTokenCount({ messages: [], functions: functionsOf(tools) }, c) - computeChatCompletionTokenCount({ messages: [] }, c);
  return unknown ? undefined : { tokens, estimated: false };
}

/** Tokens the tool definitions add to a request, counted here (`toolDefinitionTally`). */
export function toolDefinitionTokens(tools: readonly ToolDefinition[]): number {
  return toolDefinitionTally(tools, countHere)!.tokens;
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
  const written = tools.map(partOf);
  if (written.some((p) => p === undefined)) return computeChatCompletionTokenCount({ messages: [], functions: functionsOf(tools) }, utf8Bytes);
  // Bytes add up over the pieces (they meet at ASCII characters): 3 for the request, 9 for the definitions.
  let total = 3 + 9 + utf8Bytes(HEAD) + tools.length * utf8Bytes(SEP) + utf8Bytes(TAIL);
  for (const p of written) total += partBytes(p!);
  return total;
}

const bytesOfPart = memo<number>(2000);
function partBytes(part: string): number {
  let n = bytesOfPart.get(part);
  if (n === undefined) bytesOfPart.set(part, (n = utf8Bytes(part)));
  return n;
}

/** Tokens of a request holding only a system prompt and the tool definitions. */
export function requestTokens(systemPrompt: string, tools: readonly ToolDefinition[]): number {
  return computeChatCompletionTokenCount({ messages: [{ role: 'system', content: systemPrompt }], ...(tools.length ? { functions: functionsOf(tools) } : {}) }, countTokens);
}

/**
 * The model seen by the dry run (docs/model-providers.md): one chat step at a time, in the shape
 * of OpenAI's chat-completions API so that the scripted model (from a snapshot) and an
 * OpenAI-compatible endpoint (vLLM, Ollama) are interchangeable. Plain data in and out; a provider
 * that does I/O lives outside the service (`server/src/node/`) and is injected.
 */
import { refText, type MessageRef } from '../runMessage.ts';

/** One message of the conversation. */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content: string;
  /** Tool calls the assistant asked for (role `assistant`). */
  readonly toolCalls?: readonly ToolCall[];
  /** The call this message answers (role `tool`). */
  readonly toolCallId?: string;
}

/** A tool offered to the model: its name, description and JSON Schema of its input. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** A tool call asked for by the model. */
export interface ToolCall {
  /** The provider's call id (the scripted model numbers them `call-1`, `call-2`, …). */
  readonly id: string;
  readonly name: string;
  /** The arguments exactly as the model wrote them (JSON text, possibly malformed). */
  readonly rawArguments: string;
}

/** Token counts of one step, as the provider reports them (estimated for the scripted model). */
export interface TokenUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/**
 * What one model step returned. `latencyMs`: how long a provider that does I/O waited for the
 * answer (the scripted model has none: its simulated latency is the step's `delay_ms`).
 */
export type ModelStep =
  | { readonly kind: 'tool_calls'; readonly calls: readonly ToolCall[]; readonly text?: string; readonly usage: TokenUsage; readonly latencyMs?: number }
  | { readonly kind: 'final'; readonly text: string; readonly usage: TokenUsage; readonly latencyMs?: number };

/** The request of one step. */
export interface ModelRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolSpec[];
  /** Upper bound of completion tokens for this step. */
  readonly maxTokens?: number;
  /** Aborts the step (run cancelled or wall-clock budget exhausted). */
  readonly signal?: AbortSignal;
}

/**
 * A model provider. `step` resolves with the model's answer or rejects with a `ModelError`;
 * it must honour `signal`.
 */
export interface ModelProvider {
  /** Shown in the trace, e.g. `scripted` or `openai:qwen2.5@http://127.0.0.1:8000/v1`. */
  readonly id: string;
  step(request: ModelRequest): Promise<ModelStep>;
}

/** Why a provider could not answer; `code` is the run outcome code it maps to. */
export class ModelError extends Error {
  constructor(
    readonly code: 'MODEL_UNAVAILABLE' | 'MODEL_TIMEOUT' | 'MODEL_PROTOCOL_ERROR' | 'CANCELLED',
    message: string,
    /** HTTP status, when the endpoint answered with an error. */
    readonly status?: number,
    /** The message as a run message (`message` is its English text), for readers in other languages. */
    readonly detail?: MessageRef,
  ) {
    super(message);
    this.name = 'ModelError';
  }

  /** An error worded by a run message (its English text is the error's message). */
  static of(code: ModelError['code'], detail: MessageRef): ModelError {
    return new ModelError(code, refText(detail), undefined, detail);
  }
}

/**
 * A `ModelProvider` on an OpenAI-compatible chat-completions endpoint (vLLM, Ollama, …), the API
 * key passed per run and never stored. One step is one `POST {baseUrl}/chat/completions` without
 * streaming. See docs/model-providers.md.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { estimateTokens, ModelError, type ChatMessage, type ModelMessageId, type ModelProvider, type ModelRequest, type ModelStep, type ToolCall } from '../service/index.ts';
import { format } from '../service/host.ts';
import { secretRedactor } from './redactSecret.ts';

/** Options of `createOpenAiProvider`. Times are milliseconds. */
export interface OpenAiProviderOptions {
  /** `http(s)://host[:port]/path`, e.g. `http://127.0.0.1:8000/v1`; no credentials, query or fragment. */
  readonly baseUrl: string;
  /** Sent as `model`. */
  readonly model: string;
  /** Sent as `Authorization: Bearer <apiKey>` when non-empty; kept in a closure, never in a property. */
  readonly apiKey?: string;
  /** Limit of one attempt, from sending the request to the last byte of the answer. */
  readonly timeoutMs: number;
  /** Attempts after the first, on a network error, a timeout, HTTP 429 or 5xx. */
  readonly retries: number;
  /** The fetch to use (default: the global one). */
  readonly fetch?: typeof fetch;
  /** Wait before the first retry, doubled before each next one (default 500). */
  readonly backoffMs?: number;
  /** Longest wait between attempts (default 30,000); a longer `Retry-After` ends the step. */
  readonly maxRetryDelayMs?: number;
  /** Largest answer read, in bytes (default 8 MiB). */
  readonly maxResponseBytes?: number;
}

const DEFAULT_BACKOFF_MS = 500;
/** Also stated in the config schema's `retries` description. */
export const MAX_RETRY_DELAY_MS = 30_000;
const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** Longest `{detail}` quoted from an endpoint's error answer, in characters. */
const DETAIL_CHARS = 200;

/** What one attempt came to: an answer's text, or an error that another attempt may fix. */
type Attempt = { readonly text: string } | { readonly retry: ModelError; readonly delayMs?: number };

/**
 * Creates a provider for the endpoint. Throws `ModelError('MODEL_UNAVAILABLE')` when `baseUrl`
 * is not an http(s) URL or carries credentials, a query or a fragment, or when `apiKey` cannot
 * be sent in a header; a `RangeError` when `timeoutMs` or `retries` is not a positive /
 * non-negative integer. `step` rejects with a `ModelError` only:
 * - `CANCELLED` as soon as the request's `signal` aborts (no retry);
 * - `MODEL_TIMEOUT` when the last attempt timed out, `MODEL_UNAVAILABLE` when the endpoint could
 *   not be reached, refused the credentials (401/403), was not found (404), redirected, or kept
 *   answering 429/5xx (`status` set where there was an answer);
 * - `MODEL_PROTOCOL_ERROR` when it rejected the request (other 4xx) or answered something that is
 *   not a chat completion (the message names the path, e.g. `choices[0].message`).
 * No message, answer or tool call, and nothing serialisable on the provider or its errors, contains
 * the API key: everything the endpoint sends passes through `redact` before it is cut or parsed.
 */
export function createOpenAiProvider(options: OpenAiProviderOptions): ModelProvider {
  const apiKey = options.apiKey ?? '';
  // The key as written and as JSON may escape it inside a string; redacted before anything is cut
  // or parsed, so that no fragment of it survives a shortened message (docs/robustness.md).
  const redact = secretRedactor(apiKey);
  const error = (code: ModelError['code'], id: ModelMessageId, args: Record<string, string | number> = {}, status?: number) =>
    new ModelError(code, redact(format(id, args)), status);

  // Settings reach here checked against the schema; other values are the caller's bug.
  if (!(Number.isInteger(options.timeoutMs) && options.timeoutMs > 0)) throw new RangeError(format('model.option.invalid', { option: 'timeoutMs', expected: '> 0', value: String(options.timeoutMs) }));
  if (!(Number.isInteger(options.retries) && options.retries >= 0)) throw new RangeError(format('model.option.invalid', { option: 'retries', expected: '>= 0', value: String(options.retries) }));
  const baseUrl = checkBaseUrl(options.baseUrl, error);
  // Header values are visible ASCII; anything else would make fetch throw a message quoting it.
  if (apiKey && !/^[\x21-\x7e]+$/.test(apiKey)) throw error('MODEL_UNAVAILABLE', 'model.apiKey.invalid');
  const endpoint = `${baseUrl}/chat/completions`;
  const doFetch = options.fetch ?? fetch;
  const backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  const maxDelayMs = options.maxRetryDelayMs ?? MAX_RETRY_DELAY_MS;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (apiKey) headers['authorization'] = `Bearer ${apiKey}`;

  /** One POST, bounded by `timeoutMs`; throws only final errors. */
  async function attempt(body: string, signal: AbortSignal | undefined, n: number): Promise<Attempt> {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    try {
      // `redirect: manual`: the key must not follow a redirect to another host.
      const res = await doFetch(endpoint, { method: 'POST', headers, body, redirect: 'manual', signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
      const raw = await readText(res, maxBytes);
      if (raw === undefined) throw error('MODEL_PROTOCOL_ERROR', 'model.response.tooLarge', { endpoint, limit: maxBytes }, res.status);
      // Everything the endpoint says leaves the provider redacted: error texts, the answer, tool arguments.
      const text = redact(raw);
      if (res.status >= 200 && res.status < 300) return { text };
      return httpFailure(res, text, n);
    } catch (e) {
      if (signal?.aborted) throw error('CANCELLED', 'model.cancelled');
      if (e instanceof ModelError) throw e;
      if (timeout.aborted) return { retry: error('MODEL_TIMEOUT', 'model.timeout', { endpoint, timeoutMs: options.timeoutMs, attempts: n }) };
      return { retry: error('MODEL_UNAVAILABLE', 'model.unreachable', { endpoint, reason: networkReason(e), attempts: n }) };
    }
  }

  function httpFailure(res: Response, text: string, n: number): Attempt {
    const status = res.status;
    const detail = errorDetail(text, redact(res.statusText));
    if (status === 429 || status >= 500) {
      const wait = retryAfterMs(res.headers.get('retry-after'));
      if (wait !== undefined && wait > maxDelayMs) {
        throw error('MODEL_UNAVAILABLE', 'model.retryAfterTooLong', { endpoint, status, seconds: Math.ceil(wait / 1000), limitSeconds: Math.floor(maxDelayMs / 1000) }, status);
      }
      const retry = error('MODEL_UNAVAILABLE', 'model.serverError', { endpoint, status, detail, attempts: n }, status);
      return wait === undefined ? { retry } : { retry, delayMs: wait };
    }
    if (status >= 300 && status < 400) throw error('MODEL_UNAVAILABLE', 'model.redirect', { endpoint, status, location: res.headers.get('location') ?? '?' }, status);
    if (status === 401 || status === 403) throw error('MODEL_UNAVAILABLE', 'model.auth', { endpoint, status, detail }, status);
    if (status === 404) throw error('MODEL_UNAVAILABLE', 'model.notFound', { endpoint, detail, model: options.model }, status);
    throw error('MODEL_PROTOCOL_ERROR', 'model.rejected', { endpoint, status, detail }, status);
  }

  return {
    id: redact(`openai:${options.model}@${baseUrl}`),
    async step(request: ModelRequest): Promise<ModelStep> {
      const payload = requestBody(options.model, request);
      const body = JSON.stringify(payload);
      const started = performance.now();
      for (let n = 1; ; n++) {
        if (request.signal?.aborted) throw error('CANCELLED', 'model.cancelled');
        const outcome = await attempt(body, request.signal, n);
        if ('text' in outcome) {
          const parsed = parseCompletion(outcome.text, (id, args) => error('MODEL_PROTOCOL_ERROR', id, { endpoint, ...args }));
          // Again after parsing: JSON escapes (`\u0073k-…`) may have spelt the key differently.
          const step: typeof parsed = parsed.kind === 'final'
            ? { ...parsed, text: redact(parsed.text) }
            : { ...parsed, calls: parsed.calls.map((c) => ({ ...c, name: redact(c.name), rawArguments: redact(c.rawArguments) })), ...(parsed.text ? { text: redact(parsed.text) } : {}) };
          // The whole step as the run waited for it: every attempt and the waits between them.
          return { ...step, usage: usageOf(step.usage, payload, step), latencyMs: Math.round(performance.now() - started) };
        }
        if (n > options.retries) throw outcome.retry;
        try {
          await sleep(outcome.delayMs ?? Math.min(maxDelayMs, backoffMs * 2 ** (n - 1)), undefined, request.signal ? { signal: request.signal } : {});
        } catch {
          throw error('CANCELLED', 'model.cancelled');
        }
      }
    },
  };
}

type Fail = (code: ModelError['code'], id: ModelMessageId, args?: Record<string, string | number>) => ModelError;

/** A URL as it may be shown and stored: scheme, host and path (no user info, query or fragment, no trailing slash). */
export function bareUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`.replace(/\/+$/, '');
}

/** The base URL as `bareUrl`, or a thrown error; the URL is quoted without secrets. */
function checkBaseUrl(raw: string, error: Fail): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw error('MODEL_UNAVAILABLE', 'model.baseUrl.invalid', { url: raw });
  }
  const bare = bareUrl(url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw error('MODEL_UNAVAILABLE', 'model.baseUrl.invalid', { url: bare });
  if (url.username || url.password || url.search || url.hash) throw error('MODEL_UNAVAILABLE', 'model.baseUrl.secret', { url: bare });
  return bare;
}

/** The chat-completions request: our messages and tools in OpenAI's shape. */
function requestBody(model: string, request: ModelRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { model, messages: request.messages.map(toOpenAiMessage), stream: false };
  // Some servers reject an empty `tools` list.
  if (request.tools.length > 0) {
    body['tools'] = request.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } }));
  }
  if (request.maxTokens !== undefined) body['max_tokens'] = request.maxTokens;
  return body;
}

function toOpenAiMessage(m: ChatMessage): Record<string, unknown> {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  if (m.role === 'assistant' && m.toolCalls?.length) {
    return {
      role: 'assistant',
      content: m.content === '' ? null : m.content,
      tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.rawArguments } })),
    };
  }
  return { role: m.role, content: m.content };
}

/** The answer's text, or undefined when it is larger than `limit` bytes (reading then stops). */
async function readText(res: Response, limit: number): Promise<string | undefined> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** What an error answer says: OpenAI's `error.message` (or a string `error`), else its text, shortened. */
function errorDetail(text: string, statusText: string): string {
  let detail = text.trim();
  try {
    const data = JSON.parse(text) as { error?: unknown; message?: unknown };
    const e = data?.error;
    const message = typeof e === 'string' ? e : typeof (e as { message?: unknown })?.message === 'string' ? (e as { message: string }).message : data?.message;
    if (typeof message === 'string') detail = message;
  } catch {
    // Not JSON: the text itself is the detail.
  }
  detail = detail.replace(/\s+/g, ' ');
  if (!detail) return statusText || '-';
  return detail.length > DETAIL_CHARS ? `${detail.slice(0, DETAIL_CHARS)}…` : detail;
}

/** `Retry-After` in milliseconds (seconds or an HTTP date), undefined when absent or unreadable. */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Why fetch failed, from undici's `cause` (`ECONNREFUSED`, `ENOTFOUND`…) or the error itself. */
function networkReason(e: unknown): string {
  const cause = (e as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return e instanceof Error ? e.message : String(e);
}

type StepWithoutUsage = { readonly kind: 'tool_calls'; readonly calls: readonly ToolCall[]; readonly text?: string } | { readonly kind: 'final'; readonly text: string };
type ProtocolFail = (id: 'model.response.notJson' | 'model.response.missing' | 'model.response.type', args: Record<string, string | number>) => ModelError;

/**
 * Reads `choices[0].message` of a chat completion: `tool_calls` (each with `id`,
 * `function.name` and `function.arguments` kept as written; an object is turned into JSON text,
 * as some servers send one) make a `tool_calls` step, anything else a `final` step whose text
 * is `content` (`null` reads as empty). `usage` is returned raw for `usageOf`.
 */
function parseCompletion(text: string, fail: ProtocolFail): StepWithoutUsage & { readonly usage: unknown } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const start = text.slice(0, 80).replace(/\s+/g, ' ');
    throw fail('model.response.notJson', { error: (e as Error).message, start: start || '(empty)' });
  }
  const at = (value: unknown, path: string, expected: 'object' | 'array' | 'string'): unknown => {
    if (value === undefined) throw fail('model.response.missing', { path });
    if (jsonType(value) !== expected) throw fail('model.response.type', { path, got: jsonType(value), expected });
    return value;
  };
  const root = at(data, '(answer)', 'object') as { choices?: unknown; usage?: unknown };
  const choices = at(root.choices, 'choices', 'array') as unknown[];
  const message = at(choices[0], 'choices[0]', 'object') as { message?: unknown };
  const msg = at(message.message, 'choices[0].message', 'object') as { content?: unknown; tool_calls?: unknown };
  const content = msg.content === null || msg.content === undefined ? '' : (at(msg.content, 'choices[0].message.content', 'string') as string);
  const rawCalls = msg.tool_calls === null || msg.tool_calls === undefined ? [] : (at(msg.tool_calls, 'choices[0].message.tool_calls', 'array') as unknown[]);
  if (rawCalls.length === 0) return { kind: 'final', text: content, usage: root.usage };
  const calls = rawCalls.map((raw, i): ToolCall => {
    const path = `choices[0].message.tool_calls[${i}]`;
    const call = at(raw, path, 'object') as { id?: unknown; function?: unknown };
    const fn = at(call.function, `${path}.function`, 'object') as { name?: unknown; arguments?: unknown };
    const args = fn.arguments;
    return {
      id: at(call.id, `${path}.id`, 'string') as string,
      name: at(fn.name, `${path}.function.name`, 'string') as string,
      rawArguments: jsonType(args) === 'object' ? JSON.stringify(args) : (at(args, `${path}.function.arguments`, 'string') as string),
    };
  });
  return { kind: 'tool_calls', calls, ...(content ? { text: content } : {}), usage: root.usage };
}

function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/**
 * The endpoint's `usage.prompt_tokens` / `usage.completion_tokens` where they are non-negative
 * integers; each missing count is estimated (`estimateTokens`) from the request's JSON
 * (`messages` and `tools`) or from the answer (text, tool names and arguments).
 */
function usageOf(usage: unknown, payload: Record<string, unknown>, step: StepWithoutUsage): ModelStep['usage'] {
  const count = (key: string): number | undefined => {
    const v = (usage as Record<string, unknown> | null | undefined)?.[key];
    return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
  };
  const answer = step.kind === 'final' ? step.text : [step.text ?? '', ...step.calls.flatMap((c) => [c.name, c.rawArguments])].join('\n');
  return {
    promptTokens: count('prompt_tokens') ?? estimateTokens(JSON.stringify([payload['messages'], payload['tools'] ?? []])),
    completionTokens: count('completion_tokens') ?? estimateTokens(answer),
  };
}

// The OpenAI-compatible model provider (docs/model-providers.md) against a real HTTP server on 127.0.0.1
// that the tests start and script: each test says what the server answers and checks both what
// the provider returned and what the server received.
// Run: node --import tsx --test test/openai-provider.test.ts
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { createOpenAiProvider, type OpenAiProviderOptions } from '../server/src/node/openaiProvider.ts';
import { createModelProvider, type ModelHost } from '../server/src/node/llmConfig.ts';
import { ModelError, type ChatMessage, type ModelProvider, type ModelRequest, type ToolSpec } from '../server/src/service/run/llm/llmProvider.ts';
import { DEFAULT_MODEL_SETTINGS, MODEL_SETTINGS_SCHEMA, resolveModelSettings } from '../server/src/service/run/llm/llmSettings.ts';
import { format } from '../server/src/service/host.ts';
import { estimateTokens } from '../server/src/service/run/llm/estimateTokens.ts';
import { RUNS } from './helpers/properties.ts';

const KEY = 'sk-test-7f3a9c1e5b2d4f6a8c0e';

interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
  readonly at: number;
}

/** How the server answers its n-th request (0-based); `received` is that request. */
type Answer = (res: ServerResponse, received: Received, n: number) => void;

interface ChatServer {
  /** `http://127.0.0.1:<port>/v1` */
  readonly baseUrl: string;
  readonly received: Received[];
  /** Resolves when the server has received `count` requests. */
  requests(count: number): Promise<void>;
}

const servers: { closeAllConnections(): void; close(): void }[] = [];
after(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

/** Starts a chat-completions server on 127.0.0.1 (port 0) that answers with `answers[n]` (the last one repeats). */
async function serve(...answers: Answer[]): Promise<ChatServer> {
  const received: Received[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Kept as text: the assertion on it will say what arrived.
      }
      const r: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, at: Date.now() };
      const n = received.push(r) - 1;
      for (const w of waiters) if (received.length >= w.count) w.resolve();
      (answers[n] ?? answers[answers.length - 1]!)(res, r, n);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    received,
    requests: (count) => new Promise((resolve) => (received.length >= count ? resolve() : waiters.push({ count, resolve }))),
  };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => (res) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
const raw = (status: number, text: string): Answer => (res) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(text);
};
const hang: Answer = () => {};
const completion = (message: Record<string, unknown>, usage?: unknown) => json(200, { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }], ...(usage === undefined ? {} : { usage }) });
const final = (content: string) => completion({ content }, { prompt_tokens: 12, completion_tokens: 3 });

const BASE: Omit<OpenAiProviderOptions, 'baseUrl'> = { model: 'qwen2.5', timeoutMs: 5_000, retries: 0, backoffMs: 5 };
const provider = (server: ChatServer, options: Partial<OpenAiProviderOptions> = {}): ModelProvider =>
  createOpenAiProvider({ ...BASE, baseUrl: server.baseUrl, ...options });

const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You answer order questions.' },
  { role: 'user', content: 'Where is order A1?' },
];
const LOOKUP: ToolSpec = {
  name: 'lookup_order',
  description: 'Finds an order by id. Use for status questions; not for refunds.',
  inputSchema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
};

/** The ModelError `promise` rejects with (fails on anything else). */
async function modelError(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof ModelError, `a ModelError, got ${inspect(e)}`);
    return e;
  }
  assert.fail('expected a ModelError');
}

/** Everything about an error or a provider that could end up in a log, a trace or a report. */
const exposed = (x: unknown): string =>
  [inspect(x, { showHidden: true, depth: Infinity }), JSON.stringify(x) ?? '', x instanceof Error ? `${x.message}\n${x.stack}` : ''].join('\n');

describe('chat completions', () => {
  test('a plain final answer: the request has the model, messages and max_tokens, and no key header without a key', async () => {
    const server = await serve(final('Order A1 has shipped.'));
    const { latencyMs, ...step } = await provider(server).step({ messages: MESSAGES, tools: [], maxTokens: 256 });
    assert.ok(Number.isInteger(latencyMs) && latencyMs! >= 0, `the wait for the answer is measured: ${latencyMs}`);
    assert.deepEqual(step, { kind: 'final', text: 'Order A1 has shipped.', usage: { promptTokens: 12, completionTokens: 3 } });
    const [req] = server.received;
    assert.equal(req?.method, 'POST');
    assert.equal(req?.url, '/v1/chat/completions');
    assert.equal(req?.headers['content-type'], 'application/json');
    assert.equal(req?.headers['authorization'], undefined);
    assert.deepEqual(req?.body, {
      model: 'qwen2.5',
      messages: [
        { role: 'system', content: 'You answer order questions.' },
        { role: 'user', content: 'Where is order A1?' },
      ],
      stream: false,
      max_tokens: 256,
    });
  });

  test('a tool call round trip: tools are offered, the call comes back raw, and the next request carries the call and its result', async () => {
    const server = await serve(
      completion({ content: null, tool_calls: [{ id: 'call_abc', type: 'function', function: { name: 'lookup_order', arguments: '{"order_id": "A1"}' } }] }, { prompt_tokens: 80, completion_tokens: 20 }),
      final('Order A1 shipped on Monday.'),
    );
    const model = provider(server, { apiKey: KEY, baseUrl: `${server.baseUrl}/` });
    const { latencyMs: _latency, ...first } = await model.step({ messages: MESSAGES, tools: [LOOKUP] });
    assert.deepEqual(first, { kind: 'tool_calls', calls: [{ id: 'call_abc', name: 'lookup_order', rawArguments: '{"order_id": "A1"}' }], usage: { promptTokens: 80, completionTokens: 20 } });

    const assistant: ChatMessage = { role: 'assistant', content: '', toolCalls: first.kind === 'tool_calls' ? first.calls : [] };
    const result: ChatMessage = { role: 'tool', toolCallId: 'call_abc', content: '{"status":"shipped"}' };
    const second = await model.step({ messages: [...MESSAGES, assistant, result], tools: [LOOKUP] });
    assert.equal(second.kind, 'final');
    assert.equal(second.text, 'Order A1 shipped on Monday.');

    assert.equal(server.received.length, 2);
    for (const req of server.received) {
      assert.equal(req.url, '/v1/chat/completions', 'a trailing slash in the base URL is not doubled');
      assert.equal(req.headers['authorization'], `Bearer ${KEY}`);
      assert.deepEqual((req.body as { tools: unknown }).tools, [
        { type: 'function', function: { name: 'lookup_order', description: LOOKUP.description, parameters: LOOKUP.inputSchema } },
      ]);
    }
    assert.deepEqual((server.received[1]?.body as { messages: unknown[] }).messages.slice(2), [
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_abc', type: 'function', function: { name: 'lookup_order', arguments: '{"order_id": "A1"}' } }] },
      { role: 'tool', tool_call_id: 'call_abc', content: '{"status":"shipped"}' },
    ]);
  });

  test('several tool calls with text; arguments sent as an object are turned into JSON text', async () => {
    const server = await serve(completion({
      content: 'Checking both.',
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'lookup_order', arguments: '{"order_id":"A1"' } },
        { id: 'c2', type: 'function', function: { name: 'lookup_order', arguments: { order_id: 'B2' } } },
      ],
    }, { prompt_tokens: 5, completion_tokens: 5 }));
    const { latencyMs: _latency, ...step } = await provider(server).step({ messages: MESSAGES, tools: [LOOKUP] });
    assert.deepEqual(step, {
      kind: 'tool_calls',
      text: 'Checking both.',
      calls: [
        { id: 'c1', name: 'lookup_order', rawArguments: '{"order_id":"A1"' },
        { id: 'c2', name: 'lookup_order', rawArguments: '{"order_id":"B2"}' },
      ],
      usage: { promptTokens: 5, completionTokens: 5 },
    });
  });

  test('without usage, tokens are estimated from the request and the answer; a partial usage keeps its count', async () => {
    const server = await serve(completion({ content: 'Shipped.' }), completion({ content: 'Shipped.' }, { prompt_tokens: 40, completion_tokens: 'many' }));
    const model = provider(server);
    const estimated = await model.step({ messages: MESSAGES, tools: [LOOKUP] });
    const sent = server.received[0]?.body as { messages: unknown; tools: unknown };
    assert.deepEqual(estimated.usage, { promptTokens: estimateTokens(JSON.stringify([sent.messages, sent.tools])), completionTokens: estimateTokens('Shipped.') });
    assert.ok(estimated.usage.promptTokens > 20, `prompt estimate ${estimated.usage.promptTokens}`);
    assert.deepEqual((await model.step({ messages: MESSAGES, tools: [] })).usage, { promptTokens: 40, completionTokens: 2 });
  });

  test('the provider id names the model and the endpoint', () => {
    assert.equal(createOpenAiProvider({ ...BASE, baseUrl: 'http://127.0.0.1:8000/v1/' }).id, 'openai:qwen2.5@http://127.0.0.1:8000/v1');
  });
});

describe('failures, retries and timeouts', () => {
  test('HTTP 500 is retried with backoff, then the answer is used', async () => {
    const server = await serve(json(500, { error: { message: 'engine overloaded' } }), json(502, {}), final('ok'));
    const step = await provider(server, { retries: 2 }).step({ messages: MESSAGES, tools: [] });
    assert.equal(step.text, 'ok');
    assert.equal(server.received.length, 3);
    assert.deepEqual(server.received[2]?.body, server.received[0]?.body, 'the same request is sent again');
    // The step's latency is the run's whole wait: every attempt and the backoff between them.
    assert.ok(step.latencyMs! >= server.received[2]!.at - server.received[0]!.at, `${step.latencyMs} ms`);
  });

  test('HTTP 500 on every attempt: MODEL_UNAVAILABLE with the status, the detail and the attempts', async () => {
    const server = await serve(json(503, { error: { message: 'engine overloaded' } }));
    const e = await modelError(provider(server, { retries: 2 }).step({ messages: MESSAGES, tools: [] }));
    assert.equal(e.code, 'MODEL_UNAVAILABLE');
    assert.equal(e.status, 503);
    assert.equal(e.message, `The model endpoint ${server.baseUrl}/chat/completions answered HTTP 503 (engine overloaded) (attempts made: 3).`);
    assert.equal(server.received.length, 3);
  });

  test('HTTP 429 with Retry-After: the next attempt waits that long, not the backoff', async () => {
    const server = await serve(json(429, { error: { message: 'slow down' } }, { 'retry-after': '1' }), final('ok'));
    const step = await provider(server, { retries: 1, backoffMs: 5 }).step({ messages: MESSAGES, tools: [] });
    assert.equal(step.text, 'ok');
    const [a, b] = server.received;
    assert.ok(b!.at - a!.at >= 950, `waited ${b!.at - a!.at} ms after Retry-After: 1`);
  });

  test('HTTP 429 asking for a longer wait than the cap ends the step at once', async () => {
    const server = await serve(json(429, {}, { 'retry-after': '3600' }));
    const e = await modelError(provider(server, { retries: 3 }).step({ messages: MESSAGES, tools: [] }));
    assert.equal(e.code, 'MODEL_UNAVAILABLE');
    assert.equal(e.status, 429);
    assert.match(e.message, /asks to wait 3600 s, longer than the 30 s a run waits/);
    assert.equal(server.received.length, 1);
  });

  test('HTTP 401 is not retried; the message is clear and the key the server echoes is redacted', async () => {
    const server = await serve(json(401, { error: { message: `Incorrect API key provided: ${KEY}.`, type: 'invalid_request_error' } }));
    const model = provider(server, { apiKey: KEY, retries: 3 });
    const e = await modelError(model.step({ messages: MESSAGES, tools: [] }));
    assert.equal(e.code, 'MODEL_UNAVAILABLE');
    assert.equal(e.status, 401);
    assert.equal(e.message, `The model endpoint ${server.baseUrl}/chat/completions refused the credentials (HTTP 401: Incorrect API key provided: [redacted].). Check the API key.`);
    assert.equal(server.received.length, 1);
    assert.equal(server.received[0]?.headers['authorization'], `Bearer ${KEY}`);
    assert.ok(!exposed(e).includes(KEY));
    assert.ok(!exposed(model).includes(KEY));
  });

  test('other 4xx are protocol errors and are not retried; 404 points at the base URL and model', async () => {
    const bad = await serve(json(400, { error: { message: 'tools are not supported by this model' } }));
    const e = await modelError(provider(bad, { retries: 3 }).step({ messages: MESSAGES, tools: [LOOKUP] }));
    assert.equal(e.code, 'MODEL_PROTOCOL_ERROR');
    assert.equal(e.status, 400);
    assert.match(e.message, /rejected the request \(HTTP 400: tools are not supported by this model\)/);
    assert.equal(bad.received.length, 1);

    const missing = await serve(raw(404, '404 page not found'));
    const nf = await modelError(provider(missing, { retries: 3 }).step({ messages: MESSAGES, tools: [] }));
    assert.equal(nf.code, 'MODEL_UNAVAILABLE');
    assert.match(nf.message, /answered HTTP 404 \(404 page not found\)\. Check the base URL and the model name "qwen2\.5"\./);
    assert.equal(missing.received.length, 1);
  });

  test('a redirect is not followed, so the key never reaches another host', async () => {
    const elsewhere = await serve(final('stolen'));
    const server = await serve(json(307, {}, { location: `${elsewhere.baseUrl}/chat/completions` }));
    const e = await modelError(provider(server, { apiKey: KEY, retries: 2 }).step({ messages: MESSAGES, tools: [] }));
    assert.equal(e.code, 'MODEL_UNAVAILABLE');
    assert.equal(e.status, 307);
    assert.match(e.message, /redirect to http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions; set the base URL/);
    assert.equal(elsewhere.received.length, 0);
    assert.equal(server.received.length, 1);
  });

  test('a server that never answers: MODEL_TIMEOUT after each attempt timed out', async () => {
    const server = await serve(hang);
    const e = await modelError(provider(server, { timeoutMs: 200, retries: 1 }).step({ messages: MESSAGES, tools: [] }));
    assert.equal(e.code, 'MODEL_TIMEOUT');
    assert.equal(e.status, undefined);
    assert.equal(e.message, `The model endpoint ${server.baseUrl}/chat/completions did not answer within 200 ms (attempts made: 2).`);
    assert.equal(server.received.length, 2);
  });

  test('a server that stops in the middle of its answer: MODEL_TIMEOUT too', async () => {
    const server = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"choices": [');
    });
    const e = await modelError(provider(server, { timeoutMs: 200 }).step({ messages: MESSAGES, tools: [] }));
    assert.equal(e.code, 'MODEL_TIMEOUT');
  });

  test('no server: MODEL_UNAVAILABLE naming the connection error, after the retries', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const e = await modelError(createOpenAiProvider({ ...BASE, baseUrl: `http://127.0.0.1:${port}/v1`, retries: 2 }).step({ messages: MESSAGES, tools: [] }));
    assert.equal(e.code, 'MODEL_UNAVAILABLE');
    assert.equal(e.message, `Cannot reach the model endpoint http://127.0.0.1:${port}/v1/chat/completions: ECONNREFUSED (attempts made: 3).`);
  });

  test('the caller aborts while the request is pending: CANCELLED, no retry', async () => {
    const server = await serve(hang);
    const controller = new AbortController();
    const pending = provider(server, { retries: 3, timeoutMs: 30_000 }).step({ messages: MESSAGES, tools: [], signal: controller.signal });
    await server.requests(1);
    controller.abort();
    const e = await modelError(pending);
    assert.equal(e.code, 'CANCELLED');
    assert.equal(e.message, 'The model request was cancelled.');
    assert.equal(server.received.length, 1);
  });

  test('the caller aborts during the wait before a retry: CANCELLED at once', async () => {
    const server = await serve(json(500, {}));
    const controller = new AbortController();
    const pending = provider(server, { retries: 3, backoffMs: 60_000 }).step({ messages: MESSAGES, tools: [], signal: controller.signal });
    await server.requests(1);
    setTimeout(() => controller.abort(), 20);
    assert.equal((await modelError(pending)).code, 'CANCELLED');
    assert.equal(server.received.length, 1);
  });

  test('an already aborted signal sends nothing', async () => {
    const server = await serve(final('ok'));
    const e = await modelError(provider(server).step({ messages: MESSAGES, tools: [], signal: AbortSignal.abort() }));
    assert.equal(e.code, 'CANCELLED');
    assert.equal(server.received.length, 0);
  });
});

describe('answers that are not chat completions', () => {
  const cases: [string, Answer, RegExp][] = [
    ['malformed JSON', raw(200, '{"choices": [ oops'), /did not answer with JSON \(.+\); the answer starts with: \{"choices": \[ oops$/],
    ['an empty body', raw(200, ''), /did not answer with JSON \(.+\); the answer starts with: \(empty\)$/],
    ['no choices', json(200, { object: 'chat.completion' }), /not answer with a chat completion: `choices` is missing\.$/],
    ['empty choices', json(200, { choices: [] }), /`choices\[0\]` is missing\.$/],
    ['choices not a list', json(200, { choices: { message: {} } }), /`choices` has type object, expected array\.$/],
    ['no message', json(200, { choices: [{ index: 0 }] }), /`choices\[0\]\.message` is missing\.$/],
    ['content not text', completion({ content: [{ type: 'text', text: 'hi' }] }), /`choices\[0\]\.message\.content` has type array, expected string\.$/],
    ['a call without id', completion({ tool_calls: [{ type: 'function', function: { name: 'x', arguments: '{}' } }] }), /`choices\[0\]\.message\.tool_calls\[0\]\.id` is missing\.$/],
    ['a call name not text', completion({ tool_calls: [{ id: 'c', function: { name: 7, arguments: '{}' } }] }), /`choices\[0\]\.message\.tool_calls\[0\]\.function\.name` has type number, expected string\.$/],
    ['a JSON array at the top', json(200, [1, 2]), /`\(answer\)` has type array, expected object\.$/],
  ];
  for (const [name, answer, message] of cases) {
    test(`${name}: MODEL_PROTOCOL_ERROR naming what was wrong, not retried`, async () => {
      const server = await serve(answer);
      const e = await modelError(provider(server, { retries: 2 }).step({ messages: MESSAGES, tools: [] }));
      assert.equal(e.code, 'MODEL_PROTOCOL_ERROR');
      assert.match(e.message, message);
      assert.ok(e.message.startsWith(`The model endpoint ${server.baseUrl}/chat/completions did not answer with`), e.message);
      assert.equal(server.received.length, 1);
    });
  }

  test('an answer above the size limit is not read to the end', async () => {
    const server = await serve(raw(200, JSON.stringify({ choices: [{ message: { content: 'x'.repeat(10_000) } }] })));
    const e = await modelError(provider(server, { maxResponseBytes: 1_000 }).step({ messages: MESSAGES, tools: [] }));
    assert.equal(e.code, 'MODEL_PROTOCOL_ERROR');
    assert.match(e.message, /sent an answer larger than 1000 bytes/);
  });

  test('any answer body gives a well-formed step or a protocol error (property)', async () => {
    let body = '';
    const server = await serve((res) => raw(200, body)(res, undefined as never, 0));
    const model = provider(server);
    const call = fc.record({ id: fc.oneof(fc.string(), fc.integer()), type: fc.constant('function'), function: fc.record({ name: fc.oneof(fc.string(), fc.constant(null)), arguments: fc.oneof(fc.string(), fc.object(), fc.integer()) }, { requiredKeys: [] }) }, { requiredKeys: [] });
    const message = fc.record({ role: fc.constant('assistant'), content: fc.oneof(fc.string(), fc.constant(null), fc.integer()), tool_calls: fc.oneof(fc.constant(null), fc.array(call, { maxLength: 3 })) }, { requiredKeys: [] });
    const usage = fc.oneof(fc.record({ prompt_tokens: fc.oneof(fc.integer(), fc.double(), fc.string()), completion_tokens: fc.integer() }, { requiredKeys: [] }), fc.anything());
    const chat = fc.record({ choices: fc.array(fc.record({ message }, { requiredKeys: [] }), { maxLength: 2 }), usage }, { requiredKeys: [] }).map((v) => JSON.stringify(v));
    await fc.assert(
      fc.asyncProperty(fc.oneof(chat, fc.json(), fc.string()), async (text) => {
        body = text;
        try {
          const step = await model.step({ messages: MESSAGES, tools: [] });
          assert.ok(step.kind === 'final' || step.kind === 'tool_calls');
          assert.equal(typeof step.text === 'string' || (step.kind === 'tool_calls' && step.text === undefined), true);
          for (const n of [step.usage.promptTokens, step.usage.completionTokens]) assert.ok(Number.isInteger(n) && n >= 0);
          if (step.kind === 'tool_calls') {
            assert.ok(step.calls.length > 0);
            for (const c of step.calls) assert.ok(typeof c.id === 'string' && typeof c.name === 'string' && typeof c.rawArguments === 'string');
          }
        } catch (e) {
          assert.ok(e instanceof ModelError && e.code === 'MODEL_PROTOCOL_ERROR', inspect(e));
        }
      }),
      { numRuns: RUNS(300) },
    );
  });
});

describe('base URL and key checks', () => {
  test('only http and https base URLs without credentials, query or fragment; the secret part is never quoted', () => {
    const refused: [string, RegExp][] = [
      ['ftp://models.example/v1', /^The model base URL "ftp:\/\/models\.example\/v1" is not an http:\/\/ or https:\/\/ URL\.$/],
      ['localhost:8000/v1', /is not an http:\/\/ or https:\/\/ URL/],
      ['not a url', /^The model base URL "not a url" is not/],
      ['http://user:hunter2@models.example/v1', /^The model base URL http:\/\/models\.example\/v1 carries credentials, a query or a fragment\./],
      ['https://models.example/v1?api_key=hunter2', /^The model base URL https:\/\/models\.example\/v1 carries credentials/],
      ['https://models.example/v1#hunter2', /carries credentials, a query or a fragment/],
    ];
    for (const [baseUrl, message] of refused) {
      assert.throws(() => createOpenAiProvider({ ...BASE, baseUrl }), (e: unknown) => e instanceof ModelError && e.code === 'MODEL_UNAVAILABLE' && message.test(e.message) && !e.message.includes('hunter2'), baseUrl);
    }
  });

  test('a timeout or retry count that is not a whole number is a programming error', () => {
    assert.throws(() => createOpenAiProvider({ ...BASE, baseUrl: 'http://127.0.0.1:1/v1', timeoutMs: 0 }), RangeError);
    assert.throws(() => createOpenAiProvider({ ...BASE, baseUrl: 'http://127.0.0.1:1/v1', retries: Number.NaN }), RangeError);
  });

  test('a key that cannot be sent in a header is refused without quoting it', () => {
    assert.throws(
      () => createOpenAiProvider({ ...BASE, baseUrl: 'http://127.0.0.1:1/v1', apiKey: `${KEY}\n` }),
      (e: unknown) => e instanceof ModelError && e.message === 'The API key contains spaces or characters that cannot be sent in an HTTP header.',
    );
  });

  test('the key appears nowhere in the provider or in any error it produces', async () => {
    const echo: Answer = (res, r) => json(500, { error: { message: `bad key ${String(r.headers['authorization'])}` } })(res, r, 0);
    const answers: Answer[] = [echo, json(403, { error: KEY }), raw(200, `not json ${KEY}`), raw(400, KEY), json(429, {}, { 'retry-after': '999' }), hang];
    for (const answer of answers) {
      const server = await serve(answer);
      const model = provider(server, { apiKey: KEY, retries: 1, timeoutMs: 200 });
      assert.ok(!exposed(model).includes(KEY), 'provider');
      const e = await modelError(model.step({ messages: MESSAGES, tools: [] }));
      assert.ok(!exposed(e).includes(KEY), exposed(e));
      assert.equal(server.received[0]?.headers['authorization'], `Bearer ${KEY}`);
    }
  });
});

describe('model settings and the provider factory', () => {
  const scripted: ModelProvider = { id: 'scripted', step: async () => ({ kind: 'final', text: 'scripted', usage: { promptTokens: 0, completionTokens: 0 } }) };
  const host = (more: Partial<ModelHost> = {}): ModelHost => ({ trusted: true, env: {}, scripted: () => scripted, ...more });

  test('the defaults are the schema\'s, and later layers win field by field', () => {
    assert.deepEqual(DEFAULT_MODEL_SETTINGS, { provider: 'scripted', apiKeyEnv: 'AGENTS_MD_API_KEY', timeoutMs: 60_000, retries: 2 });
    assert.equal((MODEL_SETTINGS_SCHEMA['properties'] as Record<string, { default?: unknown }>)['timeoutMs']?.default, 60_000);
    assert.deepEqual(
      resolveModelSettings([{ provider: 'openai', baseUrl: 'http://a/v1', model: 'm1', retries: 5 }, undefined, { model: 'm2', retries: undefined }]),
      { settings: { provider: 'openai', baseUrl: 'http://a/v1', model: 'm2', apiKeyEnv: 'AGENTS_MD_API_KEY', timeoutMs: 60_000, retries: 5 } },
    );
  });

  test('invalid settings are reported like configuration problems', () => {
    const texts = (r: ReturnType<typeof resolveModelSettings>) => ('problems' in r ? r.problems.map((p) => format(p.messageId, p.args)) : []);
    assert.deepEqual(texts(resolveModelSettings([{ provider: 'openai' }])), ['model: required field "baseUrl" is missing.', 'model: required field "model" is missing.']);
    assert.deepEqual(texts(resolveModelSettings([{ provider: 'openai', baseUrl: 'file:///etc', model: 'm', apiKeyEnv: 'AWS_SECRET_ACCESS_KEY', timeoutMs: 10 }])), [
      'model.baseUrl: must match the pattern ^https?://.',
      'model.apiKeyEnv: must match the pattern ^AGENTS_MD_[A-Z0-9_]+$.',
      'model.timeoutMs: must be >= 1000.',
    ]);
  });

  test('scripted by default, also in an untrusted workspace', () => {
    assert.equal(createModelProvider([], host({ trusted: false })), scripted);
    assert.equal(createModelProvider([{ provider: 'scripted', baseUrl: 'http://127.0.0.1:1/v1' }], host({ trusted: false })), scripted);
  });

  test('an endpoint is refused in an untrusted workspace, before anything is sent', async () => {
    const server = await serve(final('ok'));
    assert.throws(
      () => createModelProvider([{ provider: 'openai', baseUrl: server.baseUrl, model: 'm' }], host({ trusted: false, env: { AGENTS_MD_API_KEY: KEY } })),
      (e: unknown) => e instanceof ModelError && e.code === 'MODEL_UNAVAILABLE' &&
        e.message === `The model endpoint ${server.baseUrl} is not used in an untrusted workspace. Trust the workspace to run against it, or use the scripted model.`,
    );
    assert.equal(server.received.length, 0);
  });

  test('the key comes from the variable named by apiKeyEnv, and a key from the host wins', async () => {
    const server = await serve(final('ok'));
    const settings = { provider: 'openai' as const, baseUrl: server.baseUrl, model: 'm' };
    const request: ModelRequest = { messages: MESSAGES, tools: [] };
    await createModelProvider([settings], host({ env: { AGENTS_MD_API_KEY: 'from-default-env' } })).step(request);
    await createModelProvider([settings, { apiKeyEnv: 'AGENTS_MD_VLLM_KEY' }], host({ env: { AGENTS_MD_API_KEY: 'no', AGENTS_MD_VLLM_KEY: 'from-named-env' } })).step(request);
    await createModelProvider([settings], host({ env: { AGENTS_MD_API_KEY: 'from-env' }, apiKey: 'from-secret-storage' })).step(request);
    await createModelProvider([settings], host({ env: { AGENTS_MD_API_KEY: '' } })).step(request);
    assert.deepEqual(server.received.map((r) => r.headers['authorization']), ['Bearer from-default-env', 'Bearer from-named-env', 'Bearer from-secret-storage', undefined]);
  });

  test('a key written into the settings is refused as an unknown setting, and not quoted', () => {
    const layer = { provider: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'm', apiKey: KEY } as never;
    assert.throws(
      () => createModelProvider([layer], host()),
      (e: unknown) => e instanceof ModelError && e.message === 'The dry-run model settings are not valid: model.apiKey: unknown setting.' && !exposed(e).includes(KEY),
    );
  });
});

test('token estimates: a quarter token per Latin character, one per CJK character', () => {
  assert.equal(estimateTokens(''), 0);
  assert.equal(estimateTokens('abcd'), 1);
  assert.equal(estimateTokens('abcde'), 2);
  assert.equal(estimateTokens('订单已发货'), 5);
  assert.equal(estimateTokens('order 订单'), 2 + 2);
  assert.equal(estimateTokens('😀'), 1);
});

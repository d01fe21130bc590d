// Attack suite, a hostile model endpoint on 127.0.0.1 (docs/robustness.md, "Secrets"): it echoes
// the API key back at every offset of its error texts (JSON and not), in its answer, in tool
// arguments and tool names, and JSON-escaped. No fragment of the key may leave the provider.
// Run: node --import tsx --test test/attack/endpoint.test.ts
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAiProvider } from '../../server/src/node/openaiProvider.ts';
import { ModelError } from '../../server/src/service/run/llm/llmProvider.ts';

const KEY = 'sk-proj-0123456789abcdefghijklmnopqrstuvwxyzABCD';
/** Shortest fragment of the key that counts as leaked. */
const FRAGMENT = 6;

let server: Server;
let baseUrl = '';
/** What the server sends next: status, content type and body. */
let next: { status: number; type: string; body: string } = { status: 200, type: 'application/json', body: '{}' };

before(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(next.status, { 'content-type': next.type });
      res.end(next.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const provider = () => createOpenAiProvider({ baseUrl, model: 'm', apiKey: KEY, timeoutMs: 5000, retries: 0 });
const request = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };

/** The fragments of the key (at least FRAGMENT characters) that `text` contains. */
function leaks(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + FRAGMENT <= KEY.length; i++) if (text.includes(KEY.slice(i, i + FRAGMENT))) out.push(KEY.slice(i, i + FRAGMENT));
  return out;
}

async function errorText(): Promise<string> {
  try {
    await provider().step(request);
  } catch (e) {
    assert.ok(e instanceof ModelError, String(e));
    return `${e.message} ${JSON.stringify(e)}`;
  }
  assert.fail('the step should have failed');
}

test('the key at every offset of an error text is redacted before the text is cut', async () => {
  for (let offset = 0; offset <= 260; offset++) {
    const said = `${'x'.repeat(offset)}Incorrect API key provided: ${KEY}. ${'y'.repeat(50)}`;
    next = { status: 401, type: 'application/json', body: JSON.stringify({ error: { message: said } }) };
    assert.deepEqual(leaks(await errorText()), [], `JSON error, key at offset ${offset}`);
    next = { status: 500, type: 'text/plain', body: said };
    assert.deepEqual(leaks(await errorText()), [], `text error, key at offset ${offset}`);
  }
});

test('the key at every offset of an answer that is not JSON is redacted before the start is quoted', async () => {
  for (let offset = 0; offset <= 90; offset++) {
    next = { status: 200, type: 'text/html', body: `${'<'.repeat(offset)}${KEY}${'>'.repeat(100)}` };
    assert.deepEqual(leaks(await errorText()), [], `key at offset ${offset}`);
  }
});

test('the key echoed in the answer, in tool arguments, in a tool name and JSON-escaped is redacted', async () => {
  const escaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  next = { status: 200, type: 'application/json', body: JSON.stringify({ choices: [{ message: { content: `your key is ${KEY}` } }] }) };
  const final = await provider().step(request);
  assert.deepEqual(leaks(JSON.stringify(final)), []);
  next = { status: 200, type: 'application/json', body: `{"choices":[{"message":{"content":"${escaped}"}}]}` };
  assert.deepEqual(leaks(JSON.stringify(await provider().step(request))), []);
  next = {
    status: 200,
    type: 'application/json',
    body: JSON.stringify({ choices: [{ message: { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: KEY, arguments: JSON.stringify({ token: KEY }) } }] } }] }),
  };
  assert.deepEqual(leaks(JSON.stringify(await provider().step(request))), []);
});

// Runs sent from the editor (docs/tracing.md, "From VS Code"): with `agentsMd.otlpEndpoint` set, the
// language server (bundled, over stdio, as the VS Code client drives it) sends each run of
// Run agent as OpenTelemetry spans to an OTLP/HTTP receiver on 127.0.0.1; never from an untrusted
// workspace.
// Run: node --import tsx --test test/lspOtlp.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient } from './helpers/lspClient.ts';
import { useSampleServer } from './helpers/sampleServer.ts';
import { decodeRequest, receiver, spansOf, tricklingReceiver } from './helpers/otlp.ts';
import type { RunAgentResult } from '../server/src/lsp/customRequests.ts';

const { serverPath, ws, contractUri, snapshotUri } = useSampleServer('otlp');


/** A server whose client settings name `endpoint` as agentsMd.otlpEndpoint; its warnings collected. */
async function started(endpoint: string) {
  const client = new LspClient(serverPath);
  client.configuration = (item) => (item.section === 'agentsMd' ? { otlpEndpoint: endpoint } : null);
  const warnings: string[] = [];
  let warned = () => {};
  /** Resolves with the first warning (at once if one came already). */
  const warning = new Promise<string>((resolve) => (warned = () => resolve(warnings[0]!)));
  // The user approves the draft the happy path asks about.
  client.connection.onRequest('agentsMd/humanDecision', () => ({ decision: 'approve' }));
  // A warning is a `window/showMessageRequest` (it may carry actions); the user dismisses it.
  client.connection.onRequest('window/showMessageRequest', (p: { type: number; message: string }) => (p.type === 2 && (warnings.push(p.message), warned()), null));
  await client.initialize(pathToFileURL(ws).href, true, 'en');
  await client.open(contractUri, readFileSync(join(ws, 'AGENTS.md'), 'utf8'));
  return { client, warnings, warning };
}

const runHappyPath = (client: LspClient, trusted: boolean) =>
  client.request<RunAgentResult>('agentsMd/runAgent', { uri: contractUri, snapshotUri, queryId: 'happy-path', runId: `r-${trusted}`, trusted });

test('agentsMd.otlpEndpoint: each run is sent as GenAI spans, from a trusted workspace only', async () => {
  const otlp = await receiver();
  const { client } = await started(otlp.url);
  try {
    const result = await runHappyPath(client, true);
    assert.equal(result.ok, true, result.summary);
    // The spans leave after the run has answered.
    await otlp.received(1);
    assert.equal(otlp.requests.length, 1);
    const spans = spansOf(decodeRequest(otlp.requests[0]!.body));
    const root = spans.find((s) => s.name === 'invoke_agent ProcurementAnalyzer');
    assert.ok(root, spans.map((s) => s.name).join(', '));
    assert.deepEqual(spans.filter((s) => s.name.startsWith('execute_tool')).map((s) => [s.name, s.parentSpanId === root.spanId]), [['execute_tool check_inventory', true], ['execute_tool create_approval_draft', true]]);
    assert.equal(root.attributes['gen_ai.usage.input_tokens'], spans.filter((s) => s.name === 'chat').reduce((n, s) => n + (s.attributes['gen_ai.usage.input_tokens'] as number), 0));
    // PII of the sample's request history (COMPLIANCE: user_name, user_email) stays on the machine.
    for (const pii of ['alice.chen@example.com', 'Alice Chen']) assert.ok(!otlp.requests[0]!.body.includes(Buffer.from(pii)), `${pii} is not in the request`);

    const untrusted = await runHappyPath(client, false);
    assert.equal(untrusted.ok, true);
    assert.equal(otlp.requests.length, 1, 'nothing is sent from an untrusted workspace');
  } finally {
    await client.shutdown();
    await otlp.close();
  }
});

test('agentsMd.otlpEndpoint naming a receiver that trickles: the run answers first, the export ends at its one deadline with a warning', async () => {
  const otlp = await tricklingReceiver();
  const { client, warnings, warning } = await started(otlp.url);
  try {
    const events: string[] = [];
    const ended = warning.then((w) => events.push(`warning: ${w}`));
    const result = await runHappyPath(client, true);
    events.push('answer');
    assert.equal(result.ok, true, result.summary);
    // Before (the export awaited in the run): the answer came only after the receiver gave up,
    // which a trickling one never does.
    assert.deepEqual(warnings, [], 'the run answered before its export ended');
    await ended;
    assert.deepEqual(events.map((e) => e.replace(/:.*/, '')), ['answer', 'warning']);
    // One export, one deadline for all of it (retries included): the exporter's own timeout is per
    // attempt and never trips on a trickle.
    assert.match(events[1]!, /The run happy-path was not sent to the OTLP endpoint http:\/\/127\.0\.0\.1:\d+\/v1\/traces \(agentsMd\.otlpEndpoint\): no answer within 5000 ms/);
    assert.equal(otlp.requests(), 1);
    // The server still answers.
    assert.equal((await runHappyPath(client, false)).ok, true);
  } finally {
    await client.shutdown();
    await otlp.close();
  }
});

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
import { decodeRequest, receiver, spansOf } from './helpers/otlp.ts';
import type { RunAgentResult } from '../server/src/lsp/customRequests.ts';

const { serverPath, ws, contractUri, snapshotUri } = useSampleServer('otlp');


/** A server whose client settings name `endpoint` as agentsMd.otlpEndpoint; its warnings collected. */
async function started(endpoint: string) {
  const client = new LspClient(serverPath);
  client.configuration = (item) => (item.section === 'agentsMd' ? { otlpEndpoint: endpoint } : null);
  const warnings: string[] = [];
  // The user approves the draft the happy path asks about.
  client.connection.onRequest('agentsMd/humanDecision', () => ({ decision: 'approve' }));
  client.connection.onNotification('window/showMessage', (p: { type: number; message: string }) => void (p.type === 2 && warnings.push(p.message)));
  await client.initialize(pathToFileURL(ws).href, true, 'en');
  await client.open(contractUri, readFileSync(join(ws, 'AGENTS.md'), 'utf8'));
  return { client, warnings };
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

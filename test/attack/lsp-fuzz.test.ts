// Attack suite, a bounded and seeded LSP fuzz (docs/robustness.md, "LSP fuzz"): the bundled
// server over stdio gets random documents and incremental edits (CJK, emoji, CRLF, tables, YAML,
// fences), random requests at random positions, stale versions, cancellations and malformed
// messages. Every answer must come within 5 s; every range must lie inside its document and on
// character boundaries (never between the halves of a surrogate pair); after each round the
// edited document's diagnostics must equal those of the same text opened fresh. FUZZ_SEED and
// FUZZ_RUNS reproduce or lengthen a run; the defaults keep CI fast.
// Run: node --import tsx --test test/attack/lsp-fuzz.test.ts
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic, Range } from 'vscode-languageserver-protocol';
import { serverBundle } from '../helpers/cli.ts';
import { LspClient } from '../helpers/lspClient.ts';

const SEED = Number(process.env['FUZZ_SEED'] ?? 20261201);
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 6);
const STEPS = 25;
const server = serverBundle();
const serverPath = server.path;
before(() => server.build());

const PIECES = [
  '---\ncontract: true\nname: fuzz\nversion: 1.0.0\n---\n', '## AGENT_IDENTITY\n', '- **Name**: `Fuzz`\n', '- **Core Mandate**: "答复订单问题 😀"\n',
  '## TOOLS\n', '### get_order\n', '- **Input Schema**:\n  ```json\n  { "type": "object" }\n  ```\n', '## MEMORY_POOLS\n', '### order_log\n', '- **Weight**: 0.8\n',
  '## HUMAN_IN_THE_LOOP\n', '| Scenario | Trigger Condition | Required Action | SLA | On Timeout |\n|---|---|---|---|---|\n| Big | `amount > 100` | ok | 4h | reject |\n',
  '## BUDGETS\n', '- **Max Steps**: 6\r\n', '```yaml\n- pool: order_log\n```\n', '[][][]', '*a_', '𠀋𠀋', '\u0000', '\r', '\n', '> ', '    ', '<!-- agents-md-disable -->\n', 'é', '👩‍👩‍👧',
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((a) => a.join(''));
const op = fc.oneof(
  fc.record({ kind: fc.constant('edit' as const), a: fc.nat(), b: fc.nat(), insert: text }),
  fc.record({ kind: fc.constant('request' as const), method: fc.constantFrom('textDocument/hover', 'textDocument/completion', 'textDocument/definition', 'textDocument/references', 'textDocument/documentSymbol', 'textDocument/foldingRange', 'textDocument/codeAction', 'textDocument/prepareRename', 'textDocument/codeLens'), at: fc.nat(), cancel: fc.boolean() }),
  fc.record({ kind: fc.constant('stale' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('malformed' as const), method: fc.constantFrom('textDocument/hover', 'textDocument/rename', 'agentsMd/runAgent'), params: fc.anything() }),
);

/** Problems of one range in `doc`: outside it, reversed, or splitting a surrogate pair. */
function rangeProblems(doc: TextDocument, r: Range, what: string): string[] {
  const lines = doc.getText().split(/\r\n|\r|\n/);
  const out: string[] = [];
  for (const p of [r.start, r.end]) {
    const line = lines[p.line];
    if (line === undefined || p.character < 0 || p.character > line.length) out.push(`${what}: ${JSON.stringify(p)} outside the document`);
    else if (p.character > 0 && /[\ud800-\udbff]/.test(line[p.character - 1]!) && /[\udc00-\udfff]/.test(line[p.character] ?? '')) out.push(`${what}: ${JSON.stringify(p)} between the halves of a surrogate pair`);
  }
  if (r.start.line > r.end.line || (r.start.line === r.end.line && r.start.character > r.end.character)) out.push(`${what}: start after end`);
  return out;
}

/** Every object with `start` and `end` positions inside `value`. */
function rangesIn(value: unknown, out: Range[] = []): Range[] {
  if (Array.isArray(value)) value.forEach((v) => rangesIn(v, out));
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (o['start'] && o['end'] && typeof (o['start'] as { line?: unknown }).line === 'number') out.push(o as unknown as Range);
    for (const [k, v] of Object.entries(o)) if (k !== 'start' && k !== 'end') rangesIn(v, out);
  }
  return out;
}

const within = <T>(p: Promise<T>, what: string): Promise<T> =>
  Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer within 5 s`)), 5000))]);

const strip = (ds: Diagnostic[]) => ds.map((d) => ({ code: d.code, range: d.range, message: d.message, severity: d.severity })).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

test(`${RUNS} seeded rounds of ${STEPS} random edits, requests, stale versions, cancellations and malformed messages (seed ${SEED})`, { timeout: 120_000 }, async () => {
  const client = new LspClient(serverPath);
  try {
    await client.initialize(null, true);
    let round = 0;
    await fc.assert(
      fc.asyncProperty(text, fc.array(op, { minLength: STEPS, maxLength: STEPS }), async (initial, ops) => {
        const uri = `file:///fuzz/r${round}/AGENTS.md`;
        const fresh = `file:///fuzz/r${round++}/fresh.agents.md`;
        let doc = TextDocument.create(uri, 'markdown', 1, initial);
        await client.open(uri, initial, 1);
        let id = 0;
        for (const o of ops) {
          const size = doc.getText().length;
          if (o.kind === 'edit') {
            const [s, e] = [o.a % (size + 1), o.b % (size + 1)].sort((x, y) => x - y) as [number, number];
            const range = { start: doc.positionAt(s), end: doc.positionAt(e) };
            const change = { range, text: o.insert };
            doc = TextDocument.update(doc, [change], doc.version + 1);
            await client.change(uri, doc.version, [change]);
          } else if (o.kind === 'request') {
            const position = doc.positionAt(o.at % (size + 1));
            const params = o.method === 'textDocument/codeAction'
              ? { textDocument: { uri }, range: { start: position, end: position }, context: { diagnostics: [] } }
              : o.method === 'textDocument/references' ? { textDocument: { uri }, position, context: { includeDeclaration: true } }
              : ['textDocument/documentSymbol', 'textDocument/foldingRange', 'textDocument/codeLens'].includes(o.method) ? { textDocument: { uri } }
              : { textDocument: { uri }, position };
            const pending = client.request<unknown>(o.method, params).catch((e: { code?: number }) => ({ cancelled: e.code }));
            if (o.cancel) void client.connection.sendNotification('$/cancelRequest', { id: ++id });
            const answer = await within(pending, o.method);
            if (!(answer && typeof answer === 'object' && 'cancelled' in answer)) {
              // Locations in other files (definition, references) are checked against their own text by the server's tests.
              const own = o.method === 'textDocument/definition' || o.method === 'textDocument/references' ? rangesIn((answer as { uri?: string }[] | null)?.filter?.((l) => l.uri === uri) ?? []) : rangesIn(answer);
              assert.deepEqual(own.flatMap((r) => rangeProblems(doc, r, o.method)), []);
            }
          } else if (o.kind === 'stale') {
            // A change for an old version: the client is confused, the server must not be.
            await client.change(uri, Math.max(0, doc.version - 1 - (o.at % 3)), [{ text: 'stale' }]);
            await client.change(uri, doc.version + 1, [{ text: doc.getText() }]);
            doc = TextDocument.create(uri, 'markdown', doc.version + 1, doc.getText());
          } else {
            await within(client.request(o.method, o.params).catch(() => undefined), `malformed ${o.method}`);
          }
        }
        const edited = await within(client.pullDiagnostics(uri), 'diagnostic');
        assert.deepEqual(edited.flatMap((d) => rangeProblems(doc, d.range, `diagnostic ${d.code}`)), []);
        await client.open(fresh, doc.getText(), 1);
        const again = await within(client.pullDiagnostics(fresh), 'diagnostic (fresh)');
        assert.deepEqual(strip(edited), strip(again), 'incremental diagnostics equal a fresh parse');
        await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
        await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri: fresh } });
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  } finally {
    await client.shutdown().catch(() => client.kill());
  }
});

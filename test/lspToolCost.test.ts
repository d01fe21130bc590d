// What the tools cost, in the editor (docs/providers.md, "Token cost"): the hover on the TOOLS
// title and on a tool, and the code lens on TOOLS, over stdio on the bundled server as an editor
// asks for them. The figures are the ones `agents-md lint --stats` prints.
// Run: node --import tsx --test test/lspToolCost.test.ts
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeLens, Diagnostic, Hover, WorkspaceDiagnosticReport, WorkspaceFullDocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import { LspClient } from './helpers/lspClient.ts';
import { ensureBundles, SERVER_PATH } from './helpers/bundles.ts';
import { parseContract, requestCost } from '../server/src/service/index.ts';
import { toolCostOf } from '../server/src/service/export/cost.ts';

const serverPath = SERVER_PATH;
const ws = mkdtempSync(join(tmpdir(), 'agents-md-ws-cost-'));
const uri = `${pathToFileURL(ws).href}/AGENTS.md`;

const TOOL = (name: string, description: string) => `### \`${name}\`

- **Description**: ${description}
- **Side Effects**: read
- **Input Schema**:
  \`\`\`json
  { "type": "object", "properties": { "sku": { "type": "string", "description": "The stock keeping unit." } }, "required": ["sku"] }
  \`\`\`
`;
const contract = (budget?: number) => `---
contract: true
name: stock
version: 1.0.0
---
## AGENT_IDENTITY

- **Name**: \`Stock\`
- **Hard Boundaries**:
  - ✅ May use \`get_stock\` to check stock

## TOOLS

${TOOL('get_stock', 'Stock per SKU in every warehouse, with the quantity reserved for open orders.')}
${TOOL('get_price', 'Price per SKU.')}
## BUDGETS

- **Max Steps**: 20
${budget ? `- **Token Budget**: ${budget}\n` : ''}`;

before(() => {
  ensureBundles();
});
after(() => {
  rmSync(ws, { recursive: true, force: true });
});

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle));

test('hover on TOOLS and the TOOLS code lens show one figure, the tool definitions sent with every request, in words; a tool its own', async () => {
  const text = contract(2000);
  const cost = requestCost(parseContract(text));
  assert.ok(cost.tools > 0 && cost.systemPrompt > 0 && cost.total > cost.tools);
  const client = new LspClient(serverPath);
  try {
    await client.initialize(pathToFileURL(ws).href, true);
    await client.open(uri, text);
    const toolsLine = lineOf(text, '## TOOLS');

    const section = await client.request<Hover>('textDocument/hover', { textDocument: { uri }, position: { line: toolsLine, character: 5 } });
    const sectionText = (section.contents as { value: string }).value;
    const figure = `Tool definitions sent with every request: ${cost.tools} tokens, ${Math.round((cost.tools / 2000) * 100)}% of the token budget`;
    assert.ok(sectionText.includes(figure), sectionText);
    // One figure (issue 26 point 10): the lens and the hover never disagree, no tokenizer or schema type names.
    assert.deepEqual([...sectionText.matchAll(/(\d+) tokens/g)].map((m) => Number(m[1])), [cost.tools], sectionText);
    assert.doesNotMatch(sectionText, /o200k_base|· array/);

    // Each tool: its own definition; the longer description costs more.
    const own = async (name: string) => {
      const line = lineOf(text, `### \`${name}\``);
      const h = await client.request<Hover>('textDocument/hover', { textDocument: { uri }, position: { line, character: 7 } });
      const value = (h.contents as { value: string }).value;
      const m = /Its definition, sent with every request: (\d+) tokens\./.exec(value);
      assert.ok(m, value);
      return Number(m[1]);
    };
    const stock = await own('get_stock');
    const price = await own('get_price');
    assert.equal(stock, toolCostOf(parseContract(text), 'get_stock')?.tokens);
    assert.equal(price, toolCostOf(parseContract(text), 'get_price')?.tokens);
    assert.ok(stock > price, `${stock} > ${price}`);

    const lenses = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    const lens = lenses.find((l) => /^Tool definitions/.test(l.command?.title ?? ''));
    assert.ok(lens, JSON.stringify(lenses));
    assert.equal(lens.command!.title, figure);
    assert.equal(lens.range.start.line, toolsLine);

    // Without a token budget the lens gives the count alone; an edit updates it.
    const unbudgeted = contract();
    client.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: unbudgeted }] });
    const after = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    assert.ok(after.some((l) => l.command?.title === `Tool definitions sent with every request: ${requestCost(parseContract(unbudgeted)).tools} tokens`), JSON.stringify(after.map((l) => l.command?.title)));
    assert.equal(await client.shutdown(), 0);
  } finally {
    client.kill();
  }
});

test('in Chinese: the hover and the lens are translated whole', async () => {
  const text = contract(2000);
  const cost = requestCost(parseContract(text));
  const client = new LspClient(serverPath);
  try {
    await client.initialize(pathToFileURL(ws).href, true, 'zh-cn');
    await client.open(uri, text);
    const lenses = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    const figure = `随每个请求发送的工具定义：${cost.tools} 个 token，占 token 预算的 ${Math.round((cost.tools / 2000) * 100)}%`;
    assert.ok(lenses.some((l) => l.command?.title === figure), JSON.stringify(lenses.map((l) => l.command?.title)));
    const h = await client.request<Hover>('textDocument/hover', { textDocument: { uri }, position: { line: lineOf(text, '## TOOLS'), character: 5 } });
    assert.ok((h.contents as { value: string }).value.includes(figure), (h.contents as { value: string }).value);
    assert.equal(await client.shutdown(), 0);
  } finally {
    client.kill();
  }
});

/** The command lines of a process's children. */
function childCommands(pid: number): string[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  return children.map((c) => {
    try {
      return readFileSync(`/proc/${c}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {
      return '';
    }
  });
}

test('the budget rule: counted in the token process after the first diagnostics, then kept while typing in a tool until its new count', { skip: process.platform !== 'linux' && 'reads /proc for the server\'s child processes' }, async () => {
  // 120 tokens of budget: the two tools take more than half of it.
  const text = contract(120);
  const exact = requestCost(parseContract(text)).tools;
  const client = new LspClient(serverPath);
  const budgetFinding = (ds: Diagnostic[]) => ds.find((d) => d.code === 'tool-tokens-budget');
  try {
    await client.initialize(pathToFileURL(ws).href, true);
    await client.open(uri, text);
    // The first diagnostics do not wait for the tokenizer: nothing is said before a first count.
    assert.equal(budgetFinding(await client.pullDiagnostics(uri)), undefined);
    await client.settled();
    // The server counted in a child process of its own (dist/tokenWorker.cjs; it ends after 5 s idle), then checked the contract again.
    assert.ok(childCommands(client.pid).some((c) => c.includes('tokenWorker.cjs')), JSON.stringify(childCommands(client.pid)));
    const first = budgetFinding(await client.pullDiagnostics(uri));
    assert.ok(first, 'reported once counted');
    assert.match(first.message, new RegExp(`take ${exact} tokens per request`));

    // A keystroke in a tool: the finding stays (the tool's last count, scaled), no flicker.
    const edited = text.replace('Price per SKU.', 'Price per SKU, in the currency of the warehouse that holds it.');
    client.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: edited }] });
    assert.ok(budgetFinding(await client.pullDiagnostics(uri)), 'still reported while the edited tool is counted');
    // Once counted, the exact figure; the client is asked for the lenses again.
    const lensRefreshes = client.lensRefreshes;
    await client.settled();
    assert.ok(client.lensRefreshes > lensRefreshes, 'code lens refresh asked for');
    const counted = budgetFinding(await client.pullDiagnostics(uri));
    assert.match(counted!.message, new RegExp(`take ${requestCost(parseContract(edited)).tools} tokens per request`));
    assert.equal(await client.shutdown(), 0);
  } finally {
    client.kill();
  }
});

test('a contract that is not open: its budget counted in the token process too, not in the server', { skip: process.platform !== 'linux' && 'reads /proc for the server\'s child processes' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agents-md-ws-closed-cost-'));
  const closed = contract(120);
  mkdirSync(join(dir, 'closed'));
  writeFileSync(join(dir, 'closed', 'AGENTS.md'), closed);
  writeFileSync(join(dir, 'AGENTS.md'), contract());
  const client = new LspClient(serverPath);
  try {
    const wsUri = pathToFileURL(dir).href;
    await client.initialize(wsUri, true);
    await client.open(`${wsUri}/AGENTS.md`, contract());
    const report = await client.connection.sendRequest<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds: [] });
    const items = (report.items.find((x) => x.uri === `${wsUri}/closed/AGENTS.md`) as WorkspaceFullDocumentDiagnosticReport | undefined)?.items ?? [];
    const budget = items.find((d) => d.code === 'tool-tokens-budget');
    assert.ok(budget, JSON.stringify(items.map((d) => d.code)));
    assert.match(budget.message, new RegExp(`take ${requestCost(parseContract(closed)).tools} tokens per request`));
    assert.ok(childCommands(client.pid).some((c) => c.includes('tokenWorker.cjs')), `counted by the token process: ${JSON.stringify(childCommands(client.pid))}`);
    assert.equal(await client.shutdown(), 0);
  } finally {
    client.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});

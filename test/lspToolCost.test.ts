// What the tools cost, in the editor (docs/providers.md, "Token cost"): the hover on the TOOLS
// title and on a tool, and the code lens on TOOLS, over stdio on the bundled server as an editor
// asks for them. The figures are the ones `agents-md lint --stats` prints.
// Run: node --import tsx --test test/lspToolCost.test.ts
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeLens, Hover } from 'vscode-languageserver-protocol';
import { LspClient } from './helpers/lspClient.ts';
import { ensureBundles, SERVER_PATH } from './helpers/bundles.ts';
import { parseContract, requestCost } from '../server/src/service/index.ts';

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

test('hover on TOOLS and on a tool, and the TOOLS code lens, show the tokens each request carries and the share of the budget', async () => {
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
    assert.ok(sectionText.includes(`Every request carries ${cost.total} tokens (o200k_base): tool definitions ${cost.tools}, system prompt ${cost.systemPrompt}.`), sectionText);
    assert.ok(sectionText.includes(`${Math.round((cost.total / 2000) * 100)}% of the token budget of 2000, at every step.`), sectionText);

    // Each tool: its own definition; the longer description costs more.
    const own = async (name: string) => {
      const line = lineOf(text, `### \`${name}\``);
      const h = await client.request<Hover>('textDocument/hover', { textDocument: { uri }, position: { line, character: 7 } });
      const value = (h.contents as { value: string }).value;
      const m = /Its definition: (\d+) tokens per request \(o200k_base\)\./.exec(value);
      assert.ok(m, value);
      return Number(m[1]);
    };
    const stock = await own('get_stock');
    const price = await own('get_price');
    assert.equal(stock, cost.byTool.get('get_stock'));
    assert.equal(price, cost.byTool.get('get_price'));
    assert.ok(stock > price, `${stock} > ${price}`);

    const lenses = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    const lens = lenses.find((l) => /^Tools:/.test(l.command?.title ?? ''));
    assert.ok(lens, JSON.stringify(lenses));
    assert.equal(lens.command!.title, `Tools: ${cost.tools} tokens per request, ${Math.round((cost.tools / 2000) * 100)}% of budget`);
    assert.equal(lens.range.start.line, toolsLine);

    // Without a token budget the lens gives the count alone; an edit updates it.
    const unbudgeted = contract();
    client.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: unbudgeted }] });
    const after = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    assert.ok(after.some((l) => l.command?.title === `Tools: ${requestCost(parseContract(unbudgeted)).tools} tokens per request`), JSON.stringify(after.map((l) => l.command?.title)));
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
    assert.ok(lenses.some((l) => l.command?.title === `工具：每个请求 ${cost.tools} 个 token，占预算的 ${Math.round((cost.tools / 2000) * 100)}%`), JSON.stringify(lenses.map((l) => l.command?.title)));
    const h = await client.request<Hover>('textDocument/hover', { textDocument: { uri }, position: { line: lineOf(text, '## TOOLS'), character: 5 } });
    assert.match((h.contents as { value: string }).value, new RegExp(`每个请求都携带 ${cost.total} 个 token`));
    assert.equal(await client.shutdown(), 0);
  } finally {
    client.kill();
  }
});

/**
 * One test per adapter through its real process, so that `npm test` (which runs everything else
 * in one process, test/quick.ts) still starts each face of the engine as a user does: the CLI by
 * its launcher, the language server over stdio as an editor drives it, the MCP server with the MCP
 * SDK's own client. The full process suites run in `npm run test:all` (test/suites.ts).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO, useCliBundle } from './helpers/cli.ts';
import { LspClient } from './helpers/lspClient.ts';
import { SERVER_PATH } from './helpers/bundles.ts';
import { SERVER_EXEC_ARGV } from '../server/src/lsp/execArgv.ts';

const { bundle, scratch } = useCliBundle('smoke');
let ws = '';

before(() => {
  ws = scratch.workspace({});
  cpSync(join(REPO, 'samples', 'broken'), join(ws, 'broken'), { recursive: true });
  cpSync(join(REPO, 'samples', 'procurement-analyzer'), join(ws, 'procurement-analyzer'), { recursive: true });
});

test('CLI: lint reports a broken contract with exit code 1 and a passing one with 0', async () => {
  const broken = await bundle.run(ws, 'lint', 'broken/AGENTS.md');
  assert.equal(broken.code, 1, broken.stderr);
  assert.match(broken.stdout, /broken\/AGENTS\.md:\d+:\d+ error hitl-needs-fallback /);
  assert.match(broken.stdout, /✖ \d+ problems \(\d+ errors?, \d+ warnings?, \d+ info\) in 1 file/);
  const good = await bundle.run(ws, 'lint', 'procurement-analyzer/AGENTS.md');
  assert.equal(good.code, 0, good.stdout + good.stderr);
});

test('LSP over stdio, started with the V8 flags the VS Code client gives it: initialize, open a contract, pull its diagnostics, shut down', async () => {
  // A flag this Node does not take would stop the server before it answers.
  const client = new LspClient(SERVER_PATH, SERVER_EXEC_ARGV);
  try {
    const uri = pathToFileURL(join(ws, 'broken', 'AGENTS.md')).href;
    const init = await client.initialize(pathToFileURL(ws).href, true);
    assert.ok(init.capabilities['diagnosticProvider'], 'announces pull diagnostics');
    await client.open(uri, readFileSync(join(ws, 'broken', 'AGENTS.md'), 'utf8'));
    const diagnostics = await client.pullDiagnostics(uri);
    const hitl = diagnostics.find((d) => d.code === 'hitl-needs-fallback');
    assert.ok(hitl, diagnostics.map((d) => d.code).join(', '));
    assert.equal(hitl.source, 'agents-md');
    assert.equal(await client.shutdown(), 0);
  } finally {
    client.kill();
  }
});

let mcp: Client | undefined;
after(() => mcp?.close());

test('MCP: the SDK client lists the tools and lints a contract', async () => {
  mcp = new Client({ name: 'agents-md-smoke', version: '1.0.0' });
  const env = { ...process.env, LANG: 'C.UTF-8' } as Record<string, string>;
  await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [bundle.bin, 'mcp', '--root', ws], env, stderr: 'pipe' }));
  const { tools } = await mcp.listTools();
  assert.ok(tools.some((t) => t.name === 'lint'), tools.map((t) => t.name).join(', '));
  const r = (await mcp.callTool({ name: 'lint', arguments: { path: 'broken/AGENTS.md' } })) as { structuredContent?: Record<string, unknown>; isError?: boolean; content: { text: string }[] };
  assert.notEqual(r.isError, true, r.content[0]?.text);
  assert.match(JSON.stringify(r.structuredContent), /hitl-needs-fallback/);
});

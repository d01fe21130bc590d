// An MCP server written with the official SDK that lists the tools of a JSON file (a `tools/list`
// result): the server `agents-md check-mcp` is tested against (test/checkMcp.test.ts).
// Run: node test/mcp-fixtures/static-server.mjs <tools.json>           (stdio)
//      node test/mcp-fixtures/static-server.mjs <tools.json> --http    (Streamable HTTP on 127.0.0.1;
//      prints its URL on standard output once it listens)
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const { tools } = JSON.parse(readFileSync(process.argv[2], 'utf8'));

function mcpServer() {
  const server = new Server({ name: 'fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
  // Two pages, so that the client must follow the cursor.
  const half = Math.ceil(tools.length / 2);
  server.setRequestHandler(ListToolsRequestSchema, async (request) =>
    request.params?.cursor === 'page-2' ? { tools: tools.slice(half) } : { tools: tools.slice(0, half), ...(half < tools.length ? { nextCursor: 'page-2' } : {}) },
  );
  server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'fixture' }], isError: true }));
  return server;
}

if (process.argv.includes('--http')) {
  // Stateless: a server and a transport per request.
  const http = createServer(async (req, res) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => transport.close());
    await mcpServer().connect(transport);
    await transport.handleRequest(req, res);
  });
  http.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`));
} else {
  await mcpServer().connect(new StdioServerTransport());
}

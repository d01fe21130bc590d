// An MCP server written with the official SDK that lists the tools of a JSON file (a `tools/list`
// result) on stdio: the server `agents-md check-mcp` is tested against (test/checkMcp.test.ts).
// Run: node test/mcp-fixtures/static-server.mjs <tools.json>
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const { tools } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const server = new Server({ name: 'fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
// Two pages, so that the client must follow the cursor.
const half = Math.ceil(tools.length / 2);
server.setRequestHandler(ListToolsRequestSchema, async (request) =>
  request.params?.cursor === 'page-2' ? { tools: tools.slice(half) } : { tools: tools.slice(0, half), ...(half < tools.length ? { nextCursor: 'page-2' } : {}) },
);
server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'fixture' }], isError: true }));
await server.connect(new StdioServerTransport());

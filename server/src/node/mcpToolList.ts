/**
 * The tools a live MCP server lists, read with the official MCP SDK client over stdio or
 * Streamable HTTP on this machine (`agents-md check-mcp`, docs/enforcement.md, "A live MCP
 * server"). Loaded by that command only: the SDK builds its message schemas when it loads.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { InputError } from './inputError.ts';

/** Longest wait for the server to start and answer one page of `tools/list` (ms). */
const TIMEOUT_MS = 30_000;
/** Most pages of `tools/list` read (a server that pages forever is cut off). */
const MAX_PAGES = 100;

/** The transport to the server: started as `server` (a command and its arguments) over stdio, or at `url` on this machine. */
export function transportFor(server: readonly string[], url: string | undefined): Transport {
  if (url !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new InputError('cli.checkMcp.notLocal', { url });
    }
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname) || !/^https?:$/.test(parsed.protocol)) throw new InputError('cli.checkMcp.notLocal', { url });
    return new StreamableHTTPClientTransport(parsed);
  }
  const [command, ...args] = server;
  if (!command) throw new InputError('cli.checkMcp.noServer', {});
  return new StdioClientTransport({ command, args, stderr: 'ignore' });
}

/** Every tool the server lists, page by page; `us`: the client's name and version, as the server sees them. */
export async function listTools(transport: Transport, us: { readonly name: string; readonly version: string }): Promise<unknown[]> {
  const client = new Client(us);
  try {
    await client.connect(transport, { timeout: TIMEOUT_MS });
    const tools: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await client.listTools(cursor ? { cursor } : {}, { timeout: TIMEOUT_MS });
      tools.push(...r.tools);
      cursor = r.nextCursor;
      if (!cursor) break;
    }
    return tools;
  } catch (e) {
    throw new InputError('cli.checkMcp.cannotConnect', { error: e instanceof Error ? e.message : String(e) });
  } finally {
    await client.close().catch(() => undefined);
  }
}

/**
 * `agents-md mcp`: the language service for coding agents over the Model Context Protocol
 * (stdio, the official TypeScript SDK; docs/mcp.md). A thin adapter like lsp/: each tool's work is
 * in tools.ts; here are its name, description and input schema, and the answer's wrapping (JSON
 * text and structured content; input the tool cannot use is an `isError` answer that says why).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';
import { type Lang } from '../service/index.ts';
import { format } from '../service/host.ts';
import { InputError } from '../node/inputError.ts';
import { createMcpContext, diffTool, dryRunTool, explainRuleTool, lintTool, listNamesTool, proveTool, type McpContext } from './tools.ts';

/** No answer is longer than this many characters (docs/mcp.md, "Bounded answers"). */
export const MAX_ANSWER_CHARS = 256 * 1024;

type Answer = { content: { type: 'text'; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

/**
 * The tool's answer to a call, in `answering` until it is written (when the client closes its end,
 * the answers being worked on are still sent: serveMcpStdio).
 */
function answer(ctx: McpContext, answering: Set<Promise<unknown>>, work: () => Promise<object> | object): Promise<Answer> {
  const done = Promise.resolve()
    .then(work)
    .then((data): Answer => {
      const text = JSON.stringify(data);
      if (text.length > MAX_ANSWER_CHARS) return { content: [{ type: 'text', text: format('mcp.error.tooLarge', { limit: MAX_ANSWER_CHARS }, ctx.lang) }], isError: true };
      return { content: [{ type: 'text', text }], structuredContent: data as Record<string, unknown> };
    })
    .catch((e: unknown): Answer => {
      if (e instanceof InputError) return { content: [{ type: 'text', text: e.text(ctx.lang) }], isError: true };
      throw e;
    });
  answering.add(done);
  void done.finally(() => answering.delete(done)).catch(() => undefined);
  return done;
}

/** The MCP server over a workspace root, its tools described in `lang`, and the answers it is working on. */
export function createAgentsMdMcpServer(root: string, lang: Lang, version: string): { server: McpServer; answering: ReadonlySet<Promise<unknown>> } {
  const ctx = createMcpContext(root, lang);
  const answering = new Set<Promise<unknown>>();
  const reply = (work: () => Promise<object> | object) => answer(ctx, answering, work);
  const t = (id: string) => format(id, {}, lang);
  const server = new McpServer({ name: 'agents-md', version });
  const path = z.string().min(1).max(4096);
  const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
  server.registerTool('lint', { description: t('mcp.tool.lint'), inputSchema: { path: path.describe(t('mcp.arg.contract')) }, annotations: readOnly }, (a) => reply(() => lintTool(ctx, a)));
  server.registerTool('explain_rule', { description: t('mcp.tool.explainRule'), inputSchema: { code: z.string().min(1).max(200).describe(t('mcp.arg.rule')) }, annotations: readOnly }, (a) => reply(() => explainRuleTool(ctx, a)));
  server.registerTool('list_names', { description: t('mcp.tool.listNames'), inputSchema: { path: path.describe(t('mcp.arg.contract')) }, annotations: readOnly }, (a) => reply(() => listNamesTool(ctx, a)));
  server.registerTool(
    'dry_run',
    {
      description: t('mcp.tool.dryRun'),
      inputSchema: { contract: path.describe(t('mcp.arg.contract')), snapshot: path.describe(t('mcp.arg.snapshot')), query: z.string().max(200).optional().describe(t('mcp.arg.query')) },
      // It writes its trace, and only there: a new run folder under .agents-md/runs/.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (a) => reply(() => dryRunTool(ctx, a)),
  );
  server.registerTool('diff', { description: t('mcp.tool.diff'), inputSchema: { older: path.describe(t('mcp.arg.older')), newer: path.describe(t('mcp.arg.newer')) }, annotations: readOnly }, (a) => reply(() => diffTool(ctx, a)));
  server.registerTool('prove', { description: t('mcp.tool.prove'), inputSchema: { path: path.describe(t('mcp.arg.contract')) }, annotations: readOnly }, (a) => reply(() => proveTool(ctx, a)));
  return { server, answering };
}

/** Serves on standard input and output until the client closes them. */
export async function serveMcpStdio(root: string, lang: Lang, version: string): Promise<void> {
  const { server, answering } = createAgentsMdMcpServer(root, lang, version);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done();
    process.stdin.once('end', () => done());
  });
  await server.connect(transport);
  await closed;
  // A client that writes its requests and closes its end at once (a script piping them in) still
  // gets every answer: the calls already started finish, and their answers are written, first.
  await new Promise((r) => setImmediate(r));
  while (answering.size > 0) await Promise.allSettled([...answering]);
  await new Promise((r) => setImmediate(r));
  await server.close();
}

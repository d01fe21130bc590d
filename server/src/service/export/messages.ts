/**
 * The messages of the runtime side (docs/providers.md, docs/mcp.md): `agents-md export`,
 * `agents-md mcp` and the token counts. Registered as the `providers` message set.
 */
import { registerMessages } from '../l10n/registry.ts';

export const PROVIDER_MESSAGES = {
  'cli.export.description':
    'Write a contract\'s tools for a runtime: OpenAI or Anthropic tool definitions with the system prompt and the output schema, MCP tool definitions with annotations, or every schema as one JSON Schema 2020-12 document (docs/providers.md, "Exports").',
  'cli.export.contract': 'the contract file',
  'cli.export.to': 'what to write',
  'cli.export.output': 'write to this file instead of standard output',
  'cli.export.exitCodes': 'Exit codes:\n  0  the export was written\n  2  usage error, a contract that cannot be read, a file that is not a contract, an output file that cannot be written, or an internal error',
  'cli.export.notContract': '{file} is not a contract (no recognised sections, or empty): there are no tools or system prompt to export. Make it a contract first (docs/contract-format.md).',
  'cli.export.forbidden': '{file}: not exported, because a ❌ boundary of AGENT_IDENTITY forbids them: {tools} (rule forbidden-tool-declared).',
  'cli.export.written': 'Wrote {file}',
  'cli.usage.export': '[options] <contract>',
  'cli.option.stats': 'print, per contract, the tokens each model request carries (tool definitions and system prompt) and their share of the token budget, on standard error',
  'cli.stats.tokens': '{file}: {total} tokens per request ({encoding}): tool definitions {tools}, system prompt {prompt}',
  'cli.stats.budget': '{file}: {percent}% of the token budget of {budget}, at every step',
  'cli.mcp.description': 'Serve the language service to coding agents over the Model Context Protocol on standard input and output: lint, explain_rule, list_names, dry_run and diff (docs/mcp.md).',
  'cli.mcp.root': 'the workspace folder the tools may read (default: the current folder); dry runs write under its .agents-md/runs/',
  'cli.mcp.exitCodes': 'Exit codes:\n  0  the client closed the connection\n  2  usage error (a root that is not a folder) or an internal error',
  'mcp.tool.lint': 'Lint an AGENTS.md contract: every finding with its rule code, severity, message, location (file:line:col), range (0-based, UTF-16, as LSP) and the rule\'s fixes as text edits.',
  'mcp.tool.explainRule': 'Explain a rule of the AGENTS.md linter by its code: severity, preset, summary, why it matters, its source and a bad and a good example.',
  'mcp.tool.listNames': 'List a contract\'s sections and the names they declare (tools, memory pools, HITL scenarios, error codes…) with their lines.',
  'mcp.tool.dryRun': 'Dry-run one query of a snapshot against a contract with the snapshot\'s scripted model: the outcome, the timeline of steps and the trace written under .agents-md/runs/.',
  'mcp.tool.diff': 'Semantic diff of two versions of a contract: each change with its impact (breaking, risk-increasing, risk-reducing, neutral) and reason, and the version bump they require.',
  'mcp.arg.contract': 'path of the contract, relative to the workspace root',
  'mcp.arg.rule': 'the rule code, e.g. tool-missing-schema',
  'mcp.arg.snapshot': 'path of the snapshot file, relative to the workspace root',
  'mcp.arg.query': 'the query id (needed when the snapshot has several)',
  'mcp.arg.older': 'path of the older version, relative to the workspace root',
  'mcp.arg.newer': 'path of the newer version, relative to the workspace root',
  'mcp.error.outside': '{path}: not read (outside the workspace root; docs/mcp.md)',
  'mcp.error.unknownRule': 'No rule has the code "{code}" (agents-md rules lists them).',
  'mcp.error.chooseQuery': '{file} has several queries: name one with query ({ids})',
  'mcp.error.tooLarge': 'The answer is larger than {limit} characters and was not sent.',
} as const;

registerMessages('providers', PROVIDER_MESSAGES);

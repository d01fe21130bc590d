/**
 * Entry point of the AGENTS.md contract language server (dist/server.cjs). Speaks LSP over
 * stdio (`--stdio`) or Node IPC (`--node-ipc`), as vscode-languageserver chooses from argv.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node.js';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer } from './lsp/server.ts';

// The bundle lives in dist/; the rule docs ship beside it in docs/.
const docsBase = pathToFileURL(join(dirname(process.argv[1] ?? __filename), '..', 'docs', 'rules.md')).href;
startServer(createConnection(ProposedFeatures.all), docsBase);

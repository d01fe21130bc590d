/**
 * Entry point of the AGENTS.md contract language server (dist/server.cjs). Speaks LSP over
 * stdio (`--stdio`) or Node IPC (`--node-ipc`), as vscode-languageserver chooses from argv.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node.js';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer } from './lsp/server.ts';
import { workerAnalyzer } from './lsp/workerAnalyzer.ts';

// The bundle lives in dist/ beside its ReDoS worker; the rule docs ship in docs/.
const dist = dirname(process.argv[1] ?? __filename);
const docsBase = pathToFileURL(join(dist, '..', 'docs', 'rules.md')).href;
startServer(createConnection(ProposedFeatures.all), docsBase, workerAnalyzer(join(dist, 'regexWorker.cjs')));

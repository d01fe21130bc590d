/**
 * Entry point of the AGENTS.md contract language server (dist/server.cjs). Speaks LSP over
 * stdio (`--stdio`) or Node IPC (`--node-ipc`), as vscode-languageserver chooses from argv.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node.js';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer } from './lsp/server.ts';
import { workerAnalyzer } from './lsp/workerAnalyzer.ts';

// The bundle lives in dist/ beside its ReDoS worker; the rule docs ship in docs/ (and docs/zh-cn/).
const dist = dirname(process.argv[1] ?? __filename);
const docsFolder = pathToFileURL(join(dist, '..', 'docs')).href;
startServer(createConnection(ProposedFeatures.all), docsFolder, workerAnalyzer(join(dist, 'regexWorker.cjs')));

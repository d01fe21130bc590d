/**
 * Entry point of the AGENTS.md contract language server (dist/server.cjs). Speaks LSP over
 * stdio (`--stdio`, as VS Code starts it) or Node IPC (`--node-ipc`); every message read passes
 * the guard (lsp/guard.ts) before the handlers see it. Over stdio, a diagnostic sent before is
 * written from its kept bytes (lsp/messageEncoding.ts).
 */
import { createConnection, IPCMessageReader, IPCMessageWriter, ProposedFeatures, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node.js';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer } from './lsp/server.ts';
import type { AskVerdict } from './lsp/backgroundAnalyzer.ts';
import { askChild } from './lsp/childProcess.ts';
import { guardReader } from './lsp/guard.ts';
import { messageEncoder } from './lsp/messageEncoding.ts';

// The bundle lives in dist/ beside its ReDoS and token workers; the rule docs ship in docs/ (and docs/zh-cn/).
const dist = dirname(process.argv[1] ?? __filename);
const docsFolder = pathToFileURL(join(dist, '..', 'docs')).href;
const ipc = process.argv.includes('--node-ipc');
const reader = ipc ? new IPCMessageReader(process) : new StreamMessageReader(process.stdin);
const writer = ipc ? new IPCMessageWriter(process) : new StreamMessageWriter(process.stdout, { contentTypeEncoder: messageEncoder });
const log = (line: string) => process.stderr.write(`${line}\n`);
const analyzeRegex: AskVerdict = askChild(join(dist, 'regexWorker.cjs'));
startServer(createConnection(ProposedFeatures.all, guardReader(reader, writer, log, () => process.exit(1)), writer), docsFolder, analyzeRegex, askChild<readonly string[], readonly number[]>(join(dist, 'tokenWorker.cjs')));

/**
 * The server's first line of defence on the wire (docs/robustness.md, "Protocol"): every message
 * read is checked before a handler sees it. Before `initialize`, requests are answered with
 * -32002 (ServerNotInitialized) and notifications other than `exit` are dropped, as LSP says;
 * requests whose params do not have the shape LSP gives them are answered with -32602
 * (InvalidParams) naming what is wrong, instead of a handler's TypeError; malformed notifications are
 * dropped. Framing errors (a missing or bad Content-Length, junk bytes) are logged to stderr, which
 * editors show in the server's output, and end the process: the reader cannot find the next message
 * again, and a server that lives on deaf is worse than one the editor restarts. A message that never
 * completes is logged.
 */
import { ErrorCodes, type DataCallback, type Disposable, type Message, type MessageReader, type MessageWriter, type RequestMessage } from 'vscode-languageserver/node.js';
import { format } from '../service/host.ts';

/** A problem: where in the params, and the JSON type expected there. */
interface Problem {
  readonly path: string;
  readonly expected: string;
}
/** A check of one value: the problem found, or undefined. */
type Check = (v: unknown, at: string) => Problem | undefined;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const uint: Check = (v, path) => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 2 ** 31 - 1 ? undefined : { path, expected: 'uinteger' });
const string: Check = (v, path) => (typeof v === 'string' ? undefined : { path, expected: 'string' });
const integer: Check = (v, path) => (Number.isInteger(v) ? undefined : { path, expected: 'integer' });
const optional = (c: Check): Check => (v, at) => (v === undefined || v === null ? undefined : c(v, at));
const array = (item: Check): Check => (v, path) => (Array.isArray(v) ? v.map((x, i) => item(x, `${path}[${i}]`)).find((p) => p !== undefined) : { path, expected: 'array' });
function shape(fields: Readonly<Record<string, Check>>): Check {
  return (v, at) => {
    if (!isObject(v)) return { path: at, expected: 'object' };
    for (const [k, c] of Object.entries(fields)) {
      const p = c(v[k], `${at}.${k}`);
      if (p) return p;
    }
    return undefined;
  };
}
const position = shape({ line: uint, character: uint });
const range = shape({ start: position, end: position });
const doc = shape({ uri: string });
const docPosition = shape({ textDocument: doc, position });

/** The params of the methods this server handles (the parts it reads). */
const PARAMS: Readonly<Record<string, Check>> = {
  initialize: shape({}),
  'textDocument/didOpen': shape({ textDocument: shape({ uri: string, text: string, version: integer, languageId: optional(string) }) }),
  'textDocument/didChange': shape({ textDocument: shape({ uri: string, version: integer }), contentChanges: array(shape({ text: string, range: optional(range) })) }),
  'textDocument/didClose': shape({ textDocument: doc }),
  'textDocument/hover': docPosition,
  'textDocument/completion': docPosition,
  'textDocument/definition': docPosition,
  'textDocument/references': shape({ textDocument: doc, position, context: shape({}) }),
  'textDocument/prepareRename': docPosition,
  'textDocument/rename': shape({ textDocument: doc, position, newName: string }),
  'textDocument/documentSymbol': shape({ textDocument: doc }),
  'textDocument/foldingRange': shape({ textDocument: doc }),
  'textDocument/codeLens': shape({ textDocument: doc }),
  'textDocument/codeAction': shape({ textDocument: doc, range, context: shape({ diagnostics: array(shape({ range })) }) }),
  'textDocument/diagnostic': shape({ textDocument: doc }),
  'agentsMd/listSnapshots': shape({ uri: string }),
  'agentsMd/runAgent': shape({ uri: string, snapshotUri: string, runId: string, queryId: optional(string) }),
  'agentsMd/semanticDiff': shape({ uri: string, against: shape({ kind: string }) }),
  'agentsMd/revisionText': shape({ uri: string }),
  'agentsMd/prove': shape({ uri: string }),
};

const isRequest = (m: Message): m is RequestMessage => 'method' in m && 'id' in m && (m as RequestMessage).id !== undefined && (m as RequestMessage).id !== null;

/** Wraps `inner` so that only well-formed messages reach the connection; answers the others on `writer`. */
export function guardReader(inner: MessageReader, writer: MessageWriter, log: (line: string) => void, stop: () => void): MessageReader {
  let initialized = false;
  inner.onError((e) => {
    log(format('lsp.framingError', { detail: String(e instanceof Error ? e.message : e).slice(0, 300) }));
    stop();
  });
  inner.onPartialMessage((p) => log(format('lsp.partialMessage', { seconds: Math.round(p.waitingTime / 1000) })));
  const reject = (m: RequestMessage, code: number, message: string) => void writer.write({ jsonrpc: '2.0', id: m.id, error: { code, message } } as Message);
  return {
    onError: inner.onError,
    onClose: inner.onClose,
    onPartialMessage: inner.onPartialMessage,
    dispose: () => inner.dispose(),
    listen(callback: DataCallback): Disposable {
      return inner.listen((m) => {
        const method = (m as { method?: unknown }).method;
        if (typeof method !== 'string') return callback(m); // a response to one of our requests
        if (!initialized && method !== 'initialize' && method !== 'exit') {
          if (isRequest(m)) reject(m, ErrorCodes.ServerNotInitialized, format('lsp.notInitialized', { method }));
          else log(format('lsp.droppedBeforeInitialize', { method }));
          return;
        }
        const problem = PARAMS[method]?.((m as { params?: unknown }).params, 'params');
        if (problem) {
          const text = format('lsp.invalidParams', { method, ...problem });
          if (isRequest(m)) reject(m, ErrorCodes.InvalidParams, text);
          else log(text);
          return;
        }
        if (method === 'initialize') initialized = true;
        callback(m);
      });
    },
  };
}

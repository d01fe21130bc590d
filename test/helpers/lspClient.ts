import { spawn, type ChildProcess } from 'node:child_process';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node.js';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';

/** How many full reports the client keeps for `unchanged` answers. */
const HELD_REPORTS = 16;

/**
 * A minimal LSP client for protocol tests: spawns the bundled server over stdio and speaks
 * JSON-RPC to it, as an editor would. `pull` chooses whether the client announces pull
 * diagnostics (VS Code) or expects them pushed (Neovim).
 */
export class LspClient {
  readonly connection: MessageConnection;
  private readonly proc: ChildProcess;
  private readonly published = new Map<string, PublishDiagnosticsParams[]>();
  private readonly waiters: { uri: string; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  readonly stderr: string[] = [];
  /** How many times the server asked the client to pull all diagnostics again. */
  refreshes = 0;
  /** How many times the server asked the client to request code lenses again. */
  lensRefreshes = 0;
  /** The server's protocol trace (`$/logTrace`), once `trace(…)` turned it on. */
  readonly traces: { message: string; verbose?: string }[] = [];
  /** What the server registered dynamically (client/registerCapability), in order. */
  readonly registrations: { method: string; registerOptions?: unknown }[] = [];
  /** The client's settings (`workspace/configuration`), per requested section and resource; null: defaults. */
  configuration: (item: { scopeUri?: string; section?: string }) => unknown = () => null;

  /**
   * `PROF_SERVER=dir` writes the server's CPU profile there when it exits (docs/performance.md, "Profiling").
   * `execArgv`: Node flags for the server (SERVER_EXEC_ARGV to start it as the VS Code client does).
   */
  constructor(serverPath: string, execArgv: readonly string[] = []) {
    this.proc = spawn(process.execPath, [...execArgv, ...(process.env['PROF_SERVER'] ? ['--cpu-prof', `--cpu-prof-dir=${process.env['PROF_SERVER']}`] : []), serverPath, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stderr!.on('data', (d) => this.stderr.push(String(d)));
    const reader = new StreamMessageReader(this.proc.stdout!);
    // A server that exits while writing (a large notification cut by `exit`) leaves a partial
    // message, for which vscode-jsonrpc re-arms a 10 s timer forever: the test process never exits.
    reader.partialMessageTimeout = 0;
    this.connection = createMessageConnection(reader, new StreamMessageWriter(this.proc.stdin!));
    this.connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      const list = this.published.get(p.uri) ?? [];
      list.push(p);
      this.published.set(p.uri, list);
      for (const w of this.waiters.filter((x) => x.uri === p.uri)) w.resolve(p);
      this.waiters.splice(0, this.waiters.length, ...this.waiters.filter((x) => x.uri !== p.uri));
    });
    this.connection.onRequest('client/registerCapability', (p: { registrations: { method: string; registerOptions?: unknown }[] }) => (this.registrations.push(...p.registrations), null));
    this.connection.onRequest('workspace/configuration', (p: { items: { scopeUri?: string; section?: string }[] }) => p.items.map((i) => this.configuration(i)));
    this.connection.onRequest('workspace/diagnostic/refresh', () => (this.refreshes++, null));
    this.connection.onRequest('workspace/codeLens/refresh', () => (this.lensRefreshes++, null));
    this.connection.onNotification('$/logTrace', (p: { message: string; verbose?: string }) => {
      this.traces.push(p);
      for (const w of this.traceWaiters.filter((x) => p.message.startsWith(x.prefix))) w.resolve();
      this.traceWaiters = this.traceWaiters.filter((x) => !p.message.startsWith(x.prefix));
    });
    this.connection.listen();
  }

  async initialize(rootUri: string | null, pull: boolean, locale = 'en') {
    const result = await this.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri,
      locale,
      workspaceFolders: rootUri ? [{ uri: rootUri, name: 'ws' }] : null,
      capabilities: {
        // A pull client resolves code actions as VS Code does; a push client (as Neovim's) does not.
        textDocument: {
          ...(pull ? { diagnostic: { dynamicRegistration: false }, codeAction: { resolveSupport: { properties: ['edit'] } } } : { publishDiagnostics: { relatedInformation: true, versionSupport: true } }),
          hover: { contentFormat: ['markdown'] },
        },
        workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true }, workspaceFolders: true, codeLens: { refreshSupport: true } },
      },
    });
    await this.connection.sendNotification('initialized', {});
    return result as { capabilities: Record<string, unknown>; serverInfo?: { name: string; version?: string } };
  }

  open(uri: string, text: string, version = 1) {
    return this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version, text } });
  }

  change(uri: string, version: number, changes: unknown[]) {
    return this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: changes });
  }

  /** Turns the server's protocol trace on (`$/setTrace`), as VS Code does for `agentsMd.trace.server`. */
  trace(value: 'off' | 'messages' | 'verbose') {
    return this.connection.sendNotification('$/setTrace', { value });
  }

  private traceWaiters: { prefix: string; resolve: () => void }[] = [];
  /** Resolves when the server traces a message starting with `prefix` (or has already). */
  traced(prefix: string, timeoutMs = 20_000): Promise<void> {
    if (this.traces.some((t) => t.message.startsWith(prefix))) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no trace "${prefix}…" within ${timeoutMs} ms`)), timeoutMs);
      this.traceWaiters.push({ prefix, resolve: () => (clearTimeout(t), resolve()) });
    });
  }

  /** Every diagnostics notification pushed for `uri` so far (push mode). */
  publishedFor(uri: string): readonly PublishDiagnosticsParams[] {
    return this.published.get(uri) ?? [];
  }

  /** The next diagnostics pushed for `uri` (push mode). */
  nextPublished(uri: string, timeoutMs = 10_000): Promise<PublishDiagnosticsParams> {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no diagnostics for ${uri} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({ uri, resolve: (p) => (clearTimeout(t), resolve(p)) });
    });
  }

  /** The last report per document, whose result id the next pull sends, as VS Code does. */
  private readonly reports = new Map<string, { resultId: string; items: Diagnostic[] }>();
  /**
   * The last full reports' items by result id (an `unchanged` answer may name one other than the
   * last, when pulls overlap). Only the last few: a benchmark's client holding every report of a
   * 2,000-line contract grew its heap by 100 KB of JSON per keystroke, and its collections showed in the latencies measured.
   */
  private readonly held = new Map<string, Diagnostic[]>();
  /** How the server answered the last pull of each document: `full` or `unchanged`. */
  readonly lastReportKind = new Map<string, 'full' | 'unchanged'>();
  /** Pulls with the last result id, as VS Code does; an `unchanged` answer gives the items held. */
  async pullDiagnostics(uri: string): Promise<Diagnostic[]> {
    const previousResultId = this.reports.get(uri)?.resultId;
    const r = (await this.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri }, ...(previousResultId ? { previousResultId } : {}) })) as
      | { kind: 'full'; resultId?: string; items: Diagnostic[] }
      | { kind: 'unchanged'; resultId: string };
    this.lastReportKind.set(uri, r.kind);
    if (r.kind === 'unchanged') {
      const items = this.held.get(r.resultId);
      if (!items) throw new Error(`unchanged report ${r.resultId} for ${uri}, which the client never received`);
      this.reports.set(uri, { resultId: r.resultId, items });
      return items;
    }
    if (r.resultId) {
      this.reports.set(uri, { resultId: r.resultId, items: r.items });
      this.held.set(r.resultId, r.items);
      if (this.held.size > HELD_REPORTS) this.held.delete(this.held.keys().next().value!);
    } else this.reports.delete(uri);
    return r.items;
  }

  /**
   * Pulls diagnostics until `until` holds, as an editor pulls again when the server asks it to
   * (`workspace/diagnostic/refresh`), for results that arrive after the first answer (the version
   * advice, the ReDoS analysis). Rejects after `timeoutMs` with the last diagnostics.
   */
  async pullUntil(uri: string, until: (d: Diagnostic[]) => boolean, timeoutMs = 20_000): Promise<Diagnostic[]> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      // A pull answered "the document changed, pull again" (ServerCancelled) is pulled again, as editors do.
      const d = await this.pullDiagnostics(uri).catch((e: { code?: number }) => {
        if (e?.code === -32802) return undefined;
        throw e;
      });
      if (d && until(d)) return d;
      if (Date.now() > end) throw new Error(`diagnostics of ${uri} never matched: ${JSON.stringify(d?.map((x) => x.code))}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /**
   * Resolves once the server has nothing under way that could still send or change diagnostics
   * (`agentsMd/settled`): whatever it was going to send has arrived by then.
   */
  async settled(): Promise<void> {
    await this.connection.sendRequest('agentsMd/settled', {});
  }

  request<T>(method: string, params: unknown): Promise<T> {
    return this.connection.sendRequest(method, params) as Promise<T>;
  }

  /** Sends shutdown and exit and resolves with the process's exit code. */
  async shutdown(): Promise<number | null> {
    const exited = new Promise<number | null>((r) => this.proc.once('exit', (code) => r(code)));
    await this.connection.sendRequest('shutdown');
    await this.connection.sendNotification('exit');
    const code = await exited;
    this.connection.dispose();
    return code;
  }

  kill(): void {
    this.proc.kill();
  }

  /** The server process's id (for memory measurements). */
  get pid(): number {
    return this.proc.pid ?? 0;
  }
}

/**
 * The run view's requests (docs/dry-run.md, "A run as a picture"): the page of a trace, made by
 * the service's `runPageHtml` as `agents-md trace show --html` makes it, beside its fork or the
 * previous run of the same query; and forking a run at an event, as `agents-md trace fork` does.
 */
import { dirname, relative, resolve } from 'node:path';
import { ErrorCodes, ResponseError, type Connection } from 'vscode-languageserver';
import { forkOf, locate, runMessage, runPageHtml, verifyTrace, type ParsedContract, type TraceEvent, type ViewLocation } from '../service/index.ts';
import { InputError, loadContract } from '../node/dryRunHost.ts';
import { forkTrace, previousTrace, runInfo } from '../node/traceRun.ts';
import { fileUri, uriToPath } from '../node/nodeFileSystem.ts';
import { readRegularFile } from '../node/paths.ts';
import { FORK_RUN, RUN_PAGE, type ForkRunParams, type ForkRunResult, type RunPageParams, type RunPageResult } from './customRequests.ts';

/** Largest trace the view reads (bytes). */
const MAX_TRACE_BYTES = 64 * 1024 * 1024;

/** What the module needs from the server. */
export interface RunPageHost {
  readonly lang: () => string;
  /** The cached model of an open document, else undefined (the contract is read from disk). */
  readonly model: (uri: string) => ParsedContract | undefined;
}

/** A trace under `<root>/.agents-md/runs/<run>/`: its root, text and verified events. */
async function readTrace(uri: string, lang: string): Promise<{ path: string; root: string; text: string; events: readonly TraceEvent[] }> {
  const path = uriToPath(uri);
  if (!path) throw new ResponseError(ErrorCodes.InvalidParams, uri);
  let text: string;
  try {
    // Bounded and regular files only: a FIFO or /dev/zero named as a trace is refused unread.
    text = readRegularFile(path, MAX_TRACE_BYTES).toString('utf8');
  } catch (e) {
    throw new ResponseError(ErrorCodes.InvalidParams, runMessage('view.traceUnreadable', { path, error: (e as NodeJS.ErrnoException).code ?? String(e) }, lang));
  }
  return { path, root: resolve(dirname(path), '..', '..', '..'), text, events: (await verifyTrace(text)).events };
}

/** The label of a run's column: its folder, and the fork point for a fork. */
function label(root: string, path: string, events: readonly TraceEvent[], lang: string): string {
  const fork = forkOf(events);
  const where = relative(resolve(root, '.agents-md', 'runs'), dirname(path)).split('\\').join('/');
  return fork ? `${where} · ${runMessage('page.fork-label', { at: String(fork.payload['at'] ?? '') }, lang)}` : where;
}

export function registerRunPage(connection: Connection, host: RunPageHost): void {
  connection.onRequest(RUN_PAGE, async (p: RunPageParams): Promise<RunPageResult> => {
    const lang = host.lang();
    const run = await readTrace(p.traceUri, lang);
    const besidePath = p.besideUri ? uriToPath(p.besideUri) : previousTrace(run.root, run.path, run.events);
    const beside = besidePath ? await readTrace(fileUri(besidePath), lang) : undefined;
    let contract: { model: ParsedContract; path: string } | undefined;
    try {
      const path = resolve(run.root, runInfo(run.events).contract);
      contract = { model: host.model(fileUri(path)) ?? (await loadContract(path, run.root)).model, path };
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
    }
    const start = run.events[0]?.payload ?? {};
    const title = `${String(start['query_id'] ?? '')} · ${contract ? relative(run.root, contract.path).split('\\').join('/') : ''}`;
    const html = runPageHtml({
      title, lang, nonce: p.nonce, interactive: true,
      // A fork just made (the beside run the client names) is the run shown first when only one fits.
      open: p.besideUri ? 1 : 0,
      run: { label: label(run.root, run.path, run.events, lang), events: run.events },
      ...(beside ? { beside: { label: label(beside.root, beside.path, beside.events, lang), events: beside.events } } : {}),
      ...(contract ? { contract: { model: contract.model, displayPath: relative(run.root, contract.path).split('\\').join('/') } } : {}),
    });
    const clauses: Record<string, ViewLocation> = {};
    for (const e of [...run.events, ...(beside?.events ?? [])]) {
      const pointer = (e.payload as { pointer?: unknown }).pointer;
      const range = contract && typeof pointer === 'string' ? locate(contract.model, pointer) : undefined;
      if (range && contract) clauses[pointer as string] = { uri: fileUri(contract.path), range: range.key ?? range.value };
    }
    return { title, html, clauses, ...(besidePath ? { besideUri: fileUri(besidePath) } : {}) };
  });

  connection.onRequest(FORK_RUN, async (p: ForkRunParams): Promise<ForkRunResult> => {
    const lang = host.lang();
    const trace = await readTrace(p.traceUri, lang);
    try {
      const { result } = await forkTrace({ root: trace.root, cwd: trace.root, path: trace.path, text: trace.text, events: trace.events, at: p.at, ...(p.decision ? { decision: p.decision } : {}) });
      const end = result.outcome;
      return { traceUri: fileUri(result.tracePath), summary: runMessage('view.forked', { at: p.at, status: runMessage(`status.${end.status}`, {}, lang), code: end.code }, lang) };
    } catch (e) {
      if (e instanceof InputError) throw new ResponseError(ErrorCodes.InvalidParams, e.text(lang));
      throw e;
    }
  });
}

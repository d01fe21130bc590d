/**
 * What `agents-md eval` and the GitHub Action's eval of both versions share (docs/dry-run.md
 * "Eval", docs/ci.md): finding snapshot files, reading each with its contract, and running every
 * query into one report per query (outcome, steps, tokens, human decisions, path, mismatches).
 */
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkExpectation, type Lang, type ModelProvider, type QueryReport, runMessage, type Snapshot, type SnapshotQuery } from '../service/index.ts';
import { fileErrorReason, format } from '../service/host.ts';
import { globFiles, unreadableFolders } from '../node/nodeFileSystem.ts';
import { slug, type RunFolder } from '../node/runFolder.ts';
import { contractForSnapshot, executeQuery, InputError, loadContract, loadSnapshot, resourceReader, SNAPSHOT_EXCLUDES, SNAPSHOT_GLOBS, storedPath, type LoadedContract, type LoadedSnapshot } from '../node/dryRunHost.ts';
import { formatDiagnostics } from './snapshotReport.ts';
import { displayPath } from './report.ts';
import './messages.ts';

/** A snapshot ready to run, with its contract and the contract's resource files. */
export interface EvalWork {
  readonly contract: LoadedContract;
  readonly snapshot: LoadedSnapshot & { readonly read: { readonly snapshot: Snapshot } };
  readonly file: (name: string) => string | undefined;
  /** The model of each query: the snapshot's script unless the configuration names a live one (docs/model-providers.md). */
  readonly model?: (query: SnapshotQuery) => ModelProvider;
}

/**
 * Snapshot files named by the arguments: files as given, directories searched with SNAPSHOT_GLOBS;
 * `problems` in `lang` (arguments missing, folders the search could not enter).
 */
export async function findSnapshots(paths: readonly string[], cwd: string, lang: Lang): Promise<{ files: string[]; problems: string[] }> {
  const files = new Set<string>();
  const problems: string[] = [];
  for (const p of paths) {
    const abs = resolve(cwd, p);
    let st;
    try {
      st = statSync(abs);
    } catch {
      problems.push(format('cli.files.missing', { arg: p }, lang));
      continue;
    }
    if (!st.isDirectory()) {
      files.add(abs);
      continue;
    }
    for (const f of await globFiles(abs, SNAPSHOT_GLOBS, SNAPSHOT_EXCLUDES)) files.add(f);
    // A folder the search could not enter may hold snapshots: say so (exit 2, docs/cli.md) rather than run fewer in silence.
    for (const u of await unreadableFolders(abs, SNAPSHOT_EXCLUDES)) problems.push(format('cli.files.unreadable', { arg: join(p, u.path), error: fileErrorReason(u.error, lang) }, lang));
  }
  return { files: [...files].sort(), problems };
}

/** What `loadEvalWork` reports while reading: a snapshot's diagnostic lines, and errors (in the display language). */
export interface LoadListener {
  readonly diagnostics?: (lines: readonly string[]) => void;
  readonly error?: (message: string) => void;
}

/**
 * Reads every snapshot with its contract. `only` keeps the snapshots whose contract it accepts
 * (others are skipped without a word); `modelFor` gives a contract's model (default: the
 * snapshot's script). `usable` is false when a file named could not be used.
 */
export async function loadEvalWork(
  files: readonly string[],
  root: string,
  cwd: string,
  lang: Lang,
  on: LoadListener = {},
  only?: (contractPath: string) => boolean,
  modelFor?: (contractPath: string) => Promise<(query: SnapshotQuery) => ModelProvider>,
): Promise<{ work: EvalWork[]; usable: boolean }> {
  const work: EvalWork[] = [];
  let usable = true;
  for (const f of files) {
    try {
      const first = await loadSnapshot(f, cwd);
      const contractPath = first.read.snapshot ? contractForSnapshot(f, first.read.snapshot) : undefined;
      if (only && (!contractPath || !only(contractPath))) continue;
      if (!first.read.snapshot || !contractPath) {
        on.diagnostics?.(formatDiagnostics(f, cwd, first.read.diagnostics, lang));
        if (first.read.snapshot) on.error?.(runMessage('eval.no-contract', { file: displayPath(cwd, f) }, lang));
        usable = false;
        continue;
      }
      const contract = await loadContract(contractPath, cwd);
      const snapshot = await loadSnapshot(f, cwd, contract.model);
      on.diagnostics?.(formatDiagnostics(f, cwd, snapshot.read.diagnostics, lang));
      const read = snapshot.read.snapshot;
      if (!read) {
        usable = false;
        continue;
      }
      const model = modelFor ? await modelFor(contractPath) : undefined;
      work.push({ contract, snapshot: { ...snapshot, read: { ...snapshot.read, snapshot: read } }, file: await resourceReader(root, contract), ...(model ? { model } : {}) });
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      on.error?.(e.text(lang));
      usable = false;
    }
  }
  return { work, usable };
}

/** A namer of trace files, unique within one eval even when two snapshot paths slug alike (`a/b/x`, `a-b/x`). */
function traceNamer(): (base: string) => string {
  const used = new Set<string>();
  return (base) => {
    let name = `${base}.jsonl`;
    for (let n = 2; used.has(name); n++) name = `${base}-${n}.jsonl`;
    used.add(name);
    return name;
  };
}

/** Where `runEvalWork` runs: paths are stored relative to `root`, shown relative to `cwd`; traces go to `folder`. */
export interface EvalPlace {
  readonly root: string;
  readonly cwd: string;
  readonly folder: RunFolder;
  /** Called before each query runs (1-based `done`). */
  readonly onQuery?: (done: number, total: number, snapshot: string, query: string) => void;
  /** Runs of each query (`eval --repeat`, default 1); with more than one, each report has its `attempt`. */
  readonly repeat?: number;
}

/**
 * Runs every query of every snapshot (`repeat` times each); one report per run, keyed by the
 * snapshot's stored path and the query id.
 */
export async function runEvalWork(work: readonly EvalWork[], place: EvalPlace): Promise<QueryReport[]> {
  const { root, cwd, folder } = place;
  const repeat = Math.max(1, place.repeat ?? 1);
  const uniqueTraceName = traceNamer();
  const total = repeat * work.reduce((s, w) => s + w.snapshot.read.snapshot.queries.length, 0);
  const reports: QueryReport[] = [];
  for (const w of work) {
    const shown = displayPath(cwd, w.snapshot.path);
    const stored = storedPath(root, w.snapshot.path);
    for (const query of w.snapshot.read.snapshot.queries) for (let attempt = 1; attempt <= repeat; attempt++) {
      place.onQuery?.(reports.length + 1, total, shown, query.id);
      const traceName = uniqueTraceName(`${slug(stored)}--${slug(query.id)}${repeat > 1 ? `--${attempt}` : ''}`);
      const result = await executeQuery({ root, contract: w.contract, snapshot: w.snapshot, query, file: w.file, folder, traceName, ...(w.model ? { provider: w.model(query) } : {}) });
      const o = result.outcome;
      reports.push({
        key: `${stored}#${query.id}`,
        snapshot: shown,
        query: query.id,
        status: o.status,
        code: o.code,
        ...(o.protocol?.errorCode ? { errorCode: o.protocol.errorCode } : {}),
        steps: result.stats.steps,
        tokens: result.stats.tokens,
        humanDecisions: result.stats.humanDecisions,
        path: result.stats.path,
        mismatches: checkExpectation(query.expect, result),
        trace: storedPath(root, result.tracePath),
        ...(repeat > 1 ? { attempt } : {}),
      });
    }
  }
  return reports;
}

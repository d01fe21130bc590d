/**
 * What the hosts of the dry run share (`agents-md run`, `eval`, `trace replay|fork` and the language server's Run agent): reading a contract and a snapshot
 * (with problems named by file and place), finding a snapshot's contract by the documented naming
 * rule, reading the resource files a contract names, and running one query with its trace
 * written to a run folder as the events happen (docs/dry-run.md).
 */
import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { createNodeFileSystem, fileUri } from './nodeFileSystem.ts';
import { TraceWriter } from './traceWriter.ts';
import { createLanguageService, createScriptedModel, type Decide, type EventSink, type HumanDecision, type ModelProvider, parseContract, type ParsedContract, readSnapshot, runQuery, type RunResult, scriptedDecisions, type Snapshot, type SnapshotQuery, type SnapshotRead, type TraceEvent } from '../service/index.ts';
import { decodeText, sha256Hex } from '../service/host.ts';
import { RunFolder, RUNS_DIR } from './runFolder.ts';
import { InputError } from './inputError.ts';

export { InputError } from './inputError.ts';
import { displayPath, isWithin, readRegularFile } from './paths.ts';

/** File names of snapshots (docs/dry-run.md, "Naming"). */
export const SNAPSHOT_GLOBS = ['**/*.snapshot.yaml', '**/*.snapshot.yml', '**/*.snapshot.json'];
/** Folders never searched for snapshots. */
export const SNAPSHOT_EXCLUDES = ['**/node_modules/**', '**/.git/**', '**/.agents-md/**'];
/** Largest contract or snapshot file read (bytes). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** A contract read from disk. */
export interface LoadedContract {
  readonly path: string;
  readonly text: string;
  readonly model: ParsedContract;
  readonly sha256: string;
}

/** A snapshot read from disk (its diagnostics may hold errors: then `read.snapshot` is undefined). */
export interface LoadedSnapshot {
  readonly path: string;
  readonly sha256: string;
  readonly read: SnapshotRead;
}

/** The messages of `readText`'s problems, by what is read. */
const READ_PROBLEMS = {
  contract: { tooLarge: 'run.host.too-large.contract', unreadable: 'run.host.unreadable.contract', binary: 'run.host.binary.contract' },
  snapshot: { tooLarge: 'run.host.too-large.snapshot', unreadable: 'run.host.unreadable.snapshot', binary: 'run.host.binary.snapshot' },
} as const;

function readText(path: string, what: keyof typeof READ_PROBLEMS, cwd: string): { text: string; bytes: Uint8Array } {
  const ids = READ_PROBLEMS[what];
  const file = displayPath(cwd, path);
  let bytes: Uint8Array;
  try {
    bytes = readRegularFile(path, MAX_FILE_BYTES);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EFBIG') throw new InputError(ids.tooLarge, { file, limit: MAX_FILE_BYTES });
    throw new InputError(ids.unreadable, { file, error: code ?? String(e) });
  }
  const decoded = decodeText(bytes);
  if (decoded.binary) throw new InputError(ids.binary, { file });
  return { text: decoded.text, bytes };
}

/**
 * A new run folder under `<root>/.agents-md/runs/` (docs/dry-run.md). Throws `InputError` when
 * `root` is not an existing directory, or when `.agents-md/runs` resolves outside it (a symbolic
 * link committed to the repository must not send traces elsewhere).
 */
export function createRunFolder(root: string, name: string, cwd: string = root): RunFolder {
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) throw new InputError('run.host.rootNotDirectory', { root: displayPath(cwd, root) });
  // Checked before anything is created: an existing `.agents-md` or `runs` may be a link.
  const top = realpathSync(root);
  for (const p of [join(root, '.agents-md'), join(root, RUNS_DIR)]) {
    if (statSync(p, { throwIfNoEntry: false })?.isDirectory() === false) throw new InputError('run.host.runsNotDirectory', { path: displayPath(cwd, p), root: displayPath(cwd, root) });
    const real = existsSync(p) ? realpathSync(p) : undefined;
    if (real !== undefined && relative(top, real).startsWith('..')) throw new InputError('run.host.runsOutside', { root: displayPath(cwd, root), target: real });
    // A link to another folder of the workspace (a committed `runs -> ../src`) is not followed either.
    if (lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink()) throw new InputError('run.host.runsLink', { path: displayPath(cwd, p), target: displayPath(cwd, real ?? p) });
  }
  const folder = RunFolder.create(root, name);
  return folder;
}

/** Reads and parses a contract. Throws `InputError` when it cannot be read. */
export async function loadContract(path: string, cwd: string): Promise<LoadedContract> {
  const { text, bytes } = readText(path, 'contract', cwd);
  return { path, text, model: parseContract(text), sha256: await sha256Hex(bytes) };
}

/**
 * Reads a snapshot and checks it (against `contract` when given); `edit` changes its text first
 * (a fork's `--set`, giving YAML). Throws `InputError` when it cannot be read.
 */
export async function loadSnapshot(path: string, cwd: string, contract?: ParsedContract, edit?: (text: string) => string): Promise<LoadedSnapshot> {
  const { text, bytes } = readText(path, 'snapshot', cwd);
  const read = readSnapshot(edit ? edit(text) : text, { lang: !edit && path.toLowerCase().endsWith('.json') ? 'json' : 'yaml', ...(contract ? { contract } : {}) });
  return { path, sha256: await sha256Hex(bytes), read };
}


/**
 * The contract a snapshot is for (docs/dry-run.md, "Naming"): its `contract` field, relative to
 * the snapshot; else `AGENTS.md` (or the only `*.agents.md`) in the snapshot's folder, or in the
 * parent folder when the snapshot sits in a folder named `snapshots`.
 */
export function contractForSnapshot(snapshotPath: string, snapshot: Pick<Snapshot, 'contract'>): string | undefined {
  const dir = dirname(snapshotPath);
  if (snapshot.contract) return resolve(dir, snapshot.contract);
  const folders = basename(dir) === 'snapshots' ? [dir, dirname(dir)] : [dir];
  for (const f of folders) {
    if (existsSync(join(f, 'AGENTS.md'))) return join(f, 'AGENTS.md');
    let named: string[] = [];
    try {
      named = readdirSync(f).filter((n) => n.endsWith('.agents.md'));
    } catch {
      // an unreadable folder has no contract
    }
    if (named.length === 1) return join(f, named[0]!);
  }
  return undefined;
}

/**
 * Reads the resource files a contract names (RESOURCES and backticked file names), found where
 * the linter finds them (the config's `resourceRoots`, beside the contract, the workspace root).
 */
export async function resourceReader(root: string, contract: LoadedContract): Promise<(name: string) => string | undefined> {
  // A contract outside the workspace root is its own workspace (resources beside it).
  const workspace = isWithin(root, contract.path) ? root : dirname(contract.path);
  const service = createLanguageService({ fs: createNodeFileSystem(() => [workspace]), roots: [fileUri(workspace)] });
  const facts = await service.facts(fileUri(contract.path), contract.model);
  const texts = new Map<string, string>();
  for (const [name, status] of facts.resources) {
    // Only files found inside the workspace, read like any other (docs/robustness.md).
    if (status.status !== 'found') continue;
    try {
      texts.set(name, decodeText(readRegularFile(fileURLToPath(status.uri), { maxBytes: MAX_FILE_BYTES, roots: [workspace] })).text);
    } catch {
      // unreadable: the expression that needs it is unknown, which the trace shows
    }
  }
  return (name) => texts.get(name);
}

/** A path as stored in a trace: relative to the root, `/`-separated (absolute when outside the root). */
export function storedPath(root: string, path: string): string {
  const rel = relative(root, path);
  return rel.startsWith('..') ? path : rel.split(sep).join('/');
}

/** Answers every pause with one decision (`--approve`, `--reject`). */
export function fixedDecision(decision: HumanDecision): Decide {
  return async () => decision;
}

/** Sleeps `ms`, ended early by `signal` (for `--real-delays`). */
export function realSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done) => {
    // Timers overflow above 2^31 - 1 ms; no mocked delay is waited longer than that.
    const t = setTimeout(done, Math.min(ms, 2 ** 31 - 1));
    signal?.addEventListener('abort', () => (clearTimeout(t), done()), { once: true });
  });
}

/** What `executeQuery` needs. */
export interface ExecuteOptions {
  readonly root: string;
  readonly contract: LoadedContract;
  readonly snapshot: LoadedSnapshot & { readonly read: { readonly snapshot: Snapshot } };
  readonly query: SnapshotQuery;
  readonly file: (name: string) => string | undefined;
  /** The folder the trace goes to, and the trace's file name in it. */
  readonly folder: RunFolder;
  readonly traceName: string;
  readonly provider?: ModelProvider;
  readonly decide?: Decide;
  readonly onEvent?: EventSink;
  readonly signal?: AbortSignal;
  readonly realDelays?: boolean;
  /** Fork: the original events to replay up to the fork point, the namespace and the fork payload; their lines are copied first. */
  readonly fork?: { readonly prefix: readonly TraceEvent[]; readonly prefixText: string; readonly namespace: string; readonly payload: Readonly<Record<string, unknown>> };
}

/** Runs one query with its trace written line by line; returns the result and the trace's path. */
export async function executeQuery(o: ExecuteOptions): Promise<RunResult & { readonly tracePath: string; readonly divergence?: unknown }> {
  const tracePath = o.folder.file(o.traceName);
  const writer = new TraceWriter(tracePath, storedPath(o.root, tracePath));
  try {
    if (o.fork) writer.appendLines(o.fork.prefixText);
    const result = await runQuery({
      contract: o.contract.model,
      query: o.query,
      ...(o.snapshot.read.snapshot.now ? { now: o.snapshot.read.snapshot.now } : {}),
      provider: o.provider ?? createScriptedModel(o.query.model),
      decide: o.decide ?? scriptedDecisions(o.query.human),
      file: o.file,
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.realDelays ? { sleep: realSleep } : {}),
      onEvent: async (e) => {
        writer.write(e);
        await o.onEvent?.(e);
      },
      meta: {
        id: o.folder.id,
        contract: storedPath(o.root, o.contract.path),
        contract_sha256: o.contract.sha256,
        snapshot: storedPath(o.root, o.snapshot.path),
        snapshot_sha256: o.snapshot.sha256,
      },
      ...(o.fork ? { fork: { prefix: o.fork.prefix, namespace: o.fork.namespace, payload: o.fork.payload } } : {}),
    });
    return { ...result, tracePath };
  } finally {
    writer.close();
    o.folder.removeIfEmpty();
  }
}

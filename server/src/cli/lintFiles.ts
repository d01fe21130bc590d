/**
 * Reads and lints files with the language service, a few at a time, through the bounded reader
 * (regular files only, the size checked before reading, links kept inside the workspace root:
 * docs/robustness.md). A file that cannot be read is reported as a problem (the CLI exits 2); the
 * others are linted regardless; a file over the size limit is reported as `file-too-large` unread.
 */
import { stat } from 'node:fs/promises';
import { createLanguageService, DEFAULT_MAX_FILE_BYTES, type ConfigProblem, type LanguageService, type SummaryStore } from '../service/index.ts';
import { decodeText, fileErrorReason, format } from '../service/host.ts';
import { createNodeFileSystem, fileUri } from '../node/nodeFileSystem.ts';
import { cachedRecheckAnalyzer } from '../node/regexVerdictCache.ts';
import { readRegularFile } from '../node/paths.ts';
import { sortDiagnostics, type FileReport } from './report.ts';
import './messages.ts';

export interface LintRun {
  /** One report per readable file, in the order of `paths`. */
  readonly reports: FileReport[];
  /** Files that could not be read: `path: reason`. */
  readonly readErrors: string[];
  /** Configuration problems, deduplicated. */
  readonly configProblems: ConfigProblem[];
}

const CONCURRENCY = 8;

/**
 * The language service `lint` and `report` lint with (on the main thread and in each worker): the
 * workspace `root`, links kept inside it when `boundToRoot`, the ReDoS verdicts and the contract
 * summaries of earlier runs (`store`).
 */
export function lintService(root: string, boundToRoot: boolean, store?: SummaryStore): LanguageService {
  const fs = createNodeFileSystem(boundToRoot ? () => [root] : undefined);
  return createLanguageService({ fs, roots: [fileUri(root)], analyzeRegex: cachedRecheckAnalyzer(), ...(store ? { summaryStore: store } : {}) });
}

/** Why a file could not be read, in `lang`. */
export function readProblem(arg: string, e: unknown, lang: string): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOTREG') return format('cli.files.notRegular', { arg }, lang);
  if (code === 'EOUTSIDE') return format('cli.files.outside', { arg }, lang);
  return format('cli.files.unreadable', { arg, error: code ? fileErrorReason(code, lang) : String(e) }, lang);
}

/** One file's outcome: its report, or why it could not be read; and the configuration problems met. */
export interface LintOne {
  readonly slot: FileReport | string;
  readonly configProblems: readonly ConfigProblem[];
}

/** Reads and lints one file (see `lintFiles`); shared by the single-threaded path and the workers (lintPool.ts). */
export async function lintOne(service: LanguageService, path: string, displayName: (path: string) => string, lang: string, root?: string): Promise<LintOne> {
  let bytes: Uint8Array = new Uint8Array();
  let size: number | undefined;
  try {
    bytes = readRegularFile(path, { maxBytes: DEFAULT_MAX_FILE_BYTES, roots: root ? [root] : [] });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EFBIG') return { slot: readProblem(displayName(path), e, lang), configProblems: [] };
    size = (await stat(path)).size;
  }
  const uri = fileUri(path);
  const result = await service.lintBytes(uri, bytes, size);
  // The text is only needed for SARIF fingerprints; lintBytes did not analyse binary or huge files.
  const text = result.model ? decodeText(bytes).text : '';
  return { slot: { path, uri, text, diagnostics: sortDiagnostics(result.diagnostics), ...(result.model ? { model: result.model } : {}) }, configProblems: result.configProblems };
}

/** The run of per-file outcomes, in the order of the files. */
export function collectRun(outcomes: readonly LintOne[]): LintRun {
  const configProblems = new Map<string, ConfigProblem>();
  for (const o of outcomes) for (const p of o.configProblems) configProblems.set(`${p.uri}\0${p.message}`, p);
  return {
    reports: outcomes.map((o) => o.slot).filter((s): s is FileReport => typeof s === 'object'),
    readErrors: outcomes.map((o) => o.slot).filter((s): s is string => typeof s === 'string'),
    configProblems: [...configProblems.values()],
  };
}

/**
 * Lints `paths`; read errors are worded in `lang`, diagnostics stay English (formatters localise
 * them). `root`: the workspace root, which links found inside it must not leave.
 */
export async function lintFiles(service: LanguageService, paths: readonly string[], displayName: (path: string) => string, lang = 'en', root?: string): Promise<LintRun> {
  const outcomes: LintOne[] = new Array(paths.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < paths.length) {
      const i = next++;
      outcomes[i] = await lintOne(service, paths[i]!, displayName, lang, root);
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, paths.length) }, worker));
  return collectRun(outcomes);
}

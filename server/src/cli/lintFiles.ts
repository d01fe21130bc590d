/**
 * Reads and lints files with the language service, a few at a time, through the bounded reader
 * (regular files only, the size checked before reading, links kept inside the workspace root:
 * docs/robustness.md). A file that cannot be read is reported as a problem (the CLI exits 2); the
 * others are linted regardless; a file over the size limit is reported as `file-too-large` unread.
 */
import { stat } from 'node:fs/promises';
import { decodeText, DEFAULT_MAX_FILE_BYTES, fileErrorReason, format, type ConfigProblem, type LanguageService } from '../service/index.ts';
import { fileUri } from '../node/nodeFileSystem.ts';
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

/** Why a file could not be read, in `lang`. */
export function readProblem(arg: string, e: unknown, lang: string): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOTREG') return format('cli.files.notRegular', { arg }, lang);
  if (code === 'EOUTSIDE') return format('cli.files.outside', { arg }, lang);
  return format('cli.files.unreadable', { arg, error: code ? fileErrorReason(code, lang) : String(e) }, lang);
}

/**
 * Lints `paths`; read errors are worded in `lang`, diagnostics stay English (formatters localise
 * them). `root`: the workspace root, which links found inside it must not leave.
 */
export async function lintFiles(service: LanguageService, paths: readonly string[], displayName: (path: string) => string, lang = 'en', root?: string): Promise<LintRun> {
  const slots: (FileReport | string | undefined)[] = new Array(paths.length);
  const configProblems = new Map<string, ConfigProblem>();
  let next = 0;

  async function worker(): Promise<void> {
    while (next < paths.length) {
      const i = next++;
      const path = paths[i]!;
      let bytes: Uint8Array = new Uint8Array();
      let size: number | undefined;
      try {
        bytes = readRegularFile(path, { maxBytes: DEFAULT_MAX_FILE_BYTES, roots: root ? [root] : [] });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EFBIG') size = (await stat(path)).size;
        else {
          slots[i] = readProblem(displayName(path), e, lang);
          continue;
        }
      }
      const uri = fileUri(path);
      const result = await service.lintBytes(uri, bytes, size);
      for (const p of result.configProblems) configProblems.set(`${p.uri}\0${p.message}`, p);
      // The text is only needed for SARIF fingerprints; lintBytes did not analyse binary or huge files.
      const text = result.model ? decodeText(bytes).text : '';
      slots[i] = { path, uri, text, diagnostics: sortDiagnostics(result.diagnostics), ...(result.model ? { model: result.model } : {}) };
    }
  }

  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, paths.length) }, worker));
  return {
    reports: slots.filter((s): s is FileReport => typeof s === 'object'),
    readErrors: slots.filter((s): s is string => typeof s === 'string'),
    configProblems: [...configProblems.values()],
  };
}

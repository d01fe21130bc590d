/**
 * Reads and lints files with the language service, a few at a time. A file that cannot be read
 * is reported as a problem (the CLI exits 2); the others are linted regardless.
 */
import { readFile } from 'node:fs/promises';
import { decodeText, format, type ConfigProblem, type LanguageService } from '../service/index.ts';
import { fileUri } from '../node/nodeFileSystem.ts';
import { sortDiagnostics, type FileReport } from './report.ts';

export interface LintRun {
  /** One report per readable file, in the order of `paths`. */
  readonly reports: FileReport[];
  /** Files that could not be read: `path: reason`. */
  readonly readErrors: string[];
  /** Configuration problems, deduplicated. */
  readonly configProblems: ConfigProblem[];
}

const CONCURRENCY = 8;

/** Lints `paths`; read errors are worded in `lang`, diagnostics stay English (formatters localise them). */
export async function lintFiles(service: LanguageService, paths: readonly string[], displayName: (path: string) => string, lang = 'en'): Promise<LintRun> {
  const slots: (FileReport | string | undefined)[] = new Array(paths.length);
  const configProblems = new Map<string, ConfigProblem>();
  let next = 0;

  async function worker(): Promise<void> {
    while (next < paths.length) {
      const i = next++;
      const path = paths[i]!;
      let bytes: Uint8Array;
      try {
        bytes = await readFile(path);
      } catch (e) {
        slots[i] = format('cli.files.unreadable', { arg: displayName(path), error: (e as NodeJS.ErrnoException).code ?? String(e) }, lang);
        continue;
      }
      const uri = fileUri(path);
      const result = await service.lintBytes(uri, bytes);
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

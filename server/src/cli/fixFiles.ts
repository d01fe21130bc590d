/**
 * `agents-md lint --fix`: applies the rules' safe fixes (docs/rules.md, "Fixes") to each file,
 * pass by pass until nothing is left to fix, writes the file when it changed and re-lints it.
 * Only the text of each fix's edits changes; the rest of the file is kept byte for byte. The file
 * is replaced all or nothing (node/atomicWrite.ts): on a full disk, or when it changed since it was
 * read, it keeps its old bytes and the failure is a problem of the run (exit 2).
 */
import { readFile } from 'node:fs/promises';
import { applyEdits, MAX_FIX_PASSES, NOT_CANCELLED, type Lang, type LanguageService } from '../service/index.ts';
import { decodeText } from '../service/host.ts';
import { writeFileAtomic } from '../node/atomicWrite.ts';
import { InputError } from '../node/inputError.ts';
import { sortDiagnostics, type FileReport } from './report.ts';

/** What `--fix` changed in one file: the rule codes of the fixed problems, in order. */
export interface FixSummary {
  readonly path: string;
  readonly fixed: readonly string[];
}

export async function fixFiles(service: LanguageService, reports: readonly FileReport[], display: (path: string) => string, lang: Lang): Promise<{ reports: FileReport[]; summaries: FixSummary[]; problems: string[] }> {
  const out: FileReport[] = [];
  const summaries: FixSummary[] = [];
  const problems: string[] = [];
  for (const report of reports) {
    let { text, diagnostics } = report;
    const fixed: string[] = [];
    const original = await readFile(report.path).catch(() => new Uint8Array());
    // A file that is not plain UTF-8 is not rewritten: its other bytes would not survive.
    const decoded = decodeText(original);
    if (decoded.utf16 || decoded.invalidUtf8At !== undefined || decoded.binary || decoded.text !== text) {
      out.push(report);
      continue;
    }
    for (let pass = 0; pass < MAX_FIX_PASSES && text && diagnostics.length > 0; pass++) {
      const { edits, fixed: codes } = service.fixAll({ uri: report.uri, model: service.parse(report.uri, text) }, { diagnostics }, NOT_CANCELLED);
      if (edits.length === 0) break;
      text = applyEdits(text, edits);
      fixed.push(...codes);
      const bytes = new TextEncoder().encode(text);
      diagnostics = sortDiagnostics((await service.lintBytes(report.uri, bytes)).diagnostics);
    }
    if (fixed.length > 0) {
      try {
        writeFileAtomic(report.path, text, { expected: original }, display(report.path));
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        // Not written: the file and its problems stay as they were read.
        problems.push(e.text(lang));
        out.push(report);
        continue;
      }
      summaries.push({ path: report.path, fixed });
    }
    out.push({ ...report, text, diagnostics });
  }
  return { reports: out, summaries, problems };
}

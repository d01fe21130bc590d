/**
 * `agents-md lint --fix`: applies the rules' safe fixes (docs/rules.md, "Fixes") to each file,
 * pass by pass until nothing is left to fix, writes the file when it changed and re-lints it.
 * Only the text of each fix's edits changes; the rest of the file is kept byte for byte.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { applyEdits, decodeText, NOT_CANCELLED, type LanguageService } from '../service/index.ts';
import { sortDiagnostics, type FileReport } from './report.ts';

const MAX_PASSES = 10;

/** What `--fix` changed in one file: the rule codes of the fixed problems, in order. */
export interface FixSummary {
  readonly path: string;
  readonly fixed: readonly string[];
}

export async function fixFiles(service: LanguageService, reports: readonly FileReport[]): Promise<{ reports: FileReport[]; summaries: FixSummary[] }> {
  const out: FileReport[] = [];
  const summaries: FixSummary[] = [];
  for (const report of reports) {
    let { text, diagnostics } = report;
    const fixed: string[] = [];
    // A file that is not plain UTF-8 is not rewritten: its other bytes would not survive.
    const decoded = decodeText(await readFile(report.path).catch(() => new Uint8Array()));
    if (decoded.utf16 || decoded.invalidUtf8At !== undefined || decoded.binary || decoded.text !== text) {
      out.push(report);
      continue;
    }
    for (let pass = 0; pass < MAX_PASSES && text && diagnostics.length > 0; pass++) {
      const { edits, fixed: codes } = service.fixAll({ uri: report.uri, model: service.parse(report.uri, text) }, { diagnostics }, NOT_CANCELLED);
      if (edits.length === 0) break;
      text = applyEdits(text, edits);
      fixed.push(...codes);
      const bytes = new TextEncoder().encode(text);
      diagnostics = sortDiagnostics((await service.lintBytes(report.uri, bytes)).diagnostics);
    }
    if (fixed.length > 0) {
      await writeFile(report.path, text);
      summaries.push({ path: report.path, fixed });
    }
    out.push({ ...report, text, diagnostics });
  }
  return { reports: out, summaries };
}

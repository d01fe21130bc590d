/**
 * Conformance in the editor (docs/conformance.md, "In the editor"): the `agentsMd/conformance`
 * request grades the open contract against a trace file or folder, read as `agents-md conformance
 * --traces` reads it, and keeps the grades per document. Each answer places them on the document's
 * current text: a clause is found again by what it is about (its kind and name), so the grades move
 * with their clauses while the user edits, without reading the traces again. Violated clauses become
 * diagnostics of their own source, each run and span as related information.
 */
import { isAbsolute, resolve } from 'node:path';
import { DiagnosticSeverity, ErrorCodes, LSPErrorCodes, ResponseError, type CancellationToken, type Connection, type Diagnostic, type Location } from 'vscode-languageserver';
import { ConformanceGrader, clauseLabel, conformanceSummary, contractClauses, gradeLabel, verdictLabel, type ClauseGrade, type ConformanceEvidence, type ConformanceReport, type ParsedContract } from '../service/index.ts';
import { format } from '../service/host.ts';
import { fileUri, uriToPath } from '../node/nodeFileSystem.ts';
import { InputError } from '../node/inputError.ts';
import { readTraces } from '../node/traceSource.ts';
import { CONFORMANCE, type ConformanceClauseView, type ConformanceParams, type ConformanceViewResult } from './customRequests.ts';

export interface ConformanceHost {
  readonly lang: () => string;
  /** The open contract's current model (undefined: not open, or not a contract). */
  readonly model: (uri: string) => ParsedContract | undefined;
  /** The workspace folders' paths: a relative traces path is read from the first. */
  readonly roots: () => readonly string[];
}

/** The documents whose grades are kept (the oldest checked is forgotten first). */
const MAX_KEPT = 32;
export const CONFORMANCE_SOURCE = 'agents-md conformance';

interface Kept {
  readonly traces: string;
  readonly report: ConformanceReport;
}

const identity = (c: Pick<ClauseGrade, 'kind' | 'name'>) => `${c.kind}\u0000${c.name}`;

/** The kept grades on the current model: each clause still there, at its current range. */
export function placeGrades(kept: Kept, model: ParsedContract, uri: string, lang: string): ConformanceViewResult {
  const byIdentity = new Map<string, ClauseGrade[]>();
  for (const g of kept.report.clauses) (byIdentity.get(identity(g)) ?? byIdentity.set(identity(g), []).get(identity(g))!).push(g);
  const placed: ClauseGrade[] = [];
  for (const now of contractClauses(model).clauses) {
    const g = byIdentity.get(identity(now))?.shift();
    if (g) placed.push({ ...g, pointer: now.pointer, range: now.range });
  }
  const clauses = placed.map(
    (c): ConformanceClauseView => ({
      pointer: c.pointer,
      range: c.range,
      label: clauseLabel(c, lang),
      grade: c.grade,
      violations: c.violations,
      lens: format('conformance.lens.clause', { grade: gradeLabel(c, lang), verdict: verdictLabel(c, lang) }, lang),
      detail: c.qualifications.map((q) => format(q.id, q.args, lang)).join('; '),
    }),
  );
  return { traces: kept.traces, summary: conformanceSummary(kept.report, lang), clauses, diagnostics: placed.filter((c) => c.violations > 0).map((c) => violation(c, uri, lang)) };
}

function violation(c: ClauseGrade, uri: string, lang: string): Diagnostic {
  const say = (m: { id: string; args: Readonly<Record<string, string | number>> }) => format(m.id, m.args, lang);
  return {
    range: c.range,
    severity: DiagnosticSeverity.Error,
    code: c.pointer,
    source: CONFORMANCE_SOURCE,
    message: format('conformance.diagnostic', { clause: clauseLabel(c, lang), violations: c.violations, message: c.evidence[0] ? say(c.evidence[0].message) : '' }, lang),
    relatedInformation: c.evidence.map((e) => ({ location: evidenceLocation(e, uri, c), message: format('conformance.related', { run: e.run, trace: e.traceId, span: e.spanId, message: say(e.message) }, lang) })),
  };
}

/** Where a piece of evidence opens: the trace file's line its span was read from, else the clause. */
function evidenceLocation(e: ConformanceEvidence, uri: string, c: ClauseGrade): Location {
  if (!e.source) return { uri, range: c.range };
  const line = Math.max(0, (e.source.line ?? 1) - 1);
  return { uri: fileUri(e.source.file), range: { start: { line, character: 0 }, end: { line, character: 0 } } };
}

/** A traces path from the request: a `file:` URI, an absolute path, or relative to the first workspace folder. */
function tracesPath(value: string, roots: readonly string[]): string {
  const path = value.startsWith('file:') ? uriToPath(value) : value;
  if (!path) throw new InputError('conformance.cli.cannotRead', { file: value, error: 'EINVAL' });
  return isAbsolute(path) ? path : resolve(roots[0] ?? '.', path);
}

export function registerConformance(connection: Connection, host: ConformanceHost): void {
  const kept = new Map<string, Kept>();
  connection.onRequest(CONFORMANCE, async (p: ConformanceParams, token: CancellationToken): Promise<ConformanceViewResult | null> => {
    const lang = host.lang();
    const model = host.model(p.uri);
    if (!model) return null;
    if (p.traces !== undefined) {
      const grader = new ConformanceGrader(model);
      try {
        const traces = tracesPath(p.traces, host.roots());
        await readTraces(traces, (span) => {
          if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, format('lsp.requestCancelled', {}, lang));
          grader.add(span);
        });
        kept.delete(p.uri);
        kept.set(p.uri, { traces, report: grader.finish() });
        if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
      } catch (e) {
        if (e instanceof InputError) throw new ResponseError(ErrorCodes.InvalidParams, e.text(lang));
        throw e;
      }
    }
    const k = kept.get(p.uri);
    // The model again: the document may have changed while the traces were read.
    return k ? placeGrades(k, host.model(p.uri) ?? model, p.uri, lang) : null;
  });
}

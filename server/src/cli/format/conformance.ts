/**
 * Conformance as JSON (every clause with its grade, verdict, texts in the display language and
 * evidence) and SARIF 2.1.0 (one result per violation at the clause's line, the run and span ids
 * in its properties; docs/conformance.md, "Output").
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type * as Sarif from 'sarif';
import { clauseLabel, conformanceSummary, gradeLabel, type ConformanceReport } from '../../service/index.ts';
import { format } from '../../service/host.ts';
import { REPOSITORY_URL, TOOL_NAME, TOOL_VERSION } from '../meta.ts';
import { SARIF_SCHEMA, SRCROOT } from './sarif.ts';

/** The report as JSON: the data with each clause's and message's text added. */
export function conformanceJson(r: ConformanceReport, file: string, lang = 'en'): string {
  const say = (m: { id: string; args: Readonly<Record<string, string | number>> }) => ({ ...m, text: format(m.id, m.args, lang) });
  const clauses = r.clauses.map((c) => ({
    pointer: c.pointer,
    kind: c.kind,
    name: c.name,
    label: clauseLabel(c, lang),
    line: c.range.start.line + 1,
    range: c.range,
    grade: c.grade,
    gradeText: gradeLabel(c, lang),
    exercised: c.exercised,
    violations: c.violations,
    verdict: c.verdict,
    qualifications: c.qualifications.map(say),
    evidence: c.evidence.map((e) => ({ run: e.run, traceId: e.traceId, spanId: e.spanId, message: say(e.message) })),
  }));
  return `${JSON.stringify({ file, runs: r.runs, spans: r.spans, violations: r.violations, summary: conformanceSummary(r, lang), clauses }, null, 2)}\n`;
}

/** The report as SARIF: one rule per kind of clause, one result per violation kept as evidence. */
export function conformanceSarif(r: ConformanceReport, file: string, root: string, lang = 'en'): string {
  const abs = resolve(root, file);
  const rel = relative(root, abs);
  const uri = isAbsolute(rel) || rel.startsWith('..') ? abs.split(sep).join('/') : rel.split(sep).join('/');
  const kinds = [...new Set(r.clauses.filter((c) => c.violations > 0).map((c) => c.kind))];
  const results: Sarif.Result[] = r.clauses.flatMap((c) =>
    c.evidence.map((e) => ({
      ruleId: `conformance/${c.kind}`,
      level: 'error' as const,
      message: { text: format(e.message.id, e.message.args, lang) },
      locations: [{ physicalLocation: { artifactLocation: { uri, uriBaseId: SRCROOT }, region: { startLine: c.range.start.line + 1, startColumn: c.range.start.character + 1, endLine: c.range.end.line + 1, endColumn: c.range.end.character + 1 } } }],
      properties: { clause: c.pointer, run: e.run, traceId: e.traceId, spanId: e.spanId, verdict: c.verdict },
    })),
  );
  const run: Sarif.Run = {
    tool: { driver: { name: TOOL_NAME, version: TOOL_VERSION, informationUri: REPOSITORY_URL, rules: kinds.map((k) => ({ id: `conformance/${k}`, shortDescription: { text: clauseLabel({ kind: k, name: '…' }, lang) } })) } },
    originalUriBaseIds: { [SRCROOT]: { uri: `${root.split(sep).join('/').replace(/\/?$/, '/')}`.replace(/^(?!file:)/, 'file://') } },
    language: lang,
    results,
  };
  return `${JSON.stringify({ $schema: SARIF_SCHEMA, version: '2.1.0', runs: [run] }, null, 2)}\n`;
}

/** Conformance of production traces to a contract (docs/conformance.md): the front of this folder. */
import './messages.ts';
export { ConformanceGrader, gradeSpans } from './grade.ts';
export { contractClauses } from './clauses.ts';
export { agentNameOf } from './observe.ts';
export { otlpRequestSpans, dryRunSpans, fromSpanData } from './spans.ts';
export { conformanceText, conformanceMarkdown, clauseLabel, gradeLabel, verdictLabel, summaryLine as conformanceSummary } from './render.ts';
export { MAX_EVIDENCE } from './types.ts';
export type { ObservedSpan, ObservedValue, Clause as ConformanceClause, ClauseKind, ClauseGrade, ConformanceMessage, Evidence as ConformanceEvidence, SpanSource, Grade as ConformanceGrade, Verdict as ConformanceVerdict, ConformanceReport } from './types.ts';

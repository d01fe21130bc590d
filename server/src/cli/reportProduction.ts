/**
 * The workspace report's production column (`agents-md report --traces`, docs/workspace.md): each
 * run of the traces graded against the contract of its agent. A run's agent is the
 * `gen_ai.agent.name` of its `invoke_agent` span, matched to the contract's agent name (case
 * aside); with one contract in the report, runs that name no agent are its own. Two passes over
 * the traces (the first finds each run's agent, the second grades), so memory stays bounded by the
 * number of runs, as `agents-md conformance` is.
 */
import { agentNameOf, ConformanceGrader, type ContractRow, type ParsedContract, type ProductionSummary } from '../service/index.ts';
import { readTraces, type TraceReadStats } from '../node/traceSource.ts';

/** Each contract's production grades by URI, and what reading the traces skipped. */
export async function gradeProduction(traces: string, rows: readonly ContractRow[], models: ReadonlyMap<string, ParsedContract>): Promise<{ byUri: Map<string, ProductionSummary>; stats: TraceReadStats }> {
  const runAgent = new Map<string, string>();
  await readTraces(traces, (s) => {
    const agent = agentNameOf(s);
    if (agent !== undefined) runAgent.set(s.traceId, agent);
  });
  const graders = new Map<string, { uri: string; grader: ConformanceGrader }>();
  const byAgent = new Map<string, { uri: string; grader: ConformanceGrader }>();
  for (const r of rows) {
    const model = models.get(r.uri);
    if (!model) continue;
    const g = { uri: r.uri, grader: new ConformanceGrader(model) };
    graders.set(r.uri, g);
    if (r.agent && !byAgent.has(r.agent.toLowerCase())) byAgent.set(r.agent.toLowerCase(), g);
  }
  // With one contract, a run that names no agent is its own.
  const single = rows.length === 1 ? graders.get(rows[0]!.uri) : undefined;
  const stats = await readTraces(traces, (s) => {
    const agent = runAgent.get(s.traceId);
    (agent === undefined ? single : byAgent.get(agent))?.grader.add(s);
  });
  const byUri = new Map<string, ProductionSummary>();
  for (const { uri, grader } of graders.values()) {
    const r = grader.finish();
    byUri.set(uri, { runs: r.runs, violations: r.violations, exercised: r.clauses.filter((c) => c.grade !== 'never').length, clauses: r.clauses.length });
  }
  return { byUri, stats };
}

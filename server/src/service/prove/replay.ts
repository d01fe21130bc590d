/**
 * Every witness as a dry run (docs/prove.md, "Usage", `--replay`): a snapshot in the format
 * `agents-md run` reads, whose scripted model makes the witness call (or gives the witness
 * answer), and the check that the run shows the violation. A finding whose replay shows the
 * engine stopping it is not reported.
 */
import type { ParsedContract } from '../parse/parseContract.ts';
import { readSnapshot } from '../run/snapshot/snapshotValidate.ts';
import { runQuery, scriptedDecisions } from '../run/engine/engine.ts';
import { createScriptedModel } from '../run/llm/scriptedLlm.ts';
import type { TraceEvent } from '../run/trace/trace.ts';
import { contractView, type ContractView } from '../model/contractView.ts';
import { sampleValue } from './domain.ts';
import { matchTrigger } from '../run/engine/boot.ts';
import type { ProveFinding } from './types.ts';

/** The fixed clock of witness runs, so that a replay is the same every time. */
const NOW = '2024-01-01T00:00:00Z';

/** The query id of a finding's snapshot. */
export const WITNESS_QUERY = 'witness';

const entity = (v: unknown) => /^\{\{\s*extracted_(\w+)\s*\}\}$/.exec(String(v))?.[1];

/** The entities of the witness query: the required ones and those the memory filters read, each `<name>-1`. */
function entitiesOf(view: ContractView): { entities?: Record<string, string> } {
  const names = new Set([...view.entities.map((e) => e.name), ...view.requirements.flatMap((r) => r.filters.flatMap((f) => entity(f.value) ?? []))]);
  return names.size > 0 ? { entities: Object.fromEntries([...names].map((n) => [n, `${n}-1`])) } : {};
}

/** One healthy record per pool that its filters find (entities are `<name>-1`), so that memory does not end the run before the witness. */
function pools(view: ContractView): Record<string, unknown> {
  const names = [...new Set([...view.pools.keys(), ...view.requirements.map((r) => r.pool)])];
  return Object.fromEntries(names.map((p) => {
    const filters = view.requirements.filter((r) => r.pool === p).flatMap((r) => r.filters);
    const record = { id: `${p}-1`, ...Object.fromEntries(filters.map((f) => [f.field, entity(f.value) !== undefined ? `${entity(f.value)}-1` : f.value])), timestamp: NOW };
    return [p, { status: 'healthy', updated_at: NOW, records: [record] }];
  }));
}

/** A regex simplified to a text it likely matches: the first alternative of each group, lookarounds dropped. */
function sampleText(pattern: string): string {
  return pattern
    .replace(/\(\?[!=<][^)]*\)/g, '')
    .replace(/\((?:\?:|\?<\w+>)?([^()|]*)(?:\|[^()]*)?\)/g, '$1')
    .replace(/\[\^?([^\]])[^\]]*\]/g, '$1')
    .replace(/\\d/g, '1').replace(/\\w/g, 'a').replace(/\\s/g, ' ').replace(/\\b/g, '')
    .replace(/\.\*|\.\+/g, ' ').replace(/[\^$?*+{}\\]|\d+,?\d*}/g, '')
    .trim();
}

/** A query TRIGGER accepts: the first pattern's sample text that matches, else the first pattern as written. */
function sampleQuery(view: ContractView): string {
  for (const p of view.intentPatterns) {
    const text = sampleText(p.pattern);
    if (text && matchTrigger(view, text).matched) return text;
  }
  return view.intentPatterns[0]?.pattern ?? 'witness';
}

/** A snapshot (plain data, as written to a `.snapshot.json` file) that replays the finding's witness. */
export function witnessSnapshot(model: ParsedContract, finding: ProveFinding, contract: string): Record<string, unknown> | undefined {
  const view = contractView(model);
  const w = finding.witness;
  if (!w) return undefined;
  const answer = w.kind === 'answer' ? w.answer : (sampleValue(view.outputSchema) ?? 'done');
  // Token counts of one each: the witness is about a gate or a guard, not the token budget.
  const usage = { prompt_tokens: 1, completion_tokens: 1 };
  const final = { final: answer, usage };
  const query: Record<string, unknown> = { id: WITNESS_QUERY, description: `prove: ${finding.obligation} ${finding.pointer}`, query: sampleQuery(view), ...entitiesOf(view) };
  const tools: Record<string, unknown> = {};
  if (w.kind === 'call') {
    query['data'] = w.data;
    query['model'] = [{ call: w.tool, arguments: w.input, usage }, final];
    tools[w.tool] = [{ output: sampleValue(view.tools.get(w.tool)?.outputSchema) }];
    // Pauses the witness does not expect are answered "timeout": the engine then stops the call.
  } else query['model'] = [final];
  return { contract, now: NOW, pools: pools(view), tools, queries: [query] };
}

/**
 * Whether the run shows the violation: the witness call ran with no human asked; the answer
 * passed the guard; for a shadowed gate, the run ended at the other gate's timeout without asking this one.
 */
function shows(finding: ProveFinding, events: readonly TraceEvent[]): boolean {
  const w = finding.witness!;
  if (w.kind === 'answer') return events.some((e) => e.event_type === 'validation' && e.payload['pointer'] === finding.pointer && e.status !== 'invalid');
  if (finding.obligation === 'shadowed-gate') {
    const asked = events.filter((e) => e.event_type === 'human_input' && e.payload['kind'] === 'hitl').map((e) => e.payload['pointer']);
    return asked.length > 0 && !asked.includes(finding.pointer);
  }
  const ran = events.findIndex((e) => e.event_type === 'tool_result' && e.payload['tool'] === w.tool && e.status === 'success');
  if (ran < 0) return false;
  return !events.slice(0, ran).some((e) => e.event_type === 'human_input');
}

/** Runs the witness snapshot; undefined when the finding has no witness. */
export async function replayWitness(model: ParsedContract, finding: ProveFinding): Promise<{ confirmed: boolean; events: readonly TraceEvent[] } | undefined> {
  const raw = witnessSnapshot(model, finding, 'AGENTS.md');
  if (!raw) return undefined;
  const read = readSnapshot(JSON.stringify(raw), { lang: 'json', contract: model });
  const query = read.snapshot?.queries[0];
  if (!query) return { confirmed: false, events: [] };
  const r = await runQuery({ contract: model, query, now: NOW, provider: createScriptedModel(query.model), decide: scriptedDecisions(query.human) });
  return { confirmed: shows(finding, r.events), events: r.events };
}

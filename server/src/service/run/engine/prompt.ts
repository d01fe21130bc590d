/**
 * The system prompt generated from the contract (docs/dry-run.md "The pipeline", step 3:
 * role, tools with their constraints, memory in plain words, the current input): identity and
 * boundaries, the retrieved memory, the tools, the constraints and the output schema. Every
 * phrase comes from the run's messages (`prompt.*`). Pure.
 */
import type { ContractView } from '../../model/contractView.ts';
import type { ContextBlock } from './retrieval.ts';
import { runMessage } from '../runMessage.ts';
import { shortNumber } from '../trace/timeline.ts';
import { normaliseName } from '../../model/names.ts';
import { FOLLOWS_USER } from './verify.ts';

const list = (v: unknown): string => (Array.isArray(v) ? v.map((x) => normaliseName(x) || String(x)).join('; ') : typeof v === 'string' ? v : '');

/**
 * Builds the system prompt. `entities`: the values extracted from the query. Without `context`
 * (an export, docs/providers.md "Exports"), the part a run fills in (entities, memory) is left out.
 */
export function buildSystemPrompt(view: ContractView, context: readonly ContextBlock[] | undefined, entities: Readonly<Record<string, string>>): string {
  const id = view.identity;
  const out: string[] = [runMessage('prompt.identity', { name: view.name })];
  const field = (key: string, msg: string) => {
    const text = list(id[key]);
    if (text) out.push(runMessage(msg, { text }));
  };
  field('core_mandate', 'prompt.mandate');
  field('goal', 'prompt.goal');
  const boundaries = Array.isArray(id['hard_boundaries']) ? (id['hard_boundaries'] as unknown[]).map(String) : [];
  if (boundaries.length > 0) out.push(runMessage('prompt.boundaries'), ...boundaries.map((b) => `- ${b}`));
  field('on_missing_information', 'prompt.missing');
  field('may_act_directly', 'prompt.may');
  field('needs_confirmation', 'prompt.confirm');
  field('output_standard', 'prompt.output-standard');

  if (context) out.push('', ...runPart(context, entities));

  if (view.tools.size > 0) {
    out.push('', runMessage('prompt.tools'));
    for (const t of view.tools.values()) {
      out.push(runMessage('prompt.tool', { name: t.name, description: t.description }));
      if (t.whenToUse) out.push(`  ${runMessage('prompt.tool-when', { text: t.whenToUse })}`);
      if (t.whenNotToUse) out.push(`  ${runMessage('prompt.tool-not', { text: t.whenNotToUse })}`);
      if (t.requiresApproval) out.push(`  ${runMessage('prompt.tool-approval')}`);
    }
  }

  const constraints = view.constraints.filter((c) => c.type === 'output_format' || c.type === 'safety_guard' || c.type === 'language');
  if (constraints.length > 0) {
    out.push('', runMessage('prompt.constraints'));
    for (const c of constraints) {
      if (c.type === 'output_format' && c.format) out.push(runMessage('prompt.format', { format: c.format }));
      if (c.type === 'safety_guard' && c.rule) out.push(runMessage('prompt.guard', { rule: c.rule }));
      if (c.type === 'language' && c.language) out.push(FOLLOWS_USER.test(c.language) ? runMessage('prompt.language-user') : runMessage('prompt.language', { language: c.language }));
    }
  }
  if (view.outputSchema) out.push('', runMessage('prompt.schema'), JSON.stringify(view.outputSchema));
  out.push('', runMessage('prompt.budgets', { steps: view.budgets.maxSteps, tokens: view.budgets.tokenBudget ?? '∞' }));
  return out.join('\n');
}

/** The part of the prompt a run fills in: the entities of the query, the memory retrieved. */
function runPart(context: readonly ContextBlock[], entities: Readonly<Record<string, string>>): string[] {
  const out: string[] = [];
  if (Object.keys(entities).length > 0) out.push(runMessage('prompt.entities', { entities: Object.entries(entities).map(([k, v]) => `${k} = ${v}`).join(', ') }));
  const withRecords = context.filter((c) => c.lines.length > 0);
  if (withRecords.length === 0) out.push(runMessage('prompt.memory-none'));
  else {
    out.push(runMessage('prompt.memory'));
    for (const c of withRecords) out.push(runMessage('prompt.memory-pool', { pool: c.pool, weight: shortNumber(c.weight), count: c.lines.length }), ...c.lines);
  }
  return out;
}

/**
 * HUMAN_IN_THE_LOOP and FAILURE_PROTOCOL in the dry run (docs/dry-run.md §3): which
 * conditions an expression decides and which are prose fired by name, which FAILURE_PROTOCOL
 * entry handles a failure, and what an applied entry answers. Pure helpers; the engine decides
 * when they run (docs/dry-run.md, "Human in the loop and failure protocol").
 */
import type { ContractView, FailureView, HitlView } from '../../model/contractView.ts';
import type { Expr } from '../../model/expression.ts';
import { conditionExpression } from '../../model/condition.ts';
import { coversScenario } from '../../validate/rules/human-in-the-loop.ts';
import { FILE_LIKE } from '../../model/references.ts';
import { conditionKey } from '../../model/names.ts';

/** Every name a snapshot may fire: FAILURE_PROTOCOL conditions and codes, HITL scenarios and conditions. */
export function conditionNames(view: ContractView): Set<string> {
  const names = new Set<string>();
  for (const f of view.failures) {
    names.add(conditionKey(f.condition));
    if (f.code) names.add(conditionKey(f.code));
  }
  for (const h of view.hitl) {
    names.add(conditionKey(h.scenario));
    names.add(conditionKey(h.condition));
  }
  names.delete('');
  return names;
}

/** The FAILURE_PROTOCOL entries a fired name selects: by condition text or error code. */
export function failuresNamed(view: ContractView, name: string): FailureView[] {
  const n = conditionKey(name);
  return view.failures.filter((f) => conditionKey(f.condition) === n || (f.code !== undefined && conditionKey(f.code) === n));
}

/** The HUMAN_IN_THE_LOOP rows a fired name selects: by scenario or condition text. */
export function hitlNamed(view: ContractView, name: string): HitlView[] {
  const n = conditionKey(name);
  return view.hitl.filter((h) => conditionKey(h.scenario) === n || conditionKey(h.condition) === n);
}

const expressions = new WeakMap<object, Expr | null>();

/** The expression of a HITL row's or failure entry's condition, or undefined when it is prose. */
export function conditionOf(clause: HitlView | FailureView): Expr | undefined {
  let e = expressions.get(clause);
  if (e === undefined) {
    e = conditionExpression(clause.condition) ?? null;
    expressions.set(clause, e);
  }
  return e ?? undefined;
}

/**
 * The FAILURE_PROTOCOL entry that handles a failure: the entry whose error code is the outcome
 * code itself (`MEMORY_UNAVAILABLE`), else the entry that covers the HITL scenario the failure
 * came from (docs/contract-format.md §8, "HITL fallbacks"), else the last entry fired by name
 * and not yet applied.
 */
export function handlerFor(view: ContractView, code: string, options: { readonly scenario?: string; readonly pending?: readonly FailureView[] } = {}): FailureView | undefined {
  const byCode = view.failures.find((f) => f.code === code);
  if (byCode) return byCode;
  if (options.scenario) {
    const covering = view.failures.find((f) => coversScenario({ scenario: f.scenario, condition: f.condition }, options.scenario!));
    if (covering) return covering;
  }
  return options.pending?.[options.pending.length - 1];
}

/**
 * What an applied entry answers instead of the model: the text of its fallback resource file
 * when the fallback names one the host could read, else the fallback as written.
 */
export function fallbackAnswer(entry: FailureView, file: (name: string) => string | undefined): { readonly text: string; readonly source: string } | undefined {
  if (!entry.fallback) return undefined;
  if (FILE_LIKE.test(entry.fallback)) {
    const text = file(entry.fallback);
    if (text !== undefined) return { text, source: entry.fallback };
  }
  return { text: entry.fallback, source: 'FAILURE_PROTOCOL' };
}

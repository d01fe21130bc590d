import type { ParsedContract } from '../model/types.ts';

/**
 * Results computed for one model that the next model of the same document may reuse (the
 * validator's per-rule results, docs/performance.md). `parseContract(text, previous)` hands the
 * previous model's results on; each model holds at most one set, so memory is bounded by the
 * models alive, and a model parsed from scratch starts with none.
 */
const carried = new WeakMap<ParsedContract, unknown>();

export function carryOver(next: ParsedContract, previous: ParsedContract): void {
  const v = carried.get(previous);
  if (v !== undefined && next !== previous) carried.set(next, v);
}

export const carriedOf = (model: ParsedContract): unknown => carried.get(model);

export function setCarried(model: ParsedContract, value: unknown): void {
  carried.set(model, value);
}

import type { ParsedContract } from '../model/types.ts';

/**
 * Results computed for one model that the next model of the same document may reuse (the
 * validator's per-rule results, docs/performance.md). `parseContract(text, previous)` hands the
 * previous model's results on; each model holds at most one set, so memory is bounded by the
 * models alive, and a model parsed from scratch starts with none.
 */
const carried = new WeakMap<ParsedContract, unknown>();
/** The validator's per-item results (validate/ruleCache.ts), carried the same way. */
const carriedItems = new WeakMap<ParsedContract, unknown>();

export function carryOver(next: ParsedContract, previous: ParsedContract): void {
  if (next === previous) return;
  for (const slot of [carried, carriedItems]) {
    const v = slot.get(previous);
    if (v !== undefined) slot.set(next, v);
  }
}

export const carriedOf = (model: ParsedContract): unknown => carried.get(model);

export function setCarried(model: ParsedContract, value: unknown): void {
  carried.set(model, value);
}

export const carriedItemsOf = (model: ParsedContract): unknown => carriedItems.get(model);

export function setCarriedItems(model: ParsedContract, value: unknown): void {
  carriedItems.set(model, value);
}

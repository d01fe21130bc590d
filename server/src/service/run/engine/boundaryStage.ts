/**
 * The checkable ❌ boundaries at a tool call (docs/dry-run.md, "Boundaries"): a call that would
 * break an order, count, "only after success" or outright prohibition is not executed; the
 * trace records it as refused and the run ends with `BOUNDARY_VIOLATED` and the clause. The
 * forms are parsed once, in model/boundaries.ts.
 */
import { boundaryForms, type Boundary } from '../../model/boundaries.ts';
import type { RunState } from './runState.ts';
import type { MessageRef } from '../runMessage.ts';

/** Executed calls per tool in one run (calls the mock answered, whatever it answered). */
const executed = new WeakMap<RunState, Map<string, number>>();

/** Counts a call of `tool` that was executed (not refused before its mock answered). */
export function recordExecuted(s: RunState, tool: string): void {
  let m = executed.get(s);
  if (!m) executed.set(s, (m = new Map()));
  m.set(tool, (m.get(tool) ?? 0) + 1);
}

/** The first boundary, in document order, that a call of `tool` would break now, and why. */
export function brokenBoundary(s: RunState, tool: string): { readonly boundary: Boundary; readonly detail: MessageRef } | undefined {
  const runs = executed.get(s);
  for (const b of boundaryForms(s.o.contract)) {
    if (b.tool !== tool) continue;
    if (b.kind === 'forbid') return { boundary: b, detail: { id: 'detail.boundary.forbid', args: { tool } } };
    if (b.kind === 'count') {
      const count = runs?.get(tool) ?? 0;
      if (count >= b.max) return { boundary: b, detail: { id: 'detail.boundary.count', args: { tool, count, max: b.max } } };
    } else if (b.kind === 'order') {
      if (!runs?.has(b.first)) return { boundary: b, detail: { id: 'detail.boundary.order', args: { tool, first: b.first } } };
    } else if (!s.toolsRun.includes(b.first)) return { boundary: b, detail: { id: 'detail.boundary.after-success', args: { tool, first: b.first } } };
  }
  return undefined;
}

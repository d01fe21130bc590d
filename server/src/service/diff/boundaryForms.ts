/**
 * Two versions of a checkable ❌ boundary (docs/contract-format.md, "Checkable boundaries";
 * docs/semantic-diff.md, "Checkable boundaries") compared by what the dry run refuses: a change
 * that refuses fewer calls of the same tool loosens the boundary, one that refuses more tightens
 * it. Forms that limit different tools, or limit the same tool along different lines (a count
 * against an order), are not comparable: the diff reads them as wording.
 */
import { parseBoundary, type BoundaryForm } from '../model/boundaries.ts';

export type FormChange = 'boundary-loosened' | 'boundary-tightened';

/** How strictly an order-like form holds its tool back: a success of the first tool is more than a call of it. */
const ORDER_RANK = { order: 1, 'after-success': 2 } as const;

/** 1: `y` refuses fewer calls than `x`; -1: more; 0: as many; undefined: not comparable. */
function compare(x: BoundaryForm, y: BoundaryForm): -1 | 0 | 1 | undefined {
  if (x.tool !== y.tool) return undefined;
  if (x.kind === 'forbid' || y.kind === 'forbid') return x.kind === y.kind ? 0 : x.kind === 'forbid' ? 1 : -1;
  if (x.kind === 'count' && y.kind === 'count') return Math.sign(y.max - x.max) as -1 | 0 | 1;
  if (x.kind !== 'count' && y.kind !== 'count' && x.first === y.first) return Math.sign(ORDER_RANK[x.kind] - ORDER_RANK[y.kind]) as -1 | 0 | 1;
  return undefined;
}

/** The change from boundary text `before` to `after`, when both are checkable forms of the same tool and they differ in strictness. */
export function formChange(before: string, after: string): { readonly rule: FormChange; readonly tool: string } | undefined {
  const x = parseBoundary(before);
  const y = parseBoundary(after);
  const c = x && y ? compare(x, y) : undefined;
  if (!c) return undefined;
  return { rule: c > 0 ? 'boundary-loosened' : 'boundary-tightened', tool: x!.tool };
}

/** What a boundary limits, as a matching key: a count and an order of the same tool are different boundaries; an order and an "only after success" of the same two tools are one. */
export function formKey(text: string): string | undefined {
  const f = parseBoundary(text);
  if (!f) return undefined;
  return `${f.tool}\u0000${f.kind === 'order' || f.kind === 'after-success' ? `after:${f.first}` : f.kind}`;
}

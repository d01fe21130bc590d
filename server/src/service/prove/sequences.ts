/**
 * The `forbidden-sequence` obligation (docs/prove.md): over the sequences of tool calls a run can
 * make, what the checkable ❌ boundaries (model/boundaries.ts: never call, order, only after
 * success, count per run) allow together. The dry run checks every one of these forms at every
 * call and refuses a call that would break it (run/engine/boundaryStage.ts), so no sequence that
 * breaks one can replay: that half is the engine's, and reports nothing. What remains is a
 * declared tool that no sequence can run because a chain of order boundaries leads to a tool that
 * is forbidden, or loops: the direct cases (a tool after a forbidden one, after itself, two tools
 * after each other) are lint's `boundary-contradiction`; prove finds the longer chains. The
 * constraints are monotone (a call only adds to what ran), so the shortest sequence to a tool runs
 * each tool of its prerequisite closure once, in order: walking that closure searches every
 * sequence, whatever the step budget (64 calls a step). Pure.
 */
import { boundaryForms, type Boundary } from '../model/boundaries.ts';
import type { ProveContext } from './context.ts';
import type { ProveFinding } from './types.ts';

type Blocked = { readonly why: 'forbidden' | 'cycle'; readonly chain: readonly string[]; readonly boundary: Boundary };

const forbidden = (t: string, all: readonly Boundary[]) => all.some((b) => b.tool === t && (b.kind === 'forbid' || (b.kind === 'count' && b.max === 0)));
const prerequisites = (t: string, all: readonly Boundary[], declared: ReadonlySet<string>) =>
  // A prerequisite neither declared nor forbidden is lint's undeclared-tool, not a sequence.
  all.filter((b): b is Boundary & { kind: 'order' | 'after-success'; first: string } => b.tool === t && (b.kind === 'order' || b.kind === 'after-success') && (declared.has(b.first) || forbidden(b.first, all)));

/** Why no sequence runs `tool`: the chain of prerequisites (`tool` first) to a forbidden tool or around a loop. */
function blocked(tool: string, all: readonly Boundary[], declared: ReadonlySet<string>): Blocked | undefined {
  const seen = new Set<string>();
  const walk = (path: readonly string[], via: Boundary | undefined): Blocked | undefined => {
    const t = path[path.length - 1]!;
    if (via && forbidden(t, all)) return { why: 'forbidden', chain: path, boundary: via };
    for (const b of prerequisites(t, all, declared)) {
      if (path.includes(b.first)) return { why: 'cycle', chain: [...path.slice(path.indexOf(b.first)), b.first], boundary: via ?? b };
      if (seen.has(b.first)) continue;
      seen.add(b.first);
      const r = walk([...path, b.first], via ?? b);
      if (r) return r;
    }
    return undefined;
  };
  return walk([tool], undefined);
}

/** The declared tools that a chain of order boundaries makes unreachable, beyond what lint reports (docs/prove.md). */
export function forbiddenSequences(c: ProveContext): ProveFinding[] {
  const all = boundaryForms(c.model);
  const declared = new Set(c.view.tools.keys());
  const out: ProveFinding[] = [];
  for (const tool of declared) {
    // A tool forbidden outright is meant never to run.
    if (forbidden(tool, all)) continue;
    const r = blocked(tool, all, declared);
    // One step (a tool after a forbidden one, a loop of one or two tools) is boundary-contradiction's.
    if (!r || (r.why === 'forbidden' ? r.chain.length <= 2 : r.chain.length <= 3 && r.chain.includes(tool))) continue;
    const chain = r.chain.map((t) => `\`${t}\``).join(' ← ');
    out.push({
      obligation: 'forbidden-sequence',
      message: { id: `prove.forbidden-sequence.${r.why}`, args: { tool, chain, last: r.chain[r.chain.length - 1]! } },
      pointer: r.boundary.pointer,
      range: c.range(r.boundary.pointer),
      proved: true,
      qualified: [],
    });
  }
  return out;
}

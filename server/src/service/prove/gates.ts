/**
 * The obligations about gates (docs/prove.md): a tool with side effects that the contract cares
 * about runs without a human for some allowed input (`ungated-side-effect`); a HITL trigger no
 * allowed input fires (`dead-gate`); two triggers that fire together with contradictory timeout
 * actions (`shadowed-gate`). Pure.
 */
import type { ToolView } from '../model/contractView.ts';
import { arr, obj } from '../model/data.ts';
import { sideEffects, type Gate, type ProveContext } from './context.ts';
import { namesRead } from './search.ts';
import { callInputs } from './solve.ts';
import type { ProveFinding, ProveSolver } from './types.ts';

const EFFECTS = new Set(['write', 'external']);

/** Whether a ❌ boundary, a HITL row or COMPLIANCE names the tool, or a HITL condition reads one of its arguments. */
function concerns(c: ProveContext, tool: ToolView): boolean {
  const boundaries = arr(obj(c.model.data['identity'])?.['hard_boundaries']).map(String).filter((b) => b.includes('❌'));
  const texts = [...boundaries, ...c.gates.map((g) => `${g.row.scenario} ${g.row.condition} ${g.row.requiredAction}`), JSON.stringify(c.model.data['compliance'] ?? '')];
  if (texts.some((t) => t.includes(tool.name))) return true;
  const props = obj(tool.inputSchema?.['properties']) ?? {};
  return c.gates.some((g) => g.expr && namesRead(g.expr).some((n) => n in props));
}

export async function ungatedSideEffects(c: ProveContext, solver: ProveSolver | undefined): Promise<ProveFinding[]> {
  const out: ProveFinding[] = [];
  for (const tool of c.view.tools.values()) {
    const effects = sideEffects(c, tool);
    if (!EFFECTS.has(effects) || tool.requiresApproval || !concerns(c, tool)) continue;
    const r = await callInputs(c, solver, tool, c.gates, 'none');
    if (!r.best) continue;
    out.push({
      obligation: 'ungated-side-effect',
      message: { id: 'prove.ungated-side-effect', args: { tool: tool.name, effects, input: JSON.stringify(r.best.input) } },
      pointer: tool.pointer,
      range: c.range(tool.pointer),
      proved: r.qualified.length === 0,
      qualified: r.qualified,
      witness: { kind: 'call', tool: tool.name, ...r.best },
    });
  }
  return out;
}

/** The tools whose input schema declares a name the gate reads: where it can fire at a call. */
function toolsOf(c: ProveContext, g: Gate): ToolView[] {
  const names = g.expr ? namesRead(g.expr) : [];
  return [...c.view.tools.values()].filter((t) => names.some((n) => n in (obj(t.inputSchema?.['properties']) ?? {})));
}

/** A gate every name of which some tool's schema declares, and that no allowed input of any of those tools fires (proved only). */
export async function deadGates(c: ProveContext, solver: ProveSolver | undefined): Promise<ProveFinding[]> {
  const out: ProveFinding[] = [];
  for (const g of c.gates) {
    if (!g.expr || namesRead(g.expr).some((n) => n.startsWith('output.'))) continue;
    const tools = toolsOf(c, g);
    if (tools.length === 0) continue;
    const results = [];
    for (const t of tools) results.push(await callInputs(c, solver, t, [g], 'all'));
    if (!results.every((r) => r.none)) continue;
    out.push({ obligation: 'dead-gate', message: { id: 'prove.dead-gate', args: { scenario: g.row.scenario, tools: tools.map((t) => `\`${t.name}\``).join(', '), condition: g.row.condition } }, pointer: g.row.pointer, range: c.range(g.row.pointer), proved: true, qualified: [] });
  }
  return out;
}

/**
 * Two gates with different timeout actions that one allowed call fires together: the dry run asks
 * them in the table's order, so the first one's timeout ends the run and the later one's action never happens.
 */
export async function shadowedGates(c: ProveContext, solver: ProveSolver | undefined): Promise<ProveFinding[]> {
  const out: ProveFinding[] = [];
  for (const [i, a] of c.gates.entries()) {
    for (const b of c.gates.slice(i + 1)) {
      if (!a.expr || !b.expr || a.row.onTimeout === b.row.onTimeout) continue;
      for (const tool of toolsOf(c, a).filter((t) => toolsOf(c, b).includes(t))) {
        const r = await callInputs(c, solver, tool, [a, b], 'all');
        if (!r.best) continue;
        out.push({ obligation: 'shadowed-gate', message: { id: 'prove.shadowed-gate', args: { scenario: b.row.scenario, action: b.row.onTimeout, other: a.row.scenario, otherAction: a.row.onTimeout, tool: tool.name, input: JSON.stringify(r.best.input) } }, pointer: b.row.pointer, range: c.range(b.row.pointer), proved: r.qualified.length === 0, qualified: r.qualified, witness: { kind: 'call', tool: tool.name, ...r.best } });
        break;
      }
    }
  }
  return out;
}

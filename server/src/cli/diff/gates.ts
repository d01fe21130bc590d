/**
 * The CI gates of a semantic diff (`--fail-on breaking,risk,bump`, docs/cli.md): which of them a
 * diff trips, as catalogue messages. Shared by `agents-md diff` and the GitHub Action. `risk` also
 * trips on a removed or weakened guarantee that the diff policy makes breaking (docs/semantic-diff.md §6).
 */
import type { SemanticDiff } from '../../service/index.ts';
import type { DiffMessageId } from '../../service/host.ts';

export const GATES = ['breaking', 'risk', 'bump'] as const;
export type Gate = (typeof GATES)[number];

/** The gates `diff` trips, each as a message id with its arguments, in the order of `GATES`. */
export function trippedGates(diff: SemanticDiff, gates: ReadonlySet<Gate>): { messageId: DiffMessageId; args: Record<string, number> }[] {
  const out: { messageId: DiffMessageId; args: Record<string, number> }[] = [];
  const { counts, advice } = diff;
  if (gates.has('breaking') && counts.breaking > 0) out.push({ messageId: 'gate.breaking', args: { count: counts.breaking } });
  if (gates.has('risk') && counts['risk-increasing'] > 0) out.push({ messageId: 'gate.risk', args: { count: counts['risk-increasing'] } });
  const weakened = diff.changes.filter((c) => c.weakens && c.impact === 'breaking').length;
  if (gates.has('risk') && weakened > 0) out.push({ messageId: 'gate.weakened', args: { count: weakened } });
  if (gates.has('bump') && !advice.sufficient) out.push({ messageId: 'gate.bump', args: {} });
  return out;
}

/**
 * `agents-md prove` (docs/prove.md): the obligations of one contract, each finding with its
 * witness replayed as a dry run; a finding whose replay shows the engine stopping it is dropped.
 */
import type { ParsedContract } from '../parse/parseContract.ts';
import { proveContext } from './context.ts';
import { deadGates, shadowedGates, ungatedSideEffects } from './gates.ts';
import { vacuousGuards } from './guards.ts';
import { forbiddenSequences } from './sequences.ts';
import { replayWitness } from './replay.ts';
import type { ProveFinding, ProveSolver } from './types.ts';
import './messages.ts';

export { witnessSnapshot, replayWitness, WITNESS_QUERY } from './replay.ts';
export { OBLIGATIONS, type Obligation, type ProveFinding, type ProveMessage, type ProveSolver, type SmtAnswer, type SmtQuery, type SmtValue, type Witness } from './types.ts';
export { PROVE_MESSAGES } from './messages.ts';
export { proveResult, proveText, witnessData } from './view.ts';

/** Most solver checks for one contract (a hostile one has hundreds of gates); beyond, the candidate search answers, qualified. */
export const MAX_CHECKS = 300;

/** A solver that answers `unknown` once `max` checks were made. */
function budgeted(solver: ProveSolver, max: number): ProveSolver {
  let made = 0;
  return { name: solver.name, check: (q) => (++made > max ? Promise.resolve({ status: 'unknown', reason: `${max} checks` }) : solver.check(q)) };
}

/** The findings of one contract, in the contract's order; each witness replayed and confirmed. */
export async function proveContract(model: ParsedContract, options: { readonly solver?: ProveSolver } = {}): Promise<ProveFinding[]> {
  const c = proveContext(model);
  const solver = options.solver && budgeted(options.solver, MAX_CHECKS);
  const candidates = [...(await ungatedSideEffects(c, solver)), ...(await deadGates(c, solver)), ...(await shadowedGates(c, solver)), ...(await vacuousGuards(c, solver)), ...forbiddenSequences(c)];
  const out: ProveFinding[] = [];
  for (const f of candidates) {
    const replay = await replayWitness(model, f);
    if (!replay || replay.confirmed) out.push(f);
  }
  return out.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

/**
 * The messages of `agents-md prove` (docs/prove.md): one per obligation and result, registered as
 * the `prove` message set; translations in l10n/bundle.l10n.zh-cn.json.
 */
import { registerMessages } from '../l10n/registry.ts';

export const PROVE_MESSAGES = registerMessages('prove', {
  'prove.ungated-side-effect': 'Tool `{tool}` ({effects}) runs without a human for {input}: no HITL trigger holds and it needs no approval.',
  'prove.dead-gate': 'HITL "{scenario}" never fires at a tool call: no input the schema of {tools} allows makes `{condition}` true.',
  'prove.shadowed-gate': 'HITL "{scenario}" never gets its timeout action ({action}): "{other}" fires for the same call of `{tool}` with {input}, is asked first, and its timeout ({otherAction}) ends the run.',
  'prove.vacuous-guard.optional': 'Safety guard `{check}` passes an answer without `{property}`: OUTPUT_SCHEMA lets the answer omit it, and the guard then checks nothing.',
  'prove.vacuous-guard.range': 'Safety guard `{check}` never fails: every answer OUTPUT_SCHEMA allows passes it.',
  'prove.forbidden-sequence.forbidden': 'Tool `{tool}` can never run: the order boundaries make it wait for {chain}, and a ❌ boundary forbids `{last}`, so every sequence of calls that reaches `{tool}` is refused.',
  'prove.forbidden-sequence.cycle': 'Tool `{tool}` can never run: the order boundaries make it wait for a loop ({chain}), so none of them is ever called first.',
  'prove.obligation.forbidden-sequence': 'A tool that no sequence of calls the ❌ boundaries allow can reach',
  'prove.obligation.ungated-side-effect': 'A tool with side effects runs without a human for some allowed input',
  'prove.obligation.dead-gate': 'A HITL trigger no allowed input fires',
  'prove.obligation.shadowed-gate': 'Two HITL triggers fire together with contradictory timeout actions',
  'prove.obligation.vacuous-guard': 'A safety guard that passes answers it was meant to check',
  'prove.result.proved': 'proved',
  'prove.result.qualified': 'qualified: {reasons}',
  'prove.reason.prose': 'the prose condition of "{scenario}"',
  'prove.reason.expression': '`{what}` in `{condition}` is not modelled',
  'prove.reason.schema': 'the {keyword} of `{name}`',
  'prove.reason.search': 'the search stopped after {count} inputs',
  'prove.reason.nosolver': 'no SMT solver was available, so candidate values were searched',
  'prove.reason.solver': 'the SMT solver gave no answer ({reason}), so candidate values were searched',
  'prove.reason.unconfirmed': 'the SMT solver\'s model was not an input the dry run accepts, so candidate values were searched',
  'prove.summary': '{count, plural, one {# finding} other {# findings}} in {files, plural, one {# contract} other {# contracts}}.',
  'prove.witness': 'witness: {witness}',
  'prove.replay': 'replay: {command}',
  'prove.lsp.diagnostic': '{message} ({result})',
});

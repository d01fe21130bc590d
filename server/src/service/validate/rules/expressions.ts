import type { Range } from '../../types.ts';
import type { Finding, SectionModel } from '../../model/types.ts';
import type { Rule } from '../rule.ts';
import { FM } from './util.ts';
import { constraintsView, failuresView, hitlView, part } from '../../model/contractView.ts';
import { sectionLineText } from '../../model/text.ts';
import { checkSyntaxError, conditionExpression, conditionNotEvaluated, conditionSyntaxErrors, type ExpressionSyntaxError } from '../../model/condition.ts';

const TAIL = '; the dry run cannot evaluate it.';
const HITL_HEAD = '| Scenario | Trigger Condition | Required Action | SLA |\n|---|---|---|---|\n';

function writtenCondition(section: SectionModel | undefined, span: Range): { readonly text: string; readonly line: number; readonly base: number } | undefined {
  if (span.start.line !== span.end.line) return undefined;
  const written = sectionLineText(section, span.start.line).slice(span.start.character, span.end.character);
  return written.includes('`') ? { text: written, line: span.start.line, base: span.start.character } : undefined;
}

/** Where a `check`'s syntax error is: inside the span when it holds the value as is, else the whole span. */
function checkRange(section: SectionModel | undefined, span: Range, value: string, e: ExpressionSyntaxError): Range {
  if (span.start.line !== span.end.line) return span;
  const at = sectionLineText(section, span.start.line).slice(span.start.character, span.end.character).indexOf(value);
  if (at < 0) return span;
  const base = span.start.character + at;
  return { start: { line: span.start.line, character: base + e.start }, end: { line: span.start.line, character: base + e.end } };
}

export const expressionSyntax: Rule = {
  code: 'expression-syntax',
  severity: 'warning',
  summary: 'Backticked conditions and safety-guard checks are valid expressions.',
  description:
    'A HUMAN_IN_THE_LOOP or FAILURE_PROTOCOL condition written in backticks is an expression when it parses as one (docs/contract-format.md §7.4); one that does not is read as prose, which the dry run fires only by name, so a typo such as `amount >> 50000` silently turns a checked gate into a named one. A safety guard whose `check` does not parse is shown as not checkable. The rule reports backticked conditions that have an operator, a function call or an upper-case keyword but do not parse, and every `check` that does not parse, at the place where the syntax breaks. Fix the expression, or remove the backticks if the condition is meant as prose.',
  source: 'docs/contract-format.md §7.4 (the expression language)',
  messages: {
    default: `Not a valid expression${TAIL}`,
    unterminated: `Not a valid expression: unterminated string${TAIL}`,
    unexpected: `Not a valid expression: unexpected "{text}"${TAIL}`,
    'unexpected-end': `Not a valid expression: unexpected end${TAIL}`,
    'unexpected-keyword': `Not a valid expression: unexpected {keyword}${TAIL}`,
    expected: `Not a valid expression: expected "{text}"${TAIL}`,
    'too-deep': `Not a valid expression: nested too deeply${TAIL}`,
    'too-long': `Not a valid expression: longer than {max} characters${TAIL}`,
    trailing: `Not a valid expression: unexpected text after the expression${TAIL}`,
    'matches-pattern': `Not a valid expression: MATCHES needs a quoted pattern${TAIL}`,
    'after-not': `Not a valid expression: expected IN or MATCHES after NOT${TAIL}`,
    'field-name': `Not a valid expression: expected a field name after "."${TAIL}`,
    index: `Not a valid expression: expected an index or * inside [ ]${TAIL}`,
    arguments: `Not a valid expression: {fn}() does not take {count, plural, one {# argument} other {# arguments}}${TAIL}`,
  },
  examples: {
    bad: `${FM}\n## HUMAN_IN_THE_LOOP\n\n${HITL_HEAD}| Large order | \`amount >> 50000\` | Finance Lead approves | 4h |\n`,
    good: `${FM}\n## HUMAN_IN_THE_LOOP\n\n${HITL_HEAD}| Large order | \`amount > 50000\` | Finance Lead approves | 4h |\n`,
    at: `⟦> 50000⟧`,
  },
  // Reads the three sections only, so that an edit elsewhere does not run it again (validate/ruleCache.ts).
  *check({ data, section, locate, item }) {
    // Per row, entry and constraint: what was found about an unchanged one is reused (its line is the same).
    for (const c of conditionsOf(data)) {
      yield* item(c.key, c.index, function* () {
        const span = locate(c.pointer, true);
        const w = span && writtenCondition(section(c.key), span.value);
        for (const error of w ? conditionSyntaxErrors(w.text) : []) {
          yield syntaxFinding({ start: { line: w!.line, character: w!.base + error.start }, end: { line: w!.line, character: w!.base + error.end } }, error);
        }
      });
    }
    for (const c of constraintsView(data['constraints'])) {
      if (c.check === undefined) continue;
      yield* item('constraints', Number(c.pointer.split('/')[2]), function* () {
        const error = checkSyntaxError(c.check!);
        const span = error && locate(`${c.pointer}/check`, true);
        if (span) yield syntaxFinding(checkRange(section('constraints'), span.value, c.check!, error), error);
      });
    }
  },
};

function syntaxFinding(range: Range, error: ExpressionSyntaxError): Finding {
  const variant = error.error.id.replace(/^expr\./, '');
  const known = variant !== 'default' && variant in expressionSyntax.messages;
  const args = Object.fromEntries(Object.entries(error.error.args).filter(([k]) => k !== 'detail'));
  return { code: 'expression-syntax', range, args, ...(known ? { variant } : {}) };
}

interface Condition {
  readonly pointer: string;
  readonly text: string;
  readonly key: string;
  readonly index: number;
}

/** The conditions of one section's items, `field` naming where each sits in its item. */
function listConditions(items: readonly { readonly pointer: string; readonly condition: string }[], field: string): Condition[] {
  return items.map((c) => {
    const [, key, index] = c.pointer.split('/');
    return { pointer: `${c.pointer}/${field}`, text: c.condition, key: key!, index: Number(index) };
  });
}
const hitlConditions = (rows: unknown): Condition[] => listConditions(hitlView(rows), 'trigger_condition');
const failureConditions = (entries: unknown): Condition[] => listConditions(failuresView(entries), 'condition');

/**
 * The conditions of HUMAN_IN_THE_LOOP rows and FAILURE_PROTOCOL entries: their pointers, and the
 * array item each is in. Each section's are listed once per value: an edit in one of the two
 * sections lists only its own again.
 */
function conditionsOf(data: Readonly<Record<string, unknown>>): Condition[] {
  return [...part(hitlConditions, data['human_in_the_loop']), ...part(failureConditions, data['failure_protocol'])];
}

export const conditionNotEvaluatedRule: Rule = {
  code: 'condition-not-evaluated',
  severity: 'info',
  // Prose around an expression is allowed (docs §7.4); on contracts we did not write it was noise.
  preset: 'strict',
  summary: 'A condition that holds an expression inside prose is fired only by name in a dry run.',
  description:
    'A condition is an expression when it is one code span, or code spans joined only by `and`/`or` (docs/contract-format.md §7.4). When a valid expression in backticks sits inside prose (`` `fraud_score >= 0.8` or the loss date is recent ``), the whole condition is prose: the dry run does not evaluate the expression and fires the condition only by name (docs/dry-run.md). This is said once per condition, as information. Write the prose part as an expression too, split the condition into two rows or entries, or leave it as prose on purpose.',
  source: 'docs/contract-format.md §7.4 (the expression language)',
  messages: { default: 'The dry run cannot evaluate this condition: its expression sits inside prose, so it fires only by name.' },
  examples: {
    bad: `${FM}\n## HUMAN_IN_THE_LOOP\n\n${HITL_HEAD}| Fraud | \`fraud_score >= 0.8\` or the claim is recent | Fraud team approves | 4h |\n\n## FAILURE_PROTOCOL\n\n- **If Fraud gets no sign-off within 4h**: → Reject the claim → Return error_code \`HITL_FRAUD\`\n`,
    good: `${FM}\n## HUMAN_IN_THE_LOOP\n\n${HITL_HEAD}| Fraud | \`fraud_score >= 0.8\` or \`claim_age_days < 30\` | Fraud team approves | 4h |\n\n## FAILURE_PROTOCOL\n\n- **If Fraud gets no sign-off within 4h**: → Reject the claim → Return error_code \`HITL_FRAUD\`\n`,
    at: `| Fraud | ⟦\`fraud_score >= 0.8\` or the claim is recent⟧ |`,
  },
  *check({ data, section, locate }) {
    for (const c of conditionsOf(data)) {
      const span = locate(c.pointer, true);
      const w = span && writtenCondition(section(c.key), span.value);
      // The dry run reads the model's value: a label's `If …` around one code span is not prose.
      if (w && !conditionExpression(c.text) && conditionNotEvaluated(w.text)) yield { code: 'condition-not-evaluated', range: span.value };
    }
  },
};

export const EXPRESSION_RULES: readonly Rule[] = [expressionSyntax, conditionNotEvaluatedRule];

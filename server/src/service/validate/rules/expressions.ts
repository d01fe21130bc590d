import type { Range } from '../../types.ts';
import type { Rule } from '../rule.ts';
import { FM } from './util.ts';
import { contractView } from '../../model/contractView.ts';
import { checkSyntaxError, conditionSyntaxError, type ExpressionSyntaxError } from '../../model/expression.ts';

const TAIL = '; the dry run cannot evaluate it.';
const HITL_HEAD = '| Scenario | Trigger Condition | Required Action | SLA |\n|---|---|---|---|\n';

/** The text of one line of `text` (0-based). */
function lineText(text: string, line: number): string {
  let start = 0;
  for (let l = 0; l < line; l++) {
    start = text.indexOf('\n', start) + 1;
    if (start === 0) return '';
  }
  const end = text.indexOf('\n', start);
  return text.slice(start, end < 0 ? text.length : end).replace(/\r$/, '');
}

/**
 * Where a condition's syntax error is in the document: the value written in backticks on one
 * line of its span (a Markdown cell or label, whose value comes unwrapped, or a YAML string that
 * keeps them), else undefined: a condition without backticks is prose by intent.
 */
function backtickedRange(text: string, span: Range, value: string, e: ExpressionSyntaxError): Range | undefined {
  if (span.start.line !== span.end.line) return undefined;
  const written = lineText(text, span.start.line).slice(span.start.character, span.end.character);
  const wrapped = value.trimStart().startsWith('`') ? value : `\`${value}\``;
  const at = written.indexOf(wrapped);
  if (at < 0) return undefined;
  const base = span.start.character + at + (wrapped === value ? 0 : 1);
  return { start: { line: span.start.line, character: base + e.start }, end: { line: span.start.line, character: base + e.end } };
}

/** Where a `check`'s syntax error is: inside the span when it holds the value as is, else the whole span. */
function checkRange(text: string, span: Range, value: string, e: ExpressionSyntaxError): Range {
  if (span.start.line !== span.end.line) return span;
  const at = lineText(text, span.start.line).slice(span.start.character, span.end.character).indexOf(value);
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
  },
  examples: {
    bad: `${FM}\n## HUMAN_IN_THE_LOOP\n\n${HITL_HEAD}| Large order | \`amount >> 50000\` | Finance Lead approves | 4h |\n`,
    good: `${FM}\n## HUMAN_IN_THE_LOOP\n\n${HITL_HEAD}| Large order | \`amount > 50000\` | Finance Lead approves | 4h |\n`,
  },
  *check({ model, locate }) {
    const view = contractView(model);
    const conditions = [...view.hitl.map((h) => ({ pointer: `${h.pointer}/trigger_condition`, text: h.condition })), ...view.failures.map((f) => ({ pointer: `${f.pointer}/condition`, text: f.condition }))];
    const found: { range: Range; error: ExpressionSyntaxError }[] = [];
    for (const c of conditions) {
      const error = conditionSyntaxError(c.text);
      const span = error && locate(c.pointer, true);
      const range = span && backtickedRange(model.text, span.value, c.text, error);
      if (range) found.push({ range, error });
    }
    for (const c of view.constraints) {
      const error = c.check === undefined ? undefined : checkSyntaxError(c.check);
      const span = error && locate(`${c.pointer}/check`, true);
      if (span) found.push({ range: checkRange(model.text, span.value, c.check!, error), error });
    }
    for (const { range, error } of found) {
      const variant = error.error.id.replace(/^expr\./, '');
      const known = variant !== 'default' && variant in expressionSyntax.messages;
      const args = Object.fromEntries(Object.entries(error.error.args).filter(([k]) => k !== 'detail'));
      yield { code: 'expression-syntax', range, args, ...(known ? { variant } : {}) };
    }
  },
};

export const EXPRESSION_RULES: readonly Rule[] = [expressionSyntax];

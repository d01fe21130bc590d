// The expression-syntax rule (docs/rules.md): a backticked HITL or FAILURE_PROTOCOL condition that
// looks like an expression but does not parse, and a safety guard's `check` that does not parse,
// are reported where the syntax breaks, instead of silently becoming prose (or "not checkable")
// that only a dry run would reveal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintExample as lint } from './helpers/lintExample.ts';
import { conditionExpression } from '../server/src/service/model/condition.ts';
import { localiseDiagnostic } from '../server/src/service/l10n/diagnostics.ts';

const FM = '---\ncontract: true\nname: demo\nversion: 1.0.0\n---\n';
const doc = [
  FM,
  '## HUMAN_IN_THE_LOOP',
  '',
  '| Scenario | Trigger Condition | Required Action | SLA |',
  '|---|---|---|---|',
  '| Large order | `amount >> 50000` | Finance Lead approves | 4h |',
  '| High-risk country | `beneficiary_country IN (\'XXX\', \'YYY\')` | Compliance approves | 4h |',
  '| New vendor | `New vendor onboarding` | Upload the contract | 24h |',
  '| Valid | `amount > 50000 AND vendor_domain NOT IN vendor_whitelist.csv` | Approve | 4h |',
  '',
  '## FAILURE_PROTOCOL',
  '',
  '- **If `retries >= 3 AND`**: → Stop → Return error_code `RTY001`',
  '- **If `urgency_reason` is empty**: → Refuse → Return error_code `URG001`',
  '- **If Large order gets no sign-off within 4h**: → Auto-reject → Return error_code `HITL001`',
  '',
  '## CONSTRAINTS',
  '',
  '```yaml',
  '- type: safety_guard',
  '  rule: The score is a probability',
  '  check: "output.score >= 0 AND"',
  '- type: safety_guard',
  '  rule: Cites the manual',
  '  check: "output.summary IN memory.kb_reference[*].text"',
  '```',
  '',
].join('\n');

/** The findings of the rule as `line:text under the range (message)`. */
async function findings(text: string) {
  const r = await lint(text);
  const lines = text.split('\n');
  return r.diagnostics
    .filter((d) => d.code === 'expression-syntax')
    .map((d) => {
      assert.equal(d.range.start.line, d.range.end.line);
      return { line: d.range.start.line, under: lines[d.range.start.line]!.slice(d.range.start.character, d.range.end.character), message: d.message, severity: d.severity };
    });
}

test('malformed backticked conditions and checks are reported where the syntax breaks', async () => {
  const got = await findings(doc);
  const line = (s: string) => doc.split('\n').findIndex((l) => l.includes(s));
  assert.deepEqual(got, [
    { line: line('Large order |'), under: '> 50000', message: 'Not a valid expression: unexpected ">"; the dry run cannot evaluate it.', severity: 'warning' },
    { line: line('High-risk'), under: ", 'YYY')", message: 'Not a valid expression: expected ")"; the dry run cannot evaluate it.', severity: 'warning' },
    { line: line('retries'), under: 'retries >= 3 AND', message: 'Not a valid expression: unexpected end; the dry run cannot evaluate it.', severity: 'warning' },
    { line: line('output.score'), under: 'output.score >= 0 AND', message: 'Not a valid expression: unexpected end; the dry run cannot evaluate it.', severity: 'warning' },
  ]);
});

test('prose in backticks, prose around a backticked name and valid expressions are not reported', async () => {
  const got = await findings(doc);
  for (const ok of ['New vendor onboarding', 'urgency_reason', 'vendor_whitelist.csv', 'kb_reference']) assert.ok(!got.some((f) => doc.split('\n')[f.line]!.includes(ok)), ok);
});

test('what the rule reports is exactly what the dry run would read as prose', () => {
  // As written in YAML (backticks kept) and as a Markdown cell or label gives it (unwrapped).
  for (const c of ['amount >> 50000', "beneficiary_country IN ('XXX', 'YYY')", 'retries >= 3 AND']) {
    assert.equal(conditionExpression(c), undefined, c);
    assert.equal(conditionExpression(`\`${c}\``), undefined, c);
  }
  assert.notEqual(conditionExpression('`amount > 50000 AND vendor_domain NOT IN vendor_whitelist.csv`'), undefined);
});

test('the message in Chinese', async () => {
  const r = await lint(doc);
  const messages = r.diagnostics.filter((d) => d.code === 'expression-syntax').map((d) => localiseDiagnostic(d, 'zh-cn').message);
  assert.deepEqual(messages, ['不是有效的表达式：意外的“>”；试运行无法对它求值。', '不是有效的表达式：应为“)”；试运行无法对它求值。', '不是有效的表达式：表达式意外结束；试运行无法对它求值。', '不是有效的表达式：表达式意外结束；试运行无法对它求值。']);
});

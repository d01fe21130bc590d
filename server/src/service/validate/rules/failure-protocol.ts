import type { Rule } from '../rule.ts';
import { arr, FM, obj, str } from './util.ts';
import { lineIndexOf } from '../../model/text.ts';
import { nextCode, siblingLine } from '../fixText.ts';

export const failureCodeMissing: Rule = {
  code: 'failure-code-missing',
  severity: 'warning',
  fixKind: 'quickfix',
  summary: 'Every FAILURE_PROTOCOL entry names its error code.',
  description: 'For example "when urgency_reason is empty, refuse and return error_code: URG001". A code makes the failure countable, searchable in logs and testable in the dry run. Write it as an action (`→ Return error_code \\`URG001\\``) or as a `**Code**:` sub-bullet. A code returned in a sentence ("stop and return `AST001`") counts too.',
  source: 'docs/contract-format.md §9, FAILURE_PROTOCOL',
  messages: { default: 'This failure entry has no error code. Add "→ Return error_code `XXX001`".' },
  examples: {
    bad: `${FM}\n## FAILURE_PROTOCOL\n\n- **If urgency_reason is empty**: → Refuse to raise the priority\n`,
    good: `${FM}\n## FAILURE_PROTOCOL\n\n- **If urgency_reason is empty**: → Refuse to raise the priority → Return error_code \`URG001\`\n`,
    at: `⟦**If urgency_reason is empty**⟧`,
    fixed: `${FM}\n## FAILURE_PROTOCOL\n\n- **If urgency_reason is empty**: → Refuse to raise the priority → Return error_code \`E001\`\n`,
  },
  *check({ data, locate }) {
    const list = arr(data['failure_protocol']);
    for (let i = 0; i < list.length; i++) {
      if (str(obj(list[i])?.['code'])) continue;
      const span = locate(`/failure_protocol/${i}/condition`, true) ?? locate(`/failure_protocol/${i}`);
      if (span) yield { code: 'failure-code-missing', range: span.value, args: { entry: i } };
    }
  },
  fix: (d, model) => {
    // "→ Return error_code `E001`" at the end of the entry's first line, with a code no entry uses yet.
    const i = d.args?.['entry'];
    if (typeof i !== 'number' || siblingLine(model, d.range.start.line)?.kind !== 'bullet') return undefined;
    const entries = arr(model.data['failure_protocol']);
    const prefixes = entries.map((e) => /^[A-Z]+/.exec(str(obj(e)?.['code']) ?? '')?.[0]).filter((p): p is string => !!p);
    const code = nextCode(entries, prefixes[0] ?? 'E');
    const line = lineIndexOf(model).lineText(d.range.start.line);
    const end = { line: d.range.start.line, character: line.trimEnd().length };
    return { titleId: 'action.addErrorCode', titleArgs: { code }, edits: [{ range: { start: end, end }, newText: ` → Return error_code \`${code}\`` }], safe: false };
  },
};

export const failureCodeDuplicate: Rule = {
  code: 'failure-code-duplicate',
  severity: 'error',
  summary: 'FAILURE_PROTOCOL error codes are unique.',
  description: 'Two failures with one code cannot be told apart in logs, alerts or the dry run\'s expectations.',
  source: 'docs/contract-format.md §9, FAILURE_PROTOCOL',
  messages: { default: 'Error code {code} is already used by another failure entry.' },
  examples: {
    bad: `${FM}\n## FAILURE_PROTOCOL\n\n- **If the model returns non-JSON**: → Fall back to a template → Return error_code \`E001\`\n- **If memory is stale**: → Halt → Return error_code \`E001\`\n`,
    good: `${FM}\n## FAILURE_PROTOCOL\n\n- **If the model returns non-JSON**: → Fall back to a template → Return error_code \`E001\`\n- **If memory is stale**: → Halt → Return error_code \`E002\`\n`,
    at: `- **If memory is stale**: → Halt → ⟦Return error_code \`E001\`⟧`,
  },
  *check({ data, locate }) {
    const seen = new Map<string, number>();
    const list = arr(data['failure_protocol']);
    for (let i = 0; i < list.length; i++) {
      const code = str(obj(list[i])?.['code']);
      if (!code) continue;
      const first = seen.get(code);
      if (first === undefined) {
        seen.set(code, i);
        continue;
      }
      const span = locate(`/failure_protocol/${i}/code`);
      const prev = locate(`/failure_protocol/${first}/code`);
      if (span) yield { code: 'failure-code-duplicate', range: span.value, args: { code }, ...(prev ? { related: [{ range: prev.value, messageId: 'related.firstUsed' }] } : {}) };
    }
  },
};

export const FAILURE_PROTOCOL_RULES: readonly Rule[] = [failureCodeMissing, failureCodeDuplicate];

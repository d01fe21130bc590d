import type { Rule } from '../rule.ts';
import { arr, FM, obj, str } from './util.ts';

export const failureCodeMissing: Rule = {
  code: 'failure-code-missing',
  severity: 'warning',
  summary: 'Every FAILURE_PROTOCOL entry names its error code.',
  description: 'For example "when urgency_reason is empty, refuse and return error_code: URG001". A code makes the failure countable, searchable in logs and testable in the dry run. Write it as an action (`→ Return error_code \\`URG001\\``) or as a `**Code**:` sub-bullet.',
  source: 'docs/contract-format.md §9, FAILURE_PROTOCOL',
  messages: { default: 'This failure entry has no error code. Add "→ Return error_code `XXX001`".' },
  examples: {
    bad: `${FM}\n## FAILURE_PROTOCOL\n\n- **If urgency_reason is empty**: → Refuse to raise the priority\n`,
    good: `${FM}\n## FAILURE_PROTOCOL\n\n- **If urgency_reason is empty**: → Refuse to raise the priority → Return error_code \`URG001\`\n`,
  },
  *check({ data, locate }) {
    const list = arr(data['failure_protocol']);
    for (let i = 0; i < list.length; i++) {
      if (str(obj(list[i])?.['code'])) continue;
      const span = locate(`/failure_protocol/${i}/condition`, true) ?? locate(`/failure_protocol/${i}`);
      if (span) yield { code: 'failure-code-missing', range: span.value };
    }
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

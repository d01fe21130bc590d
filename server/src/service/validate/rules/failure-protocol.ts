import type { Rule } from '../rule.ts';
import { arr, FM, obj, str } from './util.ts';
import { lineIndexOf } from '../../model/text.ts';
import { nextCode, siblingLine } from '../fixText.ts';

/**
 * A step that ends the run as a failure, which a caller must be able to tell apart by its code:
 * halt, stop, abort, terminate, fail, give up (终止, 停止, 中止, 中断, 报错). A deliberate outcome
 * (a rejection, a template reply, a hand-over to a human, an alert and continue) is not one.
 */
const ENDS_RUN = /\b(?:halt|halts|stop|stops|abort|aborts|terminate|terminates|fail|fails|give up|gives up|end the run|exit)\b|终止|停止|中止|中断|报错/i;

export const failureCodeMissing: Rule = {
  code: 'failure-code-missing',
  severity: 'warning',
  fixKind: 'quickfix',
  summary: 'A FAILURE_PROTOCOL entry that ends the run as a failure names its error code.',
  description: 'For example "when the memory service is down, halt and return error_code: MEM002". An entry whose steps end the run (halt, stop, abort, terminate, fail, give up; 终止, 停止, 中止, 中断, 报错) needs a code a caller can handle: it makes the failure countable, searchable in logs and testable in the dry run. Write it as an action (`→ Return error_code \\`MEM002\\``) or as a `**Code**:` sub-bullet; a code returned in a sentence ("stop and return `AST001`") counts too. An entry whose outcome is a deliberate action (a rejection, a template reply, a hand-over to a human, an alert and continue) may go without one.',
  source: 'docs/contract-format.md §9, FAILURE_PROTOCOL',
  messages: { default: 'This failure entry has no error code. Add "→ Return error_code `XXX001`".' },
  examples: {
    bad: `${FM}\n## FAILURE_PROTOCOL\n\n- **If the memory service is down**: → Halt processing\n`,
    good: `${FM}\n## FAILURE_PROTOCOL\n\n- **If the memory service is down**: → Halt processing → Return error_code \`MEM002\`\n`,
    at: `⟦**If the memory service is down**⟧`,
    fixed: `${FM}\n## FAILURE_PROTOCOL\n\n- **If the memory service is down**: → Halt processing → Return error_code \`E001\`\n`,
  },
  *check({ data, locate }) {
    const list = arr(data['failure_protocol']);
    for (let i = 0; i < list.length; i++) {
      const entry = obj(list[i]);
      if (str(entry?.['code']) || !arr(entry?.['actions']).some((a) => typeof a === 'string' && ENDS_RUN.test(a))) continue;
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

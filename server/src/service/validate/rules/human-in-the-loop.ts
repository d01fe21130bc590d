import type { Rule } from '../rule.ts';
import { arr, declarationsBroken, FM, obj, str } from './util.ts';
import { conditionKey, normaliseName } from '../../model/names.ts';
import { sectionByKey } from '../../schema/sections.ts';
import { part } from '../../model/contractView.ts';
import { appendSection, at, endOfContent, nextCode } from '../fixText.ts';

const HITL = `| Scenario | Trigger Condition | Required Action | SLA |\n|---|---|---|---|\n| New vendor onboarding | \`vendor_domain NOT IN vendor_whitelist.csv\` | Upload the signed contract | 24h |\n`;

/** True when a FAILURE_PROTOCOL entry is the fallback for `scenario` (docs/contract-format.md, "Cross-references"). */
export function coversScenario(entry: unknown, scenario: string): boolean {
  const e = obj(entry);
  if (!e) return false;
  const s = conditionKey(scenario);
  const named = str(e['scenario']);
  if (named) return conditionKey(named) === s;
  return (str(e['condition']) ?? '').toLowerCase().includes(s);
}

/** What a row's fallback is looked up in: the entries' scenario keys and lower-cased conditions. */
interface Fallbacks {
  readonly entries: readonly { readonly named: string | undefined; readonly condition: string }[];
  /** What a row's finding depends on besides the row (ruleCache.ts `item`): the entries and where FAILURE_PROTOCOL stands, its related location. */
  readonly also: string;
}

/**
 * The fallbacks of a FAILURE_PROTOCOL value at a place, built once per value and place (`part`):
 * a keystroke in a HUMAN_IN_THE_LOOP row neither lower-cases every entry again nor makes a new
 * `also`, which each row's cache entry then matches by identity instead of comparing its
 * characters (hundreds of rows and entries).
 */
function fallbacksOf(failureProtocol: unknown, place: string): Fallbacks {
  const entries = arr(failureProtocol).map((e) => {
    const named = str(obj(e)?.['scenario']);
    return { named: named ? conditionKey(named) : undefined, condition: (str(obj(e)?.['condition']) ?? '').toLowerCase() };
  });
  return { entries, also: [place, ...entries.map((e) => e.named ?? `\u0001${e.condition}`)].join('\u0000') };
}

export const hitlNeedsFallback: Rule = {
  code: 'hitl-needs-fallback',
  severity: 'error',
  fixKind: 'safe',
  scope: 'document',
  summary: 'Every HUMAN_IN_THE_LOOP scenario has a FAILURE_PROTOCOL fallback.',
  description: 'A human gate that nobody answers is a "ghost approval": the request waits, then what? Each scenario needs a FAILURE_PROTOCOL entry that says what happens when the human does not act in time (by default "no action means reject"). An entry covers a scenario when its `**Scenario**:` field names it, or when its condition contains the scenario\'s name.',
  source: 'docs/contract-format.md §9, HUMAN_IN_THE_LOOP; docs/dry-run.md §3',
  messages: {
    default: 'HITL scenario "{scenario}" has no FAILURE_PROTOCOL fallback. Add an entry such as "If {scenario} gets no sign-off within {sla}: → Auto-reject".',
    noSla: 'HITL scenario "{scenario}" has no FAILURE_PROTOCOL fallback (and no SLA). Add an entry such as "If {scenario} gets no sign-off in time: → Auto-reject".',
  },
  examples: {
    bad: `${FM}\n## HUMAN_IN_THE_LOOP\n\n${HITL}\n## FAILURE_PROTOCOL\n\n- **If the model returns non-JSON**: → Fall back to \`template_response.md\` → Return error_code \`FMT001\`\n`,
    good: `${FM}\n## HUMAN_IN_THE_LOOP\n\n${HITL}\n## FAILURE_PROTOCOL\n\n- **If New vendor onboarding gets no sign-off within 24h**: → Auto-reject the request → Return error_code \`HITL001\`\n`,
    at: `⟦New vendor onboarding⟧`,
    fixed: `${FM}\n## HUMAN_IN_THE_LOOP\n\n| Scenario | Trigger Condition | Required Action | SLA |\n|---|---|---|---|\n| New vendor onboarding | \`vendor_domain NOT IN vendor_whitelist.csv\` | Upload the signed contract | 24h |\n\n## FAILURE_PROTOCOL\n\n- **If the model returns non-JSON**: → Fall back to \`template_response.md\` → Return error_code \`FMT001\`\n- **If New vendor onboarding gets no sign-off within 24h**: → Auto-reject the request → Notify the requester → Return error_code \`HITL_NEW_VENDOR_ONBOARDING\`\n`,
  },
  *check({ data, locate, item, section }) {
    if (declarationsBroken(section, 'failure_protocol')) return;
    const fp = locate('/failure_protocol');
    const { entries, also } = part(fallbacksOf, data['failure_protocol'], fp ? JSON.stringify(fp.value) : '');
    const rows = arr(data['human_in_the_loop']);
    for (let i = 0; i < rows.length; i++) {
      yield* item(
        'human_in_the_loop',
        i,
        function* () {
          const scenario = normaliseName(obj(rows[i])?.['scenario']);
          if (!scenario) return;
          const s = conditionKey(scenario);
          if (entries.some((e) => (e.named !== undefined ? e.named === s : e.condition.includes(s)))) return;
          const span = locate(`/human_in_the_loop/${i}/scenario`);
          if (!span) return;
          const sla = str(obj(rows[i])?.['sla']);
          yield {
            code: 'hitl-needs-fallback',
            range: span.value,
            args: { scenario, ...(sla ? { sla } : {}) },
            ...(sla ? {} : { variant: 'noSla' }),
            ...(fp ? { related: [{ range: fp.value, messageId: 'related.noFallbackEntry' }] } : {}),
          };
        },
        also,
      );
    }
  },
  fix: (d, model) => {
    // The entry the message proposes, at the end of FAILURE_PROTOCOL, with a code named after the
    // scenario (`HITL_NEW_VENDOR_ONBOARDING`): numbered codes would collide with other contracts' (error-code-reused).
    const scenario = d.args?.['scenario'];
    if (scenario === undefined) return undefined;
    const slug = String(scenario).toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40);
    const code = nextCode(model.data['failure_protocol'], `HITL_${slug || 'SCENARIO'}`, true);
    const when = d.args?.['sla'] ? `within ${d.args['sla']}` : 'in time';
    const entry = `- **If ${scenario} gets no sign-off ${when}**: → Auto-reject the request → Notify the requester → Return error_code \`${code}\``;
    const fp = model.owners.get('failure_protocol');
    const edit = fp && fp.kind === 'section' ? { range: at(endOfContent(model, fp)), newText: `\n${entry}` } : appendSection(model, sectionByKey('failure_protocol')!, entry);
    return { titleId: 'action.addFallback', titleArgs: { scenario: String(scenario) }, edits: [edit], safe: true };
  },
};

export const HUMAN_IN_THE_LOOP_RULES: readonly Rule[] = [hitlNeedsFallback];

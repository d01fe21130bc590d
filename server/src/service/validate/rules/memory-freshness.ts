import type { Rule } from '../rule.ts';
import { arr, FM, obj, str } from './util.ts';

/** Minutes after midnight of `HH:MM` (optionally ` UTC`), or undefined. */
export function minutesOf(time: unknown): number | undefined {
  const m = /^(\d{1,2}):(\d{2})/.exec(String(time ?? '').trim());
  if (!m) return undefined;
  const h = Number(m[1]);
  const min = Number(m[2]);
  return h < 24 && min < 60 ? h * 60 + min : undefined;
}

const FRESH = (a: string, b: string) => `${FM}\n## MEMORY_FRESHNESS\n\n- **inventory_data**: Must be updated before \`${a}\`. Stale after \`${b}\`.\n`;

export const freshnessOrder: Rule = {
  code: 'freshness-order',
  severity: 'error',
  summary: 'In MEMORY_FRESHNESS, "updated before" comes before "stale after".',
  description: 'A source that may be updated as late as it becomes stale is never fresh. Times are read as `HH:MM` UTC on the same day.',
  source: 'docs/contract-format.md §9, MEMORY_FRESHNESS',
  messages: { default: '{source}: "updated before" {before} is not earlier than "stale after" {stale}.' },
  examples: { bad: FRESH('07:00 UTC', '05:00 UTC'), good: FRESH('05:00 UTC', '07:00 UTC') },
  *check({ data, locate }) {
    const list = arr(data['memory_freshness']);
    for (let i = 0; i < list.length; i++) {
      const s = obj(list[i]);
      const b = minutesOf(s?.['updated_before']);
      const a = minutesOf(s?.['stale_after']);
      if (b === undefined || a === undefined || b < a) continue;
      const span = locate(`/memory_freshness/${i}/stale_after`, true) ?? locate(`/memory_freshness/${i}`);
      if (span) yield { code: 'freshness-order', range: span.value, args: { source: str(s?.['source']) ?? `#${i + 1}`, before: String(s?.['updated_before']), stale: String(s?.['stale_after']) } };
    }
  },
};

export const freshnessMargin: Rule = {
  code: 'freshness-margin',
  severity: 'warning',
  summary: 'MEMORY_FRESHNESS leaves at least two hours between "updated before" and "stale after".',
  description: 'A two-hour sync delay is enough to make an agent work from yesterday\'s data. Every stale-after time should be at least 2 hours earlier than the business\'s latest dependency: trade time for certainty. The margin is configurable with the option `minutes` (default 120).',
  source: 'docs/contract-format.md §9, MEMORY_FRESHNESS',
  messages: { default: '{source}: only {margin} minutes between "updated before" and "stale after"; leave at least {minimum}.' },
  examples: { bad: FRESH('05:00 UTC', '06:00 UTC'), good: FRESH('05:00 UTC', '07:00 UTC') },
  *check({ data, locate, options }) {
    const minimum = typeof options['minutes'] === 'number' ? options['minutes'] : 120;
    const list = arr(data['memory_freshness']);
    for (let i = 0; i < list.length; i++) {
      const s = obj(list[i]);
      const b = minutesOf(s?.['updated_before']);
      const a = minutesOf(s?.['stale_after']);
      if (b === undefined || a === undefined || b >= a || a - b >= minimum) continue;
      const span = locate(`/memory_freshness/${i}/stale_after`, true) ?? locate(`/memory_freshness/${i}`);
      if (span) yield { code: 'freshness-margin', range: span.value, args: { source: str(s?.['source']) ?? `#${i + 1}`, margin: a - b, minimum } };
    }
  },
};

export const MEMORY_FRESHNESS_RULES: readonly Rule[] = [freshnessOrder, freshnessMargin];

import type { Rule } from '../rule.ts';
import { arr, declarationsBroken, FM, obj, type Obj } from './util.ts';
import { normaliseName } from '../../model/names.ts';
import { declaredOutputs, schemaProperties } from './schemaWalk.ts';

/** A tool's schemas in YAML, for the examples of the TOOLS rules: it needs `section_id`. */
export const SCHEMAS = '```yaml\ninput_schema:\n  type: object\n  properties:\n    section_id:\n      type: string\n      examples: [POWER_VOLTAGE]\n  required: [section_id]\noutput_schema:\n  type: object\n  properties:\n    root_cause: { type: string }\n```\n';

/** The last word of an identifier's name: `order_id`, `ticket_no`, `clause_ref`, `sku`, `head_sha`, `station_code`. */
const ID_WORD = /(?:^|_)(id|ids|uuid|guid|no|number|num|ref|sku|doi|sha|hash|slug|code)$/;

/** `orderId` → `order_id`, `Order-ID` → `order_id`. */
function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[\s-]+/g, '_').toLowerCase();
}

/**
 * Whether an input is an identifier the model must read from a source, decided from its schema and
 * name: a string (or untyped) value without `format` or `enum`, whose name ends in an identifier
 * word. Free text (`body`, `summary`, `query`, `guest_name`), dates, choices, numbers and flags are
 * the model's to compose, and so is a code with a `pattern` (`currency_code: ^[A-Z]{3}$`).
 */
function isIdentifier(name: string, schema: Obj | undefined): boolean {
  const type = schema?.['type'];
  if (schema?.['format'] !== undefined || schema?.['enum'] !== undefined || (type !== undefined && type !== 'string')) return false;
  const word = ID_WORD.exec(snake(name))?.[1];
  return word !== undefined && !(word === 'code' && schema?.['pattern'] !== undefined);
}

/** `slots` → `slot`, `entries` → `entry`: the item of a collection, to name its `id` (`slot_id`). */
function singular(word: string): string {
  return word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** The names a property makes available: its own, and `<parent>_<name>` inside a collection (`slots[].id` → `slot_id`). */
function namesOf(name: string, parent: string | undefined): string[] {
  const own = snake(name);
  return parent ? [own, `${singular(snake(parent))}_${own}`] : [own];
}

/**
 * Whether `input` is fed by a source named `source`: the same name, or a related one where one
 * extends the other (`sha` ← `head_sha`, `depart_station_code` ← `station_code`). A bare
 * identifier word (`id`) as a source feeds only itself.
 */
function feeds(source: string, input: string): boolean {
  if (source === input || source.endsWith(`_${input}`)) return true;
  return source.includes('_') && input.endsWith(`_${source}`);
}

export const toolInputUnfed: Rule = {
  code: 'tool-input-unfed',
  severity: 'warning',
  scope: 'document',
  summary: 'A tool\'s required identifier inputs can be fed from entities, memory or other tools.',
  description: 'A boot-time check: `query_manual_section` needs `section_id`, which must come from somewhere the agent can read: an extracted entity, a metadata field of a pool it retrieves (MEMORY_POOLS `metadata`), a memory filter field, another tool\'s output (at any depth: `slots[].slot_id`, or `slots[].id`), or a field of the agent\'s own OUTPUT_SCHEMA (what it extracts from the request). A related name counts (`sha` is fed by `head_sha`). An input nothing provides forces the model to invent it. The rule applies to contracts that declare their `required_entities` (TRIGGER), and to identifier inputs only: strings whose name ends in `id`, `no`, `number`, `ref`, `code`, `sku`, `sha`, `hash`, `uuid` or `slug`. Free text (`body`, `summary`, `query`), dates and other formatted strings, codes with a `pattern`, `enum` choices, numbers and flags are the model\'s to compose.',
  source: 'docs/contract-format.md §9, TOOLS',
  messages: { default: 'Required input "{param}" of tool "{tool}" is not provided by any entity, pool metadata field, memory filter or other tool\'s output.' },
  examples: {
    bad: `${FM}\n## TRIGGER\n\n- **Intent Patterns**:\n  - \`为什么.*报错\`\n- **Required Entities**: \`error_code\`\n\n## MEMORY_POOLS\n\n| Name | Content | Metadata |\n|---|---|---|\n| kb_reference | Manual sections | kb_version |\n\n## TOOLS\n\n### \`query_manual_section\`\n\n${SCHEMAS}`,
    good: `${FM}\n## TRIGGER\n\n- **Intent Patterns**:\n  - \`为什么.*报错\`\n- **Required Entities**: \`error_code\`\n\n## MEMORY_POOLS\n\n| Name | Content | Metadata |\n|---|---|---|\n| kb_reference | Manual sections | kb_version, section_id |\n\n## TOOLS\n\n### \`query_manual_section\`\n\n${SCHEMAS}`,
    at: `    ⟦section_id⟧:`,
  },
  *check({ data, config, locate, section }) {
    if (declarationsBroken(section, 'trigger', 'memory_pools', 'tools')) return;
    // A contract that declares no required entities lets the model compose every input from the
    // conversation: there is no declared source to check against.
    const entities = arr(obj(data['trigger'])?.['required_entities']);
    if (entities.length === 0) return;
    const fed = new Set<string>();
    for (const e of entities) fed.add(normaliseName(typeof e === 'string' ? e : obj(e)?.['name']));
    for (const p of arr(data['memory_pools'])) for (const m of arr(obj(p)?.['metadata'])) fed.add(normaliseName(m));
    for (const p of config.sharedPools) for (const m of p.metadata ?? []) fed.add(m);
    for (const r of arr(data['memory_requirements'])) for (const f of arr(obj(r)?.['filters'])) fed.add(normaliseName(obj(f)?.['field']));
    // Which tools output each name (a tool's own output cannot feed its own input); OUTPUT_SCHEMA
    // (what the agent extracts itself) feeds every tool.
    const outputOf = new Map<string, Set<number>>();
    for (const { tool, schema } of declaredOutputs(data)) {
      for (const p of schemaProperties(schema)) {
        for (const n of namesOf(p.name, p.parent)) {
          if (tool === undefined) fed.add(n);
          else outputOf.set(n, (outputOf.get(n) ?? new Set()).add(tool));
        }
      }
    }
    const sources = [...fed].map(snake);
    const list = arr(data['tools']).map((t) => obj(t) ?? {});
    for (let i = 0; i < list.length; i++) {
      const input = obj(list[i]!['input_schema']);
      for (const param of arr(input?.['required'])) {
        if (typeof param !== 'string' || !isIdentifier(param, obj(obj(input?.['properties'])?.[param]))) continue;
        const want = snake(param);
        if (sources.some((s) => feeds(s, want))) continue;
        if ([...outputOf].some(([name, by]) => feeds(name, want) && [...by].some((j) => j !== i))) continue;
        const span = locate(`/tools/${i}/input_schema/properties/${param}`, true) ?? locate(`/tools/${i}/input_schema/required`);
        if (span) yield { code: 'tool-input-unfed', range: span.key ?? span.value, args: { param, tool: normaliseName(list[i]!['name']) } };
      }
    }
  },
};

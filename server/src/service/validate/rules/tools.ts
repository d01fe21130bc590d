import type { Finding } from '../../model/types.ts';
import type { Rule, RuleContext } from '../rule.ts';
import { arr, brokenBlockLines, FM, itemLines, misspelt, obj, str, type Obj } from './util.ts';
import { checkJsonSchema } from '../ajv.ts';
import { schemaErrorMessage } from '../ajvMessages.ts';
import { referencesOf } from '../../model/references.ts';
import { normaliseName } from '../../model/names.ts';
import { canBeVerb, usedAsVerb } from '../verbs.ts';
import { locate } from '../../model/locate.ts';
import { innerRange, textAt } from '../../model/text.ts';
import type { Range } from '../../types.ts';
import { at, endOfContent, lineAfter, setTableCell, siblingLine } from '../fixText.ts';
import { fieldForLabel, sectionByKey } from '../../schema/sections.ts';
import { SCHEMAS, toolInputUnfed } from './toolInputs.ts';

const REQUIRES_APPROVAL = 'Requires Approval';
const TOOL_FIELDS = sectionByKey('tools')!.fields;
const TOOL = (body: string) => `${FM}\n## TOOLS\n\n${body}`;

/** The first word of a tool name: `query_manual_section` → `query`, `getOrder` → `get`. */
export function firstWord(name: string): string {
  return (name.split(/[_\-.\s]/)[0] ?? '').replace(/(?<=[a-z])[A-Z].*$/, '').toLowerCase();
}

const WRITE_VERBS = new Set(['create', 'add', 'insert', 'update', 'upsert', 'set', 'delete', 'remove', 'send', 'post', 'put', 'patch', 'pay', 'transfer', 'initiate', 'submit', 'publish', 'deploy', 'approve', 'reject', 'grant', 'revoke', 'write', 'save', 'book', 'order', 'cancel', 'notify']);

function tools(data: Readonly<Obj>): Obj[] {
  return arr(data['tools']).map((t) => obj(t) ?? {});
}

export const toolMissingSchema: Rule = {
  code: 'tool-missing-schema',
  severity: 'error',
  fixKind: 'quickfix',
  summary: 'Every tool declares `input_schema` and `output_schema`.',
  description: 'A tool\'s input schema is "an iron law of execution, not decoration": calls are validated against it, and an invalid call returns `INVALID_INPUT` so the model can retry. Without schemas, a malformed call crashes the tool or hangs the request. A tool whose schema block does not parse is not reported here: the block\'s `yaml-syntax` or `json-syntax` error says what to fix.',
  source: 'docs/contract-format.md §9, TOOLS',
  messages: {
    default: 'Tool "{tool}" has neither input_schema nor output_schema. Add both as JSON Schemas (a fenced yaml block under the tool).',
    input: 'Tool "{tool}" has no input_schema. Add it as a JSON Schema (a fenced yaml block under the tool).',
    output: 'Tool "{tool}" has no output_schema. Add it as a JSON Schema (a fenced yaml block under the tool).',
  },
  examples: {
    bad: TOOL('### `query_manual_section`\n\n- **Description**: Looks up a manual section.\n'),
    good: TOOL('### `query_manual_section`\n\n- **Description**: Looks up a manual section.\n\n' + SCHEMAS),
    at: `⟦\`query_manual_section\`⟧`,
    fixed: `${FM}\n## TOOLS\n\n### \`query_manual_section\`\n\n- **Description**: Looks up a manual section.\n\n\`\`\`yaml\ninput_schema:\n  type: object\n  properties: {}\noutput_schema:\n  type: object\n  properties: {}\n\`\`\`\n`,
  },
  *check({ data, locate, item, section }) {
    const list = tools(data);
    const broken = brokenBlockLines(section('tools'));
    const toolAt = (i: number) => locate(`/tools/${i}`, true)?.value.start.line;
    for (let i = 0; i < list.length; i++) {
      const t = list[i]!;
      const missing = ['input_schema', 'output_schema'].filter((k) => t[k] === undefined || t[k] === null);
      if (missing.length === 0) continue;
      const [from, to] = [toolAt(i), toolAt(i + 1) ?? Infinity];
      if (from !== undefined && broken.some((line) => line > from && line < to)) continue;
      yield* item('tools', i, function* () {
        const span = locate(`/tools/${i}/name`, true) ?? locate(`/tools/${i}`);
        // `missing` (the keys, comma-separated) is for the quick fix; the variant says it in words.
        const variant = missing.length === 2 ? {} : { variant: missing[0] === 'input_schema' ? 'input' : 'output' };
        if (span) yield { code: 'tool-missing-schema', range: span.value, args: { tool: normaliseName(t['name']) || `#${i + 1}`, missing: missing.join(', ') }, ...variant };
      });
    }
  },
  fix: (d, model) => {
    // Empty object schemas in a yaml block at the end of the tool's H3 part.
    const list = tools(model.data);
    const i = list.findIndex((t) => normaliseName(t['name']) === d.args?.['tool']);
    const section = model.owners.get('tools');
    const heading = i >= 0 ? locate(model, `/tools/${i}`) : undefined;
    if (!section || section.kind !== 'section' || !heading) return undefined;
    // A tool of a table (or a YAML list) has no part of its own to put a yaml block in: one after
    // the table would read as a tool of its own.
    if (!section.headings.some((h) => h.depth === 3 && h.range.start.line === heading.value.start.line)) return undefined;
    const missing = ['input_schema', 'output_schema'].filter((k) => list[i]![k] === undefined || list[i]![k] === null);
    const next = section.headings.find((h) => h.depth <= 3 && h.range.start.line > heading.value.start.line);
    const end = endOfContent(model, next ? { startLine: section.startLine, endLine: next.range.start.line } : section);
    const block = ['```yaml', ...missing.flatMap((k) => [`${k}:`, '  type: object', '  properties: {}']), '```'].join('\n');
    const title = missing.length === 2 ? 'action.addSchemas' : missing[0] === 'input_schema' ? 'action.addInputSchema' : 'action.addOutputSchema';
    return { titleId: title, titleArgs: { tool: String(d.args?.['tool']) }, edits: [{ range: at(end), newText: `\n\n${block}` }], safe: false };
  },
};

export const invalidJsonSchema: Rule = {
  code: 'invalid-json-schema',
  severity: 'error',
  summary: 'Tool schemas, OUTPUT_SCHEMA and output-format constraint schemas are valid JSON Schemas.',
  description: 'The schemas are checked against the meta-schema of the draft their `$schema` names (draft-04, -06, -07, 2019-09; 2020-12 when they name none) and compiled, so typos such as `type: strng` or `required: section_id` (a string instead of a list) are caught before the runtime trips on them. A keyword that ajv\'s strict mode does not know and that is a near miss of one it does (`requried`, `maxLenght`) is reported with its correction: it would silently check nothing. Keys starting with `x-` and OpenAPI\'s `example` and `nullable` are left alone.',
  source: 'docs/contract-format.md §9, CONSTRAINTS and OUTPUT_SCHEMA',
  messages: {
    default: 'Not a valid JSON Schema at {path}: {detail}.',
    notObject: 'Not a valid JSON Schema: a schema must be an object or a boolean.',
    required: 'Not a valid JSON Schema at {path}: required keyword "{field}" is missing.',
    enum: 'Not a valid JSON Schema at {path}: must be one of {allowed}.',
    type: 'Not a valid JSON Schema at {path}: must be of type {type}.',
    limit: 'Not a valid JSON Schema at {path}: must be {comparison} {limit}.',
    empty: 'Not a valid JSON Schema at {path}: must not be empty.',
    minLength: 'Not a valid JSON Schema at {path}: must be at least {limit} characters long.',
    minItems: 'Not a valid JSON Schema at {path}: must have at least {limit} items.',
    pattern: 'Not a valid JSON Schema at {path}: must match the pattern {pattern}.',
    format: 'Not a valid JSON Schema at {path}: must be a valid {format}.',
    unknownDraft: 'Not a valid JSON Schema at {path}: {detail} is not a draft agents-md knows; use draft-04, draft-06, draft-07, 2019-09 or 2020-12.',
    misspeltKeyword: 'Not a valid JSON Schema at {path}: unknown keyword "{detail}", so it checks nothing; did you mean "{suggestion}"?',
    refLoop: 'Not a valid JSON Schema at {path}: "$ref": "{detail}" refers back to the whole schema before checking anything, so a value can never be checked.',
  },
  examples: {
    bad: `${FM}\n## OUTPUT_SCHEMA\n\n\`\`\`yaml\ntype: object\nproperties:\n  confidence_score:\n    type: numbr\n\`\`\`\n`,
    good: `${FM}\n## OUTPUT_SCHEMA\n\n\`\`\`yaml\ntype: object\nproperties:\n  confidence_score:\n    type: number\n\`\`\`\n`,
    at: `⟦numbr⟧`,
  },
  *check({ data, locate, item }) {
    // A tool's schemas are checked with the tool, and its findings kept while it is unchanged.
      const list = tools(data);
    for (let i = 0; i < list.length; i++) {
      const t = list[i]!;
      const targets = ['input_schema', 'output_schema'].filter((k) => t[k] !== undefined && t[k] !== null);
      if (targets.length > 0) yield* item('tools', i, () => targets.flatMap((k) => [...schemaFindings(`/tools/${i}/${k}`, t[k], locate)]));
    }
    const others: string[] = [];
    arr(data['constraints']).forEach((c, i) => {
      if (obj(c)?.['schema'] !== undefined) others.push(`/constraints/${i}/schema`);
    });
    if (data['output_schema'] !== undefined) others.push('/output_schema');
    for (const pointer of others) yield* schemaFindings(pointer, pointer.split('/').slice(1).reduce<unknown>((v, k) => (v as Obj | undefined)?.[k], data), locate);
  },
};

/** invalid-json-schema's findings about the schema at `pointer`. */
function* schemaFindings(pointer: string, value: unknown, locate: RuleContext['locate']): Generator<Finding> {
  const reported = new Set<string>();
  for (const problem of checkJsonSchema(value)) {
    // The meta-schema reports one bad keyword several ways (enum, type, anyOf): say it once.
    if (reported.has(problem.path)) continue;
    reported.add(problem.path);
    const span = locate(pointer + problem.path);
    if (!span) continue;
    const path = problem.path || '/';
    // The same variants as rule `schema`, so that meta-schema errors translate as whole messages.
    const m = 'error' in problem ? schemaErrorMessage(problem.error, path) : 'notObject' in problem ? { variant: 'notObject', args: {} } : 'variant' in problem ? { variant: problem.variant, args: { path, detail: problem.detail, ...('suggestion' in problem ? { suggestion: problem.suggestion } : {}) } } : { args: { path, detail: problem.compileError } };
    yield { code: 'invalid-json-schema', range: span.value, args: m.args, ...(m.variant ? { variant: m.variant } : {}) };
  }
}

export const toolNameVerb: Rule = {
  code: 'tool-name-verb',
  severity: 'warning',
  fixKind: 'quickfix',
  preset: 'strict',
  summary: 'Tool names start with a verb.',
  description: 'Tool names start with a verb so that what they do is visible. `vendor_info` could read, write or delete; `get_vendor_info` cannot be misread. The first word is looked up in an English part-of-speech lexicon (en-lexicon): only a word it knows, and never as a verb, is reported, so `propose_reroute`, `drain_node` or `rerun_job` pass; a word it knows only as a noun passes too when the tool\'s description starts with it as a verb (`triage_ticket`: "Triages a ticket…"). Add verbs of your domain that the lexicon does not know as verbs with the config file\'s `verbs` list.',
  source: 'docs/contract-format.md §9, TOOLS',
  messages: { default: 'Tool name "{tool}" does not start with a verb; name what it does, e.g. "get_{tool}".' },
  examples: {
    bad: TOOL('### `vendor_info`\n\n- **Description**: Vendor record by domain.\n'),
    good: TOOL('### `get_vendor_info`\n\n- **Description**: Vendor record by domain.\n'),
    at: `⟦\`vendor_info\`⟧`,
    fixed: true,
  },
  *check({ data, config, locate, item }) {
    const extra = new Set(config.verbs.map((v) => v.toLowerCase()));
    const also = [...extra].join('\u0000');
    const list = tools(data);
    for (let i = 0; i < list.length; i++) {
      yield* item('tools', i, function* () {
        const name = normaliseName(list[i]!['name']);
        if (!name) return;
        const w = firstWord(name);
        // Only a first word the lexicon knows, and never as a verb, is reported (`vendor_info`), unless
        // the tool's description uses it as one ("Triages a ticket").
        if (extra.has(w) || canBeVerb(w) !== false || usedAsVerb(w, str(list[i]!['description']) ?? '')) return;
        const span = locate(`/tools/${i}/name`);
        if (span) yield { code: 'tool-name-verb', range: span.value, args: { tool: name } };
      }, also);
    }
  },
  fix: (d, model) => {
    // `get_<name>` at the declaration and at every reference to the tool in this contract.
    const name = String(d.args?.['tool'] ?? '');
    const refs = referencesOf(model);
    const decl = refs.names.get('tool')?.get(name);
    if (!decl) return undefined;
    const places = [decl, ...refs.references.filter((r) => r.kind === 'tool' && r.name === name)];
    const ranges = new Map<string, Range>();
    for (const p of places) {
      const text = textAt(model, p.range);
      const at = text.lastIndexOf(name);
      if (at < 0) continue;
      const r = innerRange(model, p.range, at, at + name.length);
      ranges.set(`${r.start.line}:${r.start.character}`, r);
    }
    return { titleId: 'action.renameTool', titleArgs: { name: `get_${name}` }, edits: [...ranges.values()].map((range) => ({ range, newText: `get_${name}` })), safe: false };
  },
};

const USE = /\b(?:(?:use|call) (?:it |this(?: tool)? )?(?:when|for|to|once|with|only|after|before|on|whenever|if)|when to use|useful (?:when|for)|suitable for|for (?:questions|requests) (?:about|on))\b|适用|用于|用来/i;
const NOT_USE = /\b(?:do not|don't|never|not for|not on|not to|not suitable|avoid (?:using|when|it)|instead use|use \S+ instead|if you (?:do not|don't) know|only (?:for|when|on|after|once))\b|不适用|不要|不用于|请先调用|勿用|禁止/i;

export const toolDescriptionUsage: Rule = {
  code: 'tool-description-usage',
  severity: 'warning',
  preset: 'strict',
  summary: 'A tool says when to use it and when not to.',
  description: 'A tool described only as "Look up order information" got called for a refund question and the model improvised from an unrelated result. Say what the tool is for and what it is not for (or write `**When to use**` and `**When not to use**`).',
  source: 'docs/contract-format.md §9, TOOLS',
  messages: {
    default: 'Tool "{tool}" does not say when to use it and when not to. Add "When to use" and "When not to use".',
    notUse: 'Tool "{tool}" does not say when not to use it. Add "When not to use".',
    use: 'Tool "{tool}" does not say when to use it. Add "When to use".',
  },
  examples: {
    bad: TOOL('### `get_order_status`\n\n- **Description**: Look up order information.\n'),
    good: TOOL('### `get_order_status`\n\n- **Description**: Order status by order id.\n- **When to use**: questions about an order\'s progress, amount or payment state.\n- **When not to use**: when you do not know the order id: call `search_orders` first.\n'),
    at: `⟦Look up order information.⟧`,
  },
  *check({ data, locate, item }) {
    const list = tools(data);
    for (let i = 0; i < list.length; i++) {
      const t = list[i]!;
      const text = [t['description'], t['when_to_use'], t['when_not_to_use']].map((x) => str(x) ?? '').join(' ');
      const hasUse = !!str(t['when_to_use']) || USE.test(text);
      const hasNot = !!str(t['when_not_to_use']) || NOT_USE.test(text);
      if (hasUse && hasNot) continue;
      yield* item('tools', i, function* () {
        const span = locate(`/tools/${i}/description`, true) ?? locate(`/tools/${i}/name`);
        if (span) yield { code: 'tool-description-usage', range: span.value, args: { tool: normaliseName(t['name']) }, ...(hasUse ? { variant: 'notUse' } : hasNot ? { variant: 'use' } : {}) };
      });
    }
  },
};

const RANGE_KEYS = ['examples', 'enum', 'const', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'pattern', 'format', 'minLength', 'maxLength', 'minItems', 'maxItems', 'default'];

export const toolParamExamples: Rule = {
  code: 'tool-param-examples',
  severity: 'info',
  preset: 'strict',
  summary: 'Tool parameters carry examples or value ranges.',
  description: 'A parameter schema gives positive examples and value ranges, not only types. A model that sees `examples: [POWER_VOLTAGE]` or `minimum: 1` sends well-formed calls far more often than one that sees `type: string`.',
  source: 'docs/contract-format.md §9, TOOLS',
  messages: { default: 'Parameter "{param}" of tool "{tool}" has a type but no examples or value range. Add `examples`, `enum`, a `pattern` or bounds.' },
  examples: {
    bad: TOOL('### `query_manual_section`\n\n```yaml\ninput_schema:\n  type: object\n  properties:\n    section_id: { type: string }\noutput_schema: { type: object }\n```\n'),
    good: TOOL('### `query_manual_section`\n\n```yaml\ninput_schema:\n  type: object\n  properties:\n    section_id: { type: string, examples: [POWER_VOLTAGE] }\noutput_schema: { type: object }\n```\n'),
    at: `⟦section_id⟧`,
  },
  *check({ data, locate, item }) {
    const list = tools(data);
    for (let i = 0; i < list.length; i++) {
      const props = obj(obj(list[i]!['input_schema'])?.['properties']);
      if (!props) continue;
      yield* item('tools', i, function* () {
        for (const [param, schema] of Object.entries(props)) {
          const s = obj(schema);
          if (!s || RANGE_KEYS.some((k) => s[k] !== undefined) || s['type'] === 'boolean' || s['type'] === 'object' || s['$ref']) continue;
          const span = locate(`/tools/${i}/input_schema/properties/${param}`);
          if (span) yield { code: 'tool-param-examples', range: span.key ?? span.value, args: { param, tool: normaliseName(list[i]!['name']) } };
        }
      });
    }
  },
};

export const toolNeedsApproval: Rule = {
  code: 'tool-needs-approval',
  severity: 'error',
  fixKind: 'safe',
  summary: 'A tool with side effects declares them and requires approval.',
  description: 'Sensitive tool calls need an approval flag: sending messages, changing data, deleting resources must stop and ask first. Declare `side_effects` (none, read, write, external) on every tool whose name suggests a write, and set `requires_approval: true` on write and external tools (or list them in BUDGETS `requires_approval`).',
  source: 'docs/contract-format.md §9, TOOLS',
  messages: {
    default: 'Tool "{tool}" has {effects} side effects but does not require approval. Set "Requires Approval" to true.',
    undeclared: 'Tool "{tool}" sounds like it changes something but declares no side effects. Set "Side Effects" (none, read, write or external).',
  },
  examples: {
    bad: TOOL('### `send_vendor_email`\n\n- **Description**: Emails a vendor.\n- **Side Effects**: external\n'),
    good: TOOL('### `send_vendor_email`\n\n- **Description**: Emails a vendor.\n- **Side Effects**: external\n- **Requires Approval**: true\n- **Idempotent**: true\n'),
    at: `⟦external⟧`,
    fixed: `${FM}\n## TOOLS\n\n### \`send_vendor_email\`\n\n- **Description**: Emails a vendor.\n- **Side Effects**: external\n- **Requires Approval**: true\n`,
  },
  *check({ model, data, locate, item }): Generator<Finding> {
    const approved = new Set(arr(obj(data['budgets'])?.['requires_approval']).map(normaliseName));
    const also = [...approved].join('\u0000');
    const list = tools(data);
    for (let i = 0; i < list.length; i++) {
      yield* item('tools', i, function* (): Generator<Finding> {
        const t = list[i]!;
        const name = normaliseName(t['name']);
        const effects = str(t['side_effects']);
        const span = locate(`/tools/${i}/side_effects`, true) ?? locate(`/tools/${i}/name`);
        if (!span) return;
        if (!effects) {
          if (WRITE_VERBS.has(firstWord(name)) && !misspelt(model, 'tools', 'side_effects', itemLines(model, 'tools', i, locate))) yield { code: 'tool-needs-approval', range: span.value, args: { tool: name }, variant: 'undeclared' };
          return;
        }
        if ((effects === 'write' || effects === 'external') && t['requires_approval'] !== true && !approved.has(name) && !misspelt(model, 'tools', 'requires_approval', itemLines(model, 'tools', i, locate))) {
          yield { code: 'tool-needs-approval', range: span.value, args: { tool: name, effects, item: i } };
        }
      }, also);
    }
  },
  fix: (d, model) => {
    // `Requires Approval: true` right after the tool's side effects, in the same form (bullet or YAML key).
    if (d.args?.['effects'] === undefined) return undefined;
    const titleArgs = { tool: String(d.args['tool']) };
    // `Requires Approval: false` written out: its value becomes true (a second line would be a duplicate key).
    const written = typeof d.args['item'] === 'number' ? locate(model, `/tools/${d.args['item']}/requires_approval`, true) : undefined;
    if (written) return { titleId: 'action.requireApproval', titleArgs, edits: [{ range: written.value, newText: 'true' }], safe: true };
    const form = siblingLine(model, d.range.start.line);
    if (!form) {
      // A TOOLS table row: its Requires Approval cell, or the column added (`false` in the other rows).
      const cell = setTableCell(model, d.range.start.line, (h) => fieldForLabel(TOOL_FIELDS, h)?.key === 'requires_approval', REQUIRES_APPROVAL, 'true', 'false');
      return cell && { titleId: 'action.requireApproval', titleArgs, edits: cell.edits, safe: !cell.added };
    }
    const line = form.kind === 'bullet' ? `${form.indent}- **Requires Approval**: true` : `${form.indent}requires_approval: true`;
    return { titleId: 'action.requireApproval', titleArgs, edits: [lineAfter(model, d.range.start.line, line)], safe: true };
  },
};

export const toolWriteSafety: Rule = {
  code: 'tool-write-safety',
  severity: 'warning',
  summary: 'A tool that writes is idempotent or has a rollback.',
  description: 'Every write operation is confirmed twice and designed to be rolled back. A retried call that is neither idempotent nor reversible duplicates payments, messages and records.',
  source: 'docs/contract-format.md §9, TOOLS',
  messages: { default: 'Tool "{tool}" writes but is neither idempotent nor reversible. Set "Idempotent" to true or describe the "Rollback".' },
  examples: {
    bad: TOOL('### `create_purchase_order`\n\n- **Side Effects**: write\n- **Requires Approval**: true\n'),
    good: TOOL('### `create_purchase_order`\n\n- **Side Effects**: write\n- **Requires Approval**: true\n- **Rollback**: `cancel_purchase_order` with the returned id\n'),
    at: `⟦write⟧`,
  },
  *check({ model, data, locate, item }) {
    const list = tools(data);
    for (let i = 0; i < list.length; i++) {
      const t = list[i]!;
      const effects = str(t['side_effects']);
      if (effects !== 'write' && effects !== 'external') continue;
      if (t['idempotent'] === true || str(t['rollback'])) continue;
      yield* item('tools', i, function* () {
        const lines = itemLines(model, 'tools', i, locate);
        if (misspelt(model, 'tools', 'idempotent', lines) || misspelt(model, 'tools', 'rollback', lines)) return;
        const span = locate(`/tools/${i}/side_effects`, true) ?? locate(`/tools/${i}/name`);
        if (span) yield { code: 'tool-write-safety', range: span.value, args: { tool: normaliseName(t['name']) } };
      });
    }
  },
};

export const duplicateName: Rule = {
  code: 'duplicate-name',
  severity: 'error',
  scope: 'document',
  summary: 'Tools, pools, entities, HITL scenarios and memory layers have unique names.',
  description: 'Two tools named alike make every reference ambiguous: which schema does a call use, which HITL row does a fallback cover? Rename one.',
  source: 'docs/contract-format.md §8 (cross-references)',
  messages: {
    default: 'Name "{name}" is declared more than once.',
    tool: 'Tool "{name}" is declared more than once.',
    pool: 'Memory pool "{name}" is declared more than once.',
    entity: 'Entity "{name}" is declared more than once.',
    scenario: 'HITL scenario "{name}" is declared more than once.',
    layer: 'Memory layer "{name}" is declared more than once.',
    resource: 'Resource "{name}" is declared more than once.',
  },
  examples: {
    bad: TOOL('### `get_order_status`\n\n- **Description**: By order id.\n\n### `get_order_status`\n\n- **Description**: By customer.\n'),
    good: TOOL('### `get_order_status`\n\n- **Description**: By order id.\n\n### `search_orders`\n\n- **Description**: By customer.\n'),
    at: `- **Description**: By order id.\n\n### ⟦\`get_order_status\`⟧`,
  },
  *check({ model }) {
    const { declarations } = referencesOf(model);
    const first = new Map<string, (typeof declarations)[number]>();
    for (const d of declarations) {
      if (d.kind === 'role') continue;
      const key = `${d.kind}\u0000${d.name}`;
      const prev = first.get(key);
      if (!prev) {
        first.set(key, d);
        continue;
      }
      yield { code: 'duplicate-name', range: d.range, args: { kind: d.kind, name: d.name }, variant: d.kind, related: [{ range: prev.range, messageId: 'related.firstDeclared' }] };
    }
  },
};

export const TOOLS_RULES: readonly Rule[] = [
  toolMissingSchema, invalidJsonSchema, toolNameVerb, toolDescriptionUsage, toolParamExamples, toolNeedsApproval, toolWriteSafety, toolInputUnfed, duplicateName,
];

import type { Range } from '../types.ts';
import type { NameKind } from '../schema/sections.ts';
import type { ParsedContract, PointerSpan, SectionModel } from './types.ts';
import { locate } from './locate.ts';
import { innerRange, textAt } from './text.ts';
import { codeSpans, splitInlineList } from './values.ts';
import { normaliseName, unquote } from './names.ts';
import { boundaryTools, parseBoundary } from './boundaries.ts';
import { detached, detachedValue } from '../util/detached.ts';

/** A name declared in the contract: a tool, pool, role, entity, HITL scenario, layer or resource. */
export interface Declaration {
  readonly kind: NameKind;
  readonly name: string;
  readonly range: Range;
  /** JSON Pointer of the declaring value (`/tools/0/name`). */
  readonly pointer: string;
}

/** A use of a name. `resolved` is false until matched against declarations. */
export interface Reference {
  readonly kind: NameKind;
  readonly name: string;
  readonly range: Range;
  readonly pointer: string;
  /** How the reference was written: a field that names it, a backticked token, a `{{template}}`. */
  readonly via: 'field' | 'code' | 'template' | 'condition';
}

/** A `{{name}}` or `{{name[:n]}}` template in a value. */
export interface TemplateUse {
  readonly raw: string;
  /** The variable (`extracted_device_id`), or undefined when the syntax is not the documented subset. */
  readonly variable?: string;
  /** The entity it refers to (`device_id` for `extracted_device_id`). */
  readonly entity?: string;
  readonly range: Range;
  readonly pointer: string;
}

/** Every declaration and reference of a contract, computed once per model. */
export interface ReferenceIndex {
  readonly declarations: readonly Declaration[];
  readonly references: readonly Reference[];
  readonly templates: readonly TemplateUse[];
  /** Backticked identifiers in boundaries, HITL actions, constraints and failure actions that name nothing declared. */
  readonly candidates: readonly Reference[];
  /** Declared names by kind, case-sensitive. */
  readonly names: ReadonlyMap<NameKind, ReadonlyMap<string, Declaration>>;
}

/** A name in backticks: letters of any script (Chinese names too), digits after the first, `_`. */
const IDENT = /^[\p{L}_][\p{L}\p{N}_]*$/u;
/** The name-like tokens of a code span that is not one name (`query_a(x)` → `query_a`, `x`). */
const TOKEN = /[\p{L}\p{N}_./-]+/gu;
/**
 * A backticked identifier right after one of these words names a tool (docs/contract-format.md §8).
 * Chinese: 用 alone too (`可以用 \`x\``, as common as 使用 / 调用), 借助, 调取.
 */
const USE_VERB = /(?:\b(?:use|uses|using|call|calls|calling|invoke|invokes|invoking|run|runs|running|execute|executes|query|queries)|用|运行|执行|借助|调取)\s*$/i;
/** A backticked span that names a resource file (docs/contract-format.md §8). */
export const FILE_LIKE = /^(?!\w+:\/\/)[\p{L}\p{N}_./-]*[\p{L}\p{N}_-]\.(?:csv|tsv|json|jsonl|ya?ml|md|txt|pdf|xlsx?|parquet|sql|xml|html?)$/iu;
const TEMPLATE = /\{\{([^{}]*)\}\}/g;
const TEMPLATE_VAR = /^\s*([\p{L}_][\p{L}\p{N}_]*)\s*(?:\[\s*(-?\d*)\s*:\s*(-?\d*)\s*\])?\s*$/u;

/** Roles named in a `Write By` cell: split on `,`, `+`, `、`, `/`, qualifiers in parentheses dropped. */
export function splitRoles(cell: string): { name: string; start: number; end: number }[] {
  return splitInlineList(cell, /[,，、+/;；]/)
    .map((p) => {
      const m = /^(.*?)\s*[(（][^)）]*[)）]\s*$/.exec(p.text);
      const name = normaliseName(m ? m[1]! : p.text);
      return { name, start: p.start, end: p.start + (m ? m[1]!.length : p.text.length) };
    })
    .filter((r) => r.name.length > 0);
}

/** Entity named by a template variable: `extracted_device_id` → `device_id`. */
export function entityOfVariable(v: string): string {
  return v.startsWith('extracted_') ? v.slice('extracted_'.length) : v;
}

/**
 * Every string value under one model key with its pointer and source span, read from its owning
 * section's source map (an explicit stack, no pointer parsing per value).
 */
function stringSpans(value: unknown, key: string, owner: SectionModel, at = ''): { pointer: string; span: PointerSpan }[] {
  const out: { pointer: string; span: PointerSpan }[] = [];
  const fromFrontMatter = owner.kind === 'preamble';
  const map = fromFrontMatter ? owner.frontMatter?.map : owner.map;
  if (!map) return out;
  const stack: [unknown, string][] = [[value, fromFrontMatter ? `/${escapeSegment(key)}${at}` : at]];
  while (stack.length > 0) {
    const [v, rel] = stack.pop()!;
    if (typeof v === 'string') {
      const span = map.get(rel);
      if (span) out.push({ pointer: fromFrontMatter ? rel : `/${escapeSegment(key)}${rel}`, span });
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push([v[i], `${rel}/${i}`]);
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) stack.push([x, `${rel}/${escapeSegment(k)}`]);
    }
  }
  return out;
}

/** What the string values of one model key say, before names are matched against declarations: in order of appearance. */
type Mention =
  | { readonly type: 'template'; readonly use: TemplateUse }
  | { readonly type: 'resource'; readonly name: string; readonly range: Range; readonly pointer: string }
  /** A backticked identifier; `candidate`: it reads as a tool call in prose (`use \`x\``) should it name nothing. */
  | { readonly type: 'ident'; readonly name: string; readonly range: Range; readonly pointer: string; readonly candidate: boolean };

const BOUNDARY_ITEM = /^\/identity\/hard_boundaries\/\d+$/;
const proseKinds = /^\/(?:identity\/hard_boundaries|identity\/may_act_directly|identity\/needs_confirmation|human_in_the_loop\/\d+\/(?:required_action|trigger_condition)|constraints\/\d+\/rule|budgets)/;

/**
 * The mentions in the values of one model key. They depend only on the key's value and its
 * section (`perKey`): an edit re-reads only the section it changed (a section below an inserted
 * line is a new, moved object and is read again).
 */
function mentionsOf(model: ParsedContract, key: string, owner: SectionModel): readonly Mention[] {
  return perKey(model, key, 'mentions', '', () => {
    const value = model.data[key];
    return Array.isArray(value) && owner.kind !== 'preamble' ? itemMentions(model, key, owner, value) : readMentions(model, stringSpans(value, key, owner));
  });
}

/** How many items' mentions were read (not reused): tests count them (docs/performance.md). */
let itemsRead = 0;
export const itemMentionReads = (): number => itemsRead;

/**
 * An item of an array section that is the same object as in the previous version (an unchanged
 * tool: parse/headingItems.ts), at the same index and line, says what it said: its mentions are
 * kept by the item, so an edit in one tool re-reads that tool only.
 */
const itemCache = new WeakMap<object, { readonly key: string; readonly index: number; readonly line: number; readonly mentions: readonly Mention[] }>();
function itemMentions(model: ParsedContract, key: string, owner: SectionModel, items: readonly unknown[]): Mention[] {
  const out: Mention[] = [];
  // Last item first: the order stringSpans walks a whole array in.
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    const line = owner.map.get(`/${i}`)?.value.start.line;
    const keep = item !== null && typeof item === 'object' && line !== undefined;
    const hit = keep ? itemCache.get(item) : undefined;
    if (hit && hit.key === key && hit.index === i && hit.line === line) {
      out.push(...hit.mentions);
      continue;
    }
    itemsRead++;
    const mentions = readMentions(model, stringSpans(item, key, owner, `/${i}`));
    if (keep) itemCache.set(item, { key, index: i, line, mentions });
    out.push(...mentions);
  }
  return out;
}

/** The mentions in some string values, in order. */
function readMentions(model: ParsedContract, spans: readonly { pointer: string; span: PointerSpan }[]): Mention[] {
  const mentions: Mention[] = [];
  for (const { pointer, span } of spans) {
    const raw = textAt(model, span.value);
    if (!raw.includes('`') && !raw.includes('{{')) continue;
    // Every tool a checkable boundary names is a tool reference (docs/contract-format.md, "Checkable boundaries").
    const form = BOUNDARY_ITEM.test(pointer) ? parseBoundary(raw) : undefined;
    const bounded = new Set(form ? boundaryTools(form) : []);
    for (const m of raw.matchAll(TEMPLATE)) {
      const v = TEMPLATE_VAR.exec(m[1]!);
      const range = innerRange(model, span.value, m.index!, m.index! + m[0].length);
      mentions.push({ type: 'template', use: detachedValue({ raw: m[0], ...(v ? { variable: v[1]!, entity: entityOfVariable(v[1]!) } : {}), range, pointer }) });
    }
    for (const c of codeSpans(raw)) {
      const tokens = IDENT.test(c.text) || FILE_LIKE.test(c.text) ? [{ text: c.text, start: c.start }] : [...c.text.matchAll(TOKEN)].map((m) => ({ text: m[0], start: c.start + m.index! }));
      for (const tok of tokens) {
        const range = innerRange(model, span.value, tok.start, tok.start + tok.text.length);
        if (FILE_LIKE.test(tok.text)) mentions.push({ type: 'resource', name: detached(tok.text), range, pointer });
        else if (IDENT.test(tok.text)) {
          const candidate = proseKinds.test(pointer) && tok.start === c.start && tok.text === c.text && (USE_VERB.test(raw.slice(0, c.start - 1)) || bounded.has(tok.text));
          mentions.push({ type: 'ident', name: detached(tok.text), range, pointer, candidate });
        }
      }
    }
  }
  return mentions;
}

const escapeSegment = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

const arr = (v: unknown): any[] => (Array.isArray(v) ? v : []);
const where = (model: ParsedContract, pointer: string): Range | undefined => locate(model, pointer)?.value;

/** The names the contract declares, in order: tools, pools, entities, scenarios, roles, layers, resources. */
function declarationsOf(model: ParsedContract): Declaration[] {
  const d = model.data as Record<string, any>;
  const declarations: Declaration[] = [];
  // Each part reads one model key: kept while that key's value and section are the same objects.
  const declare = (key: string, kind: NameKind, name: (v: any, i: number) => [string, string]) =>
    declarations.push(
      ...perKey(model, key, 'declared', '', () =>
        arr(d[key]).flatMap((v, i) => {
          const [n, pointer] = name(v, i);
          const range = n ? where(model, pointer) : undefined;
          return range ? [{ kind, name: n, range, pointer }] : [];
        }),
      ),
    );
  declare('tools', 'tool', (t, i) => [normaliseName(t?.name), `/tools/${i}/name`]);
  declare('memory_pools', 'pool', (p, i) => [normaliseName(p?.name), `/memory_pools/${i}/name`]);
  declarations.push(
    ...perKey(model, 'trigger', 'declared', '', () =>
      arr(d['trigger']?.required_entities).flatMap((e, i): Declaration[] => {
        const name = normaliseName(typeof e === 'string' ? e : e?.name);
        const pointer = typeof e === 'string' ? `/trigger/required_entities/${i}` : `/trigger/required_entities/${i}/name`;
        const range = name ? where(model, pointer) : undefined;
        return range ? [{ kind: 'entity', name, range, pointer }] : [];
      }),
    ),
  );
  declare('human_in_the_loop', 'scenario', (h, i) => [normaliseName(h?.scenario), `/human_in_the_loop/${i}/scenario`]);
  declarations.push(
    ...perKey(model, 'identity', 'declared', '', () => {
      const roles: Declaration[] = [];
      arr(d['identity']?.authorized_writers).forEach((r, i) => {
        const range = normaliseName(r) ? where(model, `/identity/authorized_writers/${i}`) : undefined;
        if (range) roles.push({ kind: 'role', name: normaliseName(r), range, pointer: `/identity/authorized_writers/${i}` });
      });
      const range = d['identity']?.name && normaliseName(d['identity'].name) ? where(model, '/identity/name') : undefined;
      if (range) roles.push({ kind: 'role', name: normaliseName(d['identity'].name), range, pointer: '/identity/name' });
      return roles;
    }),
  );
  declare('memory_contract', 'layer', (l, i) => [normaliseName(l?.layer), `/memory_contract/${i}/layer`]);
  declare('resources', 'resource', (r, i) => [unquote(r?.path), `/resources/${i}/path`]);
  return declarations;
}

/** The references fields make (a requirement's pool, an approval or timeout's tool, a failure's scenario, a layer's roles), and FAILURE_PROTOCOL conditions that name a HITL scenario. */
function fieldReferences(model: ParsedContract, scenarios: readonly string[]): Reference[] {
  const d = model.data as Record<string, any>;
  const references: Reference[] = [];
  const fields = (key: string, kind: NameKind, name: (v: any, i: number) => [string, string] | undefined, list: (v: any) => unknown = (v) => v) =>
    references.push(
      ...perKey(model, key, 'fields', '', () =>
        arr(list(d[key])).flatMap((v, i): Reference[] => {
          const [n, pointer] = name(v, i) ?? ['', ''];
          const range = n ? where(model, pointer) : undefined;
          return range ? [{ kind, name: n, range, pointer, via: 'field' }] : [];
        }),
      ),
    );
  fields('memory_requirements', 'pool', (r, i) => [normaliseName(r?.pool), `/memory_requirements/${i}/pool`]);
  fields('budgets', 'tool', (t, i) => [normaliseName(t), `/budgets/requires_approval/${i}`], (b) => b?.requires_approval);
  references.push(
    ...perKey(model, 'budgets', 'timeouts', '', () => {
      const out: Reference[] = [];
      const timeouts = d['budgets']?.tool_timeouts;
      if (!timeouts || typeof timeouts !== 'object' || Array.isArray(timeouts)) return out;
      for (const k of Object.keys(timeouts)) {
        const span = locate(model, `/budgets/tool_timeouts/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, true);
        const name = normaliseName(k);
        if (span && name) out.push({ kind: 'tool', name, range: span.key ?? span.value, pointer: `/budgets/tool_timeouts/${k}`, via: 'field' });
      }
      return out;
    }),
  );
  fields('failure_protocol', 'scenario', (f, i) => (f?.scenario ? [normaliseName(f.scenario), `/failure_protocol/${i}/scenario`] : undefined));
  references.push(
    ...perKey(model, 'memory_contract', 'roles', '', () =>
      arr(d['memory_contract']).flatMap((l, i): Reference[] => {
        const span = locate(model, `/memory_contract/${i}/write_by`);
        if (typeof l?.write_by !== 'string' || !span) return [];
        const raw = textAt(model, span.value);
        const offset = raw.indexOf(l.write_by.trim()) >= 0 ? raw.indexOf(l.write_by.trim()) : 0;
        return splitRoles(l.write_by).map((role) => ({ kind: 'role', name: role.name, range: innerRange(model, span.value, offset + role.start, offset + role.end), pointer: `/memory_contract/${i}/write_by`, via: 'field' }));
      }),
    ),
  );

  // A FAILURE_PROTOCOL condition that names a HITL scenario refers to it (docs/contract-format.md).
  references.push(
    ...perKey(model, 'failure_protocol', 'conditions', scenarios.join('\u0000'), () => {
      // Lower-cased once: every entry is searched for every scenario.
      const lower = scenarios.map((sc) => sc.toLowerCase());
      return arr(d['failure_protocol']).flatMap((f, i): Reference[] => {
        if (f?.scenario || typeof f?.condition !== 'string' || scenarios.length === 0) return [];
        const span = locate(model, `/failure_protocol/${i}/condition`);
        if (!span) return [];
        const raw = textAt(model, span.value).toLowerCase();
        return scenarios.flatMap((sc, k): Reference[] => {
          const at = raw.indexOf(lower[k]!);
          return at >= 0 ? [{ kind: 'scenario', name: sc, range: innerRange(model, span.value, at, at + sc.length), pointer: `/failure_protocol/${i}/condition`, via: 'condition' }] : [];
        });
      });
    }),
  );
  return references;
}

const cache = new WeakMap<ParsedContract, ReferenceIndex>();

/**
 * What part `part` of the index read from one model key, kept with the key's section while the key's value and
 * section are the objects they were (an edit elsewhere leaves both: ranges are the same) and
 * `extra` (what else it read) is the same.
 */
const keyParts = new WeakMap<SectionModel, Map<string, { readonly value: unknown; readonly extra: string; readonly result: readonly any[] }>>();
function perKey<T>(model: ParsedContract, key: string, part: string, extra: string, build: () => T[]): readonly T[] {
  const owner = model.owners.get(key);
  if (!owner) return build();
  const value = model.data[key];
  let perOwner = keyParts.get(owner);
  const id = `${key}\u0000${part}`;
  const hit = perOwner?.get(id);
  if (hit && hit.value === value && hit.extra === extra) return hit.result as T[];
  const result = build();
  if (!perOwner) keyParts.set(owner, (perOwner = new Map()));
  perOwner.set(id, { value, extra, result });
  return result;
}

/** Builds (once per model) the reference index of a contract. Pure. */
export function referencesOf(model: ParsedContract): ReferenceIndex {
  const hit = cache.get(model);
  if (hit) return hit;
  const declarations = declarationsOf(model);
  const templates: TemplateUse[] = [];
  const candidates: Reference[] = [];
  const names = new Map<NameKind, Map<string, Declaration>>();
  for (const decl of declarations) {
    let m = names.get(decl.kind);
    if (!m) names.set(decl.kind, (m = new Map()));
    if (!m.has(decl.name)) m.set(decl.name, decl);
  }
  const references = fieldReferences(model, [...(names.get('scenario')?.keys() ?? [])]);

  // Backticked tokens and templates in every string value.
  // A declaration is not a use of itself; a RESOURCES path still is a reference to a file.
  const declaring = new Set(declarations.filter((x) => x.kind !== 'resource').map((x) => x.pointer));
  // The kind a backticked name refers to: the first of these that declares it (one lookup per mention).
  const kindOf = new Map<string, NameKind>();
  for (const k of ['layer', 'role', 'entity', 'pool', 'tool'] as const) for (const n of names.get(k)?.keys() ?? []) kindOf.set(n, k);
  for (const [key, owner] of model.owners) {
    for (const m of mentionsOf(model, key, owner)) {
      const pointer = m.type === 'template' ? m.use.pointer : m.pointer;
      if (declaring.has(pointer)) continue;
      if (m.type === 'template') {
        templates.push(m.use);
        if (m.use.entity !== undefined) references.push({ kind: 'entity', name: m.use.entity, range: m.use.range, pointer, via: 'template' });
      } else if (m.type === 'resource') references.push({ kind: 'resource', name: m.name, range: m.range, pointer, via: 'code' });
      else {
        const kind = kindOf.get(m.name);
        if (kind) references.push({ kind, name: m.name, range: m.range, pointer, via: 'code' });
        else if (m.candidate) candidates.push({ kind: 'tool', name: m.name, range: m.range, pointer, via: 'code' });
      }
    }
  }
  const index: ReferenceIndex = { declarations, references, templates, candidates, names };
  cache.set(model, index);
  return index;
}

import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { isAlias, isMap, isPair, isScalar, isSeq, parseDocument, visit, type Document, type Node } from 'yaml';
import type { PointerSpan } from '../model/types.ts';
import { Lru } from '../util/lru.ts';
import { tooDeepAt } from '../util/jsonScan.ts';
import { parseWork } from './work.ts';

/** The deepest nesting a block's value is read to (deeper values are left out; a JSON block deeper than it is reported). */
const MAX_DEPTH = 200;

/** Offsets [start, end) inside the parsed YAML text. */
export type OffsetSpan = readonly [number, number];

/** A YAML or JSON block as plain data, with the offset span of every key and value. */
export interface ParsedBlock {
  readonly value: unknown;
  /** JSON Pointer → offsets of the key (if any) and value inside the block text. */
  readonly spans: ReadonlyMap<string, { key?: OffsetSpan; value: OffsetSpan }>;
  /** Problems with offsets inside the block text. */
  readonly problems: readonly { code: string; span: OffsetSpan; args?: Record<string, string | number>; variant?: string }[];
}

/** Most YAML nodes one block converts to data, aliases expanded (an alias bomb stops here). */
export const MAX_NODES = 200_000;

/** Escapes one JSON Pointer segment (RFC 6901). */
export function pointerSegment(s: string | number): string {
  return String(s).replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Parses YAML (or JSON, a subset) with the `yaml` package and converts it to plain data while
 * recording the span of every node, so that schema errors land on the exact key or value.
 * Never throws: syntax errors, duplicate keys, unresolved aliases and unquoted `{{templates}}`
 * (which YAML reads as nested flow mappings) are returned as problems. Aliases are expanded
 * with a node budget, so an alias bomb cannot exhaust memory.
 */
export function parseYamlBlock(text: string, lang: 'yaml' | 'json' = 'yaml'): ParsedBlock {
  // A section re-built after an edit re-reads its unchanged blocks: same text, same result.
  const key = `${lang}\u0000${text}`;
  let block = recent.get(key);
  if (!block) {
    block = parseUncached(text, lang);
    deepFreeze(block.value);
    recent.set(key, block);
  }
  return block;
}

/** Parsed blocks by language and text; values are frozen, as models share them. */
const recent = new Lru<string, ParsedBlock>(512);

/** Freezes a value and everything in it (iteratively: a block may nest thousands deep). */
function deepFreeze(root: unknown): void {
  const stack = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (!v || typeof v !== 'object' || Object.isFrozen(v)) continue;
    Object.freeze(v);
    for (const x of Object.values(v)) stack.push(x);
  }
}

type Problem = ParsedBlock['problems'][number];

function parseUncached(text: string, lang: 'yaml' | 'json'): ParsedBlock {
  text = text.replace(/\r(?!\n)/g, '\n'); // the yaml package splits lines at \n only; lone CRs (LSP line ends) become \n, offsets unchanged
  const spans = new Map<string, { key?: OffsetSpan; value: OffsetSpan }>();
  const problems: Problem[] = [];
  const syntaxCode = lang === 'json' ? 'json-syntax' : 'yaml-syntax';
  let doc: Document.Parsed;
  parseWork.yamlChars += text.length;
  // The JSON parser recurses per bracket: a JSON block nested past the depth values are read to is not parsed.
  const deep = lang === 'json' ? tooDeepAt(text, MAX_DEPTH) : undefined;
  if (deep !== undefined) return { value: undefined, spans, problems: [{ code: syntaxCode, span: [deep, deep + 1], args: { limit: MAX_DEPTH }, variant: 'tooDeep' }] };
  try {
    doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false, strict: true });
  } catch (e) {
    problems.push({ code: syntaxCode, span: [0, Math.min(text.length, 1)], args: { detail: String(e) } });
    return { value: undefined, spans, problems };
  }
  const yamlErrors = documentErrors(doc, text, syntaxCode);
  // A JSON block's syntax is JSON's: its first error, in JSON's terms, rather than the YAML
  // reading's ("Unexpected seq-item-ind token in YAML stream"). Duplicate keys stay the YAML reading's.
  const json = lang === 'json' ? jsonError(text, syntaxCode) : undefined;
  problems.push(...(json ? [...yamlErrors.filter((p) => p.code !== syntaxCode), json] : yamlErrors));
  const resolveAlias = aliasResolver(doc);
  let budget = MAX_NODES;
  const convert = (node: unknown, pointer: string, depth: number): unknown => {
    if (--budget < 0 || depth > MAX_DEPTH) return undefined;
    parseWork.yamlNodes++;
    if (isAlias(node)) {
      const target = resolveAlias(node);
      if (!target) {
        // In a json block an alias is not JSON at all, which the JSON check above has reported.
        if (lang === 'yaml') problems.push({ code: syntaxCode, span: span(node), args: { alias: node.source }, variant: 'unresolvedAlias' });
        return undefined;
      }
      return convert(target, pointer, depth + 1);
    }
    if (isScalar(node)) return node.value;
    if (isMap(node)) {
      const only = node.items.length === 1 ? node.items[0] : undefined;
      if (node.flow && only && (isMap(only.key) || isSeq(only.key)) && (only.value === null || isScalar(only.value) && only.value.value === null)) {
        // `value: {{name}}`: YAML reads an unquoted template as a flow mapping used as a key.
        const raw = text.slice(...span(node));
        problems.push({ code: 'template-unquoted', span: span(node), args: { text: raw } });
        return raw;
      }
      const out: Record<string, unknown> = {};
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const k = pair.key;
        if (isMap(k) || isSeq(k)) continue;
        const key = isScalar(k) ? String(k.value) : String(k ?? '');
        const p = `${pointer}/${pointerSegment(key)}`;
        const valueNode = pair.value as Node | null;
        const keySpan = k && typeof k === 'object' ? span(k as Node) : undefined;
        const vs = valueNode ? span(valueNode) : keySpan ?? ([0, 0] as const);
        spans.set(p, keySpan ? { key: keySpan, value: vs } : { value: vs });
        out[key] = valueNode ? convert(valueNode, p, depth + 1) : null;
      }
      return out;
    }
    if (isSeq(node)) {
      return node.items.map((item, i) => {
        const p = `${pointer}/${i}`;
        if (item && typeof item === 'object') spans.set(p, { value: span(item as Node) });
        return convert(item, p, depth + 1);
      });
    }
    if (isPair(node)) return undefined;
    return node ?? null;
  };
  const root = doc.contents;
  if (root) spans.set('', { value: span(root as Node) });
  const value = root ? convert(root, '', 0) : null;
  if (budget < 0) problems.push({ code: syntaxCode, span: [0, Math.min(1, text.length)], args: { limit: MAX_NODES }, variant: 'tooManyNodes' });
  return withOneSyntaxProblem({ value, spans, problems }, syntaxCode);
}

/** The yaml package's errors as problems: a duplicate key on the key's whole text, else a syntax error. */
function documentErrors(doc: Document.Parsed, text: string, syntaxCode: string): Problem[] {
  return doc.errors.map((err): Problem => {
    if (err.code === 'DUPLICATE_KEY') {
      // yaml points at the repeated key; report the key's whole text.
      const key = /^[^:\n]*/.exec(text.slice(err.pos[0]))![0].trim();
      return { code: 'duplicate-key', span: [err.pos[0], err.pos[0] + Math.max(1, key.length)], args: { key: key.replace(/^["']|["']$/g, '') } };
    }
    return { code: syntaxCode, span: [err.pos[0], Math.max(err.pos[1], err.pos[0] + 1)], args: { detail: firstLine(err.message) } };
  });
}

/** YAML accepts what JSON does not (trailing commas, comments, single quotes): JSON's own first error. */
function jsonError(text: string, syntaxCode: string): Problem | undefined {
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return undefined;
  // The variant is the error's name (`CommaExpected` → `commaExpected`); one json-syntax does not word
  // (rules/document.ts) falls back to the default message with the name as its detail.
  const name = printParseErrorCode(first.error);
  return { code: syntaxCode, span: [first.offset, Math.min(text.length, first.offset + Math.max(1, first.length))], args: { detail: name }, variant: name.charAt(0).toLowerCase() + name.slice(1) };
}

/**
 * An alias's target: the last anchor of its name before it, from the anchors listed once in
 * document order (the yaml package walks the whole document per alias).
 */
function aliasResolver(doc: Document.Parsed): (alias: { source: string; range?: [number, number, number] | null }) => Node | undefined {
  const anchors: { name: string; offset: number; node: Node }[] = [];
  visit(doc, (_key, node) => {
    const n = node as Node & { anchor?: string };
    if (n && typeof n === 'object' && n.anchor && n.range) anchors.push({ name: n.anchor, offset: n.range[0], node: n });
  });
  return (alias) => {
    const at = alias.range?.[0] ?? Infinity;
    let found: Node | undefined;
    parseWork.yamlAliases++;
    parseWork.yamlAnchorChecks += anchors.length;
    for (const a of anchors) if (a.name === alias.source && a.offset < at) found = a.node;
    return found;
  };
}

/**
 * A block that does not parse contributes nothing (docs/contract-format.md §4.3), and one mistake
 * gives one message: the first syntax error not already explained by an unquoted template.
 */
function withOneSyntaxProblem(block: { value: unknown; spans: Map<string, { key?: OffsetSpan; value: OffsetSpan }>; problems: Problem[] }, syntaxCode: string): ParsedBlock {
  const { problems } = block;
  const syntax = problems.filter((p) => p.code === syntaxCode);
  if (syntax.length === 0) return block;
  const templates = problems.filter((p) => p.code === 'template-unquoted');
  const first = syntax.find((p) => !templates.some((t) => t.span[0] <= p.span[0] && p.span[0] < t.span[1]));
  // A block that does not parse is no value; the duplicate keys of the parser's recovery (a broken
  // line joins two items) would be noise beside its error, and a true one is reported once it parses.
  return { value: undefined, spans: new Map(), problems: problems.filter((p) => (p.code !== syntaxCode || p === first) && p.code !== 'duplicate-key') };
}

function span(node: Node): OffsetSpan {
  const r = node.range;
  if (!r) return [0, 0];
  return [r[0], Math.max(r[0], r[1])];
}

function firstLine(s: string): string {
  return s.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

export type { PointerSpan };

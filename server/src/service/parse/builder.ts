import type { Code, Heading, ListItem, Nodes, Paragraph } from 'mdast';
import type { Range } from '../types.ts';
import { LineIndex } from '../text/lineIndex.ts';
import type { ParsedBlock } from './yamlBlock.ts';
import { foreignUnit, suggestField } from './suggest.ts';
import { fieldForLabel, type FieldSpec } from '../schema/sections.ts';
import type { Finding, PointerSpan, ProseInfo } from '../model/types.ts';

// What every input form (labels, tables, YAML blocks, front matter) builds with: positions in the
// document, the section's source map and findings, and the small readers of mdast nodes.

/** Converts offsets in a slice's text to document positions. */
export class SliceLocator {
  readonly index: LineIndex;
  constructor(
    readonly text: string,
    readonly startLine: number,
    readonly bom: boolean,
  ) {
    this.index = new LineIndex(text);
  }
  range(start: number, end: number): Range {
    return { start: this.pos(start), end: this.pos(end) };
  }
  pos(offset: number): { line: number; character: number } {
    const p = this.index.positionAt(offset, this.startLine);
    return this.bom && p.line === 0 ? { line: 0, character: p.character + 1 } : p;
  }
  nodeRange(node: { position?: { start: { offset?: number }; end: { offset?: number } } | undefined }): Range {
    return this.range(node.position?.start.offset ?? 0, node.position?.end.offset ?? 0);
  }
}

export type Mutable = Record<string, unknown>;

/** An unknown label, with the field it most likely means when there is one (docs/rules.md, unknown-field). */
export function unknownField(range: Range, label: string, section: string, fields: readonly FieldSpec[] | undefined): Finding {
  const suggestion = fields ? suggestField(label, fields) : undefined;
  const unit = suggestion ? foreignUnit(label) : undefined;
  if (unit) return { code: 'unknown-field', range, args: { label, section, suggestion: suggestion!, unit }, variant: 'suggestUnit' };
  return { code: 'unknown-field', range, args: { label, section, ...(suggestion ? { suggestion } : {}) }, ...(suggestion ? { variant: 'suggest' } : {}) };
}

/** A problem of a YAML/JSON block as a finding at its place in the document (variant and arguments kept). */
export function problemFinding(pr: ParsedBlock['problems'][number], mapper: (span: readonly [number, number]) => Range): Finding {
  return { code: pr.code, range: mapper(pr.span), ...(pr.args ? { args: pr.args } : {}), ...(pr.variant ? { variant: pr.variant } : {}) };
}

/** Collects a section's value and source map while walking its blocks. */
export class Builder {
  readonly map = new Map<string, PointerSpan>();
  readonly findings: Finding[] = [];
  readonly prose: ProseInfo[] = [];
  constructor(readonly loc: SliceLocator) {}

  raw(node: Nodes): string {
    return this.loc.text.slice(node.position?.start.offset ?? 0, node.position?.end.offset ?? 0);
  }

  /** Maps a parsed YAML/JSON block's spans into document ranges under `prefix`. */
  addBlock(block: ParsedBlock, code: Code, prefix: string): void {
    const mapper = fenceMapper(this.loc, code);
    if (!mapper) return;
    for (const [p, s] of block.spans) {
      const value = mapper(s.value);
      this.map.set(prefix + p, s.key ? { key: mapper(s.key), value } : { value });
    }
    for (const pr of block.problems) {
      this.findings.push(problemFinding(pr, mapper));
    }
  }
}

/**
 * Builds a function that maps offsets inside a fenced block's content to document ranges.
 * remark strips the indentation of fences in list items and block quotes from `code.value`, so
 * each content line is matched to its source line and shifted by what was removed.
 */
export function fenceMapper(loc: SliceLocator, code: Code): ((span: readonly [number, number]) => Range) | undefined {
  const start = code.position?.start.offset;
  if (start === undefined) return undefined;
  const firstLine = loc.index.positionAt(start).line + 1;
  const valueIndex = new LineIndex(code.value);
  const removed: number[] = [];
  for (let i = 0; i < valueIndex.lineCount; i++) {
    const src = loc.index.lineText(firstLine + i);
    const val = valueIndex.lineText(i);
    removed.push(src.endsWith(val) ? src.length - val.length : 0);
  }
  const at = (offset: number) => {
    const p = valueIndex.positionAt(offset);
    const line = firstLine + p.line;
    const character = p.character + (removed[p.line] ?? 0);
    return loc.pos(loc.index.lineStart(line) + character);
  };
  return (span) => ({ start: at(span[0]), end: at(span[1]) });
}

/** The offset where the line of `node`'s start begins: the same text indented otherwise is placed otherwise. */
export const lineStartOffset = (node: Nodes): number => (node.position?.start.offset ?? 0) - ((node.position?.start.column ?? 1) - 1);

/** Plain text of a node (inline code keeps its content, emphasis markers dropped). */
export function plainText(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string' && node.type !== 'html') return node.value;
  if ('children' in node) return (node.children as Nodes[]).map(plainText).join('');
  return '';
}

/** Label and value of a `**Label**: value` paragraph, with offsets into the slice text. */
export interface Labelled {
  label: string;
  labelRange: Range;
  value: string;
  valueRange: Range;
}

export function labelOf(b: Builder, para: Paragraph, fields: readonly FieldSpec[] | undefined): Labelled | undefined {
  const first = para.children[0];
  const text = b.loc.text;
  const paraEnd = para.position?.end.offset ?? 0;
  if (first && first.type === 'strong') {
    let label = plainText(first).trim();
    let after = first.position?.end.offset ?? 0;
    let colon = /[:：]$/.test(label);
    if (colon) label = label.replace(/\s*[:：]$/, '');
    const m = /^[ \t]*[:：]/.exec(text.slice(after, paraEnd));
    if (!colon && m) {
      colon = true;
      after += m[0].length;
    }
    if (!colon) return undefined;
    while (after < paraEnd && /[ \t]/.test(text[after]!)) after++;
    return {
      label,
      labelRange: b.loc.nodeRange(first),
      value: text.slice(after, paraEnd).trim(),
      valueRange: b.loc.range(after, paraEnd),
    };
  }
  // `- key: value` without bold counts only when `key` is a known field.
  const start = para.position?.start.offset ?? 0;
  const line = text.slice(start, paraEnd);
  const m = /^([A-Za-z_][\w \-]*?|[\p{Script=Han}\w ]+?)[ \t]*[:：][ \t]*/u.exec(line);
  if (m && fields && fieldForLabel(fields, m[1]!)) {
    return {
      label: m[1]!,
      labelRange: b.loc.range(start, start + m[1]!.length),
      value: line.slice(m[0].length).trim(),
      valueRange: b.loc.range(start + m[0].length, paraEnd),
    };
  }
  return undefined;
}

/** The items of every list nested directly in a list item (an HTML comment between them splits one list in two). */
export function nestedItems(item: ListItem): ListItem[] {
  return item.children.flatMap((c) => (c.type === 'list' ? c.children : []));
}

/** The nested items of a list item at every depth, in document order (list fields flatten them). */
export function allNestedItems(item: ListItem): ListItem[] {
  return nestedItems(item).flatMap((n) => [n, ...allNestedItems(n)]);
}

export function isYamlish(code: Code): 'yaml' | 'json' | undefined {
  const lang = (code.lang ?? '').toLowerCase();
  if (lang === 'yaml' || lang === 'yml') return 'yaml';
  if (lang === 'json' || lang === 'jsonc') return 'json';
  return undefined;
}

export function headingTextRange(b: Builder, node: Heading): Range {
  const first = node.children[0];
  const last = node.children[node.children.length - 1];
  if (!first || !last) return b.loc.nodeRange(node);
  return b.loc.range(first.position?.start.offset ?? 0, last.position?.end.offset ?? 0);
}

const PROSE_MIN = 280;

export function noteProse(b: Builder, para: Paragraph): void {
  const len = plainText(para).length;
  if (len >= PROSE_MIN) b.prose.push({ range: b.loc.nodeRange(para), length: len });
}


import type { Position, Range } from '../types.ts';
import type { ParsedContract } from '../parse/parseContract.ts';
import type { SectionModel } from '../model/types.ts';
import type { FieldSpec, SectionSpec } from '../schema/sections.ts';
import { lineIndexOf, textAt } from '../model/text.ts';

// What the rules' fixes write with (validate/rule.ts, `Rule.fix`): places in the document and the
// skeletons of sections, in the canonical English labels (docs/contract-format.md).

export const pos = (line: number, character: number): Position => ({ line, character });
export const at = (p: Position): Range => ({ start: p, end: p });

/** The end of the last non-blank line of a section (or of the document). */
export function endOfContent(model: ParsedContract, s: Pick<SectionModel, 'startLine' | 'endLine'> | undefined): Position {
  const idx = lineIndexOf(model);
  let line = (s ? s.endLine : idx.lineCount) - 1;
  const first = s ? s.startLine : 0;
  while (line > first && !idx.lineText(line).trim()) line--;
  return pos(line, idx.lineText(line).length);
}

/** A field's label as bullets and table headers write it (`Requires Approval`). */
export function fieldLabel(f: FieldSpec): string {
  const aliases = (f.schema['x-aliases'] as string[] | undefined) ?? [];
  return aliases.find((a) => /^[A-Za-z]/.test(a)) ?? f.key;
}

/** A skeleton of a section, written the way the format doc recommends for it. */
export function sectionSkeleton(spec: SectionSpec, context: { version?: string; today: string }): string {
  const req = new Set(((spec.shape === 'array' ? (spec.schema['items'] as Record<string, unknown> | undefined)?.['required'] : spec.schema['required']) as string[] | undefined) ?? []);
  const fields = spec.fields.filter((f) => req.has(f.key) || req.size === 0).slice(0, 6);
  switch (spec.key) {
    case 'failure_protocol':
      return '- **If <condition>**: → <action> → Alert `#channel` with severity `P2` → Return error_code `E001`';
    case 'versioning':
      return `| Version | Date | Changed By | Key Changes |\n|---|---|---|---|\n| ${context.version ?? '1.0.0'} | ${context.today} | @you | <what changed> |`;
    case 'tools':
      return '### `get_something`\n\n- **Description**: <what it returns>\n- **When to use**: <questions it answers>\n- **When not to use**: <what it is not for>\n- **Side Effects**: none\n\n```yaml\ninput_schema:\n  type: object\n  properties: {}\noutput_schema:\n  type: object\n  properties: {}\n```';
    case 'output_schema':
      return '```yaml\ntype: object\nproperties: {}\n```';
    case 'budgets':
      return '- **Max Steps**: 20\n- **Token Budget**: 10000\n- **Timeout**: 5m\n- **On Timeout**: <fallback>';
    default:
      break;
  }
  if (spec.shape === 'array' && spec.bullets === 'string') return '- <item>';
  if (spec.shape === 'array') {
    const cols = fields.length ? fields : spec.fields.slice(0, 4);
    // Header and delimiter only: an empty row would be an item with empty values.
    return `| ${cols.map(fieldLabel).join(' | ')} |\n|${cols.map(() => '---').join('|')}|`;
  }
  const bullets = (fields.length ? fields : spec.fields.slice(0, 4)).map((f) => `- **${fieldLabel(f)}**: `);
  return bullets.join('\n');
}

/** An edit that appends a section (title and body) after the document's last line of content. */
export function appendSection(model: ParsedContract, spec: SectionSpec, body: string): { range: Range; newText: string } {
  const end = endOfContent(model, undefined);
  const lead = end.character === 0 && end.line === 0 ? '' : '\n\n';
  return { range: at(end), newText: `${lead}## ${spec.title}\n\n${body}\n` };
}

/** An edit that adds `line` after line `after`, keeping the document's line endings. */
export function lineAfter(model: ParsedContract, after: number, line: string): { range: Range; newText: string } {
  const idx = lineIndexOf(model);
  return { range: at(pos(after, idx.lineText(after).length)), newText: `\n${line}` };
}

/**
 * The first `<prefix>001`, `<prefix>002`, … that no FAILURE_PROTOCOL entry uses yet; with `bare`,
 * `<prefix>` itself when free, then `<prefix>_2`, `<prefix>_3`, ….
 */
export function nextCode(entries: unknown, prefix: string, bare = false): string {
  const used = new Set((Array.isArray(entries) ? entries : []).map((f) => String((f as Record<string, unknown> | null)?.['code'] ?? '')));
  const name = (n: number) => (bare ? (n === 1 ? prefix : `${prefix}_${n}`) : `${prefix}${String(n).padStart(3, '0')}`);
  let n = 1;
  while (used.has(name(n))) n++;
  return name(n);
}

/** The line of a bullet (`- **Label**: value`) or a YAML key (`key: value`, `- key: value`) and how a sibling starts. */
export function siblingLine(model: ParsedContract, line: number): { kind: 'bullet' | 'yaml'; indent: string } | undefined {
  const text = lineIndexOf(model).lineText(line);
  const bullet = /^(\s*)[-*+]\s+\*\*[^*]+\*\*\s*[:：]/.exec(text);
  if (bullet) return { kind: 'bullet', indent: bullet[1]! };
  const yaml = /^(\s*)(-\s+)?[A-Za-z_][\w -]*:(\s|$)/.exec(text);
  return yaml ? { kind: 'yaml', indent: yaml[1]! + ' '.repeat(yaml[2]?.length ?? 0) } : undefined;
}

/**
 * An edit that adds `item` to the list a value holds: `a, b` → `a, b, item`, `[a]` → `[a, item]`,
 * a YAML block list gets a `- item` line. Undefined for any other shape.
 */
export function appendToList(model: ParsedContract, value: Range, item: string): { range: Range; newText: string } | undefined {
  const text = textAt(model, value);
  if (value.start.line === value.end.line) {
    const flow = /\[([^\]]*)\]\s*$/.exec(text);
    if (flow) {
      const close = { line: value.end.line, character: value.start.character + flow.index + flow[0].lastIndexOf(']') };
      return { range: at(close), newText: flow[1]!.trim() ? `, ${quotedLike(flow[1]!, item)}` : JSON.stringify(item) };
    }
    const end = { line: value.end.line, character: value.start.character + text.trimEnd().length };
    return { range: at(end), newText: text.trim() ? `, ${item}` : item };
  }
  // A block list: a new item at the indentation of its items, after its last line (the last item
  // may span lines: `- name: zip_code` then its `pattern:`).
  const lines = lineIndexOf(model);
  let indent: string | undefined;
  for (let l = value.start.line; l <= value.end.line; l++) {
    const m = /^(\s*)-\s/.exec(lines.lineText(l));
    if (m && (indent === undefined || m[1]!.length < indent.length)) indent = m[1]!;
  }
  return indent === undefined ? undefined : lineAfter(model, value.end.line, `${indent}- ${item}`);
}

/**
 * `item` quoted as the first item of a flow list is: `"…"` (so that a JSON block stays JSON),
 * `'…'`, or bare.
 */
function quotedLike(items: string, item: string): string {
  const quote = /^\s*(["'])/.exec(items)?.[1];
  if (quote === '"') return JSON.stringify(item);
  return quote === "'" ? `'${item.replace(/'/g, "''")}'` : item;
}

/** The cells of one table line: text without padding and range, split on unescaped pipes. */
function tableCells(model: ParsedContract, line: number): { text: string; range: Range }[] {
  const text = lineIndexOf(model).lineText(line);
  // Cell boundaries: the pipes, plus the line's ends where a row has no outer pipe.
  const pipes = [...text.matchAll(/(?<!\\)\|/g)].map((m) => m.index!);
  const first = text.search(/\S/);
  const last = text.trimEnd().length - 1;
  const edges = [...(pipes[0] === first ? [] : [first - 1]), ...pipes, ...(pipes.at(-1) === last ? [] : [last + 1])];
  const cells: { text: string; range: Range }[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const raw = text.slice(edges[i]! + 1, edges[i + 1]);
    const start = edges[i]! + 1 + (raw.length - raw.trimStart().length);
    cells.push({ text: raw.trim(), range: { start: pos(line, start), end: pos(line, start + raw.trim().length) } });
  }
  return cells;
}

/**
 * Edits that put `value` in table row `line` under the column a header cell `matches`: that cell
 * replaced when the column exists, else a column `label` added at the end, with `other` in the
 * other rows. Undefined when `line` is not a body row of one of the model's tables.
 */
export function setTableCell(model: ParsedContract, line: number, matches: (header: string) => boolean, label: string, value: string, other: string): { edits: { range: Range; newText: string }[]; added: boolean } | undefined {
  const table = model.sections.flatMap((s) => (s.kind === 'section' ? s.tables : [])).find((t) => t.start.line + 2 <= line && line <= t.end.line);
  if (!table) return undefined;
  const col = tableCells(model, table.start.line).findIndex((c) => matches(c.text));
  if (col >= 0) {
    const cell = tableCells(model, line)[col];
    return cell ? { edits: [{ range: cell.range, newText: value }], added: false } : undefined;
  }
  const idx = lineIndexOf(model);
  const edits: { range: Range; newText: string }[] = [];
  for (let l = table.start.line; l <= table.end.line; l++) {
    const text = idx.lineText(l).trimEnd();
    const cell = l === table.start.line ? label : l === table.start.line + 1 ? '---' : l === line ? value : other;
    const open = text.endsWith('|');
    edits.push({ range: at(pos(l, text.length)), newText: l === table.start.line + 1 ? (open ? `${cell}|` : `|${cell}`) : open ? ` ${cell} |` : ` | ${cell}` });
  }
  return { edits, added: true };
}

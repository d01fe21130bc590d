/**
 * Section and tool skeletons (docs/vscode.md, "Getting started"): what a "missing section" quick
 * fix appends, and the snippets completion offers on an empty line of a contract. Snippets come
 * from the server, so they appear in contract files only, never in other Markdown.
 */
import type { Range } from '../types.ts';
import type { CompletionEntry } from './types.ts';
import { SECTIONS, type FieldSpec, type SectionSpec } from '../schema/sections.ts';
import { annotation } from '../schema/schemaAt.ts';

/** The label a field is written with in Markdown: its first alias, else its key. */
export function labelOf(f: FieldSpec): string {
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
    return `| ${cols.map(labelOf).join(' | ')} |\n|${cols.map(() => '---').join('|')}|\n| ${cols.map(() => ' ').join(' | ')} |`;
  }
  const bullets = (fields.length ? fields : spec.fields.slice(0, 4)).map((f) => `- **${labelOf(f)}**: `);
  return bullets.join('\n');
}

/** Text as a snippet body: `$`, `}` and backslashes are literal. */
const literal = (text: string) => text.replace(/[$}\\]/g, (c) => `\\${c}`);

/** One snippet per section: its title and skeleton; the sections the contract lacks sort first. */
export function sectionSnippets(present: ReadonlySet<string>, range: Range, lang: string, today: string): CompletionEntry[] {
  return SECTIONS.map((s, i) => ({
    label: `## ${s.title}`,
    kind: 'snippet',
    detail: annotation(s.schema, 'title', lang) ?? s.title,
    insertText: `## ${s.title}\n\n${literal(sectionSkeleton(s, { today }))}\n$0`,
    snippet: true,
    range,
    sortText: `1${present.has(s.key) ? 1 : 0}${String(i).padStart(3, '0')}`,
    filterText: `## ${s.title}`,
  }));
}

/** A TOOLS entry: an H3 with the tool's name (the first tab stop), its fields and its schemas. */
export function toolSnippet(range: Range, lang: string): CompletionEntry {
  const tools = SECTIONS.find((s) => s.key === 'tools')!;
  const body = literal(sectionSkeleton(tools, { today: '' })).replace('get_something', '${1:get_something}');
  return { label: '### tool', kind: 'snippet', detail: annotation(tools.schema, 'title', lang) ?? tools.title, insertText: `${body}\n$0`, snippet: true, range, sortText: '0000', filterText: '### tool' };
}

/**
 * Section and tool skeletons (docs/vscode.md, "Getting started"): what a "missing section" quick
 * fix appends, and the snippets completion offers on an empty line of a contract. Snippets come
 * from the server, so they appear in contract files only, never in other Markdown.
 */
import type { Range } from '../types.ts';
import type { CompletionEntry } from './types.ts';
import { SECTIONS, fieldForLabel, sectionByKey, type SectionSpec } from '../schema/sections.ts';
import { DEFAULT_CONFIG } from '../validate/facts.ts';
import { annotation } from '../schema/schemaAt.ts';

// One skeleton for the "missing section" fix and the snippets (validate/fixText.ts, beside the rules' fixes).
export { fieldLabel as labelOf, sectionSkeleton } from '../validate/fixText.ts';
import { sectionSkeleton } from '../validate/fixText.ts';

/** Text as a snippet body: `$`, `}` and backslashes are literal. */
const literal = (text: string) => text.replace(/[$}\\]/g, (c) => `\\${c}`);

/** A choice between values: `,`, `|` and the literal characters escaped. */
const choice = (stop: number, values: readonly string[]) => `\${${stop}|${values.map((v) => literal(v).replace(/[,|]/g, (c) => `\\${c}`)).join(',')}|}`;

/** The tab stop of an empty `**Label**: ` value: a choice for an enum (and for override reasons), a ❌ for a hard boundary, else empty. */
function emptyValue(spec: SectionSpec, label: string, stop: number): string {
  const f = fieldForLabel(spec.fields, label);
  const schema = (f?.schema ?? {}) as Record<string, unknown>;
  const items = (schema['items'] ?? {}) as Record<string, unknown>;
  const values = (schema['enum'] ?? items['enum']) as unknown[] | undefined;
  if (values) return choice(stop, values.map(String));
  if (f?.key === 'override_reasons') return `\`${choice(stop, DEFAULT_CONFIG.overrideReasons)}\``;
  if (String(items['pattern'] ?? '').startsWith('^\\s*(❌|✅)')) return `❌ \${${stop}}`;
  return `\${${stop}}`;
}

/**
 * A section's skeleton as a snippet a user fills with Tab, so that what lands is clean once
 * filled: the tool's name, each `<placeholder>` (selected, without its angle brackets, which
 * Markdown reads as an HTML tag and so as an empty value) and each empty `**Label**: ` value are
 * tab stops, in order; `$0` after the skeleton and a blank line.
 */
export function snippetBody(spec: SectionSpec, skeleton: string): string {
  let stop = 0;
  let out = '';
  let last = 0;
  for (const m of skeleton.matchAll(/^### `([a-z0-9_]+)`|<([^<>\n]+)>|\*\*([^*\n]+)\*\*: $/gm)) {
    out += literal(skeleton.slice(last, m.index));
    stop++;
    if (m[1]) out += `### \`\${${stop}:${literal(m[1])}}\``;
    else if (m[2]) out += `\${${stop}:${literal(m[2])}}`;
    else out += `**${literal(m[3]!)}**: ${emptyValue(spec, m[3]!, stop)}`;
    last = m.index + m[0].length;
  }
  // A blank line before what comes next (the next section's heading).
  return `${out}${literal(skeleton.slice(last))}\n\n$0`;
}

/** One snippet per section: its title and skeleton; the sections the contract lacks sort first. */
export function sectionSnippets(present: ReadonlySet<string>, range: Range, lang: string, today: string): CompletionEntry[] {
  return SECTIONS.map((s, i) => ({
    label: `## ${s.title}`,
    kind: 'snippet',
    detail: annotation(s.schema, 'title', lang) ?? s.title,
    insertText: `## ${s.title}\n\n${snippetBody(s, sectionSkeleton(s, { today }))}`,
    snippet: true,
    range,
    sortText: `1${present.has(s.key) ? 1 : 0}${String(i).padStart(3, '0')}`,
    // The name a user types on the empty line (VS Code matches `AGENT_IDENTITY` against no `## …`).
    filterText: s.title,
  }));
}

/** A TOOLS entry: an H3 with the tool's name (the first tab stop; one no tool in `declared` has), its fields and its schemas. */
export function toolSnippet(range: Range, lang: string, declared: ReadonlySet<string> = new Set()): CompletionEntry {
  const tools = sectionByKey('tools')!;
  let name = 'get_something';
  for (let n = 2; declared.has(name); n++) name = `get_something_${n}`;
  const body = snippetBody(tools, sectionSkeleton(tools, { today: '' }).replace('get_something', name));
  return { label: '### tool', kind: 'snippet', detail: annotation(tools.schema, 'title', lang) ?? tools.title, insertText: body, snippet: true, range, sortText: '0000', filterText: 'tool' };
}

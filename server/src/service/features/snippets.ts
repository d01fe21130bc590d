/**
 * Section and tool skeletons (docs/vscode.md, "Getting started"): what a "missing section" quick
 * fix appends, and the snippets completion offers on an empty line of a contract. Snippets come
 * from the server, so they appear in contract files only, never in other Markdown.
 */
import type { Range } from '../types.ts';
import type { CompletionEntry } from './types.ts';
import { SECTIONS, sectionByKey } from '../schema/sections.ts';
import { annotation } from '../schema/schemaAt.ts';

// One skeleton for the "missing section" fix and the snippets (validate/fixText.ts, beside the rules' fixes).
export { fieldLabel as labelOf, sectionSkeleton } from '../validate/fixText.ts';
import { sectionSkeleton } from '../validate/fixText.ts';

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
  const tools = sectionByKey('tools')!;
  const body = literal(sectionSkeleton(tools, { today: '' })).replace('get_something', '${1:get_something}');
  return { label: '### tool', kind: 'snippet', detail: annotation(tools.schema, 'title', lang) ?? tools.title, insertText: `${body}\n$0`, snippet: true, range, sortText: '0000', filterText: '### tool' };
}

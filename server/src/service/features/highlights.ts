/**
 * Contract highlighting as semantic tokens (docs/vscode.md, "Colours"): recognised section titles,
 * ✅/❌ boundary markers, `agents-md-*` directive comments and `{{template}}` variables. Only
 * contracts and partial contracts get any: a README or a free-form AGENTS.md keeps Markdown's own
 * colours (a TextMate injection grammar would restyle every Markdown file).
 */
import type { ParsedContract } from '../parse/parseContract.ts';
import { lineIndexOf } from '../model/text.ts';

/** Token types, in the order of the legend the server announces. */
export const HIGHLIGHT_TYPES = ['contractSection', 'boundary', 'directive', 'templateVariable'] as const;
export type HighlightType = (typeof HIGHLIGHT_TYPES)[number];

/** One token on one line (0-based line, UTF-16 character and length). */
export interface Highlight {
  readonly line: number;
  readonly character: number;
  readonly length: number;
  readonly type: HighlightType;
}

const TEMPLATE = /\{\{\s*[A-Za-z_][A-Za-z0-9_]*\s*(?:\[\s*-?\d*\s*:\s*-?\d*\s*\])?\s*\}\}/g;
const BOUNDARY = /[✅❌]/gu;
const DIRECTIVE = /<!--\s*agents-md-[a-z-]+\b[^>]*?-->/g;

/** The document's highlights, sorted by position and never overlapping. */
export function highlights(model: ParsedContract): Highlight[] {
  if (model.kind === 'freeform') return [];
  const index = lineIndexOf(model);
  const out: Highlight[] = [];
  const inFence = new Set<number>();
  for (const s of model.sections) for (const f of s.fences) for (let l = f.range.start.line; l <= f.range.end.line; l++) inFence.add(l);
  const titles = new Map<number, { character: number; length: number }>();
  for (const s of model.sections) {
    const r = s.titleRange;
    if (s.spec && r && r.start.line === r.end.line) titles.set(r.start.line, { character: r.start.character, length: r.end.character - r.start.character });
  }
  for (let line = 0; line < model.lineCount; line++) {
    const text = index.lineText(line);
    const found: Highlight[] = [];
    const title = titles.get(line);
    if (title) found.push({ line, ...title, type: 'contractSection' });
    const scan = (re: RegExp, type: HighlightType) => {
      for (const m of text.matchAll(re)) found.push({ line, character: m.index!, length: m[0].length, type });
    };
    // Templates are read inside fenced YAML too; the rest is prose only.
    scan(TEMPLATE, 'templateVariable');
    if (!inFence.has(line)) {
      scan(BOUNDARY, 'boundary');
      scan(DIRECTIVE, 'directive');
    }
    found.sort((a, b) => a.character - b.character);
    let end = 0;
    for (const h of found) if (h.character >= end) (out.push(h), (end = h.character + h.length));
  }
  return out;
}

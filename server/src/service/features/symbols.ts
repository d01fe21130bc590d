import type { ParsedContract } from '../parse/parseContract.ts';
import type { FoldingEntry, SymbolEntry, SymbolEntryKind } from './types.ts';
import { referencesOf } from '../model/references.ts';
import { locate } from '../model/locate.ts';
import type { Range } from '../types.ts';
import { LineIndex } from '../text/lineIndex.ts';
import { format } from '../l10n/format.ts';

const DECL_KIND: Record<string, SymbolEntryKind> = { tool: 'tool', pool: 'pool', entity: 'entity', scenario: 'scenario', layer: 'layer' };

const inside = (r: Range, outer: Range) => r.start.line >= outer.start.line && r.end.line <= outer.end.line;

/**
 * A contract-aware outline: every H2 section (recognised ones named by their canonical title),
 * and inside them the tools, pools, entities, HITL scenarios, memory layers, failure entries
 * (with their error code) and audit versions they declare. Free-form files get no symbols, as
 * VS Code's Markdown outline already covers plain headings. `lang` names the front matter entry
 * when the contract has no `name`.
 */
export function documentSymbols(model: ParsedContract, lang = 'en'): SymbolEntry[] {
  if (model.kind === 'freeform') return [];
  const refs = referencesOf(model);
  const data = model.data as Record<string, any>;
  const out: SymbolEntry[] = [];
  const fm = model.sections[0]?.frontMatter;
  if (fm) {
    const v = data['version'] ? String(data['version']) : '';
    out.push({ name: String(data['name'] ?? format('symbol.frontMatter', {}, lang)), detail: v, kind: 'section', range: fm.range, selectionRange: fm.range, children: [] });
  }
  for (const s of model.sections) {
    if (s.kind !== 'section' || !s.titleRange) continue;
    const children: SymbolEntry[] = [];
    if (s.spec && model.owners.get(s.spec.key) === s) {
      for (const d of refs.declarations) {
        const kind = DECL_KIND[d.kind];
        if (!kind || !inside(d.range, s.range) || !d.pointer.startsWith(`/${s.spec.key}/`)) continue;
        const item = locate(model, d.pointer.replace(/\/(?:name|scenario|layer)$/, ''))?.value ?? d.range;
        children.push({ name: d.name, kind, range: inside(d.range, item) ? item : d.range, selectionRange: d.range, children: [] });
      }
      if (s.spec.key === 'failure_protocol') {
        (Array.isArray(data['failure_protocol']) ? data['failure_protocol'] : []).forEach((f: any, i: number) => {
          const span = locate(model, `/failure_protocol/${i}`);
          const cond = locate(model, `/failure_protocol/${i}/condition`);
          if (span && cond) children.push({ name: String(f?.condition ?? `#${i + 1}`), ...(f?.code ? { detail: String(f.code) } : {}), kind: 'failure', range: span.value, selectionRange: cond.value, children: [] });
        });
      }
      if (s.spec.key === 'versioning') {
        (Array.isArray(data['versioning']) ? data['versioning'] : []).forEach((row: any, i: number) => {
          const span = locate(model, `/versioning/${i}`);
          const v = locate(model, `/versioning/${i}/version`);
          if (span && v) children.push({ name: String(row?.version ?? ''), detail: String(row?.date ?? ''), kind: 'version', range: span.value, selectionRange: v.value, children: [] });
        });
      }
    }
    out.push({ name: s.spec?.title ?? s.title ?? '', ...(s.spec && s.title !== s.spec.title ? { detail: s.title } : {}), kind: s.spec ? 'section' : 'heading', range: s.range, selectionRange: s.titleRange, children });
  }
  return out;
}

/** Folding: each section, each item H3 inside it, fenced blocks and multi-line comments. Lines 0-based. */
export function foldingRanges(model: ParsedContract): FoldingEntry[] {
  const out: FoldingEntry[] = [];
  for (const s of model.sections) {
    let end = s.endLine - 1;
    while (end > s.startLine && /^\s*$/.test(lineAt(s, end - s.startLine))) end--;
    if (s.kind === 'section' && end > s.startLine) out.push({ startLine: s.startLine, endLine: end });
    const h3 = s.headings.filter((h) => h.depth === 3);
    h3.forEach((h, i) => {
      let e = (h3[i + 1]?.range.start.line ?? s.endLine) - 1;
      while (e > h.range.start.line && /^\s*$/.test(lineAt(s, e - s.startLine))) e--;
      if (e > h.range.start.line) out.push({ startLine: h.range.start.line, endLine: e });
    });
    for (const f of s.fences) if (f.range.end.line > f.range.start.line) out.push({ startLine: f.range.start.line, endLine: f.range.end.line - 1 });
    for (const c of s.comments) if (c.range.end.line > c.range.start.line) out.push({ startLine: c.range.start.line, endLine: c.range.end.line, kind: 'comment' });
  }
  return out;
}

const indexes = new WeakMap<object, LineIndex>();

/** A line of a section's text (0-based within the section). */
function lineAt(section: { text: string }, n: number): string {
  let idx = indexes.get(section);
  if (!idx) indexes.set(section, (idx = new LineIndex(section.text)));
  return idx.lineText(n);
}

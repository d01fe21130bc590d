import type { Range } from '../types.ts';
import type { Finding, PointerSpan, SectionModel, SourceMap } from '../model/types.ts';

export const shiftRange = (r: Range, d: number): Range => ({
  start: { line: r.start.line + d, character: r.start.character },
  end: { line: r.end.line + d, character: r.end.character },
});

export const shiftSpan = (s: PointerSpan, d: number): PointerSpan => (s.key ? { key: shiftRange(s.key, d), value: shiftRange(s.value, d) } : { value: shiftRange(s.value, d) });

function shiftMap(map: SourceMap, d: number): SourceMap {
  const out = new Map<string, PointerSpan>();
  for (const [p, s] of map) out.set(p, shiftSpan(s, d));
  return out;
}

export function shiftFinding(f: Finding, d: number): Finding {
  return { ...f, range: shiftRange(f.range, d), ...(f.related ? { related: f.related.map((r) => ({ ...r, range: shiftRange(r.range, d) })) } : {}) };
}

/**
 * Moves a section model `delta` lines down (or up, when negative) without re-parsing it: the
 * edit path reuses every section whose text did not change. O(number of ranges). Only H2
 * sections move this way: the preamble always starts at line 0.
 */
export function shiftSection(s: SectionModel, delta: number): SectionModel {
  if (delta === 0) return s;
  return {
    ...s,
    startLine: s.startLine + delta,
    endLine: s.endLine + delta,
    range: shiftRange(s.range, delta),
    ...(s.titleRange ? { titleRange: shiftRange(s.titleRange, delta) } : {}),
    map: shiftMap(s.map, delta),
    findings: s.findings.map((f) => shiftFinding(f, delta)),
    headings: s.headings.map((h) => ({ ...h, range: shiftRange(h.range, delta) })),
    prose: s.prose.map((p) => ({ ...p, range: shiftRange(p.range, delta) })),
    comments: s.comments.map((c) => ({ ...c, range: shiftRange(c.range, delta) })),
    fences: s.fences.map((f) => ({ ...f, range: shiftRange(f.range, delta) })),
    tables: s.tables.map((r) => shiftRange(r, delta)),
  };
}

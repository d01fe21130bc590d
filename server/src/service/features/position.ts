import type { Position, Range } from '../types.ts';
import type { ParsedContract } from '../parse/parseContract.ts';
import type { PointerSpan, SectionModel } from '../model/types.ts';

/** True when `p` lies within `r` (both ends inclusive, so a cursor at a word's end still hits it). */
export function contains(r: Range, p: Position): boolean {
  const afterStart = p.line > r.start.line || (p.line === r.start.line && p.character >= r.start.character);
  const beforeEnd = p.line < r.end.line || (p.line === r.end.line && p.character <= r.end.character);
  return afterStart && beforeEnd;
}

function size(r: Range): number {
  return (r.end.line - r.start.line) * 100_000 + (r.end.character - r.start.character);
}

/** The section (or preamble) whose lines contain `p`. */
export function sectionAt(model: ParsedContract, p: Position): SectionModel | undefined {
  return model.sections.find((s) => p.line >= s.startLine && p.line < Math.max(s.endLine, s.startLine + 1));
}

/** What is under the cursor in the model: an absolute JSON Pointer and whether the cursor is on its key or value. */
export interface ModelHit {
  readonly section: SectionModel;
  /** Absolute pointer into the contract data (`/tools/0/side_effects`). */
  readonly pointer: string;
  readonly part: 'key' | 'value';
  readonly span: PointerSpan;
  readonly range: Range;
}

/**
 * The innermost model value or key at a position: keys win over values of the same size, and
 * smaller spans over larger ones. Undefined outside any mapped value.
 */
export function modelAt(model: ParsedContract, p: Position): ModelHit | undefined {
  const section = sectionAt(model, p);
  if (!section) return undefined;
  let best: ModelHit | undefined;
  const consider = (map: ReadonlyMap<string, PointerSpan>, prefix: string) => {
    for (const [ptr, span] of map) {
      for (const part of ['key', 'value'] as const) {
        const r = span[part];
        if (!r || !contains(r, p)) continue;
        if (!best || size(r) < size(best.range) || (size(r) === size(best.range) && part === 'key')) {
          best = { section, pointer: prefix + ptr, part, span, range: r };
        }
      }
    }
  };
  if (section.kind === 'preamble') {
    if (section.frontMatter) consider(section.frontMatter.map, '');
  } else if (section.spec && model.owners.get(section.spec.key) === section) {
    consider(section.map, `/${section.spec.key}`);
  }
  return best;
}

import type { ParsedContract } from '../model/types.ts';
import type { TextEditResult } from './types.ts';
import { parseContract } from '../parse/parseContract.ts';
import { validateContract } from '../validate/validate.ts';
import { EMPTY_FACTS, type WorkspaceFacts } from '../validate/facts.ts';
import { LineIndex } from '../text/lineIndex.ts';
import { diffLines } from 'diff';

// A safe fix must never make a file worse (issue: a misspelt `## TOOSL` renamed to a second
// `## TOOLS` turned an info into a duplicate-section error). So a fix is checked against its
// result: the edits applied, the text parsed again (incrementally, from the model) and validated
// with the same facts, and the findings counted by rule code.

/** Findings per rule code. Counted by code: a fix may move later findings or change the names their messages quote. */
export type FindingCounts = ReadonlyMap<string, number>;

function counts(model: ParsedContract, facts: WorkspaceFacts): FindingCounts {
  const out = new Map<string, number>();
  for (const d of validateContract(model, facts)) out.set(d.code, (out.get(d.code) ?? 0) + 1);
  return out;
}

/** `text` with non-overlapping `edits` applied; text outside the edits is kept byte for byte. */
export function applyEdits(text: string, edits: readonly TextEditResult[]): string {
  const idx = new LineIndex(text);
  const sorted = edits.map((e) => ({ start: idx.offsetAt(e.range.start), end: idx.offsetAt(e.range.end), newText: e.newText })).sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}

/**
 * A checker of fixes for one model and its facts (the document alone when none were gathered):
 * `addsFinding(edits)` is true when the text after `edits` has more findings of some rule than
 * before. The findings before are counted once, on the first question.
 */
export function fixChecker(model: ParsedContract, facts: WorkspaceFacts = EMPTY_FACTS): { addsFinding(edits: readonly TextEditResult[]): boolean } {
  let before: FindingCounts | undefined;
  return {
    addsFinding(edits) {
      before ??= counts(model, facts);
      const after = counts(parseContract(applyEdits(model.text, edits), model), facts);
      return [...after].some(([code, n]) => n > (before!.get(code) ?? 0));
    },
  };
}

/**
 * Edits that turn `before` into `after`, line by line (jsdiff), so that text both share is not
 * rewritten: what fix-all sends when its passes built the result from several texts.
 */
export function editsBetween(before: string, after: string): TextEditResult[] {
  const idx = new LineIndex(before);
  const edits: TextEditResult[] = [];
  let offset = 0;
  const parts = diffLines(before, after);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (!part.added && !part.removed) {
      offset += part.value.length;
      continue;
    }
    const removed = part.removed ? part.value : '';
    const next = part.removed ? parts[i + 1] : undefined;
    const added = part.added ? part.value : next?.added ? (i++, next.value) : '';
    edits.push({ range: idx.rangeAt(offset, offset + removed.length), newText: added });
    offset += removed.length;
  }
  return edits;
}

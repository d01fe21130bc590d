/**
 * The word-level difference of two texts (docs/semantic-diff.md §8): long prose (a tool's
 * description, a boundary, a failure condition) changes by a few words, which a reviewer must see
 * rather than two cut-off values that read the same. jsdiff's word diff, bounded: texts that
 * differ by more than `MAX_EDITS` tokens give no word diff (the values are still reported).
 */
import { diffWordsWithSpace } from 'diff';
import { normText } from './normalise.ts';

/** One run of the word diff: text both sides share, or text only the older (`removed`) or newer (`added`) side has. */
export interface WordSegment {
  readonly op: 'same' | 'added' | 'removed';
  readonly text: string;
}

const MAX_EDITS = 400;
const MAX_CHARS = 20_000;
/** Shorter texts are shown whole in the change's message: a word diff would repeat it. */
const MIN_CHARS = 40;

/** A value as text for a word diff: a string, or a list of strings one per line; undefined otherwise. */
function textOf(v: unknown): string | undefined {
  if (typeof v === 'string') return normText(v);
  if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string')) return v.map((x) => normText(x)).join(' · ');
  return undefined;
}

/** The word diff of two values, or undefined when either is not text, they are the same, short, too long or too different. */
export function wordDiff(before: unknown, after: unknown): WordSegment[] | undefined {
  const a = textOf(before);
  const b = textOf(after);
  if (a === undefined || b === undefined || a === b || a.length > MAX_CHARS || b.length > MAX_CHARS || Math.max(a.length, b.length) < MIN_CHARS) return undefined;
  const parts = diffWordsWithSpace(a, b, { maxEditLength: MAX_EDITS });
  if (!parts) return undefined;
  return parts.map((p) => ({ op: p.added ? 'added' : p.removed ? 'removed' : 'same', text: p.value }));
}

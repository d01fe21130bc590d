/**
 * A change's word diff (`Change.words`) and the places that followed a rename (`Change.follows`)
 * as one line each, for the text and Markdown reports (docs/semantic-diff.md §8). Long unchanged
 * runs are shortened to their ends, so that the line shows what changed.
 */
import { type Change, type WordSegment } from '../../service/index.ts';
import { diffMessage, diffSectionTitle } from '../../service/host.ts';

/** Characters kept at each end of a long unchanged run. */
const CONTEXT = 30;

/** How each kind of run is written (colours, `<del>`/`<ins>`, `[-…-]`/`{+…+}`). */
export interface WordStyle {
  readonly same: (text: string) => string;
  readonly removed: (text: string) => string;
  readonly added: (text: string) => string;
}

/** The word diff as one line. */
export function wordLine(words: readonly WordSegment[], style: WordStyle): string {
  return words
    .map((w, i) => {
      const text = w.text.replace(/\s+/g, ' ');
      if (w.op !== 'same') return style[w.op](text);
      const first = i === 0;
      const last = i === words.length - 1;
      if (text.length <= CONTEXT * 2 + 1) return style.same(text);
      // Cut at word boundaries, so that no word is shown in part.
      const head = first ? '' : text.slice(0, CONTEXT).replace(/\S*$/, '');
      const tail = last ? '' : text.slice(-CONTEXT).replace(/^\S*/, '');
      return style.same(`${head}…${tail}`);
    })
    .join('');
}

/** The places that followed a rename, as one sentence in `lang`. */
export function followsLine(change: Change, lang: string): string | undefined {
  const places = change.follows?.map((f) => `${diffSectionTitle(f.section, lang)} ${f.identity}${f.field ? ` (${f.field})` : ''}`);
  return places && places.length > 0 ? diffMessage('report.follows', { count: places.length, places: places.join('; ') }, lang) : undefined;
}

import words from './verbLexicon.json' with { type: 'json' };

/** What the lexicon says of a lower-case word: a base or present verb form, another verb form, no verb, or nothing. */
type Tags = 'base' | 'inflected' | 'other' | undefined;

/**
 * One of the lexicon's word lists (sorted, one word a line) and where each line starts, made on
 * first use: a word is found by binary search, without a string or map entry per word (a map of
 * the 74k words held about 6 MB of the language server's heap).
 */
interface WordList {
  readonly text: string;
  readonly starts: Uint32Array;
}
let lists: readonly (readonly [Exclude<Tags, undefined>, WordList])[] | undefined;

function wordList(text: string): WordList {
  const starts = [0];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return { text, starts: Uint32Array.from(starts) };
}

/** Whether `list` holds `w`. */
function holds(list: WordList, w: string): boolean {
  const { text, starts } = list;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const end = mid + 1 < starts.length ? starts[mid + 1]! - 1 : text.length;
    const word = text.slice(starts[mid]!, end);
    if (word === w) return true;
    if (word < w) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** The lexicon's tags for `w` (the lists are disjoint); exported for its test. */
export function tagsOf(w: string): Tags {
  lists ??= (['base', 'inflected', 'other'] as const).map((kind) => [kind, wordList(words[kind])] as const);
  return lists.find(([, list]) => holds(list, w))?.[0];
}

/** Particles of phrasal verbs written as one word: `lookup`, `checkout`, `signoff`. */
const PARTICLE = /^(.{3,}?)(up|out|in|off|over|down)$/;
/** Prefixes that keep a verb a verb: `rerun`, `rebook`, `unlock`, `precompute`. */
const PREFIX = /^(re|un|de|pre|co)(.{3,})$/;

/**
 * Whether an English word can be a verb, by the en-lexicon part-of-speech lexicon (~110k words,
 * from Brill's tagger lexicon; its lower-case words in verbLexicon.json, made by `npm run
 * generate`): `true` when one of its tags is a base or present verb form,
 * `false` when the lexicon knows it only as another part of speech (`vendor`: NN), `undefined`
 * when the lexicon does not know it (`geocode`), so that a rule can stay quiet rather than guess.
 */
export function canBeVerb(word: string): boolean | undefined {
  const w = word.toLowerCase();
  const tags = tagsOf(w);
  if (tags === 'base') return true;
  const phrasal = PARTICLE.exec(w);
  if (phrasal && canBeVerb(phrasal[1]!)) return true;
  const prefixed = PREFIX.exec(w);
  if (prefixed && canBeVerb(prefixed[2]!)) return true;
  return tags ? false : undefined;
}

/**
 * Whether `text` (a tool's description) starts with `word` inflected as a verb: "Triages a
 * ticket" uses `triage` as a verb although the lexicon knows it only as a noun. An inflection the
 * lexicon knows only as a noun (`vendors`: NNS) does not count.
 */
export function usedAsVerb(word: string, text: string): boolean {
  const first = /^\s*([A-Za-z]+)/.exec(text)?.[1]?.toLowerCase();
  const w = word.toLowerCase();
  if (!first || !first.startsWith(w.replace(/[ey]$/, ''))) return false;
  const stem = w.replace(/e$/, '');
  const forms = new Set([`${w}s`, `${w}es`, `${w}d`, `${w}ed`, `${w}ing`, `${stem}ing`, `${stem}ed`, ...(w.endsWith('y') ? [`${w.slice(0, -1)}ies`, `${w.slice(0, -1)}ied`] : [])]);
  if (!forms.has(first)) return false;
  return tagsOf(first) !== 'other';
}

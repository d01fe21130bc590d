import words from './verbLexicon.json' with { type: 'json' };

/** What the lexicon says of a lower-case word: a base or present verb form, another verb form, no verb, or nothing. */
type Tags = 'base' | 'inflected' | 'other' | undefined;

let lookup: Map<string, Exclude<Tags, undefined>> | undefined;
/** The lexicon's tags for `w` (the word lists are read into one map on first use). */
function tagsOf(w: string): Tags {
  if (!lookup) {
    lookup = new Map();
    for (const kind of ['base', 'inflected', 'other'] as const) for (const word of words[kind].split('\n')) lookup.set(word, kind);
  }
  return lookup.get(w);
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

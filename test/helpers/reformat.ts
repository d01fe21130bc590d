/**
 * Formatting-only rewrites of a contract, for the semantic diff's property tests: each keeps the
 * meaning and changes only the text (docs/semantic-diff.md, "What is no change"). They leave
 * front matter and fenced blocks alone, so YAML and JSON stay valid.
 */
import { sectionForTitle } from '../../server/src/service/schema/sections.ts';

/** A rewrite of a whole document; `rng` gives floats in [0, 1) for the rewrites that choose. */
export type Reformat = (text: string, rng: () => number) => string;

interface Line {
  readonly text: string;
  /** Inside front matter or a fenced block: never rewritten. */
  readonly literal: boolean;
  /** The H2 section the line is in (its title), '' before the first. */
  readonly section: string;
}

/** The lines of a document with what the rewrites need to know about each. */
function classify(text: string): Line[] {
  const lines = text.split('\n');
  const out: Line[] = [];
  let fence: string | undefined;
  let frontMatter = lines[0] === '---';
  let section = '';
  lines.forEach((line, i) => {
    if (frontMatter) {
      out.push({ text: line, literal: true, section });
      if (i > 0 && line === '---') frontMatter = false;
      return;
    }
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      out.push({ text: line, literal: true, section });
      if (f && f[0] === fence[0] && f.length >= fence.length && /^\s*[`~]+\s*$/.test(line)) fence = undefined;
      return;
    }
    if (f) {
      fence = f;
      out.push({ text: line, literal: true, section });
      return;
    }
    const atx = /^#{2}\s+(.*?)\s*#*\s*$/.exec(line);
    if (atx) section = atx[1]!;
    else if (/^(?:=+|-+)\s*$/.test(line) && i > 0 && lines[i - 1]!.trim() !== '' && !/^\s*[-*+|#>]/.test(lines[i - 1]!)) section = lines[i - 1]!.trim();
    out.push({ text: line, literal: false, section });
  });
  return out;
}

const join = (lines: readonly Line[]) => lines.map((l) => l.text).join('\n');

/** `-` bullets become `*` at the top level and `+` below. */
export const listMarkers: Reformat = (text) =>
  join(classify(text).map((l) => (l.literal ? l : { ...l, text: l.text.replace(/^(\s*)- /, (_, indent: string) => `${indent}${indent.length === 0 ? '*' : '+'} `) })));

/**
 * Long bullets are wrapped onto continuation lines (never inside the `**Label**:` part, and only
 * before a word that starts with a letter, so that no continuation line starts a new block).
 */
export const reflow: Reformat = (text, rng) => {
  const width = 30 + Math.floor(rng() * 50);
  return classify(text)
    .flatMap((l) => {
      const m = /^(\s*[-*+] )(\*\*[^*]+\*\*\s*[:：]\s*)?(.*)$/.exec(l.text);
      if (l.literal || !m || l.text.length <= width) return [l.text];
      const cont = ' '.repeat(m[1]!.length);
      const words = m[3]!.split(' ');
      const out = [`${m[1]}${m[2] ?? ''}${words[0]}`];
      for (const w of words.slice(1)) {
        if (out[out.length - 1]!.length + 1 + w.length > width && /^\p{L}/u.test(w)) out.push(cont + w);
        else out[out.length - 1] += ` ${w}`;
      }
      return out;
    })
    .join('\n');
};

/** Body rows of tables in list sections (one row, one item) in reverse order. */
export const tableRowsReversed: Reformat = (text) => {
  const lines = classify(text);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const delimiter = lines[i + 1];
    out.push(l.text);
    if (l.literal || !l.text.startsWith('|') || !delimiter || !/^\|[-:| ]+\|\s*$/.test(delimiter.text) || sectionForTitle(l.section)?.shape !== 'array') continue;
    out.push(delimiter.text);
    let j = i + 2;
    const rows: string[] = [];
    while (j < lines.length && lines[j]!.text.startsWith('|') && !lines[j]!.literal) rows.push(lines[j++]!.text);
    out.push(...rows.reverse());
    i = j - 1;
  }
  return out.join('\n');
};

/** Table cells padded with spaces and the delimiter row aligned (`:---`, `:---:`, `---:`). */
export const tablesAligned: Reformat = (text) =>
  join(
    classify(text).map((l) => {
      if (l.literal || !l.text.startsWith('|')) return l;
      if (/^\|[-:| ]+\|\s*$/.test(l.text)) return { ...l, text: l.text.replace(/-+/g, (_dashes, at: number) => [':---', ':---:', '---:'][at % 3]!) };
      // Pad around pipes that are not escaped and not inside code spans.
      let inCode = false;
      let s = '';
      for (let k = 0; k < l.text.length; k++) {
        const c = l.text[k]!;
        if (c === '`') inCode = !inCode;
        s += c === '|' && !inCode && l.text[k - 1] !== '\\' ? '  |  ' : c;
      }
      return { ...l, text: s.trim() };
    }),
  );

/** Trailing spaces on every line outside blocks, blank lines before headings, CRLF line ends. */
export const whitespace: Reformat = (text) =>
  classify(text)
    .flatMap((l) => (l.literal ? [l.text] : /^#{2}\s/.test(l.text) ? ['', l.text + '  '] : [l.text.trim() === '' ? l.text : `${l.text}   `]))
    .join('\r\n');

export const REFORMATS: Readonly<Record<string, Reformat>> = { listMarkers, reflow, tableRowsReversed, tablesAligned, whitespace };

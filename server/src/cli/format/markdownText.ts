/**
 * Text from a repository (file names, contract text, snapshot and query ids) in Markdown that
 * GitHub renders: the pull-request comment and `diff --format markdown` (docs/robustness.md,
 * "The pull request is hostile input"). Nothing from the repository is guessed safe: every
 * character Markdown or HTML reads is escaped, line breaks cannot end a table row or a heading, an
 * `@name` mentions nobody, `![…](…)` and `<img>` stay text. A message keeps its own code spans
 * (its template's backticks): they are rebuilt from the literal text they hold.
 */

/**
 * Markdown-active characters mid-line, escaped with a backslash: code, emphasis, links and images
 * (`[`: so `![x](url)` is no image), table cells, strikethrough, math; `_` unless between letters or
 * digits (where CommonMark never reads it as emphasis). `<` and `&` become entities.
 */
const ACTIVE = /[\\`*[\]|~$]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;
/** Line breaks and other control characters (C0, DEL, C1, the Unicode line and paragraph separators). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const ZWSP = '\u200b';

/** Literal text in Markdown (a table cell, a heading, a list item). */
export function mdText(s: string): string {
  return s
    .replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ')
    .replace(new RegExp(CONTROL.source, 'g'), '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(ACTIVE, (c) => `\\${c}`)
    .replace(/@/g, `@${ZWSP}`);
}

/** A name as literal text: JSON-quoted when it holds control characters (a file name with a newline shows its `\n`). */
export const literalName = (name: string): string => (CONTROL.test(name) ? JSON.stringify(name) : name);

/** Undoes `mdText` (the literal text a code span shows). */
function unescapeText(s: string): string {
  return s.replaceAll(`@${ZWSP}`, '@').replace(/\\(.)/g, '$1').replace(/&lt;/g, '<').replace(/&amp;/g, '&');
}

/** `raw` as a code span: a backtick span when that shows it as written, else `<code>` around the escaped text. */
export function mdCode(raw: string): string {
  if (raw === '' || /[`|]/.test(raw) || CONTROL.test(raw) || /^\s|\s$/.test(raw)) return `<code>${mdText(raw)}</code>`;
  return `\`${raw}\``;
}

/** The string arguments of a message escaped by `mdText` (numbers as they are); `names` are literal names; `raw` are Markdown already. */
export function mdArgs<A extends Readonly<Record<string, string | number>>>(args: A, options: { names?: readonly string[]; raw?: readonly string[] } = {}): A {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(args)) {
    out[k] = typeof v !== 'string' || options.raw?.includes(k) ? v : mdText(options.names?.includes(k) ? literalName(v) : v);
  }
  return out as A;
}

/**
 * A message formatted with `mdArgs`: its template's code spans (the backticks no argument holds,
 * since arguments have theirs escaped) rebuilt by `mdCode` from the literal text inside them.
 */
export function mdMessage(formatted: string): string {
  let out = '';
  let open = -1;
  for (let i = 0; i < formatted.length; i++) {
    const c = formatted[i]!;
    if (c === '\\' && i + 1 < formatted.length) {
      if (open < 0) out += formatted.slice(i, i + 2);
      i++;
    } else if (c === '`') {
      if (open < 0) open = i + 1;
      else {
        out += mdCode(unescapeText(formatted.slice(open, i)));
        open = -1;
      }
    } else if (open < 0) out += c;
  }
  // A template's unpaired backtick (none today) is shown as a backtick.
  return open < 0 ? out : `${out}\\\`${formatted.slice(open)}`;
}

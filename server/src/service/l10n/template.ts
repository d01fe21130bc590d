/**
 * Message templates: text with `{name}` placeholders and, for counts, ICU MessageFormat's plural
 * form `{count, plural, =0 {…} one {# file} other {# files}}` (`#` is the number). Plural forms
 * let one whole template say "1 file" and "2 files" (and Chinese "2 个文件") without building the
 * sentence from pieces. ICU's select form `{bump, select, major {主版本号} other {{bump}}}` picks
 * a branch by an argument's value, so that an argument holding a machine value (`major`, `none`)
 * is worded by the translation itself and the arguments stay the same in every language.
 * Anything else in braces (`{{template}}`, JSON) is text.
 */

type Part =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'arg'; readonly name: string }
  | { readonly kind: 'plural' | 'select'; readonly name: string; readonly branches: ReadonlyMap<string, readonly Part[]> };

const cache = new Map<string, readonly Part[]>();

/** The index just after the `}` that closes the `{` at `open`, or -1 when it is never closed. */
function closing(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth === 0) return i + 1;
  }
  return -1;
}

/** Branch keys: plural categories and exact counts; select values (words, `-` allowed). */
const KEY: Readonly<Record<'plural' | 'select', RegExp>> = {
  plural: /^\s*(=\d+|zero|one|two|few|many|other)\s*\{/,
  select: /^\s*([\w-]+)\s*\{/,
};

/** The branches of a plural or select body (`=0 {…} one {…} other {…}`), or undefined when malformed. */
function branchesOf(body: string, kind: 'plural' | 'select'): Map<string, readonly Part[]> | undefined {
  const out = new Map<string, readonly Part[]>();
  let i = 0;
  while (i < body.length) {
    const m = KEY[kind].exec(body.slice(i));
    if (!m) return /^\s*$/.test(body.slice(i)) && out.has('other') ? out : undefined;
    const open = i + m[0].length - 1;
    const end = closing(body, open);
    if (end < 0) return undefined;
    out.set(m[1]!, parse(body.slice(open + 1, end - 1)));
    i = end;
  }
  return out.has('other') ? out : undefined;
}

function parse(template: string): readonly Part[] {
  const parts: Part[] = [];
  let text = '';
  let i = 0;
  while (i < template.length) {
    if (template[i] !== '{') {
      text += template[i];
      i++;
      continue;
    }
    const arg = /^\{(\w+)\}/.exec(template.slice(i, i + 200));
    if (arg) {
      if (text) parts.push({ kind: 'text', text });
      text = '';
      parts.push({ kind: 'arg', name: arg[1]! });
      i += arg[0].length;
      continue;
    }
    const choice = /^\{(\w+),\s*(plural|select),/.exec(template.slice(i, i + 200));
    const kind = choice?.[2] as 'plural' | 'select' | undefined;
    const end = choice ? closing(template, i) : -1;
    const branches = choice && kind && end > 0 ? branchesOf(template.slice(i + choice[0].length, end - 1), kind) : undefined;
    if (choice && kind && branches) {
      if (text) parts.push({ kind: 'text', text });
      text = '';
      parts.push({ kind, name: choice[1]!, branches });
      i = end;
      continue;
    }
    text += template[i];
    i++;
  }
  if (text) parts.push({ kind: 'text', text });
  return parts;
}

function partsOf(template: string): readonly Part[] {
  let p = cache.get(template);
  if (!p) {
    p = parse(template);
    if (cache.size > 2000) cache.clear();
    cache.set(template, p);
  }
  return p;
}

/** Names of the arguments a template uses (placeholders, plural counts and select values, also inside their branches). */
export function placeholders(template: string): string[] {
  const names = new Set<string>();
  const walk = (parts: readonly Part[]) => {
    for (const p of parts) {
      if (p.kind === 'arg') names.add(p.name);
      else if (p.kind !== 'text') {
        names.add(p.name);
        for (const b of p.branches.values()) walk(b);
      }
    }
  };
  walk(partsOf(template));
  return [...names];
}

const pluralRules = new Map<string, Intl.PluralRules>();

/**
 * Fills a template from `args` for language `lang` (which picks the plural category: English
 * `one`/`other`; Chinese always `other`). A placeholder without an argument stays as written, so
 * a missing argument is visible rather than silently empty; a plural whose count is missing or
 * not a number uses its `other` branch with `#` left as is. A select takes the branch named by
 * its argument's value, else `other` (a missing argument too); `#` in it is the count of an
 * enclosing plural, as in ICU.
 */
export function fill(template: string, args: Readonly<Record<string, string | number>> = {}, lang = 'en'): string {
  let rules = pluralRules.get(lang);
  if (!rules) pluralRules.set(lang, (rules = new Intl.PluralRules(lang === 'zh-cn' ? 'zh-CN' : 'en')));
  const render = (parts: readonly Part[], count: number | undefined): string =>
    parts
      .map((p): string => {
        if (p.kind === 'text') return count === undefined ? p.text : p.text.replace(/#/g, String(count));
        if (p.kind === 'arg') return Object.hasOwn(args, p.name) ? String(args[p.name]) : `{${p.name}}`;
        if (p.kind === 'select') return render((Object.hasOwn(args, p.name) && p.branches.get(String(args[p.name]))) || p.branches.get('other')!, count);
        const n = Number(args[p.name]);
        if (!Object.hasOwn(args, p.name) || !Number.isFinite(n)) return render(p.branches.get('other')!, undefined);
        const branch = p.branches.get(`=${n}`) ?? p.branches.get(rules!.select(n)) ?? p.branches.get('other')!;
        return render(branch, n);
      })
      .reduce(joinSentences, '');
  return render(partsOf(template), undefined);
}

/**
 * Joins two pieces of a message, leaving out the piece's full stop when the text before it
 * already ends a sentence: an argument that is itself a message ("… are not valid: The token
 * budget must be a number.") followed by the template's own stop would end in "..".
 */
function joinSentences(before: string, piece: string): string {
  return /[.。!?！？]$/.test(before) && !before.endsWith('..') && /^[.。](?![.。\w])/.test(piece) ? before + piece.slice(1) : before + piece;
}

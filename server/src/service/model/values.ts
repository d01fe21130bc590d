/**
 * Small conversions from Markdown text to model values. Pure functions; never throw.
 */

/** Removes one pair of enclosing backticks or quotes: "`tool_a`" → "tool_a". */
export function stripCode(s: string): string {
  const t = s.trim();
  const m = /^(`+)([^`](?:.*?[^`])?)\1$/s.exec(t);
  // `a` or `b` is two code spans, not one: the fence must not close inside.
  if (m && !new RegExp(`(?<!\`)\`{${m[1]!.length}}(?!\`)`).test(m[2]!)) return m[2]!.trim();
  return t;
}

/** Removes enclosing straight or curly quotes. */
export function stripQuotes(s: string): string {
  const t = s.trim();
  const m = /^(["'“”‘’「」])(.*)(["'“”‘’「」])$/s.exec(t);
  return m ? m[2]! : t;
}

/**
 * Converts a Markdown scalar to the first type the schema allows that fits: numbers
 * (`20`, `0.85`, "`20`"), booleans (`true`/`yes`/`是`, `false`/`no`/`否`), else the text without
 * enclosing backticks or quotes.
 */
export function coerceScalar(text: string, types: readonly string[]): unknown {
  const t = stripCode(text);
  if ((types.includes('integer') || types.includes('number')) && /^[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?$/i.test(t.replace(/[_,](?=\d{3}\b)/g, ''))) {
    const n = Number(t.replace(/[_,](?=\d{3}\b)/g, ''));
    if (Number.isFinite(n)) return n;
  }
  if (types.includes('boolean')) {
    if (/^(?:true|yes|y|是|required|必需)$/i.test(t)) return true;
    if (/^(?:false|no|n|否|optional|可选)$/i.test(t)) return false;
  }
  if (types.length > 0 && !types.includes('string') && t === '') return null;
  // A value written wholly in backticks or quotes is the text inside them (docs/contract-format.md §4.1).
  return stripQuotes(t);
}

/**
 * Splits an inline list (`a, b + c、d; e`) into parts with their offsets in `text`, skipping
 * separators inside backticks and parentheses, and thousands separators (`50,000`). Used for `Write By` cells and inline arrays.
 */
export function splitInlineList(text: string, separators: RegExp = /[,，、;；]/): { text: string; start: number; end: number }[] {
  const parts: { text: string; start: number; end: number }[] = [];
  let depth = 0;
  let inCode = false;
  let start = 0;
  const push = (end: number) => {
    const raw = text.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const t = raw.trim();
    if (t) parts.push({ text: t, start: start + lead, end: start + lead + t.length });
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '`') inCode = !inCode;
    else if (!inCode && (c === '(' || c === '（' || c === '[')) depth++;
    else if (!inCode && (c === ')' || c === '）' || c === ']')) depth = Math.max(0, depth - 1);
    else if (!inCode && depth === 0 && separators.test(c) && !(c === ',' && /\d/.test(text[i - 1] ?? '') && /^\d{3}(?!\d)/.test(text.slice(i + 1)))) {
      push(i);
      start = i + 1;
    }
  }
  push(text.length);
  return parts;
}

/** Backticked spans in `text` with their offsets (content only, without the backticks). */
export function codeSpans(text: string): { text: string; start: number; end: number }[] {
  const out: { text: string; start: number; end: number }[] = [];
  const re = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const inner = m[2]!;
    const lead = inner.length - inner.trimStart().length;
    const start = m.index + m[1]!.length + lead;
    out.push({ text: inner.trim(), start, end: start + inner.trim().length });
  }
  return out;
}

const DURATION = /(\d+(?:\.\d+)?)\s*(mins?|minutes?|分钟|m|hours?|hrs?|小时|h|days?|天|d|s|secs?|seconds?|秒)(?![A-Za-z])/i;

/** Normalises `15 mins` → `15m`, `2 hours` → `2h`, `3 days` → `3d`, `30 secs` → `30s`. */
export function normaliseDuration(text: string): string | undefined {
  const m = DURATION.exec(text);
  if (!m) return undefined;
  const u = m[2]!.toLowerCase();
  const unit = /^(?:m|min|mins|minute|minutes|分钟)$/.test(u) ? 'm' : /^(?:h|hr|hrs|hour|hours|小时)$/.test(u) ? 'h' : /^(?:d|day|days|天)$/.test(u) ? 'd' : 's';
  return `${m[1]}${unit}`;
}

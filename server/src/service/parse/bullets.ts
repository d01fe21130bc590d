import type { Range } from '../types.ts';
import type { BulletForm, FieldSpec } from '../schema/sections.ts';
import type { Finding, PointerSpan } from '../model/types.ts';
import { coerceScalar, splitInlineList, stripCode } from '../model/values.ts';
import { fieldForLabel } from '../schema/sections.ts';
import { pointerSegment } from './yamlBlock.ts';
import { unknownField } from './builder.ts';
import { normaliseDuration } from '../model/values.ts';

/** A bullet as the section builder hands it over. */
export interface BulletInput {
  /** The bullet's first paragraph, raw Markdown. */
  readonly text: string;
  readonly range: Range;
  /** `**Label**: value`, when the bullet has one. */
  readonly label?: { label: string; labelRange: Range; value: string; valueRange: Range } | undefined;
  readonly nested: readonly { text: string; range: Range; labelled?: { label: string; labelRange: Range; value: string; valueRange: Range } | undefined }[];
  readonly fields: readonly FieldSpec[];
}

/** The item a bullet becomes, with spans relative to the item (`/condition`, `/actions/0`). */
export interface BulletOutput {
  readonly value: unknown;
  readonly spans: ReadonlyMap<string, PointerSpan>;
  readonly findings: readonly Finding[];
}

/** A sub-range of a one-line range by character offsets; the whole range when it spans lines. */
export function subRange(r: Range, start: number, end: number): Range {
  if (r.start.line !== r.end.line) return r;
  return { start: { line: r.start.line, character: r.start.character + start }, end: { line: r.start.line, character: r.start.character + end } };
}

/**
 * Turns one bullet of an array section into an item, per the section's `x-bullets` form
 * (docs/contract-format.md): `string`, `labelled`, `failure-entry`
 * (`- **If …**: → action → action`) or `freshness` (MEMORY_FRESHNESS lines).
 */
export function interpretBullet(form: BulletForm, input: BulletInput): BulletOutput {
  const l = input.label;
  switch (form) {
    case 'string':
      return { value: input.text, spans: new Map(), findings: [] };
    case 'labelled': {
      const spans = new Map<string, PointerSpan>();
      if (!l) return { value: { text: input.text }, spans, findings: [] };
      spans.set('/name', { value: l.labelRange });
      spans.set('/text', { key: l.labelRange, value: l.valueRange });
      return { value: { name: stripCode(l.label), text: l.value }, spans, findings: [] };
    }
    case 'freshness':
      return l ? freshnessItem(l) : unrecognised(input.range, 'MEMORY_FRESHNESS');
    case 'failure-entry':
      return l ? failureEntry(l, input) : unrecognised(input.range, 'FAILURE_PROTOCOL');
  }
}

type Labelled = NonNullable<BulletInput['label']>;

function unrecognised(range: Range, section: string, spans = new Map<string, PointerSpan>()): BulletOutput {
  return { value: undefined, spans, findings: [{ code: 'unrecognised-content', range, args: { section } }] };
}

/** A MEMORY_FRESHNESS line: a source updated before or stale after a time (scheduled), or static. */
function freshnessItem(l: Labelled): BulletOutput {
  const spans = new Map<string, PointerSpan>();
  const item: Record<string, unknown> = { source: stripCode(l.label) };
  spans.set('/source', { value: l.labelRange });
  const v = l.value;
  const time = '`?(\\d{1,2}:\\d{2}(?:\\s*UTC)?)`?';
  // English: "updated before `05:00 UTC`. Stale after `07:00 UTC`"; Chinese: "须在 05:00 UTC 前更新，07:00 UTC 后过期".
  const before = new RegExp(`(?:updated\\s+before|before|截止)\\s*${time}`, 'i').exec(v) ?? new RegExp(`${time}\\s*(?:之?前更新|前)`).exec(v);
  const stale = new RegExp(`(?:stale\\s+after)\\s*${time}`, 'i').exec(v) ?? new RegExp(`${time}\\s*之?后过期`).exec(v);
  if (before || stale) item['kind'] = 'scheduled';
  else if (/\bstatic\b|静态/i.test(v)) item['kind'] = 'static';
  else return unrecognised(l.valueRange, 'MEMORY_FRESHNESS', spans);
  for (const [key, m] of [['updated_before', before], ['stale_after', stale]] as const) {
    if (!m) continue;
    item[key] = m[1]!;
    const at = m.index + m[0].indexOf(m[1]!);
    spans.set(`/${key}`, { value: subRange(l.valueRange, at, at + m[1]!.length) });
  }
  if (item['kind']) spans.set('/kind', { value: l.valueRange });
  return { value: item, spans, findings: [] };
}

/** A FAILURE_PROTOCOL entry: `- **If …**: → action → action`, nested fields and actions, and what the actions say. */
function failureEntry(l: Labelled, input: BulletInput): BulletOutput {
  const spans = new Map<string, PointerSpan>();
  const findings: Finding[] = [];
  const item: Record<string, unknown> = {};
  const condition = l.label.replace(/^\s*(?:if|when|on|如果|若|当)\s*/i, '').trim();
  item['condition'] = condition;
  spans.set('/condition', { value: l.labelRange });
  const actions: string[] = [];
  const parts = splitInlineList(l.value, /[→⟶]/);
  for (const part of parts) {
    const t = part.text.replace(/^->\s*/, '').trim();
    if (!t) continue;
    spans.set(`/actions/${actions.length}`, { value: subRange(l.valueRange, part.start, part.end) });
    actions.push(t);
  }
  for (const n of input.nested) {
    const nl = n.labelled;
    const f = nl && fieldForLabel(input.fields, nl.label);
    if (nl && f) {
      item[f.key] = f.types.includes('array') ? splitInlineList(nl.value).map((p) => stripCode(p.text)) : coerceScalar(stripCode(nl.value), f.types);
      spans.set(`/${pointerSegment(f.key)}`, { key: nl.labelRange, value: nl.valueRange });
    } else if (nl) {
      findings.push(unknownField(nl.labelRange, nl.label, 'FAILURE_PROTOCOL', input.fields));
    } else {
      spans.set(`/actions/${actions.length}`, { value: n.range });
      actions.push(n.text.replace(/^(?:→|->)\s*/, ''));
    }
  }
  item['actions'] = actions;
  spans.set('/actions', { key: l.labelRange, value: l.valueRange });
  actions.forEach((a, i) => readAction(a, spans.get(`/actions/${i}`)!, item, spans));
  return { value: item, spans, findings };
}

/** What one action of a failure entry says (error code, alert channel, severity, fallback, wait), where the entry does not say it yet. */
function readAction(a: string, span: PointerSpan, item: Record<string, unknown>, spans: Map<string, PointerSpan>): void {
  // "Return error_code `URG001`", and the shorter "return `MEMORY_STALE`" (code in backticks),
  // also inside a sentence: "Stop and return `AST001` to the caller", and without backticks a
  // word that reads as a code (capitals with a digit or an underscore: "return error AST001").
  const code = /(?:error[_ ]?code|code|错误码)\s*[:：=]?\s*`?([A-Z][A-Z0-9_]*)`?/.exec(a) ?? /(?:\breturns?|\brespond with|返回)\s*(?:the\s+)?(?:error\s+)?`([A-Z][A-Z0-9_]*)`/i.exec(a)
    ?? /(?:\b[Rr]eturns?|\b[Rr]espond with|返回)\s*(?:the\s+)?(?:error\s+)?((?=[A-Z0-9_]*[\d_])[A-Z][A-Z0-9_]*[A-Z0-9])\b/.exec(a);
  if (code && item['code'] === undefined) {
    item['code'] = code[1]!;
    spans.set('/code', { value: span.value });
  }
  const alert = /(?:alert|notify|page|告警|通知)\s+`?([#@][\w.@-]+|[\w.+-]+@[\w.-]+)`?/i.exec(a);
  if (alert && item['alert_channel'] === undefined) {
    item['alert_channel'] = alert[1]!;
    spans.set('/alert_channel', { value: span.value });
  }
  const sev = /severity\s*`?(P\d)`?/i.exec(a) ?? /级别\s*`?(P\d)`?/.exec(a);
  if (sev && item['severity'] === undefined) {
    item['severity'] = sev[1]!.toUpperCase();
    spans.set('/severity', { value: span.value });
  }
  if (/^(?:fall\s*back|fallback|回退|降级|兜底)/i.test(a) && item['fallback'] === undefined) {
    item['fallback'] = stripCode(a.replace(/^(?:fall\s*back|fallback)\s*(?:to)?\s*|^(?:回退|降级|兜底)(?:到|为|至)?\s*/i, ''));
    spans.set('/fallback', { value: span.value });
  }
  const wait = /(?:max|within|最多|最长)\s+([^)）,]*)/i.exec(a);
  const d = wait ? normaliseDuration(wait[1]!) : undefined;
  if (d && item['max_wait'] === undefined) {
    item['max_wait'] = d;
    spans.set('/max_wait', { value: span.value });
  }
}

/**
 * Verification of the final answer (docs/dry-run.md "The pipeline", step 5): the CONSTRAINTS `output_format` (JSON
 * answers are parsed strictly, then leniently (a second layer): a code fence or
 * surrounding text removed, which is reported as a coercion), the output_format schema and
 * OUTPUT_SCHEMA (ajv), `language`, and every `safety_guard`: evaluated when it has a `check`,
 * otherwise shown as not checkable in the dry run, never silently passed. Pure.
 */
import type { ContractView } from '../../model/contractView.ts';
import type { OutcomeCode } from '../messages.ts';
import { evaluate, exprPaths, pathValue, showValue, type Scope } from './expression.ts';
import { parseExpression, type Expr } from '../../model/expression.ts';
import { SCHEMA_UNUSABLE, schemaProblem, schemaUsable } from './tools.ts';
import { withArgMessages, type MessageRef } from '../runMessage.ts';

/** One check of the answer, for the trace. */
export interface OutputCheck {
  /** Message id and arguments naming the check (`check.format`, `check.guard`…). */
  readonly checkId: string;
  readonly checkArgs: Readonly<Record<string, string>>;
  readonly status: 'success' | 'invalid' | 'unknown' | 'skipped';
  /** Why it failed: a message, or a text quoted from a parser. */
  readonly detail?: MessageRef | string;
  /** The clause checked. */
  readonly pointer: string;
}

/** The verdict on a final answer. */
export interface Verification {
  /** The answer as data: parsed JSON for a JSON format, else the text. */
  readonly answer: unknown;
  readonly checks: readonly OutputCheck[];
  readonly failure?: { readonly code: OutcomeCode; readonly args: Record<string, string | number>; readonly argMessages?: Readonly<Record<string, MessageRef>>; readonly pointer: string; readonly retryable: boolean };
}

/** The first JSON value inside `text` (a fenced block, or from the first `{`/`[` to its match), if any. */
function lenientJson(text: string): unknown {
  const fence = /```(?:json)?\s*\n([\s\S]*?)```/i.exec(text);
  const candidates = fence ? [fence[1]!] : [];
  const start = text.search(/[[{]/);
  if (start >= 0) {
    const open = text[start]!;
    const close = open === '{' ? '}' : ']';
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length && i < start + 1_000_000; i++) {
      const c = text[i]!;
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === open) depth++;
      else if (c === close && --depth === 0) {
        candidates.push(text.slice(start, i + 1));
        break;
      }
    }
  }
  for (const c of candidates) {
    try {
      return JSON.parse(c);
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}

const SCRIPT_OF: Readonly<Record<string, RegExp>> = { zh: /\p{Script=Han}/u, ja: /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u, ko: /\p{Script=Hangul}/u };

/** A `language` constraint that follows the user (docs/contract-format.md §9, CONSTRAINTS): `user`, `auto`, `same-as-input`. */
export const FOLLOWS_USER = /^(?:user|auto|same-as-input)$/i;

/**
 * The language a check can hold the answer to: the constraint's tag, or for one that follows the
 * user the script of the user's query (kana: `ja`, Hangul: `ko`, Han: `zh`). Undefined when the
 * query's script does not tell its language (Latin letters): that check is skipped.
 */
function checkedLanguage(language: string, query: string): string | undefined {
  if (!FOLLOWS_USER.test(language)) return language;
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(query)) return 'ja';
  if (/\p{Script=Hangul}/u.test(query)) return 'ko';
  return /\p{Script=Han}/u.test(query) ? 'zh' : undefined;
}

function strings(v: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 100) return out;
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out, depth + 1);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) strings(x, out, depth + 1);
  return out;
}

/** The value of every path an expression reads (`output.status = "x"`), to show why a check failed. */
function pathValues(expr: Expr, scope: Scope): { readonly path: string; readonly value: string }[] {
  return exprPaths(expr).map((e) => ({ path: e.text, value: showValue(pathValue(e, scope)) }));
}

/** Verifies the final answer `text` against the contract. `scope` is what guard checks read (the answer is added as `output`). */
export function verifyOutput(text: string, view: ContractView, scope: Omit<Scope, 'output'>): Verification {
  const checks: OutputCheck[] = [];
  const format = view.constraints.find((c) => c.type === 'output_format' && c.format);
  const fmt = format?.format ?? (view.outputSchema ? 'json' : undefined);
  const formatPointer = format?.pointer ?? '/output_schema';
  let answer: unknown = text;

  if (fmt === 'json') {
    let parsed: unknown;
    let strict = true;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      strict = false;
      parsed = lenientJson(text);
      if (parsed === undefined) {
        const detail = String((e as Error).message).split('\n')[0]!;
        checks.push({ checkId: 'check.format', checkArgs: { format: 'json' }, status: 'invalid', detail, pointer: formatPointer });
        return { answer: text, checks, failure: { code: 'OUTPUT_FORMAT_INVALID', args: { format: 'JSON', detail }, pointer: formatPointer, retryable: true } };
      }
    }
    answer = parsed;
    checks.push({ checkId: strict ? 'check.format' : 'check.coerced', checkArgs: { format: 'json' }, status: 'success', pointer: formatPointer });
  } else if (fmt) {
    const ok = text.trim() !== '';
    const empty: MessageRef = { id: 'detail.empty-answer', args: {} };
    checks.push({ checkId: 'check.format', checkArgs: { format: fmt }, status: ok ? 'success' : 'invalid', ...(ok ? {} : { detail: empty }), pointer: formatPointer });
    if (!ok) return { answer, checks, failure: { code: 'OUTPUT_FORMAT_INVALID', ...withArgMessages({ format: fmt }, { detail: empty }), pointer: formatPointer, retryable: true } };
  }

  const schemas: { schema: Readonly<Record<string, unknown>>; source: string; pointer: string }[] = [];
  if (format?.schema && fmt === 'json') schemas.push({ schema: format.schema, source: 'output_format', pointer: `${format.pointer}/schema` });
  if (view.outputSchema && fmt === 'json') schemas.push({ schema: view.outputSchema, source: 'OUTPUT_SCHEMA', pointer: '/output_schema' });
  for (const s of schemas) {
    const p = schemaProblem(s.schema, answer);
    const detail: MessageRef | undefined = p ? { id: 'detail.schema', args: { expected: p.expected, got: p.got } } : undefined;
    if (!detail && !schemaUsable(s.schema)) {
      checks.push({ checkId: 'check.schema', checkArgs: { source: s.source }, status: 'skipped', detail: SCHEMA_UNUSABLE, pointer: s.pointer });
      continue;
    }
    checks.push({ checkId: 'check.schema', checkArgs: { source: s.source }, status: detail ? 'invalid' : 'success', ...(detail ? { detail } : {}), pointer: s.pointer });
    if (detail) return { answer, checks, failure: { code: 'OUTPUT_SCHEMA_INVALID', ...withArgMessages({ schema: s.source }, { detail }), pointer: s.pointer, retryable: true } };
  }

  for (const c of view.constraints.filter((x) => x.type === 'language' && x.language)) {
    const language = checkedLanguage(c.language!, scope.input.query) ?? c.language!;
    const re = SCRIPT_OF[language.toLowerCase().split('-')[0]!];
    if (!re) {
      checks.push({ checkId: 'check.language', checkArgs: { language }, status: 'skipped', pointer: c.pointer });
      continue;
    }
    const ok = strings(answer).some((s) => re.test(s));
    const detail: MessageRef = { id: 'detail.no-text-in', args: { language } };
    checks.push({ checkId: 'check.language', checkArgs: { language }, status: ok ? 'success' : 'invalid', ...(ok ? {} : { detail }), pointer: c.pointer });
    if (!ok) return { answer, checks, failure: { code: 'OUTPUT_SCHEMA_INVALID', ...withArgMessages({}, { schema: { id: 'check.language', args: { language } }, detail }), pointer: c.pointer, retryable: true } };
  }

  let violation: Verification['failure'];
  for (const c of view.constraints.filter((x) => x.type === 'safety_guard')) {
    const rule = c.rule ?? c.check ?? '';
    const parsed = c.check ? parseExpression(c.check) : undefined;
    if (!parsed || !parsed.ok) {
      checks.push({ checkId: 'check.guard', checkArgs: { rule }, status: 'skipped', ...(parsed && !parsed.ok ? { detail: { id: 'detail.check-unparsable', args: { error: parsed.error } } } : {}), pointer: c.pointer });
      continue;
    }
    const r = evaluate(parsed.expr, { ...scope, output: answer });
    if (r.value === true) checks.push({ checkId: 'check.guard', checkArgs: { rule }, status: 'success', pointer: c.pointer });
    else if (r.value === 'unknown') checks.push({ checkId: 'check.guard', checkArgs: { rule }, status: 'unknown', detail: r.missing.length > 0 ? { id: 'detail.missing', args: { names: r.missing.join(', ') } } : { id: 'detail.missing-value', args: {} }, pointer: c.pointer });
    else {
      // The values the check read, so that the timeline shows what broke the guard.
      const values = pathValues(parsed.expr, { ...scope, output: answer }).map((x) => `${x.path} = ${x.value.length > 80 ? `${x.value.slice(0, 79)}…` : x.value}`).join('; ');
      checks.push({ checkId: 'check.guard', checkArgs: { rule }, status: 'invalid', detail: values ? { id: 'detail.guard-false-values', args: { check: c.check!, values } } : { id: 'detail.guard-false', args: { check: c.check! } }, pointer: c.pointer });
      violation ??= { code: 'SAFETY_VIOLATION', args: { rule, check: c.check! }, pointer: c.pointer, retryable: false };
    }
  }
  return { answer, checks, ...(violation ? { failure: violation } : {}) };
}

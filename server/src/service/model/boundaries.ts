/**
 * The checkable forms of a ❌ Hard Boundary (docs/contract-format.md, "Checkable boundaries"),
 * recognised here and nowhere else: the linter, the dry run and the semantic diff read them from
 * `boundaryForms(model)`. A ❌ item that matches none of the forms stays prose: the model is told
 * it, nothing enforces it.
 *
 * - `forbid`: "Never call `x`" / "禁止调用 `x`": the tool must not exist at all;
 * - `order`: "Never call `x` before `y`": `x` only once a call of `y` was executed in this run;
 * - `after-success`: "Never call `x` unless `y` succeeded": `x` only once a call of `y` succeeded;
 * - `count`: "Never call `x` more than 2 times per run": at most `max` executed calls of `x` per run.
 */
import type { ParsedContract } from './types.ts';
import { arr, obj } from './data.ts';

export type BoundaryForm =
  | { readonly kind: 'forbid'; readonly tool: string }
  | { readonly kind: 'order' | 'after-success'; readonly tool: string; readonly first: string }
  | { readonly kind: 'count'; readonly tool: string; readonly max: number };

/** A ❌ item of AGENT_IDENTITY's Hard Boundaries in one of the checkable forms. */
export type Boundary = BoundaryForm & {
  /** The item's JSON Pointer (`/identity/hard_boundaries/<i>`). */
  readonly pointer: string;
  readonly text: string;
};

const T = '`([A-Za-z_][\\w.-]*)`';
const NEVER = '(?:never|do not|don\'t|must not|must never|may not|cannot)\\s+(?:ever\\s+)?';
const CALL = '(?:call|use|invoke|run|execute)\\s+(?:the\\s+)?(?:tool\\s+)?';
const NUM = '(\\d+|once|twice)';
const SUCCESS = '(?:has\\s+)?(?:succeeded|succeeds|returned successfully|completed successfully)';
const ZH_NO = '(?:禁止|不得|不要|不可|不能|严禁|勿)';
const ZH_CALL = '(?:调用|使用|执行)\\s*(?:工具)?';
const ZH_RUN = '(?:每次运行|每次对话|每轮运行|单次运行)(?:中|内)?';
/** The end of an outright prohibition: at most a reason in parentheses and a full stop. */
const END = '\\s*(?:[(（][^()（）]*[)）])?\\s*[.。]?$';
const ZH_MAX = '(?:不得|不能|不可|禁止)超过';

/** Each pattern, the form it gives, and which groups hold the tool, the earlier tool and the number. */
const FORMS: readonly { re: RegExp; kind: BoundaryForm['kind']; tool: number; first?: number; max?: number }[] = [
  // "only after success" before "order": "before `y` succeeded" is the stronger form.
  { re: new RegExp(`^${NEVER}${CALL}${T}\\s+(?:unless|until|before)\\s+(?:a call (?:of|to)\\s+)?${T}\\s+${SUCCESS}`, 'i'), kind: 'after-success', tool: 1, first: 2 },
  { re: new RegExp(`^only\\s+${CALL}${T}\\s+(?:once|after)\\s+(?:a call (?:of|to)\\s+)?${T}\\s+${SUCCESS}`, 'i'), kind: 'after-success', tool: 1, first: 2 },
  { re: new RegExp(`^只有在\\s*${T}\\s*(?:调用)?成功(?:之后|以后|后)(?:才能|才可以|才可)${ZH_CALL}\\s*${T}`), kind: 'after-success', tool: 2, first: 1 },
  { re: new RegExp(`^(?:在\\s*${T}\\s*(?:调用)?成功(?:之前|以前)|除非\\s*${T}\\s*(?:调用)?成功[,，]?\\s*(?:否则)?)\\s*${ZH_NO}${ZH_CALL}\\s*${T}`), kind: 'after-success', tool: 3, first: 0 },
  { re: new RegExp(`^${NEVER}${CALL}${T}\\s+before\\s+(?:calling\\s+|a call (?:of|to)\\s+)?${T}(?!\\s+${SUCCESS})`, 'i'), kind: 'order', tool: 1, first: 2 },
  { re: new RegExp(`^(?:在\\s*${T}\\s*(?:之前|以前)\\s*${ZH_NO}|${ZH_NO}在\\s*${T}\\s*(?:之前|以前))${ZH_CALL}\\s*${T}`), kind: 'order', tool: 3, first: 0 },
  { re: new RegExp(`^${NEVER}${CALL}${T}\\s+more than\\s+${NUM}(?:\\s+times)?\\b`, 'i'), kind: 'count', tool: 1, max: 2 },
  { re: new RegExp(`^(?:never|do not|don't|must not)\\s+(?:make\\s+)?more than\\s+${NUM}\\s+calls?\\s+(?:of|to)\\s+${T}`, 'i'), kind: 'count', tool: 2, max: 1 },
  { re: new RegExp(`^(?:${ZH_RUN})?\\s*${ZH_CALL}\\s*${T}\\s*(?:的次数)?\\s*(?:${ZH_RUN})?\\s*${ZH_MAX}\\s*(\\d+)\\s*次`), kind: 'count', tool: 1, max: 2 },
  { re: new RegExp(`^${T}\\s*${ZH_RUN}\\s*(?:最多|至多)${ZH_CALL}?\\s*(\\d+)\\s*次`), kind: 'count', tool: 1, max: 2 },
  { re: new RegExp(`^${NEVER}${CALL}${T}${END}`, 'i'), kind: 'forbid', tool: 1 },
  { re: new RegExp(`^${ZH_NO}${ZH_CALL}\\s*${T}${END}`), kind: 'forbid', tool: 1 },
];

const WORDS: Record<string, number> = { once: 1, twice: 2 };

/** The checkable form of one boundary's text, if it has one. */
export function parseBoundary(text: string): BoundaryForm | undefined {
  if (!/^\s*❌/u.test(text)) return undefined;
  const body = text.replace(/^\s*❌\s*/u, '').trim();
  for (const f of FORMS) {
    const m = f.re.exec(body);
    if (!m) continue;
    // A group index of 0 means "the first of two alternatives that matched".
    const pick = (i: number | undefined, alt: number): string | undefined => (i === 0 ? (m[alt] ?? m[alt + 1]) : i === undefined ? undefined : m[i]);
    const tool = m[f.tool];
    if (!tool) continue;
    if (f.kind === 'forbid') return { kind: 'forbid', tool };
    if (f.kind === 'count') {
      const raw = m[f.max!]!.toLowerCase();
      return { kind: 'count', tool, max: WORDS[raw] ?? Number(raw) };
    }
    const first = pick(f.first, 1);
    if (first) return { kind: f.kind, tool, first };
  }
  return undefined;
}

const cache = new WeakMap<ParsedContract, readonly Boundary[]>();

/** The contract's boundaries in a checkable form, in document order (cached per model). */
export function boundaryForms(model: ParsedContract): readonly Boundary[] {
  let out = cache.get(model);
  if (!out) {
    out = boundariesOf(obj(model.data['identity'])?.['hard_boundaries']);
    cache.set(model, out);
  }
  return out;
}

/** The checkable boundaries of a `hard_boundaries` value (any data). */
export function boundariesOf(items: unknown): Boundary[] {
  const out: Boundary[] = [];
  arr(items).forEach((raw, i) => {
    if (typeof raw !== 'string') return;
    const form = parseBoundary(raw);
    if (form) out.push({ ...form, pointer: `/identity/hard_boundaries/${i}`, text: raw });
  });
  return out;
}

/** The tools a boundary names. */
export const boundaryTools = (b: BoundaryForm): string[] => (b.kind === 'order' || b.kind === 'after-success' ? [b.tool, b.first] : [b.tool]);

/**
 * Retrieval and context assembly (docs/dry-run.md "The pipeline", step 2; rule-based retrievers): each
 * MEMORY_REQUIREMENTS entry filters its pool's records by its filters, templates resolved from
 * the extracted entities, and takes the newest `top_k`; the context gives each pool a share of
 * its character budget by weight. Pure; linear in the number of records.
 */
import type { RequirementView } from '../../model/contractView.ts';

/** A filter with its template resolved. */
export interface ResolvedFilter {
  readonly field: string;
  readonly value: string | number | boolean;
}

const TEMPLATE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[\s*:\s*(\d+)\s*\])?\s*\}\}/g;

/**
 * Fills `{{extracted_<entity>}}`, `{{extracted_<entity>[:n]}}` and `{{query}}` (docs/contract-format.md
 * §7.2). Returns the entity that is missing when one is.
 */
export function resolveTemplate(value: unknown, entities: Readonly<Record<string, string>>, query: string): { value: string | number | boolean } | { missing: string } {
  if (typeof value === 'number' || typeof value === 'boolean') return { value };
  const text = typeof value === 'string' ? value : String(value ?? '');
  let missing: string | undefined;
  const out = text.replace(TEMPLATE, (_m, name: string, n?: string) => {
    const v = name === 'query' ? query : entities[name.startsWith('extracted_') ? name.slice('extracted_'.length) : name];
    if (v === undefined) {
      missing ??= name.startsWith('extracted_') ? name.slice('extracted_'.length) : name;
      return '';
    }
    return n === undefined ? v : v.slice(0, Number(n));
  });
  return missing !== undefined ? { missing } : { value: out };
}

/** A record's time for newest-first ordering: `timestamp`, `updated_at`, `created_at` or `date`. */
function recordTime(r: Readonly<Record<string, unknown>>): number {
  for (const k of ['timestamp', 'updated_at', 'created_at', 'date']) {
    const v = r[k];
    if (typeof v === 'string' || typeof v === 'number') {
      const t = typeof v === 'number' ? v : Date.parse(v);
      if (Number.isFinite(t)) return t;
    }
  }
  return Number.NEGATIVE_INFINITY;
}

/**
 * Whether a record passes a filter: its field equals the value (compared as text), or, for a
 * field `<name>_prefix` the record does not have, its `<name>` starts with the value (the
 * prefix filter: `error_code_prefix: E77` keeps `E773`).
 */
function passes(r: Readonly<Record<string, unknown>>, f: ResolvedFilter): boolean {
  const want = String(f.value);
  if (Object.prototype.hasOwnProperty.call(r, f.field)) {
    const v = r[f.field];
    return Array.isArray(v) ? v.some((x) => String(x) === want) : String(v) === want;
  }
  if (f.field.endsWith('_prefix')) {
    const base = r[f.field.slice(0, -'_prefix'.length)];
    return base !== undefined && base !== null && String(base).startsWith(want);
  }
  return false;
}

/** What one retrieval returned. */
export interface Retrieved {
  readonly records: readonly Readonly<Record<string, unknown>>[];
  /** Records that passed the filters, before `top_k`. */
  readonly matched: number;
  readonly total: number;
}

/** Filters a pool's records and returns the newest `topK`. */
export function retrieve(records: readonly Readonly<Record<string, unknown>>[], filters: readonly ResolvedFilter[], topK: number): Retrieved {
  const hits: { r: Readonly<Record<string, unknown>>; t: number; i: number }[] = [];
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    if (r && typeof r === 'object' && filters.every((f) => passes(r, f))) hits.push({ r, t: recordTime(r), i });
  }
  // Newest first; the snapshot's order breaks ties, so the result is deterministic.
  hits.sort((a, b) => b.t - a.t || a.i - b.i);
  return { records: hits.slice(0, topK).map((h) => h.r), matched: hits.length, total: records.length };
}

/** Characters of retrieved memory put into the prompt, shared among pools by weight. */
export const CONTEXT_CHARS = 8000;

/** The memory part of the prompt: per pool, by weight, the records that fit its share. */
export interface ContextBlock {
  readonly pool: string;
  readonly weight: number;
  readonly lines: readonly string[];
  /** Records retrieved but left out for lack of room. */
  readonly dropped: number;
}

/** Assembles the context: pools by descending weight, each record one JSON line, each pool within `weight / Σweights` of `CONTEXT_CHARS`. */
export function assembleContext(parts: readonly { readonly req: RequirementView; readonly records: readonly unknown[] }[], budget = CONTEXT_CHARS): ContextBlock[] {
  const total = parts.reduce((s, p) => s + Math.max(0, p.req.weight), 0) || 1;
  return [...parts]
    .sort((a, b) => b.req.weight - a.req.weight)
    .map((p) => {
      const share = Math.floor((budget * Math.max(0, p.req.weight)) / total);
      const lines: string[] = [];
      let used = 0;
      for (const r of p.records) {
        const line = JSON.stringify(r);
        if (used + line.length > share && lines.length > 0) break;
        lines.push(line.length > share ? `${line.slice(0, Math.max(0, share - 1))}…` : line);
        used += line.length;
      }
      return { pool: p.req.pool, weight: p.req.weight, lines, dropped: p.records.length - lines.length };
    });
}

/**
 * Reads a snapshot file (YAML or JSON) into a `Snapshot`, with diagnostics at LSP ranges for
 * every problem: syntax, schemas/snapshot.schema.json (ajv), the rules the schema cannot say
 * (one step kind, unique query ids), and, given the contract, names that the contract does not
 * declare (docs/dry-run.md "Snapshot files"). Never throws; bounded on any input.
 */
import { isMap, isPair, isScalar, isSeq, parseDocument, type Document, type Node } from 'yaml';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { tooDeepAt } from '../../util/jsonScan.ts';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ContractDiagnostic, Range, Severity } from '../../types.ts';
import type { ParsedContract } from '../../parse/parseContract.ts';
import { LineIndex } from '../../text/lineIndex.ts';
import { snapshotSchema } from '../../schema/schemas.ts';
import { MAX_SCRIPT_STEPS, toSnapshot, type Snapshot } from './snapshot.ts';
import { OUTCOME_CODES } from '../messages.ts';
import { RUN_PREFIX, runMessage } from '../runMessage.ts';
import { contractView } from '../../model/contractView.ts';
import { conditionNames } from '../engine/failureProtocol.ts';
import { conditionKey } from '../../model/names.ts';

/** Largest snapshot read, in UTF-16 code units (a 3 × 10,000-record snapshot is about 3 MB). */
export const MAX_SNAPSHOT_CHARS = 64 * 1024 * 1024;
/**
 * Largest YAML snapshot: parsing YAML with positions takes about 70 bytes of memory and 0.3 µs per
 * byte, superlinear past a few MB (25 MB: 79 s, 1.8 GB); JSON is parsed natively (25 MB: 2 s), so
 * large pools go in a JSON snapshot (docs/dry-run.md, "Snapshots").
 */
export const MAX_YAML_SNAPSHOT_CHARS = 4 * 1024 * 1024;
/** Most diagnostics reported for one file. */
const MAX_DIAGNOSTICS = 200;

/** The result of reading a snapshot: the snapshot when it has no errors, and the diagnostics. */
export interface SnapshotRead {
  readonly snapshot?: Snapshot;
  readonly diagnostics: readonly ContractDiagnostic[];
}

let validator: ValidateFunction | undefined;
function schemaValidator(): ValidateFunction {
  if (!validator) {
    const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addVocabulary(['x-l10n', 'markdownDescription', 'enumDescriptions']);
    validator = ajv.compile(snapshotSchema as object);
  }
  return validator;
}

type Segment = string | number;

/** Lazily built positions: the YAML document is only parsed for ranges when there is something to report. */
class Positions {
  private doc: Document.Parsed | undefined;
  private lines: LineIndex | undefined;
  constructor(
    private readonly text: string,
    doc?: Document.Parsed,
  ) {
    this.doc = doc;
  }
  private document(): Document.Parsed {
    this.doc ??= parseDocument(this.text, { uniqueKeys: false, strict: false });
    return this.doc;
  }
  range(start: number, end: number): Range {
    this.lines ??= new LineIndex(this.text);
    return this.lines.rangeAt(start, Math.max(start, end));
  }
  /** The range of the key (`prefer: 'key'`) or value at `path`, or of its nearest ancestor that exists. */
  at(path: readonly Segment[], prefer: 'key' | 'value' = 'value'): Range {
    let node: unknown = this.document().contents;
    let best: readonly [number, number] = [0, Math.min(this.text.length, 1)];
    const rangeOf = (n: unknown): readonly [number, number] | undefined => {
      const r = (n as Node | null)?.range;
      return r ? [r[0], r[1]] : undefined;
    };
    best = rangeOf(node) ?? best;
    for (let i = 0; i < path.length; i++) {
      const seg = path[i]!;
      const last = i === path.length - 1;
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
        if (!pair) break;
        const keyRange = rangeOf(pair.key);
        node = pair.value;
        const valueRange = rangeOf(node);
        best = last && prefer === 'key' ? (keyRange ?? best) : (valueRange ?? keyRange ?? best);
      } else if (isSeq(node) && typeof seg === 'number') {
        node = node.items[seg];
        best = rangeOf(node) ?? best;
      } else break;
    }
    // A whole query or mapping is many lines: point at its first line only.
    const nl = this.text.indexOf('\n', best[0]);
    const end = nl >= 0 && nl < best[1] ? nl : best[1];
    return this.range(best[0], end);
  }
}

/** A snapshot diagnostic: code `snapshot-<code>`, message `snapshot.<code>[.<variant>]` of the run's messages. */
function diagnostic(code: string, severity: Severity, range: Range, args: Record<string, string | number> = {}, variant?: string): ContractDiagnostic {
  const id = variant ? `snapshot.${code}.${variant}` : `snapshot.${code}`;
  return { code: `snapshot-${code}`, severity, range, message: runMessage(id, args), messageId: `${RUN_PREFIX}${id}`, args };
}

function pathOf(instancePath: string): Segment[] {
  if (!instancePath) return [];
  return instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function showPath(path: readonly Segment[]): string {
  return path.length === 0 ? '(root)' : path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function schemaDiagnostics(errors: readonly ErrorObject[], pos: Positions): ContractDiagnostic[] {
  const out: ContractDiagnostic[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue;
    const path = pathOf(e.instancePath);
    const params = e.params as { additionalProperty?: string; allowedValues?: unknown[]; missingProperty?: string };
    let at = path;
    let prefer: 'key' | 'value' = 'value';
    // ajv's own words for most keywords (quoted); ours, as variants, where we say it better.
    let message: { variant?: string; args: Record<string, string> } = { args: { path: showPath(path), detail: e.message ?? e.keyword } };
    if (e.keyword === 'additionalProperties' && params.additionalProperty) {
      at = [...path, params.additionalProperty];
      prefer = 'key';
      message = { variant: 'unknown-key', args: { path: showPath(at), key: params.additionalProperty } };
    } else if (e.keyword === 'enum') message = { variant: 'enum', args: { path: showPath(path), values: (params.allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ') } };
    else if (e.keyword === 'required') prefer = 'key';
    const key = `${showPath(at)}\u0000${message.variant ?? ''}\u0000${JSON.stringify(message.args)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(diagnostic('schema', 'error', pos.at(at, prefer), message.args, message.variant));
  }
  return out;
}

/** A mock answers with its `sequence` or with its own `output`/`error`, not both. */
function mockDiagnostics(tools: unknown, at: (string | number)[], pos: Positions, out: ContractDiagnostic[]): void {
  if (!tools || typeof tools !== 'object' || Array.isArray(tools)) return;
  for (const [name, list] of Object.entries(tools as Record<string, unknown>)) {
    (Array.isArray(list) ? list : []).forEach((m: any, i: number) => {
      if (!m || typeof m !== 'object' || !('sequence' in m)) return;
      for (const key of ['output', 'error']) if (key in m) out.push(diagnostic('sequence-and-answer', 'error', pos.at([...at, name, i, key], 'key'), { key }));
    });
  }
}

/** Checks the schema cannot express: one step kind, one way of giving arguments, unique query ids, the script's length. */
function ruleDiagnostics(data: Record<string, any>, pos: Positions): ContractDiagnostic[] {
  const out: ContractDiagnostic[] = [];
  const ids = new Map<string, number>();
  const queries: any[] = Array.isArray(data['queries']) ? data['queries'] : [];
  queries.forEach((q, qi) => {
    if (!q || typeof q !== 'object') return;
    if (typeof q['id'] === 'string') {
      if (ids.has(q['id'])) out.push(diagnostic('duplicate-query', 'error', pos.at(['queries', qi, 'id']), { id: q['id'] }));
      else ids.set(q['id'], qi);
    }
    let expanded = 0;
    (Array.isArray(q['model']) ? q['model'] : []).forEach((s: any, si: number) => {
      if (!s || typeof s !== 'object') return;
      const kinds = ['call', 'calls', 'final'].filter((k) => k in s).length;
      if (kinds !== 1) out.push(diagnostic('step-kind', 'error', pos.at(['queries', qi, 'model', si])));
      if ('arguments' in s && 'raw_arguments' in s) out.push(diagnostic('arguments-both', 'error', pos.at(['queries', qi, 'model', si, 'raw_arguments'], 'key')));
      for (const [ci, c] of (Array.isArray(s['calls']) ? s['calls'] : []).entries()) {
        if (c && typeof c === 'object' && 'arguments' in c && 'raw_arguments' in c) out.push(diagnostic('arguments-both', 'error', pos.at(['queries', qi, 'model', si, 'calls', ci, 'raw_arguments'], 'key')));
      }
      expanded += typeof s['repeat'] === 'number' ? s['repeat'] : 1;
      if (expanded > MAX_SCRIPT_STEPS && expanded - (typeof s['repeat'] === 'number' ? s['repeat'] : 1) <= MAX_SCRIPT_STEPS) {
        out.push(diagnostic('too-many-steps', 'warning', pos.at(['queries', qi, 'model', si]), { max: MAX_SCRIPT_STEPS }));
      }
    });
    mockDiagnostics(q['tools'], ['queries', qi, 'tools'], pos, out);
    const code = q['expect']?.['code'];
    if (typeof code === 'string' && !(code in OUTCOME_CODES)) {
      out.push(diagnostic('unknown-code', 'error', pos.at(['queries', qi, 'expect', 'code']), { code, known: Object.keys(OUTCOME_CODES).join(', ') }));
    }
  });
  mockDiagnostics(data['tools'], ['tools'], pos, out);
  if (typeof data['now'] !== 'string') out.push(diagnostic('no-now', 'warning', pos.at([], 'key')));
  return out;
}

/** Names the snapshot uses that the contract does not declare (warnings: the run still goes). */
function contractDiagnostics(data: Record<string, any>, contract: ParsedContract, pos: Positions): ContractDiagnostic[] {
  const view = contractView(contract);
  const out: ContractDiagnostic[] = [];
  const pools = new Set([...view.pools.keys(), ...view.requirements.map((r) => r.pool)]);
  const codes = new Set(view.failures.flatMap((f) => (f.code ? [f.code] : [])));
  const named = conditionNames(view);
  const lower = (s: string) => s.trim().toLowerCase();
  const decisionTargets = new Set([...view.hitl.map((h) => lower(h.scenario)), ...[...view.tools.keys()].map(lower), ...[...codes].map(lower)]);
  const checkTools = (tools: unknown, base: Segment[]) => {
    for (const name of Object.keys(tools && typeof tools === 'object' ? tools : {})) {
      if (!view.tools.has(name)) out.push(diagnostic('unknown-tool', 'warning', pos.at([...base, name], 'key'), { name }));
    }
  };
  const checkPools = (p: unknown, base: Segment[]) => {
    for (const name of Object.keys(p && typeof p === 'object' ? p : {})) {
      if (!pools.has(name)) out.push(diagnostic('unknown-pool', 'warning', pos.at([...base, name], 'key'), { name }));
    }
  };
  const checkFire = (fire: unknown, base: Segment[]) => {
    (Array.isArray(fire) ? fire : []).forEach((f, i) => {
      if (typeof f === 'string' && !named.has(conditionKey(f))) out.push(diagnostic('unknown-condition', 'warning', pos.at([...base, i]), { name: f }));
    });
  };
  checkTools(data['tools'], ['tools']);
  checkPools(data['pools'], ['pools']);
  (Array.isArray(data['queries']) ? data['queries'] : []).forEach((q: any, qi: number) => {
    if (!q || typeof q !== 'object') return;
    checkTools(q['tools'], ['queries', qi, 'tools']);
    checkPools(q['pools'], ['queries', qi, 'pools']);
    checkFire(q['fire'], ['queries', qi, 'fire']);
    for (const name of Object.keys(q['human'] && typeof q['human'] === 'object' ? q['human'] : {})) {
      if (!decisionTargets.has(lower(name))) out.push(diagnostic('unknown-decision-target', 'warning', pos.at(['queries', qi, 'human', name], 'key'), { name }));
    }
    (Array.isArray(q['model']) ? q['model'] : []).forEach((s: any, si: number) => {
      if (!s || typeof s !== 'object') return;
      // Calls of undeclared tools are not reported: UNKNOWN_TOOL is a failure kind a script may show.
      checkFire(s['fire'], ['queries', qi, 'model', si, 'fire']);
    });
    const errorCode = q['expect']?.['error_code'];
    if (typeof errorCode === 'string' && !codes.has(errorCode)) out.push(diagnostic('unknown-error-code', 'warning', pos.at(['queries', qi, 'expect', 'error_code']), { code: errorCode }));
  });
  return out;
}

/** Deepest nesting of objects and arrays a snapshot may have. */
const MAX_DEPTH = 200;

/** True when `data` nests objects or arrays deeper than `limit` (iterative: no stack to overflow). */
function depthOver(data: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[data, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d >= limit) return true;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return false;
}

/**
 * Reads a snapshot. `lang` is `json` for `*.snapshot.json` (parsed with JSON.parse, positions
 * computed only when something is reported) and `yaml` otherwise. With `contract`, names the
 * contract does not declare are reported as warnings. The snapshot is returned when there is no
 * error (warnings allowed).
 */
export function readSnapshot(text: string, options: { readonly lang?: 'yaml' | 'json'; readonly contract?: ParsedContract } = {}): SnapshotRead {
  if (text.length > MAX_SNAPSHOT_CHARS) {
    return { diagnostics: [diagnostic('too-large', 'error', { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, { size: text.length, limit: MAX_SNAPSHOT_CHARS })] };
  }
  if (options.lang !== 'json' && text.length > MAX_YAML_SNAPSHOT_CHARS) {
    return { diagnostics: [diagnostic('too-large', 'error', { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, { size: text.length, limit: MAX_YAML_SNAPSHOT_CHARS, jsonLimit: MAX_SNAPSHOT_CHARS }, 'yaml')] };
  }
  const body = text.charCodeAt(0) === 0xfeff ? ' ' + text.slice(1) : text;
  let data: unknown;
  let pos: Positions;
  const diagnostics: ContractDiagnostic[] = [];
  let parsedAsJson = false;
  if (options.lang === 'json') {
    try {
      data = JSON.parse(body);
      parsedAsJson = true;
    } catch {
      // Fall through to the YAML parser, which gives the position of the syntax error.
    }
  }
  if (parsedAsJson) pos = new Positions(body);
  else if (options.lang === 'json') {
    // JSON that JSON.parse refuses: jsonc-parser names the first error and its offset (it
    // recurses per bracket: past the depth a snapshot may have, it is not called).
    pos = new Positions(body);
    const deep = tooDeepAt(body, MAX_DEPTH);
    if (deep !== undefined) return { diagnostics: [diagnostic('too-deep', 'error', pos.range(deep, deep + 1), { limit: MAX_DEPTH })] };
    const errors: ParseError[] = [];
    parseJsonc(body, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
    const first = errors[0];
    const span: [number, number] = first ? [first.offset, first.offset + Math.max(1, first.length)] : [0, 1];
    return { diagnostics: [diagnostic('syntax', 'error', pos.range(span[0], Math.min(body.length, span[1])), first ? { detail: printParseErrorCode(first.error) } : {}, first ? undefined : 'not-json')] };
  } else {
    const doc = parseDocument(body, { uniqueKeys: true, strict: true, prettyErrors: false });
    pos = new Positions(body, doc);
    for (const err of doc.errors) {
      if (err.code === 'DUPLICATE_KEY') {
        const key = /^[^:\n]*/.exec(body.slice(err.pos[0]))![0].trim().replace(/^["']|["']$/g, '');
        diagnostics.push(diagnostic('duplicate-key', 'error', pos.range(err.pos[0], err.pos[0] + Math.max(1, key.length)), { key }));
      } else diagnostics.push(diagnostic('syntax', 'error', pos.range(err.pos[0], Math.max(err.pos[1], err.pos[0] + 1)), { detail: err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '') }));
    }
    if (diagnostics.length > 0) return { diagnostics: diagnostics.slice(0, MAX_DIAGNOSTICS) };
    try {
      data = doc.toJS({ maxAliasCount: 1000 });
    } catch (e) {
      return { diagnostics: [diagnostic('syntax', 'error', pos.range(0, 1), { detail: String((e as Error).message).split('\n')[0]! })] };
    }
  }
  if (data === null || data === undefined) return { diagnostics: [diagnostic('empty', 'error', pos.range(0, 0))] };
  // Records, mocks and arguments are walked recursively by the run (canonical JSON, redaction).
  if (depthOver(data, MAX_DEPTH)) return { diagnostics: [diagnostic('too-deep', 'error', pos.range(0, 1), { limit: MAX_DEPTH })] };
  const validate = schemaValidator();
  if (!validate(data)) diagnostics.push(...schemaDiagnostics(validate.errors ?? [], pos));
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    diagnostics.push(...ruleDiagnostics(data as Record<string, any>, pos));
    if (options.contract && !diagnostics.some((d) => d.severity === 'error')) diagnostics.push(...contractDiagnostics(data as Record<string, any>, options.contract, pos));
  }
  const limited = diagnostics.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character).slice(0, MAX_DIAGNOSTICS);
  if (limited.some((d) => d.severity === 'error')) return { diagnostics: limited };
  return { snapshot: toSnapshot(data as Record<string, any>), diagnostics: limited };
}

/**
 * Diagnostics of a snapshot's text for an editor (snapshot files get diagnostics in the
 * editor): the same checks as `readSnapshot`, LSP ranges.
 */
export function validateSnapshot(text: string, options: { readonly lang?: 'yaml' | 'json'; readonly contract?: ParsedContract } = {}): readonly ContractDiagnostic[] {
  return readSnapshot(text, options).diagnostics;
}

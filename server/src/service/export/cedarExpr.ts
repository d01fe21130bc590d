/**
 * The contract expression language (model/expression.ts) in Cedar (docs/enforcement.md), for the
 * conditions of HUMAN_IN_THE_LOOP rows at a tool call. The dry run's logic has three values (a
 * missing name makes a test unknown, and an unknown row does not fire), Cedar's two: each
 * expression becomes the Cedar test "is certainly true" (`holds(e, true)`) or "is certainly false"
 * (`holds(e, false)`), so that `NOT`, `AND` and `OR` keep the dry run's unknowns. One case per
 * kind of expression; a kind this module does not know (or a test Cedar cannot decide, such as
 * MATCHES) throws `Untranslatable`, and the caller makes the clause "requires a human".
 */
import type { Expr } from '../model/expression.ts';

/** The Cedar types of the values a condition reads. */
export type CedarType = 'Long' | 'String' | 'Bool' | 'Set<String>' | 'Set<Long>' | 'Set<Bool>';

/** Why a condition has no Cedar form (an `export.cedar.*` message id and its arguments). */
export class Untranslatable extends Error {
  constructor(
    readonly reason: string,
    readonly args: Readonly<Record<string, string>> = {},
  ) {
    super(reason);
  }
}

/** Where bare names are looked up: the call's arguments (typed by the tools' input schemas), then the request's names. */
export interface NameTypes {
  /** `context.args.<name>`: the types the tools' input schemas give. */
  readonly args: ReadonlyMap<string, CedarType>;
  /** `context.names.<name>`: learnt from the conditions (the other side of a comparison). */
  readonly names: Map<string, CedarType>;
}

interface Value {
  readonly term: string;
  readonly type: CedarType;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const CEDAR_KEYWORDS = new Set(['true', 'false', 'if', 'then', 'else', 'in', 'is', 'like', 'has', 'principal', 'action', 'resource', 'context']);

/** A Cedar string literal. */
export function cedarString(s: string): string {
  return `"${[...s].map((c) => (c === '"' ? '\\"' : c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : c.charCodeAt(0) < 0x20 ? `\\u{${c.charCodeAt(0).toString(16)}}` : c)).join('')}"`;
}

/** `record.attr` or `record["attr"]`, and `record has attr` or `record has "attr"`. */
export function attr(record: string, name: string): { get: string; has: string } {
  const plain = IDENT.test(name) && !CEDAR_KEYWORDS.has(name);
  return plain ? { get: `${record}.${name}`, has: `${record} has ${name}` } : { get: `${record}[${cedarString(name)}]`, has: `${record} has ${cedarString(name)}` };
}

const elementOf = (t: CedarType): CedarType | undefined => (t.startsWith('Set<') ? (t.slice(4, -1) as CedarType) : undefined);
const setOf = (t: CedarType): CedarType | undefined => (t.startsWith('Set<') ? undefined : (`Set<${t}>` as CedarType));

function literalType(v: unknown): CedarType {
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new Untranslatable('export.cedar.decimal', { value: String(v) });
    return 'Long';
  }
  if (typeof v === 'string') return 'String';
  if (typeof v === 'boolean') return 'Bool';
  throw new Untranslatable('export.cedar.null');
}

const literalTerm = (v: unknown): string => (typeof v === 'string' ? cedarString(v) : String(v));

/** The bare name a path reads (`x`, `input.entities.x`), or undefined for other paths. */
function bareName(e: Expr): string | undefined {
  if (e.kind !== 'path') return undefined;
  if (e.root !== 'input' && e.root !== 'output' && e.root !== 'memory' && e.steps.length === 0) return e.root;
  if (e.root === 'input' && e.steps.length === 2 && 'field' in e.steps[0]! && e.steps[0].field === 'entities' && 'field' in e.steps[1]!) return e.steps[1].field;
  return undefined;
}

/** Whether an operand reads the final answer, which a tool call does not have (its value is then missing). */
function readsOutput(e: Expr): boolean {
  switch (e.kind) {
    case 'path':
      return e.root === 'output';
    case 'call':
      return e.args.some(readsOutput);
    case 'not':
    case 'neg':
    case 'null':
      return readsOutput(e.arg);
    case 'list':
      return e.items.some(readsOutput);
    default:
      return 'left' in e && readsOutput((e as { left: Expr }).left);
  }
}

/** The static type of an operand, when it is known without evaluating. */
function staticType(e: Expr, types: NameTypes): CedarType | undefined {
  switch (e.kind) {
    case 'literal':
      return literalType(e.value);
    case 'list': {
      const items = new Set(e.items.map((i) => staticType(i, types)));
      const [only] = items;
      return items.size === 1 && only ? setOf(only) : items.size === 0 ? 'Set<String>' : undefined;
    }
    case 'file':
      return 'Set<String>';
    case 'path': {
      const n = bareName(e);
      return n === undefined ? undefined : (types.args.get(n) ?? types.names.get(n));
    }
    case 'arith':
    case 'neg':
      return 'Long';
    default:
      return undefined;
  }
}

/** Gives a bare name of `context.names` the type its use implies; two different uses make the condition untranslatable. */
function learn(e: Expr, type: CedarType | undefined, types: NameTypes): void {
  const n = bareName(e);
  if (n === undefined || type === undefined || types.args.has(n)) return;
  const known = types.names.get(n);
  if (known && known !== type) throw new Untranslatable('export.cedar.type-conflict', { name: n });
  types.names.set(n, type);
}

/**
 * The Cedar test that `e` has a value `k` accepts: `k` gets each place the value may come from
 * (the dry run's order of lookup); a value found nowhere makes the test false (unknown).
 */
function withValue(e: Expr, types: NameTypes, k: (v: Value) => string): string {
  if (readsOutput(e)) return 'false';
  switch (e.kind) {
    case 'literal':
      return k({ term: literalTerm(e.value), type: literalType(e.value) });
    case 'list': {
      const type = staticType(e, types);
      if (!type || e.items.some((i) => i.kind !== 'literal')) throw new Untranslatable('export.cedar.list');
      return k({ term: `[${e.items.map((i) => literalTerm((i as { value: unknown }).value)).join(', ')}]`, type });
    }
    case 'file': {
      const entity = `File::${cedarString(e.name)}`;
      const present = `${entity} has values`;
      return `(if ${present} then ${k({ term: `${entity}.values`, type: 'Set<String>' })} else false)`;
    }
    case 'path': {
      const n = bareName(e);
      if (n === undefined) throw new Untranslatable('export.cedar.path', { path: e.text });
      const places: { record: string; type: CedarType }[] = [];
      const a = e.root === 'input' ? undefined : types.args.get(n);
      if (a) places.push({ record: 'context.args', type: a });
      // Not among the call's arguments, the name is looked up in the request's names (as the dry run does).
      const m = types.names.get(n) ?? types.args.get(n);
      if (m) {
        types.names.set(n, m);
        places.push({ record: 'context.names', type: m });
      }
      if (places.length === 0) throw new Untranslatable('export.cedar.untyped', { name: n });
      return places.reduceRight((rest, p) => {
        const at = attr(p.record, n);
        return `(if ${at.has} then ${k({ term: at.get, type: p.type })} else ${rest})`;
      }, 'false');
    }
    case 'neg':
      learn(e.arg, 'Long', types);
      return withValue(e.arg, types, (v) => (v.type === 'Long' ? k({ term: `(-${v.term})`, type: 'Long' }) : untranslatableOrder('-')));
    case 'arith': {
      // Cedar has no division; + - * on Longs are the dry run's arithmetic on whole numbers.
      if (e.op === '/') throw new Untranslatable('export.cedar.operator', { kind: '/' });
      learn(e.left, 'Long', types);
      learn(e.right, 'Long', types);
      return withValue(e.left, types, (l) => withValue(e.right, types, (r) => (l.type === 'Long' && r.type === 'Long' ? k({ term: `(${l.term} ${e.op} ${r.term})`, type: 'Long' }) : untranslatableOrder(e.op))));
    }
    default:
      throw new Untranslatable('export.cedar.operand', { kind: e.kind });
  }
}

function untranslatableOrder(op: string): never {
  throw new Untranslatable('export.cedar.order', { op });
}

/** Whether `e` is defined (found and not null): the dry run's `IS NULL` and `exists()`. */
function defined(e: Expr, types: NameTypes): string {
  return withValue(e, types, () => 'true');
}

function compare(op: string, l: Value, r: Value, polarity: boolean): string {
  if (op === '=' || op === '!=') {
    // Values of different types are never equal in the dry run; Cedar's validator rejects comparing them.
    const eq = l.type === r.type ? `${l.term} == ${r.term}` : 'false';
    return (op === '=') === polarity ? eq : l.type === r.type ? `${l.term} != ${r.term}` : 'true';
  }
  if (l.type !== 'Long' || r.type !== 'Long') throw new Untranslatable('export.cedar.order', { op });
  const negation: Record<string, string> = { '<': '>=', '<=': '>', '>': '<=', '>=': '<' };
  return `${l.term} ${polarity ? op : negation[op]} ${r.term}`;
}

function inList(l: Value, r: Value, negated: boolean, polarity: boolean): string {
  const element = elementOf(r.type);
  if (!element) throw new Untranslatable('export.cedar.in');
  let inside: string;
  if (l.type === element) inside = `${r.term}.contains(${l.term})`;
  else if (elementOf(l.type) === element) inside = `${r.term}.containsAll(${l.term})`;
  else inside = 'false';
  return polarity !== negated ? inside : `!(${inside})`;
}

const and = (a: string, b: string) => (a === 'false' || b === 'false' ? 'false' : a === 'true' ? b : b === 'true' ? a : `(${a} && ${b})`);
const or = (a: string, b: string) => (a === 'true' || b === 'true' ? 'true' : a === 'false' ? b : b === 'false' ? a : `(${a} || ${b})`);

/** The Cedar test "`e` is certainly `polarity`" (unknown is neither). Throws `Untranslatable`. */
export function holds(e: Expr, polarity: boolean, types: NameTypes): string {
  switch (e.kind) {
    case 'and':
      return polarity ? and(holds(e.left, true, types), holds(e.right, true, types)) : or(holds(e.left, false, types), holds(e.right, false, types));
    case 'or':
      return polarity ? or(holds(e.left, true, types), holds(e.right, true, types)) : and(holds(e.left, false, types), holds(e.right, false, types));
    case 'not':
      return holds(e.arg, !polarity, types);
    case 'compare': {
      // The final answer is missing at a tool call: the test is unknown, neither true nor false.
      if (readsOutput(e.left) || readsOutput(e.right)) return 'false';
      learn(e.left, staticType(e.right, types), types);
      learn(e.right, staticType(e.left, types), types);
      return withValue(e.left, types, (l) => withValue(e.right, types, (r) => compare(e.op, l, r, polarity)));
    }
    case 'in': {
      if (readsOutput(e.left) || readsOutput(e.right)) return 'false';
      const right = staticType(e.right, types);
      const left = staticType(e.left, types);
      learn(e.left, right && elementOf(right), types);
      learn(e.right, left && (elementOf(left) ? left : setOf(left)), types);
      return withValue(e.left, types, (l) => withValue(e.right, types, (r) => inList(l, r, e.negated, polarity)));
    }
    case 'null': {
      const isNull = polarity !== e.negated;
      const d = defined(e.arg, types);
      return isNull ? (d === 'true' ? 'false' : d === 'false' ? 'true' : `!${d}`) : d;
    }
    case 'call': {
      if (e.fn !== 'exists' || e.args.length !== 1) throw new Untranslatable('export.cedar.function', { fn: e.fn });
      const d = defined(e.args[0]!, types);
      return polarity ? d : d === 'true' ? 'false' : d === 'false' ? 'true' : `!${d}`;
    }
    case 'literal':
      return Boolean(e.value) === polarity ? 'true' : 'false';
    case 'path':
      return withValue(e, types, (v) => {
        if (v.type === 'Bool') return polarity ? v.term : `!${v.term}`;
        if (elementOf(v.type)) return polarity ? `!${v.term}.isEmpty()` : `${v.term}.isEmpty()`;
        throw new Untranslatable('export.cedar.truth', { path: e.text });
      });
    case 'matches':
      throw new Untranslatable('export.cedar.matches');
    default:
      throw new Untranslatable('export.cedar.operator', { kind: (e as { kind: string }).kind });
  }
}

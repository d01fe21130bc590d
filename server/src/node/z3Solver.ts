/**
 * The SMT solver behind `agents-md prove` (docs/prove.md, "The solver"): Z3, from the npm package
 * `z3-solver` (WebAssembly), answering the SMT-LIB queries service/prove/smt.ts writes. Loaded on
 * the first proof only (lint and --help never read it). It stays a runtime dependency, not bundled:
 * its Emscripten module finds its .wasm and its thread script beside its own files. A check runs
 * synchronously on the calling thread (the module's exported `Z3_solver_check`) under a time limit:
 * the queries are small, and the asynchronous check's hand-over to a thread costs more than it solves.
 * That export is the Emscripten module's, not the typed API's: package.json pins the version.
 */
import { createRequire } from 'node:module';
import type { ProveSolver, SmtAnswer, SmtQuery, SmtValue } from '../service/index.ts';

type Z3Module = typeof import('z3-solver');
type Api = Awaited<ReturnType<Z3Module['init']>>;
type Ctx = ReturnType<typeof contextOf>;
const contextOf = (api: Api) => api.Context('prove');

/** Milliseconds one check may take; beyond, the answer is `unknown` (the result is then qualified). */
export const CHECK_TIMEOUT_MS = 3000;

let loading: Promise<ProveSolver | undefined> | undefined;

/** The solver, loaded once per process; undefined when the package cannot be loaded here (the proof then says so). */
export function z3Solver(): Promise<ProveSolver | undefined> {
  loading ??= (async () => {
    try {
      const z3 = createRequire(import.meta.url)('z3-solver') as Z3Module;
      const api = await z3.init();
      return solverOf(api, contextOf(api));
    } catch {
      return undefined;
    }
  })();
  return loading;
}

/** `\u{4e2d}` escapes of a Z3 string value back to text. */
const unescape = (s: string) => s.replace(/\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})/g, (_, a: string | undefined, b: string | undefined) => String.fromCodePoint(parseInt(a ?? b!, 16)));

function solverOf(api: Api, ctx: Ctx): ProveSolver {
  const read = (model: ReturnType<InstanceType<Ctx['Solver']>['model']>, name: string, sort: SmtQuery['read'][number]['sort']): SmtValue => {
    if (sort === 'Bool') return String(model.eval(ctx.Bool.const(name), true)) === 'true';
    if (sort === 'String') {
      const v = model.eval(ctx.String.const(name), true) as unknown as { isString(): boolean; asString(): string };
      return v.isString() ? unescape(v.asString()) : '';
    }
    const v = model.eval(sort === 'Int' ? ctx.Int.const(name) : ctx.Real.const(name), true) as unknown as { value(): bigint | { numerator: bigint; denominator: bigint } };
    const x = v.value();
    return typeof x === 'bigint' ? Number(x) : Number(x.numerator) / Number(x.denominator);
  };
  return {
    name: 'z3',
    async check(q: SmtQuery): Promise<SmtAnswer> {
      const solver = new ctx.Solver();
      try {
        solver.set('timeout', CHECK_TIMEOUT_MS);
        solver.fromString(q.smt);
        const r = api.em._Z3_solver_check(ctx.ptr, solver.ptr) as number;
        if (r === -1) return { status: 'unsat' };
        if (r !== 1) return { status: 'unknown', reason: api.Z3.solver_get_reason_unknown(ctx.ptr, solver.ptr) };
        const model = solver.model();
        return { status: 'sat', values: Object.fromEntries(q.read.map((v) => [v.name, read(model, v.name, v.sort)])) };
      } catch (e) {
        return { status: 'unknown', reason: e instanceof Error ? e.message : String(e) };
      } finally {
        solver.release?.();
      }
    },
  };
}

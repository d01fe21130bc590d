/**
 * Changes to a snapshot given with a fork (`agents-md trace fork --set path=value`, docs/dry-run.md
 * "Forking"): the state the run goes on with after the fork point, beyond a human's decision or a
 * whole other snapshot ("what if the inventory service had answered in_stock: 0?"). A path is the
 * snapshot's keys joined by dots, `query.` standing for the forked query; the value is YAML.
 * The edited snapshot is read and checked like any other.
 */
import { parse, parseDocument } from 'yaml';
import type { MessageRef } from '../runMessage.ts';
import type { ContractDiagnostic } from '../../types.ts';

/** A `path=value` that is not a change: the message says why. */
export class SnapshotSetError extends Error {
  constructor(readonly ref: MessageRef) {
    super(ref.id);
  }
}

/** The keys of a dotted path; `query.` is the query's place in `queries`; a whole number is an index. */
function keysOf(path: string, queryIndex: number): (string | number)[] {
  const parts = path.split('.');
  const keys: (string | number)[] = parts[0] === 'query' ? ['queries', queryIndex, ...parts.slice(1)] : parts;
  return keys.map((k) => (typeof k === 'string' && /^(0|[1-9]\d{0,8})$/.test(k) ? Number(k) : k));
}

/**
 * The snapshot text with every `path=value` applied in order, as YAML. Throws `SnapshotSetError`
 * for an assignment without a path or `=`, a value that is not YAML, or a path through a scalar.
 */
export function applySnapshotSets(text: string, sets: readonly string[], queryId: string): string {
  const doc = parseDocument(text);
  const queries = (doc.toJS({ maxAliasCount: 1000 }) as { queries?: { id?: unknown }[] } | null)?.queries;
  const queryIndex = Array.isArray(queries) ? queries.findIndex((q) => q?.id === queryId) : -1;
  for (const set of sets) {
    const eq = set.indexOf('=');
    const path = eq > 0 ? set.slice(0, eq).trim() : '';
    if (!path || path.split('.').some((k) => k === '') || (path.startsWith('query.') && queryIndex < 0)) throw new SnapshotSetError({ id: 'trace.set-invalid', args: { set } });
    let value: unknown;
    try {
      value = parse(set.slice(eq + 1));
    } catch (e) {
      throw new SnapshotSetError({ id: 'trace.set-value', args: { set, detail: String((e as Error).message).split('\n')[0]! } });
    }
    try {
      doc.setIn(keysOf(path, queryIndex), doc.createNode(value ?? null));
    } catch {
      throw new SnapshotSetError({ id: 'trace.set-path', args: { set, path } });
    }
  }
  return String(doc);
}

/**
 * Which `path=value` made the edited snapshot wrong: applied one by one, the first change after
 * which `check` finds new errors, with those errors. Their places are in the edited text, which
 * the user never sees, so a host names the change instead (`--set tools.x=12: …`).
 */
export function blameSnapshotSets(
  text: string, sets: readonly string[], queryId: string, check: (text: string) => readonly ContractDiagnostic[],
): { set: string; diagnostics: ContractDiagnostic[] }[] {
  const errors = (t: string) => check(t).filter((d) => d.severity === 'error');
  const key = (d: ContractDiagnostic) => `${d.code}|${d.message}`;
  let before = new Set(errors(text).map(key));
  for (let n = 1; n <= sets.length; n++) {
    const found = errors(applySnapshotSets(text, sets.slice(0, n), queryId));
    const fresh = found.filter((d) => !before.has(key(d)));
    if (fresh.length > 0) return [{ set: sets[n - 1]!, diagnostics: fresh }];
    before = new Set(found.map(key));
  }
  return [];
}

/**
 * Whether data read back from the summary store (node/summaryStore.ts) has the shape of a
 * `ContractSummary`: a file in the cache folder is anyone's to edit, and an entry of another shape
 * (a checksum recomputed by hand) must be made again, not break the cross-contract rules.
 */
import type { ContractSummary } from '../service/index.ts';

type Check = (v: unknown) => boolean;

const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str: Check = (v) => typeof v === 'string';
const bool: Check = (v) => typeof v === 'boolean';
const list = (item: Check): Check => (v) => Array.isArray(v) && v.every(item);
const optional = (v: unknown, check: Check): boolean => v === undefined || check(v);
const position: Check = (p) => obj(p) && Number.isSafeInteger(p['line']) && Number.isSafeInteger(p['character']);
const range: Check = (r) => obj(r) && position(r['start']) && position(r['end']);
const named: Check = (n) => obj(n) && str(n['name']) && range(n['range']);
const external: Check = (n) => named(n) && str((n as Record<string, unknown>)['uri']);

const pool: Check = (p) => named(p) && obj(p) && optional(p['metadata'], list(str)) && optional(p['metadataRange'], range) && optional(p['lifecycle'], str) && optional(p['lifecycleRange'], range) && bool(p['shared']);
const resource: Check = (r) => obj(r) && str(r['path']) && str(r['sha256']) && range(r['range']);
const errorCode: Check = (e) => obj(e) && str(e['code']) && str(e['meaning']) && range(e['range']);
const sideEffectTool: Check = (t) => named(t) && obj(t) && (t['sideEffects'] === 'write' || t['sideEffects'] === 'external') && bool(t['gated']);
const symbol: Check = (s) => named(s) && obj(s) && str(s['kind']);
const version: Check = (v) => obj(v) && str(v['value']) && range(v['range']);

function digest(d: unknown): boolean {
  if (!obj(d)) return false;
  return (
    str(d['uri']) && str(d['path']) && optional(d['agent'], named) && optional(d['version'], version) &&
    list(pool)(d['pools']) && list(named)(d['requiredPools']) && list(resource)(d['resources']) && list(errorCode)(d['errorCodes']) &&
    list(named)(d['writers']) && optional(d['authorised'], list(str)) && optional(d['authorisedRange'], range) &&
    list(sideEffectTool)(d['sideEffectTools']) && list(str)(d['tools']) && list(symbol)(d['symbols'])
  );
}

/** True when `v` is a summary as `summarise` makes them (types of every field the rules read). */
export function isContractSummary(v: unknown): v is ContractSummary {
  return obj(v) && list(external)(v['pools']) && list(external)(v['agents']) && optional(v['digest'], digest);
}

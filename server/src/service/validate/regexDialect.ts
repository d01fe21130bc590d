import { RE2JS } from 're2js';
import { Lru } from '../util/lru.ts';

/** The result of checking a pattern against the documented dialect: JavaScript syntax, RE2 semantics. */
export type DialectCheck = { ok: true; groups: readonly string[] } | { ok: false; engine: 'js' | 're2'; detail: string };

const cache = new Lru<string, DialectCheck>(1000);

/**
 * Checks an intent pattern (docs/contract-format.md, "Intent patterns"): it must compile as a
 * JavaScript regular expression and under RE2, which has no lookaround or backreferences and
 * runs in linear time. Only compiles, never matches, so a hostile pattern cannot hang it.
 * Returns the named groups, which name the entities the pattern extracts.
 */
export function checkPatternDialect(pattern: string): DialectCheck {
  const hit = cache.get(pattern);
  if (hit) return hit;
  let result: DialectCheck;
  try {
    new RegExp(pattern, 'u');
    try {
      RE2JS.compile(pattern);
      const groups = [...pattern.matchAll(/\(\?<([A-Za-z_][A-Za-z0-9_]*)>/g)].map((m) => m[1]!);
      result = { ok: true, groups };
    } catch (e) {
      result = { ok: false, engine: 're2', detail: String((e as Error).message).replace(/^error parsing regexp: /, '') };
    }
  } catch (e) {
    result = { ok: false, engine: 'js', detail: String((e as Error).message).replace(/^Invalid regular expression: /, '') };
  }
  cache.set(pattern, result);
  return result;
}

/** Compiles a pattern for matching on RE2 (linear time); undefined when it does not compile. */
export function compileRe2(pattern: string, caseInsensitive = true): RE2JS | undefined {
  try {
    return RE2JS.compile(pattern, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
  } catch {
    return undefined;
  }
}

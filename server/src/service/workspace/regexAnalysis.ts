import type { RegexVerdict } from './facts.ts';
import { Lru } from '../util/lru.ts';

/** Analyses a pattern for super-linear backtracking. Injected so that tests and browsers can do without recheck. */
export type RegexAnalyzer = (pattern: string) => Promise<RegexVerdict>;

const verdicts = new Lru<string, Promise<RegexVerdict>>(2000);

/**
 * The default analyzer: recheck (automaton and fuzz checkers) with a time limit per pattern, in
 * recheck's own worker or native process, off the typing path. Verdicts are memoised by pattern
 * source; an analysis that fails or times out gives `unknown`, never an exception.
 */
export const recheckAnalyzer: RegexAnalyzer = (pattern) => {
  let v = verdicts.get(pattern);
  if (!v) {
    v = (async (): Promise<RegexVerdict> => {
      try {
        const { check } = await import('recheck');
        const r = await check(pattern, '', { timeout: 2000 });
        if (r.status === 'safe') return { status: 'safe' };
        if (r.status === 'vulnerable') {
          const type = r.complexity.type === 'exponential' ? 'exponential' : 'polynomial';
          const attack = r.attack.pattern.length > 60 ? `${r.attack.pattern.slice(0, 57)}...` : r.attack.pattern;
          return { status: 'vulnerable', complexity: type, attack };
        }
        return { status: 'unknown' };
      } catch {
        return { status: 'unknown' };
      }
    })();
    verdicts.set(pattern, v);
  }
  return v;
};

import type { RegexVerdict } from '../validate/facts.ts';
import type { ParsedContract } from '../parse/parseContract.ts';
import { Lru } from '../util/lru.ts';
import { unquote } from '../model/names.ts';
import { checkPatternDialect } from '../validate/regexDialect.ts';

/** Analyses a pattern for super-linear backtracking. Injected so that tests and browsers can do without recheck. */
export type RegexAnalyzer = (pattern: string) => Promise<RegexVerdict>;

/** The intent patterns of a contract that the analysis is asked about: TRIGGER's, those RE2 accepts. */
export function analysedPatterns(model: ParsedContract): string[] {
  const patterns = (model.data['trigger'] as { intent_patterns?: unknown } | undefined)?.intent_patterns;
  return Array.isArray(patterns) ? patterns.map(unquote).filter((p) => p && checkPatternDialect(p).ok) : [];
}

/** recheck's time limit for one pattern. */
const RECHECK_TIMEOUT_MS = 2000;

/**
 * What gives the verdicts of `analyzeWithRecheck`: verdicts kept between runs (node/regexVerdictCache.ts)
 * are reused only under the same analyser. The recheck version is that of package-lock.json
 * (test/cliStartup.test.ts checks it).
 */
export const RECHECK_ANALYZER_ID = `recheck@4.5.0 timeout=${RECHECK_TIMEOUT_MS}`;

/**
 * One recheck analysis (automaton and fuzz checkers, 2 s time limit). Never throws: a failure
 * or a time-out gives `unknown`.
 */
export async function analyzeWithRecheck(pattern: string): Promise<RegexVerdict> {
  try {
    const { check } = await import('recheck');
    const r = await check(pattern, '', { timeout: RECHECK_TIMEOUT_MS });
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
}

/**
 * Memoises an analyzer by pattern source (bounded). An `unknown` verdict is often a time-out of a
 * loaded machine: it is kept for `retryUnknownMs` only, then the pattern is analysed again.
 */
export function memoised(analyze: RegexAnalyzer, options: { retryUnknownMs?: number; now?: () => number } = {}): RegexAnalyzer {
  const retryMs = options.retryUnknownMs ?? 30_000;
  const now = options.now ?? Date.now;
  const verdicts = new Lru<string, { verdict: Promise<RegexVerdict>; unknownSince?: number }>(2000);
  return (pattern) => {
    const kept = verdicts.get(pattern);
    if (kept && (kept.unknownSince === undefined || now() - kept.unknownSince < retryMs)) return kept.verdict;
    const entry: { verdict: Promise<RegexVerdict>; unknownSince?: number } = { verdict: analyze(pattern) };
    void entry.verdict.then((v) => {
      if (v.status === 'unknown') entry.unknownSince = now();
    });
    verdicts.set(pattern, entry);
    return entry.verdict;
  };
}

/**
 * The default analyzer in this process: recheck, memoised. The CLI uses it (recheck runs its
 * native binary or worker); the language server runs the analysis in a worker thread of its own
 * (server/src/lsp/regexWorker.ts) so that recheck's memory is returned when it is idle.
 */
export const recheckAnalyzer: RegexAnalyzer = memoised(analyzeWithRecheck);

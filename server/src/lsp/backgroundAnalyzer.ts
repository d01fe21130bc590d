import type { RegexAnalyzer } from '../service/index.ts';

type Verdict = Awaited<ReturnType<RegexAnalyzer>>;

/**
 * A RegexAnalyzer that answers at once: the verdict when the analysis of a pattern has finished,
 * else `unknown` (no diagnostic) while `analyze` runs in the background; `onVerdict` is called
 * when an analysis ends with something to report, so the diagnostics are asked for again. Keeps
 * the ReDoS worker's start and its time limit off the first diagnostics and the typing path.
 */
export function backgroundAnalyzer(analyze: RegexAnalyzer, onVerdict: () => void): RegexAnalyzer {
  const done = new Map<string, Verdict>();
  const running = new Set<string>();
  return (pattern) => {
    const known = done.get(pattern);
    if (known) return Promise.resolve(known);
    if (!running.has(pattern)) {
      running.add(pattern);
      void analyze(pattern)
        .catch((): Verdict => ({ status: 'unknown' }))
        .then((v) => {
          running.delete(pattern);
          // Bounded like the analyzer's own memo: drop the oldest verdict.
          if (done.size >= 2000) done.delete(done.keys().next().value!);
          done.set(pattern, v);
          if (v.status !== 'unknown') onVerdict();
        });
    }
    return Promise.resolve({ status: 'unknown' });
  };
}

import type { RegexAnalyzer } from '../service/index.ts';

type Verdict = Awaited<ReturnType<RegexAnalyzer>>;

/**
 * RegexAnalyzers that answer at once: the verdict when the analysis of a pattern has finished,
 * else `unknown` (no diagnostic) while `analyze` runs in the background. Keeps the ReDoS worker's
 * start and its time limit off the first diagnostics and the typing path.
 *
 * `forDocument(uri)` is the analyzer one document's diagnostics use: when an analysis it waited
 * for ends with something to report (`vulnerable`), `onVerdict` gets the documents that asked, so
 * that only their diagnostics are computed again. A `safe` verdict reports nothing, as `unknown`
 * did, and asks for nothing: re-diagnosing every open document on it was work for no change.
 */
export function backgroundAnalyzer(analyze: RegexAnalyzer, onVerdict: (askedBy: ReadonlySet<string>) => void): (uri: string) => RegexAnalyzer {
  const done = new Map<string, Verdict>();
  /** Running analyses and the documents waiting for each. */
  const running = new Map<string, Set<string>>();
  return (uri) => (pattern) => {
    const known = done.get(pattern);
    if (known) return Promise.resolve(known);
    const waiting = running.get(pattern);
    if (waiting) waiting.add(uri);
    else {
      running.set(pattern, new Set([uri]));
      void analyze(pattern)
        .catch((): Verdict => ({ status: 'unknown' }))
        .then((v) => {
          const askedBy = running.get(pattern)!;
          running.delete(pattern);
          // Bounded like the analyzer's own memo: drop the oldest verdict.
          if (done.size >= 2000) done.delete(done.keys().next().value!);
          done.set(pattern, v);
          if (v.status === 'vulnerable') onVerdict(askedBy);
        });
    }
    return Promise.resolve({ status: 'unknown' });
  };
}

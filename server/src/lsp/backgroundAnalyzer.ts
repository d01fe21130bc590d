import type { RegexAnalyzer } from '../service/index.ts';

type Verdict = Awaited<ReturnType<RegexAnalyzer>>;

export interface BackgroundOptions {
  /**
   * The waits before analysing an `unknown` verdict again, one per retry (default 2 s, 10 s,
   * 30 s): `unknown` is most often a time-out of a machine busy starting the editor.
   */
  readonly retryDelaysMs?: readonly number[];
  /** An `unknown` left after the retries is kept this long; asked for later, it is analysed again (default 60 s). */
  readonly askAgainMs?: number;
  readonly now?: () => number;
  /** Told of each analysis that gave no verdict (the server's protocol trace). */
  readonly trace?: (message: string) => void;
}

const RETRY_DELAYS_MS = [2_000, 10_000, 30_000];
const ASK_AGAIN_MS = 60_000;
/** Verdicts kept, like the analyzer's own memo: the oldest goes first. */
const MAX_VERDICTS = 2000;

/**
 * RegexAnalyzers that answer at once: the verdict when the analysis of a pattern has finished,
 * else `unknown` (no diagnostic) while `analyze` runs in the background. Keeps the ReDoS worker's
 * start and its time limit off the first diagnostics and the typing path.
 *
 * `forDocument(uri)` is the analyzer one document's diagnostics use: when an analysis it waited
 * for ends with something to report (`vulnerable`), `onVerdict` gets the documents that asked, so
 * that only their diagnostics are computed again. A `safe` verdict reports nothing, as `unknown`
 * did, and asks for nothing: re-diagnosing every open document on it was work for no change.
 * An `unknown` verdict (or a failed analysis) is analysed again after each of `retryDelaysMs`,
 * the documents still waiting; the retries' waits are not pending work (`agentsMd/settled`).
 */
export function backgroundAnalyzer(analyze: RegexAnalyzer, onVerdict: (askedBy: ReadonlySet<string>) => void, options: BackgroundOptions = {}): (uri: string) => RegexAnalyzer {
  const delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  const askAgainMs = options.askAgainMs ?? ASK_AGAIN_MS;
  const now = options.now ?? Date.now;
  const done = new Map<string, { readonly verdict: Verdict; readonly at: number }>();
  /** Running analyses (or retries waiting) and the documents waiting for each. */
  const running = new Map<string, Set<string>>();
  const run = (pattern: string, attempt: number): void => {
    void analyze(pattern)
      .catch((): Verdict => ({ status: 'unknown' }))
      .then((v) => {
        if (v.status === 'unknown') {
          // A protocol trace line like `validated …` and `dropped …` (docs/performance.md), not UI text.
          const again = attempt < delays.length ? `retry in ${delays[attempt]} ms` : `kept ${askAgainMs} ms`;
          options.trace?.(`unknown ReDoS verdict ${JSON.stringify(pattern)} (attempt ${attempt + 1}); ${again}`);
        }
        if (v.status === 'unknown' && attempt < delays.length) {
          setTimeout(() => run(pattern, attempt + 1), delays[attempt]).unref();
          return;
        }
        const askedBy = running.get(pattern)!;
        running.delete(pattern);
        if (done.size >= MAX_VERDICTS) done.delete(done.keys().next().value!);
        done.set(pattern, { verdict: v, at: now() });
        if (v.status === 'vulnerable') onVerdict(askedBy);
      });
  };
  return (uri) => (pattern) => {
    const known = done.get(pattern);
    if (known && (known.verdict.status !== 'unknown' || now() - known.at < askAgainMs)) return Promise.resolve(known.verdict);
    const waiting = running.get(pattern);
    if (waiting) waiting.add(uri);
    else {
      done.delete(pattern);
      running.set(pattern, new Set([uri]));
      run(pattern, 0);
    }
    return Promise.resolve({ status: 'unknown' });
  };
}

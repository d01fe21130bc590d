import type { RegexAnalyzer } from '../service/index.ts';
import { Lru } from '../service/host.ts';

type Verdict = Awaited<ReturnType<RegexAnalyzer>>;
/** One analysis: its verdict, or undefined when none came (the analysis process was late, failed or is missing). */
export type AskVerdict = (pattern: string) => Promise<Verdict | undefined>;

export interface BackgroundOptions {
  /**
   * The waits before asking again when no answer came, one per retry (default 2 s, 10 s, 30 s,
   * 1 min, 2 min): most often a machine busy starting the editor, or an analysis process that died.
   */
  readonly noAnswerDelaysMs?: readonly number[];
  /**
   * The waits before analysing again when the analysis answered `unknown` (recheck undecided
   * within its time limit; default one retry after 2 s, in case a busy moment cut it short).
   */
  readonly undecidedDelaysMs?: readonly number[];
  /** A verdict left undecided after the retries is kept this long; asked for later, it is analysed again (default 5 min). */
  readonly askAgainMs?: number;
  readonly now?: () => number;
  /** Told of each analysis that gave no verdict (the server's protocol trace). */
  readonly trace?: (message: string) => void;
  /**
   * Whether one of the documents that asked for a pattern still uses it, asked when a retry is
   * due (default: yes). One that does not is not analysed again: a pattern edited away was
   * retried for minutes (found by a tester).
   */
  readonly inUse?: (pattern: string, askedBy: ReadonlySet<string>) => boolean;
}

const NO_ANSWER_DELAYS_MS = [2_000, 10_000, 30_000, 60_000, 120_000];
const UNDECIDED_DELAYS_MS = [2_000];
const ASK_AGAIN_MS = 300_000;
/** Verdicts kept, like the analyzer's own memo. */
const MAX_VERDICTS = 2000;

/**
 * RegexAnalyzers that answer at once: the verdict when the analysis of a pattern has finished,
 * else `unknown` (no diagnostic) while `ask` runs in the background. Keeps the ReDoS worker's
 * start and its time limit off the first diagnostics and the typing path.
 *
 * `forDocument(uri)` is the analyzer one document's diagnostics use: when an analysis it waited
 * for ends with something to report (`vulnerable`), `onVerdict` gets the documents that asked, so
 * that only their diagnostics are computed again. A `safe` verdict reports nothing, as `unknown`
 * did, and asks for nothing: re-diagnosing every open document on it was work for no change.
 * An analysis without an answer is asked again after each of `noAnswerDelaysMs`, an undecided one
 * after each of `undecidedDelaysMs` (a pattern recheck cannot decide costs a process and seconds
 * of CPU each time), the documents still waiting, as long as one of them still uses the pattern
 * (`inUse`); the waits are not pending work (`agentsMd/settled`).
 */
export function backgroundAnalyzer(ask: AskVerdict, onVerdict: (askedBy: ReadonlySet<string>) => void, options: BackgroundOptions = {}): (uri: string) => RegexAnalyzer {
  const noAnswer = options.noAnswerDelaysMs ?? NO_ANSWER_DELAYS_MS;
  const undecided = options.undecidedDelaysMs ?? UNDECIDED_DELAYS_MS;
  const askAgainMs = options.askAgainMs ?? ASK_AGAIN_MS;
  const now = options.now ?? Date.now;
  const inUse = options.inUse ?? (() => true);
  const done = new Lru<string, { readonly verdict: Verdict; readonly at: number }>(MAX_VERDICTS);
  /** Running analyses (or retries waiting) and the documents waiting for each. */
  const running = new Map<string, Set<string>>();
  const run = (pattern: string, tries: { noAnswer: number; undecided: number }): void => {
    void ask(pattern)
      .catch(() => undefined)
      .then((v) => {
        const kind = v === undefined ? 'noAnswer' : v.status === 'unknown' ? 'undecided' : undefined;
        if (kind) {
          const delays = kind === 'noAnswer' ? noAnswer : undecided;
          const delay = delays[tries[kind]];
          // A protocol trace line like `validated …` and `dropped …` (docs/performance.md), not UI text.
          options.trace?.(`${kind === 'noAnswer' ? 'no ReDoS verdict' : 'unknown ReDoS verdict'} ${JSON.stringify(pattern)}; ${delay === undefined ? `kept ${askAgainMs} ms` : `retry in ${delay} ms if still used`}`);
          if (delay !== undefined) {
            setTimeout(() => {
              if (inUse(pattern, running.get(pattern)!)) return run(pattern, { ...tries, [kind]: tries[kind] + 1 });
              // Forgotten: a document that uses it later starts a new analysis.
              running.delete(pattern);
              options.trace?.(`dropped ReDoS analysis ${JSON.stringify(pattern)} (unused)`);
            }, delay).unref();
            return;
          }
        }
        const askedBy = running.get(pattern)!;
        running.delete(pattern);
        done.set(pattern, { verdict: v ?? { status: 'unknown' }, at: now() });
        if (v?.status === 'vulnerable') onVerdict(askedBy);
      });
  };
  return (uri) => (pattern) => {
    const known = done.get(pattern);
    if (known && (known.verdict.status !== 'unknown' || now() - known.at < askAgainMs)) return Promise.resolve(known.verdict);
    const waiting = running.get(pattern);
    if (waiting) waiting.add(uri);
    else {
      running.set(pattern, new Set([uri]));
      run(pattern, { noAnswer: 0, undecided: 0 });
    }
    return Promise.resolve({ status: 'unknown' });
  };
}

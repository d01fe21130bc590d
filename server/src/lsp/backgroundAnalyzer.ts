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
}

const NO_ANSWER_DELAYS_MS = [2_000, 10_000, 30_000, 60_000, 120_000];
const UNDECIDED_DELAYS_MS = [2_000];
const ASK_AGAIN_MS = 300_000;
/** Verdicts kept, like the analyzer's own memo. */
const MAX_VERDICTS = 2000;

/** What is known of a pattern: a verdict, or a retry that waits (`due` once its wait is over). */
interface Known {
  readonly verdict: Verdict;
  readonly at: number;
  readonly retry?: { readonly tries: Tries; readonly askedBy: Set<string>; due: boolean };
}
interface Tries {
  readonly noAnswer: number;
  readonly undecided: number;
}

/**
 * RegexAnalyzers that answer at once: the verdict when the analysis of a pattern has finished,
 * else `unknown` (no diagnostic) while `ask` runs in the background. Keeps the ReDoS worker's
 * start and its time limit off the first diagnostics and the typing path.
 *
 * `forDocument(uri)` is the analyzer one document's diagnostics use: when an analysis it waited
 * for ends with something to report (`vulnerable`), `rediagnose` gets the documents that asked, so
 * that only their diagnostics are computed again. A `safe` verdict reports nothing, as `unknown`
 * did, and asks for nothing: re-diagnosing every open document on it was work for no change.
 * An analysis without an answer may be retried after each of `noAnswerDelaysMs`, an undecided one
 * after each of `undecidedDelaysMs` (a pattern recheck cannot decide costs a process and seconds
 * of CPU each time). A retry is asked for, not run: when its wait is over, the documents that
 * asked are diagnosed again, and the pattern is analysed again only if one of them still has it
 * (a pattern edited away was analysed for minutes: found by a tester). The waits are not pending
 * work (`agentsMd/settled`).
 */
export function backgroundAnalyzer(ask: AskVerdict, rediagnose: (askedBy: ReadonlySet<string>) => void, options: BackgroundOptions = {}): (uri: string) => RegexAnalyzer {
  const noAnswer = options.noAnswerDelaysMs ?? NO_ANSWER_DELAYS_MS;
  const undecided = options.undecidedDelaysMs ?? UNDECIDED_DELAYS_MS;
  const askAgainMs = options.askAgainMs ?? ASK_AGAIN_MS;
  const now = options.now ?? Date.now;
  const known = new Lru<string, Known>(MAX_VERDICTS);
  /** Running analyses and the documents waiting for each. */
  const running = new Map<string, Set<string>>();
  const run = (pattern: string, tries: Tries, askedBy: Set<string>): void => {
    running.set(pattern, askedBy);
    void ask(pattern)
      .catch(() => undefined)
      .then((v) => {
        running.delete(pattern);
        const kind = v === undefined ? 'noAnswer' : v.status === 'unknown' ? 'undecided' : undefined;
        const delay = kind && (kind === 'noAnswer' ? noAnswer : undecided)[tries[kind]];
        // A protocol trace line like `validated …` and `dropped …` (docs/performance.md), not UI text.
        if (kind) options.trace?.(`${kind === 'noAnswer' ? 'no ReDoS verdict' : 'unknown ReDoS verdict'} ${JSON.stringify(pattern)}; ${delay === undefined ? `kept ${askAgainMs} ms` : `retry in ${delay} ms if still used`}`);
        if (kind && delay !== undefined) {
          const retry = { tries: { ...tries, [kind]: tries[kind] + 1 }, askedBy, due: false };
          known.set(pattern, { verdict: { status: 'unknown' }, at: now(), retry });
          setTimeout(() => {
            retry.due = true;
            rediagnose(askedBy);
          }, delay).unref();
          return;
        }
        known.set(pattern, { verdict: v ?? { status: 'unknown' }, at: now() });
        if (v?.status === 'vulnerable') rediagnose(askedBy);
      });
  };
  return (uri) => (pattern) => {
    const k = known.get(pattern);
    const waiting = running.get(pattern) ?? (k?.retry?.due === false ? k.retry.askedBy : undefined);
    if (waiting) waiting.add(uri);
    else if (k?.retry) run(pattern, k.retry.tries, new Set([uri])); // its wait is over
    else if (!k || (k.verdict.status === 'unknown' && now() - k.at >= askAgainMs)) run(pattern, { noAnswer: 0, undecided: 0 }, new Set([uri]));
    else return Promise.resolve(k.verdict);
    return Promise.resolve({ status: 'unknown' });
  };
}

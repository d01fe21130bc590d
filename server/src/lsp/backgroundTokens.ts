import type { TokenCounter } from '../service/index.ts';
import { Lru } from '../service/host.ts';
import type { PendingWork } from './settled.ts';

/**
 * The server's token counts (docs/performance.md, "Memory given back"): the tokenizer runs in a
 * process of its own, so a count is known once that process has answered.
 */
export interface BackgroundTokens {
  /**
   * The counter one document's diagnostics use: a known count at once, else undefined while the
   * text waits for the next batch, sent once typing pauses (`delayMs`); when the batch is
   * counted, `onCounted` gets the documents that asked, to check them again.
   */
  forDocument(uri: string): TokenCounter;
  /** `compute` run with every count it asks for: run once (awaited), the texts it lacked counted, run again (the hover, the lens, a contract not open). */
  withCounts<T>(compute: (count: TokenCounter) => T | Promise<T>): Promise<T>;
}

/** `count`: the tokens of each text, or undefined when the counting process failed. */
export function backgroundTokens(count: (texts: readonly string[]) => Promise<readonly number[] | undefined>, onCounted: (askedBy: ReadonlySet<string>) => void, pending: PendingWork, delayMs = 300): BackgroundTokens {
  const known = new Lru<string, number>(8000);
  /** Texts for the next batch, and the documents that asked for each. */
  const wanted = new Map<string, Set<string>>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ended: (() => void) | undefined;
  const countAll = async (texts: readonly string[]): Promise<boolean> => {
    const counts = await pending.track(count(texts));
    if (!counts || counts.length !== texts.length) return false;
    texts.forEach((t, i) => known.set(t, counts[i]!));
    return true;
  };
  const flush = () => {
    const batch = new Map(wanted);
    wanted.clear();
    timer = undefined;
    const end = ended!;
    ended = undefined;
    void countAll([...batch.keys()]).then((ok) => {
      if (ok) onCounted(new Set([...batch.values()].flatMap((uris) => [...uris])));
      end();
    });
  };
  return {
    forDocument: (uri) => (text) => {
      const n = known.get(text);
      if (n !== undefined) return n;
      const askers = wanted.get(text);
      if (askers) askers.add(uri);
      else wanted.set(text, new Set([uri]));
      // Typing moves the batch on: one count, and one check again, per pause.
      clearTimeout(timer);
      ended ??= pending.begin();
      timer = setTimeout(flush, delayMs);
      return undefined;
    },
    async withCounts(compute) {
      const missing = new Set<string>();
      // Awaited: an asynchronous `compute` (a lint reads the workspace first) asks for counts after its first await.
      const first = await compute((text) => known.get(text) ?? void missing.add(text));
      if (missing.size === 0 || !(await countAll([...missing]))) return first;
      return compute((text) => known.get(text));
    },
  };
}

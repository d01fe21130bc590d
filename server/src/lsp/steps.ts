/** How long work in steps runs before it lets queued messages in (ms). */
const SLICE_MS = 8;

/**
 * Runs work in steps (a generator that yields between steps) to its end, pausing every
 * SLICE_MS so that edits and requests queued meanwhile are read and answered; after each pause
 * the work is abandoned, and undefined returned, once `stale()` (docs/performance.md, "The
 * first seconds after opening"). An abandoned generator keeps what it finished for the next run.
 */
export async function runSteps<T>(steps: Generator<void, T>, stale: () => boolean): Promise<T | undefined> {
  let since = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() - since < SLICE_MS) continue;
    await new Promise((resolve) => setImmediate(resolve));
    if (stale()) {
      steps.return(undefined as T);
      return undefined;
    }
    since = performance.now();
  }
}

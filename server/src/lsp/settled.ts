/**
 * `agentsMd/settled` (docs/performance.md, "Knowing the server has settled"): answered once the
 * server has no work under way that could still send or change diagnostics (a push waiting for
 * typing to pause, a validation running, a ReDoS analysis or the version advice a document waits
 * for, a file event being read, a workspace pass, a held workspace pull woken by an edit). A
 * workspace pull held because nothing changed is not work under way. Clients and tests use it to
 * know that nothing more is coming, rather than waiting a fixed time.
 */
import type { Connection } from 'vscode-languageserver';
import { SETTLED, type SettledResult } from './customRequests.ts';

/** Work the server has started and not finished, counted so that `agentsMd/settled` can wait for it. */
export interface PendingWork {
  /** Counts `work` as pending until it settles; returns it. */
  track<T>(work: Promise<T>): Promise<T>;
  /** Counts something as pending (a timer set, a pass running) until the returned function is called (once counts). */
  begin(): () => void;
  /** Resolves once nothing is pending, still so after the event loop's next turn (a `then` may start more). */
  idle(): Promise<void>;
}

export function pendingWork(): PendingWork {
  let count = 0;
  const wakers: (() => void)[] = [];
  const begin = () => {
    count++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--count === 0) for (const w of wakers.splice(0)) w();
    };
  };
  return {
    begin,
    track(work) {
      const end = begin();
      work.then(end, end);
      return work;
    },
    async idle() {
      for (;;) {
        if (count > 0) await new Promise<void>((r) => wakers.push(r));
        await new Promise((r) => setImmediate(r));
        if (count === 0) return;
      }
    },
  };
}

export function registerSettled(connection: Connection, pending: PendingWork): void {
  connection.onRequest(SETTLED, async (): Promise<SettledResult> => {
    await pending.idle();
    return {};
  });
}

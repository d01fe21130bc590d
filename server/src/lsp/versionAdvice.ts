import type { ContractDiagnostic, ParsedContract } from '../service/index.ts';
import type { DocumentStates } from './documentState.ts';
import type { ServerContext } from './serverContext.ts';

/** How long typing must pause before the version advice against HEAD is computed again (ms). */
const ADVICE_DELAY_MS = 400;

export interface VersionAdvice {
  /** Computes the advice for this version once typing pauses (unless it is computed or waiting already). */
  schedule(uri: string, version: number): void;
  /** The advice last computed for the document. */
  items(uri: string): readonly ContractDiagnostic[];
  forget(uri: string): void;
}

/**
 * The version advice against HEAD (a git read, a parse of HEAD and a diff) is off the typing
 * path: diagnostics carry the advice last computed for the document, and a new one is computed
 * once typing pauses; when it differs, `changed` asks for the document's diagnostics again.
 */
export function versionAdvice(
  ctx: ServerContext,
  docs: DocumentStates,
  headAdvice: (uri: string, model: ParsedContract) => Promise<readonly ContractDiagnostic[]>,
  changed: (uri: string) => void,
): VersionAdvice {
  const advice = new Map<string, { version: number; items: readonly ContractDiagnostic[] }>();
  // A timer and the advice it computes count as pending work (`agentsMd/settled`): the advice may change diagnostics.
  const adviceTimers = new Map<string, { version: number; timer: ReturnType<typeof setTimeout>; end: () => void }>();
  const cancel = (uri: string) => {
    const waiting = adviceTimers.get(uri);
    clearTimeout(waiting?.timer);
    waiting?.end();
    adviceTimers.delete(uri);
  };
  return {
    schedule(uri, version) {
      // Computed for this version already, or waiting for typing to pause at this version.
      if (advice.get(uri)?.version === version || adviceTimers.get(uri)?.version === version) return;
      cancel(uri);
      const end = ctx.pending.begin();
      const timer = setTimeout(() => {
        adviceTimers.delete(uri);
        const doc = ctx.documents.get(uri);
        if (!doc || doc.version !== version) return end();
        void headAdvice(uri, docs.stateOf(doc).model)
          .then((items) => {
            if (ctx.documents.get(uri)?.version !== version) return;
            const before = advice.get(uri)?.items ?? [];
            advice.set(uri, { version, items });
            if (JSON.stringify(before) !== JSON.stringify(items)) changed(uri);
          })
          .finally(end);
      }, ADVICE_DELAY_MS);
      adviceTimers.set(uri, { version, timer, end });
    },
    items: (uri) => advice.get(uri)?.items ?? [],
    forget(uri) {
      advice.delete(uri);
      cancel(uri);
    },
  };
}

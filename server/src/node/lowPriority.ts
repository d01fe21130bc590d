/**
 * Background work that gives way (docs/performance.md, "Background work gives way"): the ReDoS
 * analysis, the token counts and the workspace pass run below normal scheduling priority (nice 10:
 * on Linux a tenth of a normal thread's share when both want a core; 19 starved them past their
 * time-outs while VS Code starts), so that on a busy machine the editor and the server's answer to
 * a keystroke get the cores first. Linux sets a priority per thread: there, each of the process's
 * threads (`'process'`, or a child's `{ pid }`) or the calling thread alone (`'thread'`) is lowered.
 * Elsewhere the priority is the process's, and a thread is left as it is. Never throws: a system that refuses
 * leaves the priority unchanged.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';

const BELOW_NORMAL = constants.priority.PRIORITY_BELOW_NORMAL;

/** What is lowered: this process, the calling thread, or the process `pid` (a child, right after it is started). */
export type PriorityScope = 'process' | 'thread' | { readonly pid: number };

export function lowerPriority(scope: PriorityScope): void {
  for (const id of attempt(() => idsToLower(scope)) ?? []) attempt(() => setPriority(id, BELOW_NORMAL));
}

/** What `setPriority` takes for `scope`: thread ids on Linux, else a process id (0: this one) or nothing. */
function idsToLower(scope: PriorityScope): number[] {
  if (scope === 'thread') return process.platform === 'linux' ? [Number(readlinkSync('/proc/thread-self').split('/').pop())] : [];
  const pid = scope === 'process' ? undefined : scope.pid;
  if (process.platform !== 'linux') return [pid ?? 0];
  return readdirSync(`/proc/${pid ?? 'self'}/task`).map(Number);
}

/** `f`'s result, or undefined when the system refuses (not permitted, no /proc, a thread gone meanwhile). */
function attempt<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

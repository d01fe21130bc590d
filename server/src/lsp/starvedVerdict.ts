import type { RegexAnalyzer } from '../service/index.ts';
import type { AskVerdict } from './backgroundAnalyzer.ts';

/**
 * Below this share of one core over an analysis, the process was kept waiting, not analysing. An
 * analysis on an idle machine takes more than a core (recheck's thread, V8's helpers: 1.1 to 1.6
 * measured); 0.5 let a machine busy with two normal-priority loops, which left the process 60 to
 * 75 %, turn patterns that need 1.5 s of CPU into verdicts kept undecided (found by a tester).
 */
const STARVED_SHARE = 0.9;

/**
 * `analyze` as the ReDoS process answers (lsp/regexWorker.ts): an `unknown` verdict reached while
 * the process had less than 90 % of a core (it runs below normal priority, node/lowPriority.ts, and
 * the machine was busy elsewhere) is no verdict (undefined): recheck's time limit is wall-clock
 * time, so the limit says nothing of the pattern. The server asks again later, as for an analysis
 * that did not answer (lsp/backgroundAnalyzer.ts), rather than keeping `unknown` for minutes.
 * `cpuMs` and `wallMs`: the process's CPU time and the clock, in milliseconds.
 */
export function decidedOrStarved(analyze: RegexAnalyzer, cpuMs: () => number = processCpuMs, wallMs: () => number = () => performance.now()): AskVerdict {
  return async (pattern) => {
    const cpu = cpuMs();
    const wall = wallMs();
    const verdict = await analyze(pattern);
    if (verdict.status !== 'unknown') return verdict;
    const elapsed = wallMs() - wall;
    return elapsed > 0 && (cpuMs() - cpu) / elapsed < STARVED_SHARE ? undefined : verdict;
  };
}

function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

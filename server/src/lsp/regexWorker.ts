/**
 * Child process of the language server (dist/regexWorker.cjs): runs recheck's ReDoS analysis of
 * intent patterns off the server's thread, under a heap limit. A process rather than a worker
 * thread: when it exits after idling, all the memory recheck took goes back to the system (a
 * terminated worker thread left about 100 MB in the server). It runs below normal priority, and
 * an analysis cut short because the process was kept waiting is no verdict (lsp/starvedVerdict.ts).
 */
import { analyzeWithRecheck } from '../service/host.ts';
import { answerQuestions } from './childProcess.ts';
import { decidedOrStarved } from './starvedVerdict.ts';

// recheck's JavaScript engine in a worker thread of this process, as in the .vsix (which has no
// native binary): run from a checkout, recheck would start its native binary from node_modules,
// whose CPU time this process cannot see, and every undecided pattern would look starved.
process.env.RECHECK_BACKEND = 'worker';
answerQuestions(decidedOrStarved(analyzeWithRecheck));

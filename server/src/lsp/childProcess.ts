/**
 * Child processes of the language server that answer questions (the ReDoS analysis, the token
 * counts): started on first use with a heap limit, ended after some time without work, so that
 * the memory their libraries take goes back to the system (a terminated worker thread left its
 * memory in the server: docs/performance.md, "Memory given back").
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lowerPriority } from '../node/lowPriority.ts';

/** What the server sends, and what the child answers with the same id. */
interface Question<Q> {
  readonly id: number;
  readonly question: Q;
}
interface Answer<A> {
  readonly id: number;
  readonly answer: A;
}

/** A started child, the questions it has not answered yet, and the timer of its silence while it has some. */
interface Running<A> {
  readonly process: ChildProcess;
  readonly pending: Map<number, (answer: A | undefined) => void>;
  silence?: ReturnType<typeof setTimeout>;
}

export interface ChildOptions {
  /** Ended after this long without a question (default 5 s). */
  readonly idleMs?: number;
  /** A child that has questions and answers none for this long is ended, its questions answered undefined (default 10 s). */
  readonly timeoutMs?: number;
  /** The child's heap limit (default 256 MB). */
  readonly heapMb?: number;
}

/**
 * Asks the child process `file` (a bundled worker of dist/): the answer, or undefined when the
 * file is missing, the child fails or exits, or takes longer than `timeoutMs` (then it is ended).
 */
export function askChild<Q, A>(file: string, options: ChildOptions = {}): (question: Q) => Promise<A | undefined> {
  const idleMs = options.idleMs ?? 5_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let child: Running<A> | undefined;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let next = 0;
  const start = (): Running<A> | undefined => {
    if (child) return child;
    if (!existsSync(file)) return undefined;
    // process.execPath: node, or the editor's runtime that runs this server as node.
    const c = fork(file, [], { execArgv: [`--max-old-space-size=${options.heapMb ?? 256}`], stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    // Lowered at once, not only by itself once its bundle is loaded (a second of CPU, found by a tester).
    if (c.pid !== undefined) lowerPriority({ pid: c.pid });
    c.unref();
    c.channel?.unref();
    // Questions belong to the process asked: one ending settles its own, never a successor's.
    const running: Running<A> = { process: c, pending: new Map() };
    c.on('message', (m: Answer<A>) => {
      running.pending.get(m.id)?.(m.answer);
      running.pending.delete(m.id);
      watch(running); // an answer is progress: silence counts from here
      touch(); // idle from the last answer: a question longer than idleMs must not keep it alive
    });
    const gone = () => {
      if (child === running) child = undefined;
      clearTimeout(running.silence);
      for (const resolve of running.pending.values()) resolve(undefined);
      running.pending.clear();
    };
    c.on('error', gone);
    c.on('exit', gone);
    child = running;
    return running;
  };
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      const ending = child;
      if (!ending || ending.pending.size > 0) return;
      // Forgotten before it is killed: a question asked before its exit is seen starts a new one.
      child = undefined;
      ending.process.kill();
    }, idleMs);
    idle.unref();
  };
  /**
   * Times the child's silence while it has questions: none answered for `timeoutMs` means stuck
   * (or stopped), not busy. It is ended, so that the next question starts a new child rather than
   * queueing behind it for the rest of the session (found by a tester). Counted from its last
   * answer, not from each question: a child working through a queue of questions, one at a time,
   * is not silent (a tester's 18 patterns took 10.5 s, and the last ones were cut off).
   */
  const watch = (running: Running<A>) => {
    clearTimeout(running.silence);
    if (running.pending.size === 0) return;
    running.silence = setTimeout(() => {
      if (child === running) child = undefined;
      running.process.kill('SIGKILL');
      for (const resolve of running.pending.values()) resolve(undefined);
      running.pending.clear();
    }, timeoutMs);
    running.silence.unref();
  };
  return (question) =>
    new Promise<A | undefined>((resolve) => {
      const running = start();
      if (!running) return resolve(undefined);
      const id = next++;
      running.pending.set(id, resolve);
      // A question asked of a child that was already answering others waits its turn.
      if (running.pending.size === 1) watch(running);
      running.process.send({ id, question } satisfies Question<Q>);
      touch();
    });
}

/** The child's side: answers each question with `answer`, and ends when the server goes. */
export function answerQuestions<Q, A>(answer: (question: Q) => A | Promise<A>): void {
  // A keystroke's diagnostics never wait for an analysis (docs/performance.md, "Background work gives way").
  lowerPriority('process');
  process.on('message', (m: Question<Q>) => {
    void Promise.resolve(answer(m.question)).then((a) => process.send?.({ id: m.id, answer: a } satisfies Answer<A>));
  });
  // The server went (or closed the channel): nothing is left to answer.
  process.on('disconnect', () => process.exit(0));
}

/**
 * Background work gives way (server/src/node/lowPriority.ts, docs/performance.md): a worker
 * thread of the server's workspace pass lowers its own thread only, never the server's others.
 * (The child processes' threads: test/tokenWorker.test.ts.)
 * Run: node --import tsx --test test/lowPriority.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { repo } from './helpers/bundles.ts';
import { join } from 'node:path';

/** The nice value of one thread of this process (field 19 of its stat; the name before it is in parentheses). */
const niceOf = (tid: string) => Number(readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);

test("'thread' lowers the calling worker thread and no other", { skip: process.platform !== 'linux' && 'thread priorities are per thread on Linux only' }, async () => {
  const module = pathToFileURL(join(repo, 'server/src/node/lowPriority.ts')).href;
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     const { readlinkSync } = require('node:fs');
     import('tsx/esm/api').then((t) => (t.register(), import(${JSON.stringify(module)}))).then((m) => {
       m.lowerPriority('thread');
       parentPort.postMessage(readlinkSync('/proc/thread-self').split('/').pop());
       parentPort.once('message', () => process.exit(0));
     });`,
    { eval: true },
  );
  const [tid] = (await once(worker, 'message')) as [string];
  try {
    assert.equal(niceOf(tid), 10, 'the worker thread');
    assert.equal(niceOf(String(process.pid)), 0, 'the main thread keeps its priority');
  } finally {
    worker.postMessage('end');
    await once(worker, 'exit');
  }
});

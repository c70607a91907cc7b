// The worker thread of a large reports import (report-reader.ts). It loads the TypeScript modules through
// tsx's CommonJS loader, in this thread (workers do not inherit the parent's loader; tsx's ESM loader would
// start one more thread and cost about 10 MB more). A failure to load is sent back as an error message, since
// the importing thread waits synchronously and would not see the worker's 'error' event.
const { workerData } = require('node:worker_threads');

try {
  require('tsx/cjs/api').register();
  require('./report-reader.ts').reportWorkerMain(workerData);
} catch (err) {
  const { port, counters } = workerData;
  // nothing posted yet and the importer still waiting: one error message (the queue is empty, no back-pressure)
  if (Atomics.load(counters, 0) === 0 && Atomics.load(counters, 2) === 0) {
    port.postMessage({ type: 'error', kind: 'other', message: err instanceof Error ? err.message : String(err), stack: err && err.stack });
    Atomics.store(counters, 0, 1);
    Atomics.notify(counters, 0);
  }
}

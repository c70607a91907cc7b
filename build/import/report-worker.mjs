// The worker thread of a large reports import (report-reader.ts): registers tsx's loader (workers do not
// inherit the parent's), then reads and checks the file. A failure to load is sent back as an error message,
// since the importing thread waits synchronously and would not see the worker's 'error' event.
import { workerData } from 'node:worker_threads';

try {
  const { register } = await import('tsx/esm/api');
  register();
  const { reportWorkerMain } = await import('./report-reader.ts');
  reportWorkerMain(workerData);
} catch (err) {
  const { port, counters } = workerData;
  // a failure before reportWorkerMain could answer: one error message, without back-pressure (the queue is empty)
  if (Atomics.load(counters, 0) === 0 && Atomics.load(counters, 2) === 0) {
    port.postMessage({ type: 'error', kind: 'other', message: err instanceof Error ? err.message : String(err), stack: err?.stack });
    Atomics.store(counters, 0, 1);
    Atomics.notify(counters, 0);
  }
}

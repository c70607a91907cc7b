// Bootstrap of a keyed-artifact worker thread (keyed-pool.ts): the sources are TypeScript, run through
// tsx's loader, which each thread registers for itself. A thread that cannot start says so on the shared
// counter (slot 1), so the build thread, blocked waiting for results, fails instead of waiting forever.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

try {
  register();
  await import('./keyed-worker.ts');
} catch (err) {
  const flags = new Int32Array(workerData.counter);
  workerData.results.postMessage({ si: -1, files: [], summary: null, error: `a keyed worker thread could not start: ${err?.stack ?? err}` });
  Atomics.store(flags, 1, 1);
  Atomics.add(flags, 0, 1);
  Atomics.notify(flags, 0);
}

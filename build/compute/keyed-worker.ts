/**
 * A keyed-artifact worker thread (keyed-pool.ts): for each specialty it is handed (its per-report columns),
 * computes every cell, serialises both private artifacts and validates them: the same pure functions the
 * build runs in-process, so the bytes are identical. Results go back on the pool's port, each announced on
 * the shared counter so the build thread can wait for them without an event loop.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { keyedReportsArtifact, keyedSpecialtyFromColumns, summarizeSpecialty } from './keyed.ts';
import { compactJson } from '../emit/json.ts';
import { validateArtifact } from '../contract/validate.ts';
import type { KeyedTask, KeyedTaskResult } from './keyed-pool.ts';

const { results, counter } = workerData as { results: MessagePort; counter: SharedArrayBuffer };
const announced = new Int32Array(counter);

function run(t: KeyedTask): KeyedTaskResult {
  const artifact = keyedSpecialtyFromColumns(t.columns, t.slug, t.name, t.bls, t.states);
  const files = ([[t.paths.specialty, compactJson(artifact)], [t.paths.reports, compactJson(keyedReportsArtifact(t.slug, t.columns))]] as const).map(([path, text]) => {
    const bytes = Buffer.from(text);
    return { path, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), problems: validateArtifact(path, bytes) };
  });
  return { si: t.si, files, summary: summarizeSpecialty(t.states, artifact), error: null };
}

parentPort!.on('message', (t: KeyedTask) => {
  let r: KeyedTaskResult;
  try {
    r = run(t);
  } catch (err) {
    r = { si: t.si, files: [], summary: null, error: (err as Error).stack ?? String(err) };
  }
  results.postMessage(r);
  Atomics.add(announced, 0, 1);
  Atomics.notify(announced, 0);
});

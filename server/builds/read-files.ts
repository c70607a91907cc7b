/**
 * Read a build's files and check them against the manifest in a worker thread (read-thread.mjs), so a load
 * costs the event loop one message however busy the server is. Read on the loop, 16 files at a time, each
 * file took a few loop turns (open, stat, read, close): under a flood of requests every turn answered
 * hundreds of them first, and a server started behind a busy edge did not load its build until the traffic
 * stopped (README: Operations, "Start-up"). A file that blocks holds the thread, never the answers.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

export interface ExpectedFile {
  /** path inside the build folder */
  path: string;
  bytes: number;
  /** hex SHA-256 of the bytes */
  sha256: string;
}

type ThreadAnswer = { buffer: ArrayBuffer } | { mismatch: number } | { error: string; code?: string };

/** A read failed (the file's own error, e.g. ENOENT) or a file disagrees with `files[index]`. */
export class ReadFilesError extends Error {
  constructor(message: string, readonly mismatch: ExpectedFile | null, readonly code?: string) {
    super(message);
  }
}

/** The bytes of each of `files` under `dir`, in order, each checked for its size and SHA-256. */
export function readVerifiedFiles(dir: string, files: ExpectedFile[]): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(fileURLToPath(new URL('./read-thread.mjs', import.meta.url)), { workerData: { dir, files } });
    // ref'd like any read in progress (a CLI awaiting the load must not exit first); `physpay serve` exits
    // explicitly when it stops, even while the thread waits on a stuck file
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      f();
      void worker.terminate();
    };
    worker.once('message', (answer: ThreadAnswer) => settle(() => {
      if ('buffer' in answer) {
        let offset = 0;
        resolve(files.map((f) => {
          const bytes = Buffer.from(answer.buffer, offset, f.bytes);
          offset += f.bytes;
          return bytes;
        }));
      } else if ('mismatch' in answer) {
        const f = files[answer.mismatch]!;
        reject(new ReadFilesError(`${f.path} does not match its manifest entry`, f));
      } else reject(new ReadFilesError(answer.error, null, answer.code));
    }));
    worker.once('error', (err) => settle(() => reject(err)));
    worker.once('exit', (code) => settle(() => reject(new Error(`the build reader thread stopped (exit ${code}) before answering`))));
  });
}

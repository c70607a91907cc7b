/**
 * Where the build's files go to disk: a writer thread (writer-thread.mjs) takes each file as it is made,
 * so writing (which on a busy disk costs as much as computing) overlaps the rest of the build. The build
 * stays synchronous: `finish()` blocks until every file handed over is written (and flushed when
 * durable), and throws the first failure. `link` makes a file a hard link to an identical file of an
 * earlier build (immutable, so sharing its inode is safe), which costs no data writes.
 */
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

export interface FileWriter {
  write(path: string, bytes: Uint8Array): void;
  link(from: string, path: string): void;
  /** block until every file is on disk; throws the first error */
  finish(): void;
  /** stop the thread (after finish, or to abandon the build) */
  close(): void;
}

export class WriteError extends Error {}

export function createWriter(durable: boolean): FileWriter {
  const state = new SharedArrayBuffer(8);
  const counters = new Int32Array(state);
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(fileURLToPath(new URL('./writer-thread.mjs', import.meta.url)), {
    workerData: { state, errors: port2, durable },
    transferList: [port2],
  });
  worker.unref();
  let posted = 0;
  let closed = false;
  return {
    write(path, bytes) {
      worker.postMessage({ op: 'write', path, bytes });
      posted++;
    },
    link(from, path) {
      worker.postMessage({ op: 'link', from, path });
      posted++;
    },
    finish() {
      for (;;) {
        const done = Atomics.load(counters, 0);
        if (done >= posted) break;
        Atomics.wait(counters, 0, done, 1000);
      }
      if (Atomics.load(counters, 1) !== 0) {
        const m = receiveMessageOnPort(port1);
        throw new WriteError(m ? String(m.message) : 'a file could not be written');
      }
    },
    close() {
      if (closed) return;
      closed = true;
      port1.close();
      void worker.terminate();
    },
  };
}

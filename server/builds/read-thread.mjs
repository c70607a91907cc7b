// The build reader thread (read-files.ts): reads a build's files one after the other into one buffer and
// checks each against its manifest entry (size and SHA-256), off the server's event loop, then hands the
// buffer over in one message. Plain JavaScript: it needs only node:fs and node:crypto, and runs the same
// under tsx and the test runner. A file that blocks (a named pipe, a stalled disk) holds this thread only.
import { closeSync, openSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const { dir, files } = workerData; // files: { path, bytes, sha256 }[]

function run() {
  const total = files.reduce((sum, f) => sum + f.bytes, 0);
  const buffer = new ArrayBuffer(total);
  const spare = Buffer.alloc(1);
  let offset = 0;
  for (const [index, f] of files.entries()) {
    const slot = Buffer.from(buffer, offset, f.bytes);
    let got = 0;
    let more = 0;
    const fd = openSync(join(dir, f.path), 'r');
    try {
      while (got < f.bytes) {
        const n = readSync(fd, slot, got, f.bytes - got, null);
        if (n === 0) break;
        got += n;
      }
      if (got === f.bytes) more = readSync(fd, spare, 0, 1, null);
    } finally {
      closeSync(fd);
    }
    if (got !== f.bytes || more !== 0 || createHash('sha256').update(slot).digest('hex') !== f.sha256) return { mismatch: index };
    offset += f.bytes;
  }
  return { buffer };
}

try {
  const result = run();
  parentPort.postMessage(result, result.buffer ? [result.buffer] : []);
} catch (err) {
  parentPort.postMessage({ error: String(err?.message ?? err), code: err?.code });
}

// The build's file writer thread (build/emit/writer.ts): writes, and hard-links, the files the build thread
// hands it, in order, so the build goes on computing while the disk works. Plain JavaScript: it needs
// nothing but node:fs, and runs the same under tsx and the test runner.
import { closeSync, copyFileSync, fsyncSync, linkSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const { state, errors, durable } = workerData;
const counters = new Int32Array(state); // [0] files done, [1] failed (0/1)
const made = new Set();

function ensureDir(path) {
  const dir = dirname(path);
  if (made.has(dir)) return;
  mkdirSync(dir, { recursive: true });
  made.add(dir);
}

function write(path, bytes) {
  const fd = openSync(path, 'w');
  try {
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A hard link; a copy where the file system cannot link (another device, no hard links). */
function link(from, path) {
  try {
    linkSync(from, path);
  } catch (err) {
    if (err.code !== 'EXDEV' && err.code !== 'EPERM' && err.code !== 'ENOTSUP' && err.code !== 'EMLINK') throw err;
    copyFileSync(from, path);
    if (durable) {
      const fd = openSync(path, 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
  }
}

parentPort.on('message', (m) => {
  try {
    if (Atomics.load(counters, 1) === 0) {
      ensureDir(m.path);
      if (m.op === 'link') link(m.from, m.path);
      else write(m.path, m.bytes);
    }
  } catch (err) {
    if (Atomics.compareExchange(counters, 1, 0, 1) === 0) errors.postMessage(`${m.op === 'link' ? 'linking' : 'writing'} ${m.path}: ${err.message}`);
  }
  Atomics.add(counters, 0, 1);
  Atomics.notify(counters, 0);
});

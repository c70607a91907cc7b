/**
 * The keyed-artifact stage on both cores: specialties are handed to worker threads (keyed-worker.ts) while
 * the build thread goes on with the open feeds and pages, taking results as they come (`pump`, between its
 * own files) and the rest at the end (`drain`). runBuild stays synchronous: `drain` blocks on a shared
 * counter and reads results with receiveMessageOnPort. A few tasks per thread are in flight at a time, so
 * columns and results of the whole dataset are never in memory at once.
 */
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';
import type { BlsInfo } from '../contract/keyed-artifacts.ts';
import type { KeyedColumns, KeyedSpecialtySummary } from './keyed.ts';

export interface KeyedTask {
  si: number;
  slug: string;
  name: string;
  bls: BlsInfo;
  states: { code: string; region: string }[];
  columns: KeyedColumns;
  paths: { specialty: string; reports: string };
}

export interface KeyedTaskResult {
  si: number;
  files: { path: string; bytes: Uint8Array; problems: string[] }[];
  summary: KeyedSpecialtySummary | null;
  error: string | null;
}

export interface KeyedPool {
  /** queue a specialty; its task (and columns) is made only when a thread is ready for it */
  queue(make: () => KeyedTask): void;
  /** hand queued work to threads with room and pass finished results to `take`; never waits */
  pump(): void;
  /** wait until everything queued is back (each result passed to `take`) */
  drain(): void;
  close(): void;
}

/** Builds under this many reports stay on one thread: starting workers would cost more than it saves. */
export const THREADED_FROM_REPORTS = 50_000;

/**
 * One worker thread beside the build thread on a 2-core machine (the build thread has the open feeds and
 * pages, and the writer thread the disk), more on bigger machines; none for a small build.
 */
export function defaultKeyedThreads(reports: number): number {
  return reports < THREADED_FROM_REPORTS ? 0 : Math.max(1, Math.min(4, availableParallelism() - 1));
}

/** A pool that returns nothing for this long has lost a thread (killed, out of memory). */
const STALL_MS = 10 * 60_000;
/** Tasks in flight per thread: enough to keep it busy, few enough that results do not pile up in memory. */
const IN_FLIGHT = 2;

export function createKeyedPool(threads: number, take: (r: KeyedTaskResult) => void): KeyedPool {
  const counter = new SharedArrayBuffer(8); // [0] results announced, [1] a thread failed to start
  const announced = new Int32Array(counter);
  const ports = Array.from({ length: threads }, () => new MessageChannel());
  const workers = ports.map(({ port2 }) => {
    const w = new Worker(fileURLToPath(new URL('./keyed-thread.mjs', import.meta.url)), { workerData: { results: port2, counter }, transferList: [port2] });
    w.unref();
    return w;
  });
  const waiting: (() => KeyedTask)[] = [];
  const inFlight = new Array<number>(threads).fill(0);
  let outstanding = 0;
  let pumping = false;

  const submit = () => {
    for (let w = 0; w < threads; w++) {
      while (inFlight[w]! < IN_FLIGHT && waiting.length) {
        const task = waiting.shift()!();
        const c = task.columns;
        // the columns were made for this task: move them rather than copy
        const buffers = [c.keyLo, c.keyHi, c.total, c.fte, c.base, c.bonus, c.wrvus, c.year, c.band, c.setting, c.employment, c.state, c.day, ...Object.values(c.offer)].map((a) => a.buffer as ArrayBuffer);
        workers[w]!.postMessage(task, [...new Set(buffers)]);
        inFlight[w]!++;
        outstanding++;
      }
    }
  };
  /** take what has arrived; true when something did */
  const receive = (): boolean => {
    let got = false;
    ports.forEach(({ port1 }, w) => {
      for (let m = receiveMessageOnPort(port1); m; m = receiveMessageOnPort(port1)) {
        const r = m.message as KeyedTaskResult;
        if (r.si >= 0) {
          inFlight[w]!--;
          outstanding--;
        }
        got = true;
        take(r);
      }
    });
    return got;
  };

  return {
    queue(make) {
      waiting.push(make);
    },
    pump() {
      // `take` emits files, and emitting pumps: a pump inside a pump returns at once
      if (pumping) return;
      pumping = true;
      try {
        receive();
        submit();
      } finally {
        pumping = false;
      }
    },
    drain() {
      let lastProgress = Date.now();
      submit();
      while (outstanding > 0 || waiting.length) {
        const seen = Atomics.load(announced, 0);
        if (receive()) {
          lastProgress = Date.now();
          submit();
          continue;
        }
        if (Atomics.load(announced, 1) !== 0) return; // a thread could not start: its message was taken above
        if (Date.now() - lastProgress > STALL_MS) {
          take({ si: -1, files: [], summary: null, error: `no keyed worker thread answered for ${STALL_MS / 60_000} minutes (did one die?)` });
          return;
        }
        Atomics.wait(announced, 0, seen, 1000);
      }
    },
    close() {
      for (const { port1 } of ports) port1.close();
      for (const w of workers) void w.terminate();
    },
  };
}

/**
 * Reading a reports file as checked chunks (report-chunks.ts), on this thread or on a worker thread: the
 * thin module of the import that does threads. With a worker, the worker reads, parses, validates and
 * fingerprints the file while this thread writes the chunks before, so the two overlap; this thread still
 * waits for each chunk synchronously (Atomics.wait and receiveMessageOnPort), so the import stays one
 * synchronous call inside one SQLite transaction, all-or-nothing as before. At most QUEUE_MESSAGES messages
 * wait between the threads: a worker ahead of the writer waits (back-pressure), so memory stays bounded.
 *
 * Both give the handlers the same calls in the same order (the header, each chunk, the progress after each
 * 1 MB read) and throw the same errors (CsvSyntaxError, FileChangedError) after the chunks read before them.
 */
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { CsvSyntaxError } from './csv.ts';
import { FileChangedError, readCsvRecords } from './source.ts';
import { ReportChunker, type ReportCheckSettings, type ReportChunk } from './report-chunks.ts';

export interface ChunkHandlers {
  header(fields: string[]): void;
  chunk(c: ReportChunk): void;
  /** after each piece of the file read: bytes done, file size, records read but not yet in a chunk */
  progress(done: number, size: number, pending: number): void;
}

export interface ReportFile {
  path: string;
  sha256: string;
}

/** Read, check and hand over the chunks on this thread. */
export function readReportChunks(file: ReportFile, settings: ReportCheckSettings, on: ChunkHandlers): void {
  const chunker = new ReportChunker(settings, (c) => on.chunk(c), (fields) => on.header(fields));
  readCsvRecords(file.path, file.sha256, (record) => chunker.push(record), (done, size) => on.progress(done, size, chunker.pending));
  chunker.end();
}

/** Messages waiting between the threads at most (chunks of BATCH_ROWS rows and progress notes). */
export const QUEUE_MESSAGES = 8;

/**
 * The worker's young generation in MB (V8's default is about 48 on 64 bits): at 1,000,000 rows the import's
 * peak memory stays under 300 MB with 24 (with the default it was 307-315 MB; with 16 the worker spent a third
 * of its time collecting garbage).
 */
const WORKER_YOUNG_MB = 24;

/** Without a message for this long, the worker is taken to have died (it sends one per 1 MB read). */
const SILENCE_MS = 120_000;

// indices into the shared counters
const POSTED = 0;
const TAKEN = 1;
const STOP = 2;

type Message =
  | { type: 'header'; fields: string[] }
  | { type: 'chunk'; chunk: ReportChunk }
  | { type: 'progress'; done: number; size: number; pending: number }
  | { type: 'end' }
  | { type: 'error'; kind: 'csv' | 'changed' | 'other'; line?: number; message: string; stack?: string };

interface WorkerJob {
  file: ReportFile;
  settings: ReportCheckSettings;
  port: MessagePort;
  counters: Int32Array;
}

/** Read, check and hand over the chunks with a worker thread doing the reading and checking. */
export function readReportChunksInWorker(file: ReportFile, settings: ReportCheckSettings, on: ChunkHandlers): void {
  const counters = new Int32Array(new SharedArrayBuffer(3 * 4));
  const { port1, port2 } = new MessageChannel();
  const job: WorkerJob = { file, settings, port: port2, counters };
  // execArgv []: the worker registers tsx itself (report-worker.cjs); the parent's loader flags are not for it
  const worker = new Worker(new URL('./report-worker.cjs', import.meta.url), {
    workerData: job, transferList: [port2], execArgv: [],
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
  });
  worker.unref();
  let taken = 0;
  try {
    for (;;) {
      const got = receiveMessageOnPort(port1);
      if (!got) {
        const posted = Atomics.load(counters, POSTED);
        if (posted === taken && Atomics.wait(counters, POSTED, posted, SILENCE_MS) === 'timed-out') {
          throw new Error(`the import's worker thread sent nothing for ${SILENCE_MS / 1000} s`);
        }
        continue;
      }
      taken++;
      Atomics.store(counters, TAKEN, taken);
      Atomics.notify(counters, TAKEN);
      const m = got.message as Message;
      if (m.type === 'chunk') on.chunk(m.chunk);
      else if (m.type === 'progress') on.progress(m.done, m.size, m.pending);
      else if (m.type === 'header') on.header(m.fields);
      else if (m.type === 'end') return;
      else if (m.kind === 'csv') throw new CsvSyntaxError(m.line!, m.message);
      else if (m.kind === 'changed') throw new FileChangedError(m.message);
      else throw Object.assign(new Error(`the import's worker thread failed: ${m.message}`), { workerStack: m.stack });
    }
  } finally {
    Atomics.store(counters, STOP, 1);
    Atomics.notify(counters, TAKEN);
    port1.close();
    void worker.terminate();
  }
}

/** The worker's side (report-worker.cjs calls it with its workerData). */
export function reportWorkerMain(job: WorkerJob): void {
  const { port, counters } = job;
  let posted = 0;
  const post = (m: Message) => {
    for (;;) {
      if (Atomics.load(counters, STOP)) throw new Stopped();
      const taken = Atomics.load(counters, TAKEN);
      if (posted - taken < QUEUE_MESSAGES) break;
      Atomics.wait(counters, TAKEN, taken, 1_000);
    }
    port.postMessage(m);
    posted++;
    Atomics.store(counters, POSTED, posted);
    Atomics.notify(counters, POSTED);
  };
  try {
    readReportChunks(job.file, job.settings, {
      header: (fields) => post({ type: 'header', fields }),
      chunk: (chunk) => post({ type: 'chunk', chunk }),
      progress: (done, size, pending) => post({ type: 'progress', done, size, pending }),
    });
    post({ type: 'end' });
  } catch (err) {
    if (err instanceof Stopped) return;
    try {
      if (err instanceof CsvSyntaxError) post({ type: 'error', kind: 'csv', line: err.line, message: err.message.slice(`line ${err.line}: `.length) });
      else if (err instanceof FileChangedError) post({ type: 'error', kind: 'changed', message: err.message });
      else post({ type: 'error', kind: 'other', message: err instanceof Error ? err.message : String(err), stack: err instanceof Error ? err.stack : undefined });
    } catch (again) {
      if (!(again instanceof Stopped)) throw again;
    }
  } finally {
    port.close();
  }
}

class Stopped extends Error {}

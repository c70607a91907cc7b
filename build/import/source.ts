/**
 * Reading a CSV file from disk a chunk at a time, so that memory stays bounded whatever its size (one of
 * the few import modules that touch the disk). Two passes:
 *  - scanCsvFile: its SHA-256 and size, and the same refusals as decodeCsvBytes (UTF-16/32, NUL bytes,
 *    invalid UTF-8 naming the encoding it looks like, forbidden characters), before any row is read;
 *  - readCsvRecords: its records, parsed as they are read; the file must still hash the same at the end
 *    (an import of a file that changed in between is refused rather than half-read).
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { CsvParser, FORBIDDEN_CHARACTERS, CsvPositionTracker, faultError, forbiddenCharacterError, wideEncodingError, type CsvRecord } from './csv.ts';
import { FIELD_AROUND_BYTES, HighBytes, Utf8Scanner, type ScanResult } from './utf8.ts';

/** Bytes read at a time. */
export const CHUNK_BYTES = 1 << 20;

/** The file changed between the passes of an import: nothing was imported. */
export class FileChangedError extends Error {}

/**
 * Call `fn` with each chunk of the file (a view of one reused buffer: copy what must outlive the call) and
 * the offset after it; the last call has `final` set (an empty chunk when the size was a multiple of the
 * chunk). `fn` returns false to stop early.
 */
function eachChunk(path: string, fn: (chunk: Uint8Array, final: boolean, done: number, size: number) => boolean | void, chunkBytes = CHUNK_BYTES): number {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.allocUnsafe(chunkBytes);
    let done = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, chunkBytes, done);
      done += n;
      const final = n < chunkBytes;
      if (fn(buf.subarray(0, n), final, done, size) === false || final) return size;
    }
  } finally {
    closeSync(fd);
  }
}

/** Bytes [from, to) of a file. */
function readRange(path: string, from: number, to: number): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(Math.max(0, to - from));
    const n = readSync(fd, buf, 0, buf.length, from);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** Throw the refusal of a failed scan: the fault's message needs the whole file's high bytes and the bytes around it. */
function refuse(path: string, file: string, r: Exclude<ScanResult, { text: string }>): never {
  if ('wide' in r) throw wideEncodingError(r.wide, file);
  const high = new HighBytes();
  eachChunk(path, (chunk) => {
    high.add(chunk);
  });
  const from = Math.max(0, r.fault.offset - FIELD_AROUND_BYTES);
  const around = readRange(path, from, r.fault.offset + FIELD_AROUND_BYTES + 1);
  throw faultError(r.fault, file, high, { bytes: around, at: r.fault.offset - from });
}

export interface ScannedFile {
  sha256: string;
  bytes: number;
}

/**
 * Check the whole file is UTF-8 text without forbidden characters (CsvEncodingError otherwise, exactly as
 * decodeCsvBytes would say it) and hash it. `tick(done, size)` follows the bytes read.
 */
export function scanCsvFile(path: string, file: string, tick: (done: number, size: number) => void = () => {}, chunkBytes = CHUNK_BYTES): ScannedFile {
  const hash = createHash('sha256');
  const scanner = new Utf8Scanner();
  let piece = 0;
  let hit: { piece: number; index: number; cp: number } | undefined;
  const bytes = eachChunk(path, (chunk, final, done, size) => {
    hash.update(chunk);
    const r = scanner.push(chunk, final);
    if (!('text' in r)) refuse(path, file, r);
    if (!hit) {
      const m = FORBIDDEN_CHARACTERS.exec(r.text);
      if (m) hit = { piece, index: m.index, cp: m[0].codePointAt(0)! };
    }
    piece++;
    tick(done, size);
  }, chunkBytes);
  // A forbidden character is reported once the whole file is known to be UTF-8 (an encoding fault wins),
  // at its line, column and CSV column: read again up to it.
  if (hit) {
    const at = hit;
    const tracker = new CsvPositionTracker();
    const again = new Utf8Scanner();
    let p = 0;
    eachChunk(path, (chunk, final) => {
      const r = again.push(chunk, final) as { text: string };
      if (p === at.piece) {
        tracker.advance(r.text, at.index);
        return false;
      }
      tracker.advance(r.text);
      p++;
    }, chunkBytes);
    throw forbiddenCharacterError(tracker.locate(at.cp));
  }
  return { sha256: hash.digest('hex'), bytes };
}

/**
 * Parse the file's records as it is read, calling `onRecord` for each (the header first). The file must be
 * the one scanCsvFile checked: a different hash at the end throws FileChangedError (call this inside the
 * import's transaction, so that nothing stays written). `tick(done, size)` follows the bytes read.
 */
export function readCsvRecords(
  path: string,
  sha256: string,
  onRecord: (record: CsvRecord) => void,
  tick: (done: number, size: number) => void = () => {},
  chunkBytes = CHUNK_BYTES,
): void {
  const hash = createHash('sha256');
  const scanner = new Utf8Scanner();
  const parser = new CsvParser(onRecord);
  eachChunk(path, (chunk, final, done, size) => {
    hash.update(chunk);
    const r = scanner.push(chunk, final);
    if (!('text' in r)) throw new FileChangedError('the file changed while it was being imported (it is no longer UTF-8 text)');
    parser.push(r.text);
    tick(done, Math.max(done, size));
  }, chunkBytes);
  parser.end();
  if (hash.digest('hex') !== sha256) throw new FileChangedError('the file changed while it was being imported');
}

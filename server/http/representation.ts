/**
 * Which representation of a build file a request gets (identity, gzip or brotli: content-coding.ts), its
 * ETag, and the headers that say so. Shared by the feeds, the pages and the release files, so every public
 * file is negotiated the same way.
 */
import type { IncomingMessage } from 'node:http';
import type { Coding, LoadedBuild, ServedFile } from '../builds/loaded-build.ts';
import { negotiateCoding } from './content-coding.ts';

export interface Chosen {
  coding: Coding;
  etag: string;
  /** Content-Encoding and Vary, for the 200 and the 304 alike */
  headers: Record<string, string>;
}

export function chooseRepresentation(build: LoadedBuild, file: ServedFile, day: string, req: IncomingMessage, vary: string[] = []): Chosen {
  const available = build.codings(file);
  const coding = negotiateCoding(req.headers['accept-encoding'], available);
  const headers: Record<string, string> = {};
  // a file with variants varies by Accept-Encoding whichever coding this answer has (caches must key on it)
  const varyOn = available.length ? [...vary, 'Accept-Encoding'] : vary;
  if (varyOn.length) headers.vary = varyOn.join(', ');
  if (coding !== 'identity') headers['content-encoding'] = coding;
  return { coding, etag: build.etagOf(file, day, coding), headers };
}

/**
 * Call `send` with the chosen representation's bytes: at once when they are at hand, else when the day's
 * brotli is made; `fail` when making it failed (the caller answers 503, like a store outage).
 */
export function withBody(build: LoadedBuild, file: ServedFile, day: string, coding: Coding, send: (body: Buffer) => void, fail: (err: Error) => void): void {
  let body: Buffer | Promise<Buffer>;
  try {
    body = build.body(file, day, coding);
  } catch (err) {
    fail(err as Error);
    return;
  }
  if (body instanceof Promise) body.then(send, fail);
  else send(body);
}

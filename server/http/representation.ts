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

/** The headers of each case, made once (the hot path spreads them into every answer). */
const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const HEADERS: Record<Coding, Record<string, string>> = {
  identity: { vary: 'Accept-Encoding' },
  gzip: { vary: 'Accept-Encoding', 'content-encoding': 'gzip' },
  br: { vary: 'Accept-Encoding', 'content-encoding': 'br' },
};

export function chooseRepresentation(build: LoadedBuild, file: ServedFile, day: string, req: IncomingMessage, vary: string[] = []): Chosen {
  const available = build.codings(file);
  const coding = available.length ? negotiateCoding(req.headers['accept-encoding'], available) : 'identity';
  const etag = build.etagOf(file, day, coding);
  // a file with variants varies by Accept-Encoding whichever coding this answer has (caches must key on it)
  if (!vary.length) return { coding, etag, headers: available.length ? HEADERS[coding] : NO_HEADERS };
  const headers: Record<string, string> = { vary: [...vary, ...(available.length ? ['Accept-Encoding'] : [])].join(', ') };
  if (coding !== 'identity') headers['content-encoding'] = coding;
  return { coding, etag, headers };
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

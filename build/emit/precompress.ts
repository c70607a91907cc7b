/**
 * Precompressed variants of the public files (pure: bytes in, bytes out).
 *
 * Most public files carry the access date of their attribution line ("accessed 2026-11-16)"), which the
 * server fills in per day. So that the gzip variant made at build time stays good on every later day, it
 * is written in a form that can be re-dated without compressing again: the text between the dates is
 * deflated in independent pieces (no back-reference crosses a date), and each date sits in a stored
 * (uncompressed) deflate block of its own. Re-dating is then a byte copy of the new date over the old
 * one, plus the new CRC-32 in the trailer (`redateGzip`). A file without a date is one ordinary deflate.
 *
 * Brotli has no stored-block escape that keeps later back-references and literal contexts valid when
 * earlier bytes change, so only files without an access date get a brotli variant at build time; the
 * server compresses the day's rendering of the others once per day (server/builds/encoded-cache.ts).
 */
import { brotliCompress, brotliCompressSync, constants, deflateRawSync, type BrotliOptions } from 'node:zlib';

/** Content codings the build writes and the server negotiates (RFC 9110, section 8.4.1). */
export type ContentCoding = 'br' | 'gzip';

/** gzip level 9: here no slower than 6 on the build's files, and a little smaller. */
export const GZIP_LEVEL = 9;
/**
 * Brotli quality of the files without an access date (CSVs, sitemap, search index, home page), made at
 * build time. Measured on the golden build's 3 MB of them: quality 10 takes 1.2 s and is 7-10% smaller than
 * 9 (0.2 s); 11 is another 4-12% smaller but takes 5.3 s, paid by every build.
 */
export const BUILD_BROTLI_QUALITY = 10;
export const SERVE_BROTLI_QUALITY = 6;
/** Files smaller than this are served as they are: compression would save a few bytes at most. */
export const MIN_COMPRESS_BYTES = 1024;

/** Text formats worth compressing (pages, feeds, CSV, XML, SVG, CFF, JavaScript, CSS). */
export function isCompressible(contentType: string): boolean {
  const t = contentType.split(';')[0]!.trim().toLowerCase();
  return t.startsWith('text/') || /^application\/(.+\+)?(json|xml|javascript|yaml)$/.test(t) || t === 'image/svg+xml' || t === 'application/x-yaml';
}

/** A variant is kept only when it saves at least a tenth of the bytes. */
export function worthKeeping(variant: Buffer, identity: Buffer): boolean {
  return variant.length < identity.length * 0.9;
}

/** Occurrences of `token` in `bytes` (not overlapping). */
export function countOf(bytes: Buffer, token: Buffer): number {
  let n = 0;
  for (let at = bytes.indexOf(token); at >= 0; at = bytes.indexOf(token, at + token.length)) n++;
  return n;
}

/** A non-final stored deflate block holding `bytes` (at most 65,535), starting on a byte boundary. */
function storedBlock(bytes: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head[0] = 0; // BFINAL 0, BTYPE 00 (stored), padded to the byte
  head.writeUInt16LE(bytes.length, 1);
  head.writeUInt16LE(~bytes.length & 0xffff, 3);
  return Buffer.concat([head, bytes]);
}

/** The empty final block (fixed Huffman: BFINAL 1, BTYPE 01, end-of-block), padded to the byte. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
/** gzip header: deflate, no name or time, unknown OS (RFC 1952): the same bytes on every machine. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xff]);

/**
 * gzip of `bytes` in which every occurrence of `token` sits in a stored block of its own (see the file's
 * comment), so `redateGzip` can replace it. With no token in `bytes` it is an ordinary gzip member.
 */
export function gzipWithTokens(bytes: Buffer, token: Buffer | null, level = GZIP_LEVEL): Buffer {
  const pieces: Buffer[] = [GZIP_HEADER];
  const deflate = (part: Buffer) => {
    // an empty piece needs no block; Z_SYNC_FLUSH ends the piece on a byte boundary, not final
    if (part.length) pieces.push(deflateRawSync(part, { level, finishFlush: constants.Z_SYNC_FLUSH }));
  };
  let from = 0;
  if (token && token.length) {
    for (let at = bytes.indexOf(token); at >= 0; at = bytes.indexOf(token, from)) {
      deflate(bytes.subarray(from, at));
      pieces.push(storedBlock(token));
      from = at + token.length;
    }
  }
  deflate(bytes.subarray(from));
  pieces.push(FINAL_BLOCK);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(bytes), 0);
  trailer.writeUInt32LE(bytes.length >>> 0, 4);
  pieces.push(trailer);
  return Buffer.concat(pieces);
}

/**
 * The gzip variant split around its stored tokens (`token` as written at build time): joined with another
 * token of the same length, and given the CRC-32 of the text it now holds (`redateGzip`), it is the gzip of
 * that text. Null when the token is not found exactly as often as in the text (never for gzipWithTokens).
 */
export function splitGzip(gz: Buffer, token: Buffer, tokensInText: number): Buffer[] | null {
  return countOf(gz, token) === tokensInText ? splitOn(gz, token) : null;
}

/** The bytes split around every occurrence of `token` (one part when there is none); views, not copies. */
export function splitOn(bytes: Buffer, token: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = bytes.indexOf(token); at >= 0; at = bytes.indexOf(token, from)) {
    parts.push(bytes.subarray(from, at));
    from = at + token.length;
  }
  parts.push(bytes.subarray(from));
  return parts;
}

/** The gzip parts joined with `token`, its trailer's CRC-32 set to that of `text` (the uncompressed result). */
export function redateGzip(parts: Buffer[], token: Buffer, text: Buffer): Buffer {
  const out = Buffer.allocUnsafe(parts.reduce((n, p) => n + p.length, 0) + token.length * (parts.length - 1));
  let at = 0;
  parts.forEach((p, i) => {
    if (i > 0) at += token.copy(out, at);
    at += p.copy(out, at);
  });
  out.writeUInt32LE(crc32(text), out.length - 8);
  return out;
}

const brotliOptions = (bytes: Buffer, quality: number): BrotliOptions => ({
  params: {
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_QUALITY]: quality,
    [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
  },
});

/** Brotli of `bytes` (text mode, size hint given: the same bytes for the same input and zlib). */
export function brotli(bytes: Buffer, quality: number): Buffer {
  return brotliCompressSync(bytes, brotliOptions(bytes, quality));
}

/** The same as `brotli`, on zlib's thread pool. */
export function brotliAsync(bytes: Buffer, quality: number): Promise<Buffer> {
  return new Promise((resolve, reject) => brotliCompress(bytes, brotliOptions(bytes, quality), (err, out) => (err ? reject(err) : resolve(out))));
}

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/** CRC-32 (ISO 3309, as gzip's trailer has it). */
export function crc32(bytes: Uint8Array): number {
  let c = -1;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** The variants a public file gets at build time (those worth keeping; see the file's comment). */
export function buildVariants(bytes: Buffer, contentType: string, token: Buffer): Partial<Record<ContentCoding, Buffer>> {
  if (bytes.length < MIN_COMPRESS_BYTES || !isCompressible(contentType)) return {};
  const out: Partial<Record<ContentCoding, Buffer>> = {};
  const gz = gzipWithTokens(bytes, token);
  if (worthKeeping(gz, bytes)) out.gzip = gz;
  if (!bytes.includes(token)) {
    const br = brotli(bytes, BUILD_BROTLI_QUALITY);
    if (worthKeeping(br, bytes)) out.br = br;
  }
  return out;
}

/** Where a file's variant is kept in the build folder: `encoded/<path>.gz` or `.br`. */
export function variantPath(path: string, coding: ContentCoding): string {
  return `encoded/${path}${coding === 'gzip' ? '.gz' : '.br'}`;
}

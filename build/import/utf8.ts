/**
 * Checking that a file is UTF-8 text, a chunk at a time (pure): Utf8Scanner gives the text of each chunk, or
 * the first fault at the line and column one pass over the whole file would give. What the fault means for
 * the operator (the encoding the bytes look like and the iconv command that converts them) is worked out
 * here too, from the file's high bytes (HighBytes) and the bytes around the fault (fieldAround).
 */

/**
 * The characters Windows-1252 gives bytes 0x80-0x9F (curly quotes, dashes, euro, ...); the five bytes it
 * leaves undefined are absent. Spelled out because Node's TextDecoder('windows-1252') reads them as Latin-1
 * C1 controls. Bytes 0xA0-0xFF are the same in Latin-1 and Windows-1252 (U+00A0-U+00FF).
 */
const CP1252_HIGH = new Map<number, string>(
  [...'\u20AC_\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152_\u017D__\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153_\u017E\u0178']
    .map((c, i): [number, string] => [0x80 + i, c])
    .filter(([, c]) => c !== '_'),
);

function decodeCp1252(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b < 0x80 || b >= 0xa0 ? String.fromCharCode(b) : (CP1252_HIGH.get(b) ?? '\uFFFD');
  return out;
}

const hex = (b: number) => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`;

function converted(file: string): string {
  return /\.csv$/i.test(file) ? file.replace(/(\.csv)$/i, '-utf8$1') : `${file}-utf8`;
}

/** A path as a POSIX shell word (quoted only when it needs to be). */
const shellWord = (p: string) => (/^[\w./@%+=:,-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`);

/** How to convert: `iconv -f FROM -t utf-8 FILE > FILE-utf8.csv`. */
function iconvHint(from: string, file: string): string {
  return `convert it with \`iconv -f ${from} -t utf-8 ${shellWord(file)} > ${shellWord(converted(file))}\` and import that`;
}

export interface WideEncoding {
  name: string;
  iconv: string;
}

/** UTF-16/32 by byte-order mark, or UTF-16 by the pattern of NUL bytes in the first kilobytes. */
export function wideEncoding(bytes: Uint8Array): WideEncoding | undefined {
  const [b0, b1, b2, b3] = bytes;
  if (b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0) return { name: 'UTF-32 (little-endian, with a byte-order mark)', iconv: 'utf-32' };
  if (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff) return { name: 'UTF-32 (big-endian, with a byte-order mark)', iconv: 'utf-32' };
  if (b0 === 0xff && b1 === 0xfe) return { name: 'UTF-16 (little-endian, with a byte-order mark)', iconv: 'utf-16' };
  if (b0 === 0xfe && b1 === 0xff) return { name: 'UTF-16 (big-endian, with a byte-order mark)', iconv: 'utf-16' };
  const n = Math.min(bytes.length - (bytes.length % 2), 4096);
  if (n < 4) return undefined;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i++) if (bytes[i] === 0) (i % 2 === 0 ? evenNul++ : oddNul++);
  // ASCII text in UTF-16 has a NUL in (nearly) every other byte.
  if (oddNul >= n / 4 && evenNul <= oddNul / 8) return { name: 'UTF-16 (little-endian)', iconv: 'utf-16le' };
  if (evenNul >= n / 4 && oddNul <= evenNul / 8) return { name: 'UTF-16 (big-endian)', iconv: 'utf-16be' };
  return undefined;
}

/** How many bytes wide encodings need to be recognised: the first chunk should hold at least this many. */
export const WIDE_SNIFF_BYTES = 4096;

/** The range a continuation byte `k` (1-3) may take after lead byte `b` (no overlong forms, surrogates or > U+10FFFF). */
function continuationRange(b: number, k: number): [number, number] {
  if (k === 1) {
    if (b === 0xe0) return [0xa0, 0xbf];
    if (b === 0xed) return [0x80, 0x9f];
    if (b === 0xf0) return [0x90, 0xbf];
    if (b === 0xf4) return [0x80, 0x8f];
  }
  return [0x80, 0xbf];
}

/** The length a lead byte announces (2-4), or 0 for a byte no UTF-8 sequence starts with. */
function sequenceLength(b: number): number {
  if (b >= 0xc2 && b <= 0xdf) return 2;
  if (b >= 0xe0 && b <= 0xef) return 3;
  if (b >= 0xf0 && b <= 0xf4) return 4;
  return 0;
}

/**
 * The length of the valid UTF-8 sequence starting at `i` (lead byte >= 0x80); 0 when it is invalid; -1 when
 * the bytes end before it does and what there is of it is valid (the rest may come in the next chunk).
 */
function utf8SequenceAt(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  const len = sequenceLength(b);
  if (len === 0) return 0;
  for (let k = 1; k < len; k++) {
    const c = bytes[i + k];
    if (c === undefined) return -1;
    const [lo, hi] = continuationRange(b, k);
    if (c < lo || c > hi) return 0;
  }
  return len;
}

/** Which single-byte encodings a file's bytes 0x80-0xFF fit: Latin-1 (none in 0x80-0x9F) or Windows-1252. */
export class HighBytes {
  latin1 = true;
  cp1252 = false;
  add(bytes: Uint8Array): this {
    for (const x of bytes) {
      if (x < 0x80 || x >= 0xa0) continue;
      if (CP1252_HIGH.has(x)) this.cp1252 = true;
      else this.latin1 = false;
    }
    return this;
  }
}

/** The CSV field around byte `at`, read as Windows-1252 (a superset of Latin-1's printable characters). */
export function fieldAround(bytes: Uint8Array, at: number): string {
  const stop = (b: number) => b === 0x2c || b === 0x0a || b === 0x0d || b === 0x22;
  let start = at;
  while (start > 0 && at - start < 40 && !stop(bytes[start - 1]!)) start--;
  let end = at + 1;
  while (end < bytes.length && end - at < 40 && !stop(bytes[end]!)) end++;
  return decodeCp1252(bytes.subarray(start, end)).trim();
}

/** fieldAround reads at most this many bytes on either side of the fault. */
export const FIELD_AROUND_BYTES = 40;

/** Where a file stops being UTF-8 text: 1-based line and column (in characters), the byte, its offset in the file. */
export interface Utf8Fault {
  kind: 'nul' | 'invalid';
  line: number;
  column: number;
  byte: number;
  offset: number;
}

export type ScanResult = { text: string } | { fault: Utf8Fault } | { wide: WideEncoding };

/**
 * UTF-8 checking a chunk at a time. push() returns the text of the chunk's complete characters (a byte-order
 * mark at the start is dropped; a trailing CR, whose line break depends on the next byte, and a sequence the
 * chunk cuts short wait for the next chunk), or the first fault. Lines end at LF, CRLF or a lone CR.
 * The first chunk should hold WIDE_SNIFF_BYTES bytes (or the whole file) so that UTF-16/32 is recognised.
 */
export class Utf8Scanner {
  private line = 1;
  private column = 1;
  /** File offset of the next byte to check (the first byte of `carry`, when there is one). */
  private offset = 0;
  private carry: Uint8Array = new Uint8Array(0);
  private started = false;

  push(chunk: Uint8Array, final: boolean): ScanResult {
    const bytes = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    const base = this.offset;
    let i = 0;
    if (!this.started) {
      if (bytes.length < WIDE_SNIFF_BYTES && !final) {
        this.carry = Uint8Array.from(bytes);
        return { text: '' };
      }
      this.started = true;
      const wide = wideEncoding(bytes);
      if (wide) return { wide };
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
    }
    const textStart = i;
    const n = bytes.length;
    while (i < n) {
      const b = bytes[i]!;
      if (b < 0x80) {
        if (b === 0) return { fault: { kind: 'nul', line: this.line, column: this.column, byte: b, offset: base + i } };
        if (b === 0x0a) {
          this.line++;
          this.column = 1;
        } else if (b === 0x0d) {
          if (i + 1 === n && !final) break; // CRLF or a lone CR: the next chunk says
          if (bytes[i + 1] !== 0x0a) {
            this.line++;
            this.column = 1;
          }
        } else this.column++;
        i++;
        continue;
      }
      const len = utf8SequenceAt(bytes, i);
      if (len > 0) {
        i += len;
        this.column++;
        continue;
      }
      if (len < 0 && !final) break; // cut short by the end of the chunk
      return { fault: { kind: 'invalid', line: this.line, column: this.column, byte: b, offset: base + i } };
    }
    this.carry = i < n ? Uint8Array.from(bytes.subarray(i)) : new Uint8Array(0);
    this.offset = base + i;
    return { text: Buffer.from(bytes.buffer, bytes.byteOffset + textStart, i - textStart).toString('utf8') };
  }
}

/** The refusal of a UTF-16/32 file. */
export function wideEncodingMessage(wide: WideEncoding, file: string): string {
  return `line 1: the file is ${wide.name}, not UTF-8: ${iconvHint(wide.iconv, file)}`;
}

/**
 * The refusal of a fault: its line and column, and, when every high byte of the file reads as Latin-1 or
 * Windows-1252, which of them the file looks like, the field around the fault read that way, and the
 * iconv command. `around` holds the bytes around the fault (at least FIELD_AROUND_BYTES each side).
 */
export function faultMessage(fault: Utf8Fault, file: string, high: HighBytes, around: { bytes: Uint8Array; at: number }): string {
  const { line, column } = fault;
  if (fault.kind === 'nul') return `line ${line}, column ${column}: a NUL byte; this is not a UTF-8 text file (save it as CSV, UTF-8)`;
  const where = `line ${line}, column ${column}: not valid UTF-8 (byte ${hex(fault.byte)})`;
  if (!high.latin1) return `${where}; save the file as UTF-8 text`;
  const [name, from] = high.cp1252 ? ['Windows-1252', 'windows-1252'] : ['Latin-1 (ISO-8859-1)', 'latin1'];
  return `${where}; the file looks like ${name}, where these bytes read "${fieldAround(around.bytes, around.at)}": ${iconvHint(from, file)}`;
}

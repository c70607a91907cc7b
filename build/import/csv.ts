/**
 * A small RFC 4180 CSV reader (pure). Files must be UTF-8 (decodeCsvBytes refuses anything else, naming
 * the encoding); quoted fields may hold commas, doubled quotes and line breaks; lines end in LF or CRLF;
 * a UTF-8 byte-order mark is ignored. Every record remembers the line it starts
 * on, so importers can point at the exact line of a bad row.
 */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/**
 * A file that is not UTF-8 text. `line`/`column` (1-based, column in characters) point at the first bad
 * byte; the message names the encoding the bytes look like and the `iconv` command that converts them.
 */
export class CsvEncodingError extends CsvSyntaxError {
  constructor(
    line: number,
    readonly column: number,
    message: string,
  ) {
    super(line, message);
    this.message = message; // already "line N, column C: ..."
  }
}

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

/** UTF-16/32 by byte-order mark, or UTF-16 by the pattern of NUL bytes in the first kilobytes. */
function wideEncoding(bytes: Uint8Array): { name: string; iconv: string } | undefined {
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

/** Length of the valid UTF-8 sequence starting at `i` (lead byte >= 0x80), or 0 when it is invalid. */
function utf8SequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => {
    const c = bytes[i + k];
    return c !== undefined && c >= lo && c <= hi;
  };
  if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
  if (b === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0; // no overlong forms
  if ((b >= 0xe1 && b <= 0xec) || b === 0xee || b === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (b === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0; // no UTF-16 surrogates
  if (b === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b >= 0xf1 && b <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0; // nothing above U+10FFFF
  return 0;
}

/** The CSV field around byte `at`, read as Windows-1252 (a superset of Latin-1's printable characters). */
function fieldAround(bytes: Uint8Array, at: number): string {
  const stop = (b: number) => b === 0x2c || b === 0x0a || b === 0x0d || b === 0x22;
  let start = at;
  while (start > 0 && at - start < 40 && !stop(bytes[start - 1]!)) start--;
  let end = at + 1;
  while (end < bytes.length && end - at < 40 && !stop(bytes[end]!)) end++;
  return decodeCp1252(bytes.subarray(start, end)).trim();
}

/**
 * The text of a CSV file's bytes: UTF-8, with a byte-order mark removed. Anything else is refused before
 * any of it is read as CSV: UTF-16/32 (named, with the iconv command), NUL bytes, and invalid UTF-8 at
 * its line and column; invalid UTF-8 whose bytes all read as Latin-1 or Windows-1252 text says so; and
 * control characters and the like (forbiddenCharacterIn) at their line, column and CSV column.
 */
export function decodeCsvBytes(bytes: Uint8Array, file = 'the file'): string {
  const wide = wideEncoding(bytes);
  if (wide) throw new CsvEncodingError(1, 1, `line 1: the file is ${wide.name}, not UTF-8: ${iconvHint(wide.iconv, file)}`);
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let line = 1;
  let column = 1;
  for (let i = bom; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      if (b === 0) throw new CsvEncodingError(line, column, `line ${line}, column ${column}: a NUL byte; this is not a UTF-8 text file (save it as CSV, UTF-8)`);
      if (b === 0x0a || (b === 0x0d && bytes[i + 1] !== 0x0a)) {
        line++;
        column = 1;
      } else if (b !== 0x0d) column++;
      i++;
      continue;
    }
    const len = utf8SequenceLength(bytes, i);
    if (len > 0) {
      i += len;
      column++;
      continue;
    }
    const where = `line ${line}, column ${column}: not valid UTF-8 (byte ${hex(b)})`;
    let latin1 = true;
    let cp1252 = false;
    for (const x of bytes) {
      if (x < 0x80 || x >= 0xa0) continue;
      if (CP1252_HIGH.has(x)) cp1252 = true;
      else latin1 = false;
    }
    if (!latin1) throw new CsvEncodingError(line, column, `${where}; save the file as UTF-8 text`);
    const [name, from] = cp1252 ? ['Windows-1252', 'windows-1252'] : ['Latin-1 (ISO-8859-1)', 'latin1'];
    throw new CsvEncodingError(line, column, `${where}; the file looks like ${name}, where these bytes read "${fieldAround(bytes, i)}": ${iconvHint(from, file)}`);
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + bom, bytes.byteLength - bom).toString('utf8');
  const found = forbiddenCharacterIn(text);
  if (found) {
    throw new CsvEncodingError(found.line, found.column, `line ${found.line}, column ${found.column}: ${found.name} in ${found.field}; imported text must be plain text (remove it and import again)`);
  }
  return text;
}

/** U+nFFFE and U+nFFFF of the supplementary planes 1-16 (noncharacters, like U+FFFE/U+FFFF). */
const ASTRAL_NONCHARACTERS = Array.from({ length: 16 }, (_, p) => `\\u{${(p + 1).toString(16)}fffe}\\u{${(p + 1).toString(16)}ffff}`).join('');

/**
 * Characters no imported name, URL or value may hold (they would reach pages, CSV downloads and the tool
 * server's text): C0 controls other than the line breaks (a tab too, and a CR that does not end a line),
 * DEL, C1 controls, the Unicode bidirectional controls (U+061C, U+200E/200F, U+202A-202E, U+2066-2069:
 * they reorder how text is shown), the Unicode line breaks U+2028/U+2029, and the noncharacters
 * (U+FDD0-FDEF, U+FFFE/FFFF and the last two code points of every plane).
 */
export const FORBIDDEN_CHARACTERS = new RegExp(
  `[\\u0000-\\u0009\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069\\ufdd0-\\ufdef\\ufffe\\uffff${ASTRAL_NONCHARACTERS}]|\\r(?!\\n)`,
  'u',
);

/** The usual abbreviations of the C0 and C1 controls, and the names of the others. */
const C0 = 'NUL SOH STX ETX EOT ENQ ACK BEL BS TAB LF VT FF CR SO SI DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN EM SUB ESC FS GS RS US'.split(' ');
const C1 = 'PAD HOP BPH NBH IND NEL SSA ESA HTS HTJ VTS PLD PLU RI SS2 SS3 DCS PU1 PU2 STS CCH MW SPA EPA SOS SGC SCI CSI ST OSC PM APC'.split(' ');
const NAMES: Record<number, string> = {
  0x7f: 'DEL', 0x061c: 'ARABIC LETTER MARK', 0x200e: 'LEFT-TO-RIGHT MARK', 0x200f: 'RIGHT-TO-LEFT MARK',
  0x2028: 'LINE SEPARATOR', 0x2029: 'PARAGRAPH SEPARATOR', 0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING', 0x202c: 'POP DIRECTIONAL FORMATTING', 0x202d: 'LEFT-TO-RIGHT OVERRIDE', 0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2066: 'LEFT-TO-RIGHT ISOLATE', 0x2067: 'RIGHT-TO-LEFT ISOLATE', 0x2068: 'FIRST STRONG ISOLATE', 0x2069: 'POP DIRECTIONAL ISOLATE',
};

/** "control character U+001B (ESC)", "bidirectional control U+202E (RIGHT-TO-LEFT OVERRIDE)", "noncharacter U+FFFE". */
export function forbiddenCharacterName(cp: number): string {
  const code = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  if (cp < 0x20) return `control character ${code} (${C0[cp]})`;
  if (cp >= 0x7f && cp <= 0x9f) return `control character ${code} (${cp === 0x7f ? 'DEL' : C1[cp - 0x80]})`;
  if (cp === 0x2028 || cp === 0x2029) return `line break ${code} (${NAMES[cp]})`;
  if (NAMES[cp]) return `bidirectional control ${code} (${NAMES[cp]})`;
  return `noncharacter ${code}`;
}

/**
 * The first forbidden character of a CSV text (FORBIDDEN_CHARACTERS), or null: its line and column (1-based; the
 * column counts characters within the physical line, as for encoding errors), its name, and the CSV
 * column it sits in (the header's name for that field, or "the header row"). The text is read as the
 * parser reads it (quoted fields may span lines), but only up to the character, and only when there is one.
 */
export function forbiddenCharacterIn(text: string): { line: number; column: number; name: string; field: string } | null {
  const m = FORBIDDEN_CHARACTERS.exec(text);
  if (!m) return null;
  let line = 1;
  let column = 1;
  let quoted = false;
  let record = 0; // records before this one (a line with nothing on it is not a record)
  let field = 0;
  let value = '';
  let empty = true; // the current record holds nothing yet
  const header: string[] = [];
  for (let i = 0; i < m.index; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) {
      if (record === 0) value += text[i]; // second half of a surrogate pair: counted with the first
      continue;
    }
    if (c === 0x0a) {
      line++;
      column = 1;
    } else if (c !== 0x0d) column++;
    if (quoted) {
      if (c === 0x22) {
        if (text.charCodeAt(i + 1) === 0x22) {
          i++;
          column++;
          if (record === 0) value += '"';
        } else quoted = false;
      } else if (record === 0 && c !== 0x0d) value += text[i];
      continue;
    }
    if (c === 0x22) {
      quoted = true;
      empty = false;
    } else if (c === 0x2c) {
      if (record === 0) header.push(value);
      value = '';
      field++;
      empty = false;
    } else if (c === 0x0a) {
      if (record === 0 && !empty) header.push(value);
      if (!empty) record++;
      field = 0;
      value = '';
      empty = true;
    } else if (c !== 0x0d) {
      if (record === 0) value += text[i];
      empty = false;
    }
  }
  if (record === 0) header.push(value);
  const name = header[field]?.trim().slice(0, 60);
  return {
    line,
    column,
    name: forbiddenCharacterName(m[0].codePointAt(0)!),
    field: record === 0 ? 'the header row' : name ? name : `field ${field + 1}`,
  };
}

export function parseCsv(text: string): CsvRecord[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let i = 0;
  let quoted = false; // inside a quoted field
  let wasQuoted = false; // current field started with a quote
  const endField = () => {
    fields.push(field);
    field = '';
    wasQuoted = false;
  };
  const endRecord = () => {
    endField();
    // A line with nothing on it (e.g. the trailing newline) is not a record.
    if (!(fields.length === 1 && fields[0] === '')) records.push({ line: recordLine, fields });
    fields = [];
  };
  while (i < src.length) {
    const c = src[i]!;
    if (quoted) {
      if (c === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        const next = src[i];
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
          throw new CsvSyntaxError(line, 'unexpected character after a closing quote');
        }
        continue;
      }
      if (c === '\n') line++;
      field += c;
      i++;
      continue;
    }
    if (c === '"') {
      if (field !== '' || wasQuoted) throw new CsvSyntaxError(line, 'a quote inside an unquoted field');
      quoted = true;
      wasQuoted = true;
      i++;
    } else if (c === ',') {
      endField();
      i++;
    } else if (c === '\r' || c === '\n') {
      endRecord();
      i += c === '\r' && src[i + 1] === '\n' ? 2 : 1;
      line++;
      recordLine = line;
    } else {
      field += c;
      i++;
    }
  }
  if (quoted) throw new CsvSyntaxError(recordLine, 'a quoted field is never closed');
  if (field !== '' || fields.length > 0 || wasQuoted) endRecord();
  return records;
}

export interface RowError {
  line: number;
  message: string;
}

export interface CsvRow {
  line: number;
  values: Record<string, string>;
}

/**
 * Row objects keyed by header name. The header must hold every name of `columns` (any order); other
 * columns are an error unless `extraAllowed` (e.g. the many columns of the official BLS file).
 * A bad header throws (nothing in the file can be read); a row with the wrong number of fields is
 * returned as a row error so that the importer can list every bad line at once.
 */
export function recordsToRows(
  records: CsvRecord[],
  columns: readonly string[],
  options: { extraAllowed?: boolean } = {},
): { rows: CsvRow[]; errors: RowError[] } {
  const header = records[0];
  if (!header) throw new CsvSyntaxError(1, 'the file is empty (a header row is required)');
  const names = header.fields.map((h) => h.trim());
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) throw new CsvSyntaxError(header.line, `column "${n}" appears twice in the header`);
    seen.add(n);
  }
  const missing = columns.filter((c) => !seen.has(c));
  const unknown = names.filter((n) => !columns.includes(n));
  if (missing.length > 0 || (!options.extraAllowed && unknown.length > 0)) {
    const parts = [];
    if (missing.length) parts.push(`missing column(s): ${missing.join(', ')}`);
    if (!options.extraAllowed && unknown.length) parts.push(`unknown column(s): ${unknown.join(', ')}`);
    throw new CsvSyntaxError(header.line, `bad header: ${parts.join('; ')}. Expected: ${columns.join(',')}`);
  }
  const rows: CsvRow[] = [];
  const errors: RowError[] = [];
  for (const r of records.slice(1)) {
    if (r.fields.length !== names.length) {
      errors.push({ line: r.line, message: `expected ${names.length} fields, found ${r.fields.length}` });
      continue;
    }
    const values: Record<string, string> = Object.create(null);
    names.forEach((n, idx) => {
      values[n] = r.fields[idx]!.trim();
    });
    rows.push({ line: r.line, values });
  }
  return { rows, errors };
}

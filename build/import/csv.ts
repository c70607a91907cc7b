/**
 * A small RFC 4180 CSV reader (pure). Files must be UTF-8 (decodeCsvBytes refuses anything else, naming
 * the encoding); quoted fields may hold commas, doubled quotes and line breaks; lines end in LF or CRLF;
 * a UTF-8 byte-order mark is ignored. Every record remembers the line it starts
 * on, so importers can point at the exact line of a bad row. The same checks and parser run a chunk at a
 * time for files read from disk (build/import/source.ts): Utf8Scanner (utf8.ts) and CsvParser (csv-parser.ts).
 */
import { CsvParser, CsvSyntaxError, type CsvRecord } from './csv-parser.ts';
import { HighBytes, Utf8Scanner, faultMessage, wideEncodingMessage, type Utf8Fault, type WideEncoding } from './utf8.ts';
import { HeaderError, headerKeys } from './normalise.ts';

export { CsvParser, CsvSyntaxError, type CsvRecord };

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

export const wideEncodingError = (wide: WideEncoding, file: string) => new CsvEncodingError(1, 1, wideEncodingMessage(wide, file));

export function faultError(fault: Utf8Fault, file: string, high: HighBytes, around: { bytes: Uint8Array; at: number }): CsvEncodingError {
  return new CsvEncodingError(fault.line, fault.column, faultMessage(fault, file, high, around));
}

export function forbiddenCharacterError(found: NonNullable<ReturnType<typeof forbiddenCharacterIn>>): CsvEncodingError {
  return new CsvEncodingError(
    found.line,
    found.column,
    `line ${found.line}, column ${found.column}: ${found.name} in ${found.field}; imported text must be plain text (remove it and import again)`,
  );
}

/**
 * The text of a CSV file's bytes: UTF-8, with a byte-order mark removed. Anything else is refused before
 * any of it is read as CSV: UTF-16/32 (named, with the iconv command), NUL bytes, and invalid UTF-8 at
 * its line and column; invalid UTF-8 whose bytes all read as Latin-1 or Windows-1252 text says so; and
 * control characters and the like (forbiddenCharacterIn) at their line, column and CSV column.
 */
export function decodeCsvBytes(bytes: Uint8Array, file = 'the file'): string {
  const r = new Utf8Scanner().push(bytes, true);
  if ('wide' in r) throw wideEncodingError(r.wide, file);
  if ('fault' in r) throw faultError(r.fault, file, new HighBytes().add(bytes), { bytes, at: r.fault.offset });
  const found = forbiddenCharacterIn(r.text);
  if (found) throw forbiddenCharacterError(found);
  return r.text;
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

export interface ForbiddenCharacter {
  line: number;
  column: number;
  name: string;
  field: string;
}

/**
 * Where a character sits in a CSV text read a piece at a time: its line and column (1-based; the column
 * counts characters within the physical line, as for encoding errors) and the CSV column (the header's
 * name for that field, or "the header row"). The text is read as the parser reads it (quoted fields may
 * span lines). Pieces must not split a surrogate pair (text decoded from whole UTF-8 sequences never does).
 */
export class CsvPositionTracker {
  private line = 1;
  private column = 1;
  private quoted = false;
  /** A quote ended the last piece inside a quoted field: doubled or closing, the next piece says. */
  private quoteAtEnd = false;
  private record = 0; // records before this one (a line with nothing on it is not a record)
  private field = 0;
  private value = '';
  private empty = true; // the current record holds nothing yet
  private readonly header: string[] = [];

  /** Read text[0, end). */
  advance(text: string, end = text.length): void {
    let i = 0;
    if (this.quoteAtEnd && text.length > 0) {
      this.quoteAtEnd = false;
      if (text.charCodeAt(0) === 0x22) {
        if (i < end) {
          i++;
          this.column++;
          if (this.record === 0) this.value += '"';
        }
      } else this.quoted = false;
    }
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0xdc00 && c <= 0xdfff) {
        if (this.record === 0) this.value += text[i]; // second half of a surrogate pair: counted with the first
        continue;
      }
      if (c === 0x0a) {
        this.line++;
        this.column = 1;
      } else if (c !== 0x0d) this.column++;
      if (this.quoted) {
        if (c === 0x22) {
          if (i + 1 === text.length) this.quoteAtEnd = true;
          else if (text.charCodeAt(i + 1) === 0x22) {
            i++;
            this.column++;
            if (this.record === 0) this.value += '"';
          } else this.quoted = false;
        } else if (this.record === 0 && c !== 0x0d) this.value += text[i];
        continue;
      }
      if (c === 0x22) {
        this.quoted = true;
        this.empty = false;
      } else if (c === 0x2c) {
        if (this.record === 0) this.header.push(this.value);
        this.value = '';
        this.field++;
        this.empty = false;
      } else if (c === 0x0a) {
        if (this.record === 0 && !this.empty) this.header.push(this.value);
        if (!this.empty) this.record++;
        this.field = 0;
        this.value = '';
        this.empty = true;
      } else if (c !== 0x0d) {
        if (this.record === 0) this.value += text[i];
        this.empty = false;
      }
    }
  }

  /** The position reached, for the character `cp` found there. */
  locate(cp: number): ForbiddenCharacter {
    const header = this.record === 0 ? [...this.header, this.value] : this.header;
    const name = header[this.field]?.trim().slice(0, 60);
    return {
      line: this.line,
      column: this.column,
      name: forbiddenCharacterName(cp),
      field: this.record === 0 ? 'the header row' : name ? name : `field ${this.field + 1}`,
    };
  }
}

/**
 * The first forbidden character of a CSV text (FORBIDDEN_CHARACTERS), or null: its line, column, name
 * and CSV column (CsvPositionTracker). The text is read only up to the character, and only when there is one.
 */
export function forbiddenCharacterIn(text: string): ForbiddenCharacter | null {
  const m = FORBIDDEN_CHARACTERS.exec(text);
  if (!m) return null;
  const tracker = new CsvPositionTracker();
  tracker.advance(text, m.index);
  return tracker.locate(m[0].codePointAt(0)!);
}

/** Every record of a whole text (CsvParser in one piece). */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  const parser = new CsvParser((r) => records.push(r));
  parser.push(text);
  parser.end();
  return records;
}

export interface RowError {
  line: number;
  message: string;
}

export interface CsvRow {
  line: number;
  values: Record<string, string>;
  /** Columns whose cell had surrounding whitespace (removed); absent when none had. */
  trimmed?: string[];
}

/**
 * Row objects keyed by header name. The header must hold every name of `columns` (any order), matched
 * whatever its letter case and surrounding spaces, spaces and underscores alike (normalise.ts: headerKeys);
 * `optional` names columns matched the same way when present (e.g. YEAR of a BLS file), and with
 * `absentEmpty` an optional column the header lacks is read as an empty cell (given a list, only those
 * columns; the others a header lacks are left out of the row). Other columns are an error unless
 * `extraAllowed` (e.g. the many columns of the official BLS file); they are kept under their own name.
 * Cells lose their surrounding whitespace; `trimmed` lists the columns where that changed something.
 * A bad header throws (nothing in the file can be read); a row with the wrong number of fields is
 * returned as a row error so that the importer can list every bad line at once.
 */
export function recordsToRows(
  records: CsvRecord[],
  columns: readonly string[],
  options: { extraAllowed?: boolean; optional?: readonly string[]; absentEmpty?: boolean | readonly string[] } = {},
): { rows: CsvRow[]; errors: RowError[] } {
  const header = records[0];
  if (!header) throw new CsvSyntaxError(1, 'the file is empty (a header row is required)');
  let names: string[];
  try {
    names = headerKeys(header.fields, columns, options.optional);
  } catch (err) {
    if (err instanceof HeaderError) throw new CsvSyntaxError(header.line, err.message);
    throw err;
  }
  const known = new Set([...columns, ...(options.optional ?? [])]);
  const missing = columns.filter((c) => !names.includes(c));
  const unknown = names.filter((n) => !known.has(n));
  if (missing.length > 0 || (!options.extraAllowed && unknown.length > 0)) {
    const parts = [];
    if (missing.length) parts.push(`missing column(s): ${missing.join(', ')}`);
    if (!options.extraAllowed && unknown.length) parts.push(`unknown column(s): ${unknown.join(', ')}`);
    const optional = options.optional ?? [];
    const expected = optional.length ? `Required: ${columns.join(', ')}; optional: ${optional.join(', ')}` : `Expected: ${columns.join(',')}`;
    throw new CsvSyntaxError(header.line, `bad header: ${parts.join('; ')}. ${expected}`);
  }
  const emptyWhenAbsent = options.absentEmpty === true ? (options.optional ?? []) : options.absentEmpty || [];
  const absent = emptyWhenAbsent.filter((c) => !names.includes(c));
  const rows: CsvRow[] = [];
  const errors: RowError[] = [];
  for (const r of records.slice(1)) {
    if (r.fields.length !== names.length) {
      errors.push({ line: r.line, message: `expected ${names.length} fields, found ${r.fields.length}` });
      continue;
    }
    const values: Record<string, string> = Object.create(null);
    let trimmed: string[] | undefined;
    names.forEach((n, idx) => {
      const raw = r.fields[idx]!;
      const v = raw.trim();
      if (v.length !== raw.length && v !== '') (trimmed ??= []).push(n);
      values[n] = v;
    });
    for (const c of absent) values[c] = '';
    rows.push(trimmed ? { line: r.line, values, trimmed } : { line: r.line, values });
  }
  return { rows, errors };
}

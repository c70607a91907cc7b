/**
 * RFC 4180 records from text given a piece at a time (pure), so that a file of any size is read in bounded
 * memory: quoted fields may hold commas, doubled quotes and line breaks, and may be cut anywhere by the
 * end of a piece; lines end in LF, CRLF or CR; a byte-order mark at the start is ignored. Every record
 * carries the line it starts on, so that importers can point at the exact line of a bad row.
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

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;

/** Count of LF in text[from, to). */
function newlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export class CsvParser {
  private fields: string[] = [];
  private field = '';
  private line = 1;
  private recordLine = 1;
  /** Inside a quoted field. */
  private quoted = false;
  /** The current field started with a quote. */
  private wasQuoted = false;
  /** Just after the closing quote of a quoted field: only a comma or a line break may follow. */
  private closed = false;
  /** The last piece ended in a quote inside a quoted field: a doubled quote or the closing one. */
  private quoteAtEnd = false;
  /** The last piece ended in CR: an LF at the start of this one belongs to it. */
  private crAtEnd = false;
  private first = true;

  constructor(private readonly emit: (record: CsvRecord) => void) {}

  private endField(): void {
    this.fields.push(this.field);
    this.field = '';
    this.wasQuoted = false;
  }

  private endRecord(): void {
    this.endField();
    // A line with nothing on it (e.g. the trailing newline) is not a record.
    if (!(this.fields.length === 1 && this.fields[0] === '')) this.emit({ line: this.recordLine, fields: this.fields });
    this.fields = [];
  }

  push(text: string): void {
    const n = text.length;
    let i = 0;
    if (this.first && n > 0) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    if (this.crAtEnd && i < n) {
      this.crAtEnd = false;
      if (text.charCodeAt(i) === LF) i++;
    }
    if (this.quoteAtEnd && i < n) {
      this.quoteAtEnd = false;
      if (text.charCodeAt(i) === QUOTE) {
        this.field += '"';
        i++;
      } else {
        this.quoted = false;
        this.closed = true;
      }
    }
    while (i < n) {
      if (this.quoted) {
        const q = text.indexOf('"', i);
        const end = q < 0 ? n : q;
        this.line += newlines(text, i, end);
        this.field += text.slice(i, end);
        if (q < 0) return;
        if (q + 1 === n) {
          this.quoteAtEnd = true;
          return;
        }
        if (text.charCodeAt(q + 1) === QUOTE) {
          this.field += '"';
          i = q + 2;
        } else {
          this.quoted = false;
          this.closed = true;
          i = q + 1;
        }
        continue;
      }
      const c = text.charCodeAt(i);
      if (this.closed) {
        if (c !== COMMA && c !== LF && c !== CR) throw new CsvSyntaxError(this.line, 'unexpected character after a closing quote');
        this.closed = false;
      }
      if (c === QUOTE) {
        if (this.field !== '' || this.wasQuoted) throw new CsvSyntaxError(this.line, 'a quote inside an unquoted field');
        this.quoted = true;
        this.wasQuoted = true;
        i++;
      } else if (c === COMMA) {
        this.endField();
        i++;
      } else if (c === CR || c === LF) {
        this.endRecord();
        if (c === CR) {
          if (i + 1 === n) this.crAtEnd = true;
          else if (text.charCodeAt(i + 1) === LF) i++;
        }
        i++;
        this.line++;
        this.recordLine = this.line;
      } else {
        let j = i + 1;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (d === COMMA || d === CR || d === LF || d === QUOTE) break;
          j++;
        }
        this.field += text.slice(i, j);
        i = j;
      }
    }
  }

  /** The end of the text: the last record, or the error of a quoted field never closed. */
  end(): void {
    if (this.quoteAtEnd) {
      this.quoteAtEnd = false;
      this.quoted = false;
    }
    if (this.quoted) throw new CsvSyntaxError(this.recordLine, 'a quoted field is never closed');
    if (this.field !== '' || this.fields.length > 0 || this.wasQuoted) this.endRecord();
  }
}

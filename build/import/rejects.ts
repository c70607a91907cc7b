/**
 * The rejects file of `physpay import reports --rejects FILE`: the rows an import refused, as CSV, so that an
 * operator can correct them and import them as a file of their own. Its header is `line,reason` followed by
 * the imported file's own header fields; each row holds the line the refused row started on, why it was
 * refused, then its fields exactly as the file had them (a row with the wrong number of fields keeps its own
 * number). Rows are in line order.
 *
 * The text is pure (rejectsHeader, rejectsRow); RejectsFile writes it to a temporary file beside FILE, renamed
 * over FILE only when the import went through (commit), so that FILE is never half written and an import that
 * failed leaves the previous FILE as it was (discard).
 */
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Where an import writes the rows it refused (import-reports.ts). */
export interface RejectSink {
  /** the FILE as the operator named it, for messages */
  readonly name: string;
  /** the imported file's header fields, as written */
  header(fields: readonly string[]): void;
  /** a refused row: its line, the reason, its fields as written */
  add(line: number, reason: string, fields: readonly string[]): void;
}

/** RFC 4180 quoting that keeps a value exactly (no formula escaping: the rows go back into an import). */
function field(v: string): string {
  return /[",\r\n]|^\s|\s$/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export const rejectsHeader = (fields: readonly string[]): string => ['line', 'reason', ...fields].map(field).join(',');

export const rejectsRow = (line: number, reason: string, fields: readonly string[]): string => [String(line), reason, ...fields].map(field).join(',');

/** Bytes kept before a write. */
const BUFFER_BYTES = 1 << 16;

export class RejectsFile implements RejectSink {
  private readonly tmp: string;
  private fd: number | null;
  private buffer: string[] = [];
  private buffered = 0;

  /**
   * Opens the temporary file (FILE's folder must exist: errors are the caller's to word). `name`: FILE as
   * the operator gave it.
   */
  constructor(
    private readonly path: string,
    readonly name: string = path,
  ) {
    this.tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
    this.fd = openSync(this.tmp, 'w');
  }

  header(fields: readonly string[]): void {
    this.push(rejectsHeader(fields));
  }

  add(line: number, reason: string, fields: readonly string[]): void {
    this.push(rejectsRow(line, reason, fields));
  }

  private push(text: string): void {
    this.buffer.push(text);
    this.buffered += text.length;
    if (this.buffered >= BUFFER_BYTES) this.flush();
  }

  private flush(): void {
    if (this.fd === null || this.buffer.length === 0) return;
    writeSync(this.fd, `${this.buffer.join('\n')}\n`);
    this.buffer = [];
    this.buffered = 0;
  }

  /** The import went through: FILE now holds these rows. */
  commit(): void {
    this.flush();
    this.close();
    renameSync(this.tmp, this.path);
  }

  /** The import did not go through (or read nothing): FILE is left as it was. */
  discard(): void {
    this.close();
    rmSync(this.tmp, { force: true });
  }

  private close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/**
 * A reports file's records turned into checked chunks, BATCH_ROWS records at a time (pure): the rows of each
 * chunk validated with the same validators, each valid report with its fingerprint, every bad row with its
 * line and message (and, for a rejects file, its fields as written). The importer writes the chunks in order
 * (import-reports.ts); the same chunks come from this thread or from a worker thread (report-worker.ts), so
 * both give the same rows, errors and rejects file.
 */
import { reportFingerprint } from '../db/fingerprint.ts';
import type { CsvRecord, RowError } from './csv.ts';
import type { DateFormat } from './fields.ts';
import type { Normalised } from './normalise.ts';
import type { Refs } from './refs.ts';
import { reportRecordsToRows, validateReportRows, type ValidReport } from './reports.ts';
import { implausibleApprovedIssue } from './approved-rows.ts';
import type { ReferenceLevel } from '../compute/plausibility.ts';

/** Rows validated and written at a time. */
export const BATCH_ROWS = 2_000;

/** What checking needs: all of it plain data, so that a worker thread can be given it. */
export interface ReportCheckSettings {
  refs: Refs;
  now: Date;
  dateFormat?: DateFormat;
  /** each specialty's reference level for approved rows' hard plausibility rule; absent: --keep-implausible */
  references?: Map<number, ReferenceLevel>;
  /** keep the fields of bad rows, for a rejects file */
  rejects: boolean;
}

/** A bad row for the rejects file: its line, every reason, its fields as written. */
export interface RejectRow {
  line: number;
  reason: string;
  fields: string[];
}

export interface ReportChunk {
  /** records of the chunk (good and bad) */
  rowsRead: number;
  valid: ValidReport[];
  /** fingerprints of `valid`, index for index */
  fingerprints: string[];
  /** bad rows: field-count errors first, then validation errors (RowErrorLog sorts them by line) */
  bad: RowError[];
  /** the bad rows for a rejects file, in line order (only with `rejects`) */
  rejects: RejectRow[];
  normalised: Normalised;
}

/** The bad rows of a chunk's records, in line order, each with its fields as written and all its reasons. */
function rejectRows(records: CsvRecord[], bad: RowError[]): RejectRow[] {
  const reasons = new Map<number, string>();
  for (const e of bad) reasons.set(e.line, reasons.has(e.line) ? `${reasons.get(e.line)}; ${e.message}` : e.message);
  const out: RejectRow[] = [];
  for (const r of records) {
    const reason = reasons.get(r.line);
    if (reason !== undefined) out.push({ line: r.line, reason, fields: r.fields });
  }
  return out;
}

/**
 * Feed records in file order (the header first); `chunk` is called with each BATCH_ROWS records checked, and
 * by `end` with the rest. A bad header throws CsvSyntaxError; an empty file throws it at `end`.
 */
export class ReportChunker {
  private header: CsvRecord | undefined;
  private batch: CsvRecord[] = [];
  private readonly check;

  constructor(
    private readonly s: ReportCheckSettings,
    private readonly chunk: (c: ReportChunk) => void,
    /** the header, once it was found good */
    private readonly onHeader: (fields: string[]) => void = () => {},
  ) {
    const refs = s.references;
    this.check = refs ? (r: ValidReport) => implausibleApprovedIssue(r, refs.get(r.specialty_id)) : undefined;
  }

  /** Records read but not yet checked (progress). */
  get pending(): number {
    return this.batch.length;
  }

  push(record: CsvRecord): void {
    if (!this.header) {
      reportRecordsToRows([record]); // a bad header is refused before any row is read
      this.header = record;
      this.onHeader(record.fields);
      return;
    }
    this.batch.push(record);
    if (this.batch.length >= BATCH_ROWS) this.flush();
  }

  end(): void {
    if (!this.header) reportRecordsToRows([]); // refuses the empty file
    this.flush();
  }

  private flush(): void {
    const records = this.batch;
    this.batch = [];
    const { rows, errors: shape } = reportRecordsToRows([this.header!, ...records]);
    const { valid, errors: invalid, normalised } = validateReportRows(rows, this.s.refs, this.s.now, undefined, { dateFormat: this.s.dateFormat, check: this.check });
    const bad = [...shape, ...invalid];
    this.chunk({
      rowsRead: rows.length + shape.length,
      valid,
      fingerprints: valid.map(reportFingerprint),
      bad,
      rejects: this.s.rejects && bad.length ? rejectRows(records, bad) : [],
      normalised,
    });
  }
}

/**
 * What an import returns or throws, and its record in import_batches (migration v3): every import is a
 * batch, refused ones included; reports point at their batch, so that a batch can be listed and undone.
 */
import type { Db } from '../db/open.ts';
import type { RowError } from './csv.ts';
import type { DuplicateRow } from './row-log.ts';
import type { ApprovedFlag } from './approved-rows.ts';
import type { Normalised } from './normalise.ts';

export type { DuplicateRow };

export type ImportKind = 'reports' | 'institutions' | 'bls' | 'col';

/**
 * The file was refused; no report, institution, wage or index was written. `errors` lists the first bad
 * lines (KEPT_ROWS), `omitted` counts the others by reason, `errorCount` is every error.
 * `fileLevel`: the file itself could not be read (encoding), `detail` then says why in one sentence.
 * `batchId`: the refused attempt was recorded as this batch (row errors in a readable file).
 */
export class ImportRejected extends Error {
  readonly fileLevel: boolean;
  readonly detail?: string;
  readonly batchId?: number;
  readonly omitted: Map<string, number>;
  readonly errorCount: number;
  constructor(
    readonly file: string,
    readonly errors: RowError[],
    options: { fileLevel?: boolean; detail?: string; batchId?: number; omitted?: Map<string, number>; errorCount?: number } = {},
  ) {
    const errorCount = options.errorCount ?? errors.length;
    super(options.detail ? `${file} ${options.detail}; nothing imported` : `${file}: ${errorCount.toLocaleString('en-US')} bad row(s), nothing imported`);
    this.fileLevel = Boolean(options.fileLevel);
    this.detail = options.detail;
    this.batchId = options.batchId;
    this.omitted = options.omitted ?? new Map();
    this.errorCount = errorCount;
  }
}

export interface ImportResult {
  kind: ImportKind;
  file: string;
  /** Rows imported. */
  rows: number;
  /** Data rows in the file. */
  rowsRead: number;
  /** Human summary, e.g. "1,204 reports imported from x.csv (1,100 pending, 104 approved); batch 7". */
  summary: string;
  /** The batch recorded for this import; when alreadyImported, the batch that imported the same bytes. */
  batchId?: number;
  /** True when the same bytes were imported before and nothing was done. */
  alreadyImported?: boolean;
  /** The first duplicates skipped (KEPT_ROWS), in line order; duplicateCount counts them all. */
  duplicates: DuplicateRow[];
  duplicateCount: number;
  /** reports: the first approved reports imported with a flag (KEPT_ROWS), in line order; flaggedCount counts them all. */
  flagged?: ApprovedFlag[];
  flaggedCount?: number;
  /**
   * reports with a rejects file: the bad rows written there instead of refusing the file. `rows` counts
   * them, `errors` holds the first (KEPT_ROWS) in line order, `omitted` counts the others by reason.
   */
  rejected?: { rows: number; errors: RowError[]; omitted: Map<string, number> };
  /** reports (an import that ran): what the summary says in words, as numbers */
  reportCounts?: {
    byStatus: { pending: number; approved: number; rejected: number };
    /** moderation decisions given back from an undone import */
    restored: { approved: number; rejected: number };
    duplicates: { inDb: number; inFile: number };
    normalised: Normalised;
  };
}

export interface BatchRecord {
  kind: ImportKind;
  file: string;
  sha256: string;
  stamp: string;
  rowsRead: number;
  rowsImported: number;
  duplicates?: number;
  refused?: number;
  lastReportId?: number | null;
}

export function insertBatch(db: Db, b: BatchRecord, status: 'imported' | 'refused'): number {
  return Number(
    db
      .prepare(`INSERT INTO import_batches (kind, file_name, sha256, imported_at, rows_read, rows_imported, duplicates_skipped,
        rows_refused, status, last_report_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(b.kind, b.file, b.sha256, b.stamp, b.rowsRead, b.rowsImported, b.duplicates ?? 0, b.refused ?? 0, status, b.lastReportId ?? null)
      .lastInsertRowid,
  );
}

export interface PreviousImport {
  id: number;
  imported_at: string;
  rows_imported: number;
}

/** The batch that imported these exact bytes (and was not undone), if any. */
export function sameFile(db: Db, kind: ImportKind, sha256: string): PreviousImport | undefined {
  return db
    .prepare("SELECT id, imported_at, rows_imported FROM import_batches WHERE kind = ? AND sha256 = ? AND status = 'imported' ORDER BY id LIMIT 1")
    .get(kind, sha256) as PreviousImport | undefined;
}

export function alreadyImported(file: string, previous: PreviousImport): ImportResult {
  return {
    kind: 'reports', file, rows: 0, rowsRead: 0, batchId: previous.id, alreadyImported: true, duplicates: [], duplicateCount: 0,
    summary: `${file} was already imported as batch ${previous.id} on ${previous.imported_at} (${previous.rows_imported.toLocaleString('en-US')} reports); nothing to do`,
  };
}

/**
 * The JSON objects of `physpay import reports --json` and `physpay import undo --json` (pure): one object per
 * run, whatever the outcome, with the fields the text output gives in words. A usage error (exit 2) prints
 * none.
 */
import { basename } from 'node:path';
import type { ImportResult } from '../../import/run.ts';
import type { RowError } from '../../import/csv.ts';
import type { UndoResult } from '../../import/batches.ts';
import { noneNormalised, type Normalised } from '../../import/normalise.ts';
import { approvedFlagDetail } from '../../import/approved-rows.ts';

/**
 * `imported` (rejected rows too, with --rejects: exit 3), `already_imported` (the same bytes: nothing done),
 * `refused` (bad rows, or a file that cannot be read: nothing imported), `failed` (a missing file, a DB error).
 */
export type ImportStatus = 'imported' | 'already_imported' | 'refused' | 'failed';

export interface ImportJson {
  status: ImportStatus;
  db: string;
  file: string;
  /** the batch of this import (a refused one too); for already_imported the batch that imported the bytes */
  batch_id: number | null;
  rows_read: number;
  imported: number;
  by_status: { pending: number; approved: number; rejected: number };
  decisions_restored: { approved: number; rejected: number };
  /** `rows`: the first 1,000, each `{line, report_id, batch_id}` (in the DB) or `{line, first_line}` (in the file) */
  duplicates: { count: number; in_db: number; in_file: number; rows: ({ line: number; report_id: number; batch_id: number | null } | { line: number; first_line: number })[] };
  /** approved reports imported with a flag; `rows`: the first 1,000 */
  flagged: { count: number; rows: { line: number; report_id: number; specialty: string; total_compensation: number; flags: string }[] };
  normalised: Normalised;
  /** the bad rows (refused, or written to the rejects file): how many, the first 1,000, the others by reason */
  bad_rows: { count: number; rows: RowError[]; omitted: Record<string, number> } | null;
  rejects_file: string | null;
  /** the error line (stderr, after `physpay: `), or null */
  error: string | null;
  /** the summary line printed without --json, or null */
  message: string | null;
}

const empty = (db: string, file: string, status: ImportStatus): ImportJson => ({
  status, db, file: basename(file), batch_id: null, rows_read: 0, imported: 0,
  by_status: { pending: 0, approved: 0, rejected: 0 },
  decisions_restored: { approved: 0, rejected: 0 },
  duplicates: { count: 0, in_db: 0, in_file: 0, rows: [] },
  flagged: { count: 0, rows: [] },
  normalised: noneNormalised(),
  bad_rows: null,
  rejects_file: null,
  error: null,
  message: null,
});

const badRows = (count: number, rows: RowError[], omitted: Map<string, number>): NonNullable<ImportJson['bad_rows']> => ({
  count, rows: rows.map(({ line, message }) => ({ line, message })), omitted: Object.fromEntries(omitted),
});

/** An import that ran: imported (maybe with rejected rows: `error` says so) or already imported. */
export function importedJson(db: string, r: ImportResult, rejectsFile: string | undefined, error: string | null): ImportJson {
  const d = r.reportCounts;
  return {
    ...empty(db, r.file, r.alreadyImported ? 'already_imported' : 'imported'),
    batch_id: r.batchId ?? null,
    rows_read: r.rowsRead,
    imported: r.rows,
    ...(d ? { by_status: { ...d.byStatus }, decisions_restored: { ...d.restored }, normalised: { ...d.normalised } } : {}),
    duplicates: {
      count: r.duplicateCount, in_db: d?.duplicates.inDb ?? 0, in_file: d?.duplicates.inFile ?? 0,
      rows: r.duplicates.map((x) => (x.firstLine !== undefined ? { line: x.line, first_line: x.firstLine } : { line: x.line, report_id: x.reportId!, batch_id: x.batchId ?? null })),
    },
    flagged: {
      count: r.flaggedCount ?? 0,
      rows: (r.flagged ?? []).map((f) => ({ line: f.line, report_id: f.report_id, specialty: f.specialty, total_compensation: f.total_compensation, flags: approvedFlagDetail(f) })),
    },
    bad_rows: r.rejected ? badRows(r.rejected.rows, r.rejected.errors, r.rejected.omitted) : null,
    rejects_file: r.alreadyImported ? null : (rejectsFile ?? null),
    error,
    message: r.summary,
  };
}

/** A file refused: its bad rows (with the refused batch), or none when the file could not be read. */
export function refusedJson(
  db: string,
  file: string,
  refused: { batchId?: number; errorCount: number; errors: RowError[]; omitted: Map<string, number>; fileLevel: boolean },
  error: string,
): ImportJson {
  return {
    ...empty(db, file, 'refused'),
    batch_id: refused.batchId ?? null,
    bad_rows: refused.fileLevel ? null : badRows(refused.errorCount, refused.errors, refused.omitted),
    error,
  };
}

/** An import that failed before or while reading (a missing file, a DB error). */
export const failedJson = (db: string, file: string, error: string): ImportJson => ({ ...empty(db, file, 'failed'), error });

export interface UndoJson {
  status: 'dry_run' | 'undone';
  db: string;
  batch_id: number;
  file_name: string;
  imported_at: string;
  /** reports removed (would be, for a dry run), by status */
  removed: number;
  by_status: { pending: number; approved: number; rejected: number };
  /** reports in the DB before the undo */
  reports_in_db: number;
  /** moderation decisions kept for a re-import (null for a dry run) */
  decisions_kept: number | null;
  /** the hint to run physpay reclaim, or null */
  reclaim: string | null;
  message: string;
}

export function undoJson(db: string, r: UndoResult, message: string, reclaim: string | null = null): UndoJson {
  return {
    status: r.dryRun ? 'dry_run' : 'undone',
    db,
    batch_id: r.batch.id,
    file_name: r.batch.file_name,
    imported_at: r.batch.imported_at,
    removed: r.removed,
    by_status: { ...r.byStatus },
    reports_in_db: r.reportsInDb,
    decisions_kept: r.dryRun ? null : r.decisionsKept,
    reclaim,
    message,
  };
}

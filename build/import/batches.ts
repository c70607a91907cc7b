/**
 * Import batches (migration v3): list them, and undo a batch of reports. An undo removes exactly the
 * reports that batch imported, whatever their moderation status, in one transaction, and marks the batch
 * undone (it cannot be undone twice; its file can then be imported again). The moderation decisions made
 * on its reports are kept (undone_decisions, migration v5), so that importing the same rows again gives
 * them back with their ids (import-reports.ts). Other report ids are not reused: the importer numbers new
 * reports above every batch's last_report_id.
 */
import type { Db } from '../db/open.ts';
import { fillMissingFingerprints } from '../db/fingerprint.ts';
import { CountMismatchError } from '../db/moderation.ts';
import type { ImportKind } from './result.ts';

export interface Batch {
  id: number;
  kind: ImportKind;
  file_name: string;
  sha256: string;
  imported_at: string;
  rows_read: number;
  rows_imported: number;
  duplicates_skipped: number;
  rows_refused: number;
  status: 'imported' | 'refused' | 'undone';
  undone_at: string | null;
  reports_removed: number | null;
  /** reports of this batch still in the DB (null for batches that are not reports) */
  reports_remaining: number | null;
}

/** A batch that does not exist or cannot be undone: the operator's mistake (exit 2), nothing changed. */
export class BatchError extends Error {}

const BATCH_COLUMNS = `b.id, b.kind, b.file_name, b.sha256, b.imported_at, b.rows_read, b.rows_imported, b.duplicates_skipped,
  b.rows_refused, b.status, b.undone_at, b.reports_removed,
  CASE WHEN b.kind = 'reports' THEN (SELECT count(*) FROM reports r WHERE r.batch_id = b.id) END AS reports_remaining`;

/** Every batch, newest first. */
export function listBatches(db: Db): Batch[] {
  return db.prepare(`SELECT ${BATCH_COLUMNS} FROM import_batches b ORDER BY b.id DESC`).all() as Batch[];
}

export function getBatch(db: Db, id: number): Batch | undefined {
  return db.prepare(`SELECT ${BATCH_COLUMNS} FROM import_batches b WHERE b.id = ?`).get(id) as Batch | undefined;
}

export interface UndoResult {
  batch: Batch;
  removed: number;
  byStatus: { pending: number; approved: number; rejected: number };
  /** Reports in the DB before the undo (all batches). */
  reportsInDb: number;
  /** Moderation decisions kept for a re-import (made after the import, not given by the file). */
  decisionsKept: number;
  dryRun: boolean;
}

/**
 * Remove the reports of batch `id` (or, with dryRun, count them). Throws BatchError when it cannot, and
 * CountMismatchError when `expectCount` is given and is not the number of reports it would remove.
 */
export function undoBatch(db: Db, id: number, options: { now?: () => Date; dryRun?: boolean; dbName?: string; expectCount?: number } = {}): UndoResult {
  const now = options.now ?? (() => new Date());
  const run = () => {
    const batch = getBatch(db, id);
    if (!batch) {
      throw new BatchError(`no import batch ${id}${options.dbName ? ` in ${options.dbName}` : ''} (physpay import list shows the batches); nothing changed`);
    }
    if (batch.kind !== 'reports') {
      throw new BatchError(`batch ${id} imported ${batch.kind} data; only reports batches can be undone (import a corrected ${batch.kind} file instead); nothing changed`);
    }
    if (batch.status === 'refused') throw new BatchError(`batch ${id} was refused and imported no reports; nothing to undo`);
    if (batch.status === 'undone') {
      throw new BatchError(`batch ${id} was already undone on ${batch.undone_at} (${(batch.reports_removed ?? 0).toLocaleString('en-US')} reports removed); nothing changed`);
    }
    const byStatus = { pending: 0, approved: 0, rejected: 0 };
    for (const r of db.prepare('SELECT status, count(*) AS n FROM reports WHERE batch_id = ? GROUP BY status').all(id) as { status: keyof typeof byStatus; n: number }[]) {
      byStatus[r.status] = r.n;
    }
    const removed = byStatus.pending + byStatus.approved + byStatus.rejected;
    const reportsInDb = (db.prepare('SELECT count(*) AS n FROM reports').get() as { n: number }).n;
    if (options.expectCount !== undefined && options.expectCount !== removed) throw new CountMismatchError(options.expectCount, removed);
    // A decision made after the import (by a moderator: moderated_by set, or, before moderators were
    // recorded, a moderated_at other than the import's time). A status the file itself gave comes back
    // from the file, and is not kept.
    const decided = `FROM reports r WHERE r.batch_id = ? AND r.status IN ('approved', 'rejected')
      AND (r.moderated_by IS NOT NULL OR r.moderated_at IS NOT (SELECT b.imported_at FROM import_batches b WHERE b.id = r.batch_id))`;
    let decisionsKept = (db.prepare(`SELECT count(*) AS n ${decided}`).get(id) as { n: number }).n;
    if (!options.dryRun) {
      const at = now().toISOString();
      fillMissingFingerprints(db);
      decisionsKept = db.prepare(`INSERT INTO undone_decisions (fingerprint, report_id, batch_id, status, moderated_at, moderated_by, moderation_reason, undone_at)
        SELECT r.fingerprint, r.id, r.batch_id, r.status, r.moderated_at, r.moderated_by, r.moderation_reason, ? ${decided} ORDER BY r.id`).run(at, id).changes;
      const deleted = db.prepare('DELETE FROM reports WHERE batch_id = ?').run(id).changes;
      db.prepare("UPDATE import_batches SET status = 'undone', undone_at = ?, reports_removed = ? WHERE id = ?").run(at, deleted, id);
    }
    return { batch, removed, byStatus, reportsInDb, decisionsKept, dryRun: Boolean(options.dryRun) };
  };
  return options.dryRun ? run() : db.transaction(run).immediate();
}

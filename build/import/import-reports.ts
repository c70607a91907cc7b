/**
 * Importing a reports CSV as it is read, in bounded memory whatever its size: records are parsed from the
 * file a chunk at a time (source.ts), checked BATCH_ROWS at a time with the same validators (report-chunks.ts;
 * for a file of WORKER_MIN_BYTES or more, on a worker thread while this one writes: report-reader.ts), and written in
 * one transaction with the batch; any bad row rolls everything back (every bad line is still listed, and
 * the attempt is recorded as a refused batch). Duplicates are found by fingerprint against the DB, which
 * within the transaction holds the file's earlier rows too.
 *
 * A row whose report was imported before and removed by `physpay import undo` gets back the moderation
 * decision made on it (undone_decisions, migration v5) and its former id, unless restoreDecisions is off.
 *
 * With a rejects sink (`--rejects FILE`) a bad row does not stop the import: the good rows are written as the
 * batch, and each bad row goes to the sink with its line and reason (rejects.ts).
 *
 * Rows whose status is approved skip moderation: one failing the hard plausibility rule is a bad row unless
 * keepImplausible, and each approved report written is flagged as an approval would flag it (approved-rows.ts).
 */
import type { Db } from '../db/open.ts';
import { fillMissingFingerprints } from '../db/fingerprint.ts';
import { OFFER_COLUMNS } from '../contract/offer-terms.ts';
import { CsvSyntaxError } from './csv.ts';
import type { RejectSink } from './rejects.ts';
import { loadRefs } from './refs.ts';
import type { ValidReport } from './reports.ts';
import type { ReportCheckSettings } from './report-chunks.ts';
import { readReportChunks, readReportChunksInWorker } from './report-reader.ts';
import type { DateFormat } from './fields.ts';
import { addNormalised, noneNormalised, normalisedSuffix } from './normalise.ts';
import { DuplicateLog, KeptLog, RowErrorLog } from './row-log.ts';
import { approvedFlag, type ApprovedFlag } from './approved-rows.ts';
import { PlausibilityLevels } from './plausibility-levels.ts';
import { FileChangedError } from './source.ts';
import type { ImportProgress } from './progress.ts';
import { ImportRejected, alreadyImported, insertBatch, sameFile, type ImportResult } from './result.ts';

export { BATCH_ROWS } from './report-chunks.ts';

/** Files of at least this many bytes are read and checked on a worker thread while this one writes (report-reader.ts). */
export const WORKER_MIN_BYTES = 8 << 20;

export interface ReportsImport {
  path: string;
  file: string;
  sha256: string;
  stamp: string;
  now: Date;
  allowDuplicates: boolean;
  restoreDecisions: boolean;
  /** import approved rows that fail the hard plausibility rule (they are flagged) instead of refusing them */
  keepImplausible?: boolean;
  /** import the good rows and write the bad ones here, instead of refusing the file */
  rejects?: RejectSink;
  dateFormat?: DateFormat;
  progress: ImportProgress;
  /** the file's size, and the size from which a worker thread reads and checks it (WORKER_MIN_BYTES) */
  bytes: number;
  workerMinBytes: number;
}

type Status = 'pending' | 'approved' | 'rejected';

interface Decision {
  id: number;
  report_id: number;
  status: 'approved' | 'rejected';
  moderated_at: string | null;
  moderated_by: string | null;
  moderation_reason: string | null;
}

/** Thrown inside the transaction when a row was bad: it rolls back, then the refusal is recorded. */
class RowsRefused extends Error {}

const fmt = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many: string) => `${fmt(n)} ${n === 1 ? one : many}`;

/** Writes the valid reports of one batch: skips duplicates, restores undone decisions, numbers new reports. */
class ReportWriter {
  readonly counts: Record<Status, number> = { pending: 0, approved: 0, rejected: 0 };
  readonly restored = { approved: 0, rejected: 0 };
  readonly duplicates = new DuplicateLog();
  private nextId: number;
  /** Line of each new report (id high + 1 + index) and of each restored one, to name an in-file duplicate's first line. */
  private readonly lineOfNew: number[] = [];
  private readonly lineOfRestored = new Map<number, number>();
  private readonly find;
  private readonly insert;
  private readonly decision;
  private readonly dropDecision;
  private readonly idTaken;
  private readonly anyUndone: boolean;

  constructor(
    db: Db,
    private readonly batchId: number,
    private readonly high: number,
    private readonly stamp: string,
    private readonly opts: { allowDuplicates: boolean; restoreDecisions: boolean },
  ) {
    this.nextId = high + 1;
    this.find = db.prepare('SELECT id, batch_id FROM reports WHERE fingerprint = ? ORDER BY id LIMIT 1');
    // positional parameters: binding an object by name cost more than the insert itself at 1,000,000 rows
    this.insert = db.prepare(`INSERT INTO reports (id, specialty_id, state, year, total_compensation, base_salary, bonus,
      hours_per_week, years_in_practice, practice_setting, employment_type, wrvus, submitted_at, status, moderated_at,
      moderated_by, moderation_reason, batch_id, fingerprint, ${OFFER_COLUMNS.join(', ')})
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${OFFER_COLUMNS.map(() => '?').join(', ')})`);
    // most imports follow no undo: then no row needs the look-up of an undone decision
    this.anyUndone = db.prepare('SELECT EXISTS (SELECT 1 FROM undone_decisions) AS any').pluck().get() === 1;
    this.decision = db.prepare(`SELECT id, report_id, status, moderated_at, moderated_by, moderation_reason FROM undone_decisions
      WHERE fingerprint = ? ORDER BY id DESC LIMIT 1`);
    this.dropDecision = db.prepare('DELETE FROM undone_decisions WHERE id = ?');
    this.idTaken = db.prepare('SELECT 1 FROM reports WHERE id = ?').pluck();
  }

  /** The id of the last new report, or null when the batch gave none out. */
  get lastNewId(): number | null {
    return this.nextId > this.high + 1 ? this.nextId - 1 : null;
  }

  get imported(): number {
    return this.counts.pending + this.counts.approved + this.counts.rejected;
  }

  private lineOf(id: number): number {
    return id > this.high ? this.lineOfNew[id - this.high - 1]! : this.lineOfRestored.get(id)!;
  }

  /** Write one report: its id and status, `restored` when an undone decision was given back; null for a duplicate. */
  add(report: ValidReport, fingerprint: string): { id: number; status: Status; restored: boolean } | null {
    if (!this.opts.allowDuplicates) {
      const hit = this.find.get(fingerprint) as { id: number; batch_id: number | null } | undefined;
      if (hit) {
        this.duplicates.add(hit.batch_id === this.batchId ? { line: report.line, firstLine: this.lineOf(hit.id) } : { line: report.line, reportId: hit.id, batchId: hit.batch_id });
        return null;
      }
    }
    const { line } = report;
    let id: number;
    let decided: Omit<Decision, 'id' | 'report_id'> | { status: Status; moderated_at: string | null; moderated_by: null; moderation_reason: null } = {
      status: report.status,
      moderated_at: report.status === 'pending' ? null : this.stamp,
      moderated_by: null,
      moderation_reason: null,
    };
    const d = this.opts.restoreDecisions && this.anyUndone ? (this.decision.get(fingerprint) as Decision | undefined) : undefined;
    const restored = d !== undefined && !this.idTaken.get(d.report_id);
    if (restored) {
      this.dropDecision.run(d.id);
      id = d.report_id;
      decided = { status: d.status, moderated_at: d.moderated_at, moderated_by: d.moderated_by, moderation_reason: d.moderation_reason };
      this.restored[d.status]++;
      this.lineOfRestored.set(id, line);
    } else {
      id = this.nextId++;
      this.lineOfNew.push(line);
    }
    this.counts[decided.status]++;
    const r = report;
    this.insert.run(
      id, r.specialty_id, r.state, r.year, r.total_compensation, r.base_salary, r.bonus, r.hours_per_week, r.years_in_practice,
      r.practice_setting, r.employment_type, r.wrvus, r.submitted_at, decided.status, decided.moderated_at, decided.moderated_by,
      // the whole offer, in OFFER_COLUMNS order (spelt out: a map per row would cost at 1,000,000 rows)
      decided.moderation_reason, this.batchId, fingerprint, r.call_pay ?? null, r.call_nights_per_month ?? null, r.signing_bonus ?? null,
      r.retention_bonus ?? null, r.relocation ?? null, r.loan_repayment ?? null, r.loan_repayment_years ?? null, r.cme_allowance ?? null,
      r.pto_weeks ?? null, r.compensation_model ?? null, r.wrvu_conversion_rate ?? null, r.non_compete_miles ?? null, r.non_compete_years ?? null,
      r.partnership_track_years ?? null,
    );
    return { id, status: decided.status, restored };
  }
}

/** The highest report id ever given out (an undone batch's ids are not given out again). */
function highestId(db: Db): number {
  return (db
    .prepare('SELECT max(coalesce((SELECT max(id) FROM reports), 0), coalesce((SELECT max(last_report_id) FROM import_batches), 0)) AS high')
    .get() as { high: number }).high;
}

export function importReportsFile(db: Db, a: ReportsImport): ImportResult {
  const { file, sha256, stamp } = a;
  const refs = loadRefs(db);
  const errors = new RowErrorLog();
  let rowsRead = 0;
  let normalised = noneNormalised();
  let writer: ReportWriter | undefined;
  const flagged = new KeptLog<ApprovedFlag>();
  let previous: ReturnType<typeof sameFile>;
  a.progress.stage(`importing the rows of ${file}`);
  let batchId: number;
  try {
    batchId = db.transaction(() => {
      // The same bytes may have been imported since the first look (another import running at the same time).
      previous = a.allowDuplicates ? undefined : sameFile(db, 'reports', sha256);
      if (previous) return previous.id;
      fillMissingFingerprints(db); // reports written by other means (demo data, older code) get theirs now
      const high = highestId(db);
      const id = insertBatch(db, { kind: 'reports', file, sha256, stamp, rowsRead: 0, rowsImported: 0 }, 'imported');
      const w = new ReportWriter(db, id, high, stamp, a);
      writer = w;
      const levels = new PlausibilityLevels(db, id);
      /** Write a valid row; an approved report the file approved (not a restored decision) gets its flags. */
      const write = (r: ValidReport, fingerprint: string) => {
        const added = w.add(r, fingerprint);
        if (!added || added.status !== 'approved' || added.restored || r.status !== 'approved') return;
        const flag = approvedFlag(r, added.id, levels.slug(r.specialty_id), levels.fencesOf(r.specialty_id), levels.reference(r.specialty_id),
          (r.wrvu_conversion_rate ?? null) !== null ? levels.rateOf(r.specialty_id) : undefined); // the $/wRVU is read only for a row that needs it
        if (flag) flagged.add(flag);
      };
      const settings: ReportCheckSettings = {
        refs, now: a.now, dateFormat: a.dateFormat, rejects: Boolean(a.rejects),
        ...(a.keepImplausible ? {} : { references: levels.referencesById() }),
      };
      const read = a.bytes >= a.workerMinBytes ? readReportChunksInWorker : readReportChunks;
      read({ path: a.path, sha256 }, settings, {
        header: (fields) => a.rejects?.header(fields),
        chunk: (c) => {
          rowsRead += c.rowsRead;
          normalised = addNormalised(normalised, c.normalised);
          errors.add(c.bad);
          if (a.rejects) {
            for (const r of c.rejects) a.rejects.add(r.line, r.reason, r.fields);
          } else if (errors.count > 0) return;
          c.valid.forEach((r, i) => write(r, c.fingerprints[i]!));
        },
        progress: (done, size, pending) => a.progress.bytes(done, size, rowsRead + pending),
      });
      if (errors.count > 0 && !a.rejects) throw new RowsRefused();
      db.prepare('UPDATE import_batches SET rows_read = ?, rows_imported = ?, duplicates_skipped = ?, rows_refused = ?, last_report_id = ? WHERE id = ?')
        .run(rowsRead, w.imported, w.duplicates.count, errors.lines, w.lastNewId, id);
      return id;
    }).immediate();
  } catch (err) {
    a.progress.done();
    if (err instanceof RowsRefused) {
      const refusedId = db.transaction(() =>
        insertBatch(db, { kind: 'reports', file, sha256, stamp, rowsRead, rowsImported: 0, refused: errors.lines }, 'refused'),
      ).immediate();
      throw new ImportRejected(file, errors.kept, { batchId: refusedId, omitted: errors.omitted, errorCount: errors.count });
    }
    // a bad header, an unclosed quote or an empty file: the file cannot be read, which is not a bad row
    if (err instanceof CsvSyntaxError) throw new ImportRejected(file, [{ line: err.line, message: err.message.replace(/^line \d+: /, '') }], { fileLevel: true, detail: err.message });
    if (err instanceof FileChangedError) throw new ImportRejected(file, [], { fileLevel: true, detail: err.message });
    throw err;
  }
  a.progress.done();
  if (previous) return alreadyImported(file, previous);
  const w = writer!;
  const detail = (Object.keys(w.counts) as Status[]).filter((k) => w.counts[k] > 0).map((k) => `${fmt(w.counts[k])} ${k}`);
  const restoredCount = w.restored.approved + w.restored.rejected;
  const restored = restoredCount
    ? `; ${plural(restoredCount, 'moderation decision', 'moderation decisions')} restored from an undone import (${fmt(w.restored.approved)} approved, ${fmt(w.restored.rejected)} rejected; --no-restore-decisions takes the file's status instead)`
    : '';
  const dup = w.duplicates;
  const dupText = dup.count
    ? `; ${plural(dup.count, 'duplicate', 'duplicates')} skipped (${[dup.inDb ? `already in the DB: ${fmt(dup.inDb)}` : '', dup.inFile ? `repeated in the file: ${fmt(dup.inFile)}` : ''].filter(Boolean).join(', ')}; --allow-duplicates imports them)`
    : '';
  const flaggedText = flagged.count ? `; ${plural(flagged.count, 'approved report', 'approved reports')} flagged (on stderr)` : '';
  const rejected = a.rejects && errors.count > 0 ? { rows: errors.lines, errors: errors.kept, omitted: errors.omitted } : undefined;
  const rejectedText = rejected ? `; ${plural(rejected.rows, 'row', 'rows')} rejected (written to ${a.rejects!.name})` : '';
  return {
    kind: 'reports', file, rows: w.imported, rowsRead, batchId, duplicates: dup.kept, duplicateCount: dup.count,
    flagged: flagged.kept, flaggedCount: flagged.count, rejected,
    reportCounts: { byStatus: { ...w.counts }, restored: { ...w.restored }, duplicates: { inDb: dup.inDb, inFile: dup.inFile }, normalised },
    summary: `${fmt(w.imported)} reports imported from ${file}${detail.length ? ` (${detail.join(', ')})` : ''}${restored}${rejectedText}${dupText}${flaggedText}${normalisedSuffix(normalised)}; batch ${batchId}`,
  };
}

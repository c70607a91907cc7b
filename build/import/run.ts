/**
 * The import shell: read a CSV file (UTF-8 only), validate every row (pure validators beside this file),
 * then write everything in one transaction, or nothing when any row is bad. Every import is recorded as a
 * batch (import_batches, migration v3), refused ones included; reports point at their batch, so that a
 * batch can be listed and undone (batches.ts). Reports already in the DB, or repeated within the file, are
 * found by their content fingerprint (build/db/fingerprint.ts) and skipped unless `allowDuplicates`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Db } from '../db/open.ts';
import { fillMissingFingerprints, reportFingerprint } from '../db/fingerprint.ts';
import { CsvEncodingError, CsvSyntaxError, decodeCsvBytes, parseCsv, recordsToRows, type CsvRow, type RowError } from './csv.ts';
import { loadRefs } from './refs.ts';
import { REPORT_COLUMNS, validateReportRows, type ValidReport } from './reports.ts';
import { INSTITUTION_COLUMNS, validateInstitutionRows } from './institutions.ts';
import { BLS_COLUMNS, validateBlsRows } from './bls.ts';
import { COL_COLUMNS, validateColRows } from './col.ts';
import { PROGRESS_MIN_ROWS, silentImportProgress, ttyImportProgress, type ImportProgress } from './progress.ts';

export type ImportKind = 'reports' | 'institutions' | 'bls' | 'col';

/**
 * The file was refused; no report, institution, wage or index was written. `errors` lists every bad line.
 * `fileLevel`: the file itself could not be read (encoding), `detail` then says why in one sentence.
 * `batchId`: the refused attempt was recorded as this batch (row errors in a readable file).
 */
export class ImportRejected extends Error {
  readonly fileLevel: boolean;
  readonly detail?: string;
  readonly batchId?: number;
  constructor(
    readonly file: string,
    readonly errors: RowError[],
    options: { fileLevel?: boolean; detail?: string; batchId?: number } = {},
  ) {
    super(options.detail ? `${file} ${options.detail}; nothing imported` : `${file}: ${errors.length} bad row(s), nothing imported`);
    this.fileLevel = Boolean(options.fileLevel);
    this.detail = options.detail;
    this.batchId = options.batchId;
  }
}

/** A row that was not imported because the same report is already in the DB, or earlier in the file. */
export interface DuplicateRow {
  line: number;
  /** the report already in the DB, and its batch (null: not imported from a file, e.g. demo data) */
  reportId?: number;
  batchId?: number | null;
  /** the earlier line of the same file */
  firstLine?: number;
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
  duplicates: DuplicateRow[];
}

export interface ImportOptions {
  now?: () => Date;
  /** bls: the OEWS year when the file has no YEAR column; top-code value for "#". */
  year?: number;
  topCode?: number;
  /** reports: import rows even when the same report is already in the DB or earlier in the file. */
  allowDuplicates?: boolean;
  /** Where progress text goes (a terminal). Used only for files of more than PROGRESS_MIN_ROWS rows. */
  progress?: (text: string) => void;
}

/** The text of the file, or ImportRejected (file level) when it is not UTF-8. Nothing is written. */
function decode(path: string, file: string, bytes: Buffer): string {
  try {
    return decodeCsvBytes(bytes, path);
  } catch (err) {
    if (err instanceof CsvEncodingError) {
      throw new ImportRejected(file, [{ line: err.line, message: err.message.replace(/^line \d+(, |: )/, '') }], { fileLevel: true, detail: err.message });
    }
    throw err;
  }
}

/** Rows of a well-formed file, plus the rows with a wrong field count (reported with the other bad rows). */
function readRows(file: string, text: string, columns: readonly string[], extraAllowed = false): { rows: CsvRow[]; errors: RowError[] } {
  try {
    return recordsToRows(parseCsv(text), columns, { extraAllowed });
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw new ImportRejected(file, [{ line: err.line, message: err.message.replace(/^line \d+: /, '') }]);
    throw err;
  }
}

interface BatchRecord {
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

function insertBatch(db: Db, b: BatchRecord, status: 'imported' | 'refused'): number {
  return Number(
    db
      .prepare(`INSERT INTO import_batches (kind, file_name, sha256, imported_at, rows_read, rows_imported, duplicates_skipped,
        rows_refused, status, last_report_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(b.kind, b.file, b.sha256, b.stamp, b.rowsRead, b.rowsImported, b.duplicates ?? 0, b.refused ?? 0, status, b.lastReportId ?? null)
      .lastInsertRowid,
  );
}

/** Refuse the file when any row is bad: record the attempt as a refused batch, write nothing else. */
function rejectIfErrors(db: Db, errors: RowError[], b: Omit<BatchRecord, 'rowsImported'>): void {
  if (!errors.length) return;
  const sorted = [...errors].sort((x, y) => x.line - y.line);
  const refused = new Set(sorted.map((e) => e.line)).size;
  const batchId = db.transaction(() => insertBatch(db, { ...b, rowsImported: 0, refused }, 'refused')).immediate();
  throw new ImportRejected(b.file, sorted, { batchId });
}

/** The batch that imported these exact bytes (and was not undone), if any. */
function sameFile(db: Db, kind: ImportKind, sha256: string): { id: number; imported_at: string; rows_imported: number } | undefined {
  return db
    .prepare("SELECT id, imported_at, rows_imported FROM import_batches WHERE kind = ? AND sha256 = ? AND status = 'imported' ORDER BY id LIMIT 1")
    .get(kind, sha256) as { id: number; imported_at: string; rows_imported: number } | undefined;
}

const fmt = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many: string) => `${fmt(n)} ${n === 1 ? one : many}`;

function duplicateSummary(duplicates: DuplicateRow[]): string {
  if (!duplicates.length) return '';
  const inDb = duplicates.filter((d) => d.reportId !== undefined).length;
  const inFile = duplicates.length - inDb;
  const where = [inDb ? `already in the DB: ${fmt(inDb)}` : '', inFile ? `repeated in the file: ${fmt(inFile)}` : ''].filter(Boolean).join(', ');
  return `; ${plural(duplicates.length, 'duplicate', 'duplicates')} skipped (${where}; --allow-duplicates imports them)`;
}

export function importFile(db: Db, kind: ImportKind, path: string, options: ImportOptions = {}): ImportResult {
  const now = (options.now ?? (() => new Date()))();
  const stamp = now.toISOString();
  const bytes = readFileSync(path);
  const file = basename(path);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const progressFor = (rowsRead: number, stages: number): ImportProgress =>
    options.progress && rowsRead > PROGRESS_MIN_ROWS ? ttyImportProgress(options.progress, stages) : silentImportProgress;

  if (kind === 'reports' && !options.allowDuplicates) {
    const previous = sameFile(db, kind, sha256);
    if (previous) return alreadyImported(file, previous);
  }
  const text = decode(path, file, bytes);
  const refs = loadRefs(db);
  switch (kind) {
    case 'reports': {
      const { rows, errors: shapeErrors } = readRows(file, text, REPORT_COLUMNS);
      const rowsRead = rows.length + shapeErrors.length;
      const progress = progressFor(rowsRead, 3);
      progress.stage(`validating ${fmt(rowsRead)} rows`);
      const { valid, errors } = validateReportRows(rows, refs, now, (i) => progress.tick(i, rows.length));
      progress.done();
      rejectIfErrors(db, [...shapeErrors, ...errors], { kind, file, sha256, stamp, rowsRead });
      return importReports(db, { file, sha256, stamp, rowsRead, valid, allowDuplicates: Boolean(options.allowDuplicates), progress });
    }
    case 'institutions': {
      const { rows, errors: shapeErrors } = readRows(file, text, INSTITUTION_COLUMNS);
      const rowsRead = rows.length + shapeErrors.length;
      const progress = progressFor(rowsRead, 2);
      progress.stage(`validating ${fmt(rowsRead)} rows`);
      const { valid, errors } = validateInstitutionRows(rows, refs);
      rejectIfErrors(db, [...shapeErrors, ...errors], { kind, file, sha256, stamp, rowsRead });
      progress.stage(`writing ${fmt(valid.length)} institutions`);
      let replaced = 0;
      const batchId = db.transaction(() => {
        const find = db.prepare('SELECT id FROM institutions WHERE slug = ?');
        const upsert = db.prepare(`INSERT INTO institutions (slug, name, city, state, academic_year, checked_at, source_url)
          VALUES (@slug, @name, @city, @state, @academic_year, @checked_at, @source_url)
          ON CONFLICT (slug) DO UPDATE SET name = excluded.name, city = excluded.city, state = excluded.state,
            academic_year = excluded.academic_year, checked_at = excluded.checked_at, source_url = excluded.source_url
          RETURNING id`);
        const clear = db.prepare('DELETE FROM institution_pay WHERE institution_id = ?');
        const insPay = db.prepare('INSERT INTO institution_pay (institution_id, pgy, salary) VALUES (?, ?, ?)');
        for (const [i, inst] of valid.entries()) {
          progress.tick(i, valid.length);
          if (find.get(inst.slug)) replaced++;
          const { id } = upsert.get({
            slug: inst.slug, name: inst.name, city: inst.city, state: inst.state,
            academic_year: inst.academic_year, checked_at: inst.checked_at, source_url: inst.source_url,
          }) as { id: number };
          clear.run(id);
          for (const [pgy, salary] of inst.pay) insPay.run(id, pgy, salary);
        }
        return insertBatch(db, { kind, file, sha256, stamp, rowsRead, rowsImported: rows.length }, 'imported');
      }).immediate();
      progress.done();
      return {
        kind, file, rows: rows.length, rowsRead, batchId, duplicates: [],
        summary: `${fmt(valid.length)} institutions imported from ${file} (${fmt(valid.length - replaced)} new, ${fmt(replaced)} pay scales replaced); batch ${batchId}`,
      };
    }
    case 'bls': {
      const { rows, errors: shapeErrors } = readRows(file, text, BLS_COLUMNS, true);
      if (options.year === undefined && rows.length > 0 && !('YEAR' in rows[0]!.values)) {
        throw new ImportRejected(file, [{ line: 1, message: 'the file has no YEAR column: give the OEWS year with --year (e.g. --year 2024)' }]);
      }
      const rowsRead = rows.length + shapeErrors.length;
      const progress = progressFor(rowsRead, 2);
      progress.stage(`validating ${fmt(rowsRead)} rows`);
      const { valid, errors } = validateBlsRows(rows, { year: options.year, topCode: options.topCode });
      rejectIfErrors(db, [...shapeErrors, ...errors], { kind, file, sha256, stamp, rowsRead });
      progress.stage(`writing ${fmt(valid.length)} wages`);
      const batchId = db.transaction(() => {
        const upsert = db.prepare(`INSERT INTO bls_wages (soc_code, title, annual_median, top_coded, year)
          VALUES (?, ?, ?, ?, ?) ON CONFLICT (soc_code) DO UPDATE SET title = excluded.title,
          annual_median = excluded.annual_median, top_coded = excluded.top_coded, year = excluded.year`);
        for (const [i, w] of valid.entries()) {
          progress.tick(i, valid.length);
          upsert.run(w.soc_code, w.title, w.annual_median, w.top_coded ? 1 : 0, w.year);
        }
        return insertBatch(db, { kind, file, sha256, stamp, rowsRead, rowsImported: valid.length }, 'imported');
      }).immediate();
      progress.done();
      const top = valid.filter((w) => w.top_coded).length;
      const missing = valid.filter((w) => w.annual_median === null).length;
      return {
        kind, file, rows: valid.length, rowsRead, batchId, duplicates: [],
        summary: `${fmt(valid.length)} OEWS wages imported from ${file} (${top} top-coded, ${missing} not available); batch ${batchId}`,
      };
    }
    case 'col': {
      const { rows, errors: shapeErrors } = readRows(file, text, COL_COLUMNS);
      const rowsRead = rows.length + shapeErrors.length;
      const { valid, errors } = validateColRows(rows, refs);
      rejectIfErrors(db, [...shapeErrors, ...errors], { kind, file, sha256, stamp, rowsRead });
      const batchId = db.transaction(() => {
        const upd = db.prepare('UPDATE states SET col_index = ?, col_source = ?, col_year = ? WHERE code = ?');
        for (const c of valid) upd.run(c.index, c.source, c.year, c.state);
        return insertBatch(db, { kind, file, sha256, stamp, rowsRead, rowsImported: valid.length }, 'imported');
      }).immediate();
      const missing = (db.prepare('SELECT count(*) AS n FROM states').get() as { n: number }).n - valid.length;
      return {
        kind, file, rows: valid.length, rowsRead, batchId, duplicates: [],
        summary: `cost of living updated for ${valid.length} states from ${file}${missing > 0 ? ` (${missing} states keep their previous index)` : ''}; batch ${batchId}`,
      };
    }
  }
}

function alreadyImported(file: string, previous: { id: number; imported_at: string; rows_imported: number }): ImportResult {
  return {
    kind: 'reports', file, rows: 0, rowsRead: 0, batchId: previous.id, alreadyImported: true, duplicates: [],
    summary: `${file} was already imported as batch ${previous.id} on ${previous.imported_at} (${fmt(previous.rows_imported)} reports); nothing to do`,
  };
}

/**
 * Write valid reports as one batch, in one transaction: skip duplicates (unless allowed), give the new
 * reports ids above every id ever assigned (an undone batch's ids are not reused), stamp moderated_at on
 * rows imported as approved or rejected.
 */
function importReports(
  db: Db,
  a: { file: string; sha256: string; stamp: string; rowsRead: number; valid: ValidReport[]; allowDuplicates: boolean; progress: ImportProgress },
): ImportResult {
  const { file, sha256, stamp, rowsRead, valid, progress } = a;
  const counts = { pending: 0, approved: 0, rejected: 0 };
  const duplicates: DuplicateRow[] = [];
  let imported = 0;
  let previous: { id: number; imported_at: string; rows_imported: number } | undefined;
  const batchId = db.transaction(() => {
    // The same bytes may have been imported since the first look (another import running at the same time).
    previous = a.allowDuplicates ? undefined : sameFile(db, 'reports', sha256);
    if (previous) return previous.id;
    progress.stage(a.allowDuplicates ? 'fingerprinting reports' : 'checking duplicates');
    fillMissingFingerprints(db); // reports written by other means (demo data, older code) get theirs now
    const find = db.prepare('SELECT id, batch_id FROM reports WHERE fingerprint = ? ORDER BY id LIMIT 1');
    const firstLine = new Map<string, number>();
    const fresh: { report: ValidReport; fingerprint: string }[] = [];
    for (const [i, report] of valid.entries()) {
      progress.tick(i, valid.length);
      const fingerprint = reportFingerprint(report);
      if (!a.allowDuplicates) {
        const hit = find.get(fingerprint) as { id: number; batch_id: number | null } | undefined;
        if (hit) {
          duplicates.push({ line: report.line, reportId: hit.id, batchId: hit.batch_id });
          continue;
        }
        const earlier = firstLine.get(fingerprint);
        if (earlier !== undefined) {
          duplicates.push({ line: report.line, firstLine: earlier });
          continue;
        }
        firstLine.set(fingerprint, report.line);
      }
      fresh.push({ report, fingerprint });
    }
    const { high } = db
      .prepare('SELECT max(coalesce((SELECT max(id) FROM reports), 0), coalesce((SELECT max(last_report_id) FROM import_batches), 0)) AS high')
      .get() as { high: number };
    const id = insertBatch(
      db,
      { kind: 'reports', file, sha256, stamp, rowsRead, rowsImported: fresh.length, duplicates: duplicates.length, lastReportId: fresh.length ? high + fresh.length : null },
      'imported',
    );
    progress.stage(`writing ${fmt(fresh.length)} reports`);
    const ins = db.prepare(`INSERT INTO reports (id, specialty_id, state, year, total_compensation, base_salary, bonus,
      hours_per_week, years_in_practice, practice_setting, employment_type, wrvus, submitted_at, status, moderated_at, batch_id, fingerprint)
      VALUES (@id, @specialty_id, @state, @year, @total_compensation, @base_salary, @bonus, @hours_per_week, @years_in_practice,
      @practice_setting, @employment_type, @wrvus, @submitted_at, @status, @moderated_at, @batch_id, @fingerprint)`);
    for (const [i, { report, fingerprint }] of fresh.entries()) {
      progress.tick(i, fresh.length);
      counts[report.status]++;
      const { line: _line, ...row } = report;
      ins.run({ ...row, id: high + i + 1, moderated_at: report.status === 'pending' ? null : stamp, batch_id: id, fingerprint });
    }
    imported = fresh.length;
    return id;
  }).immediate();
  progress.done();
  if (previous) return alreadyImported(file, previous);
  const detail = (Object.keys(counts) as (keyof typeof counts)[]).filter((k) => counts[k] > 0).map((k) => `${fmt(counts[k])} ${k}`);
  return {
    kind: 'reports', file, rows: imported, rowsRead, batchId, duplicates,
    summary: `${fmt(imported)} reports imported from ${file}${detail.length ? ` (${detail.join(', ')})` : ''}${duplicateSummary(duplicates)}; batch ${batchId}`,
  };
}

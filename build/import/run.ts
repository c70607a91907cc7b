/**
 * The import shell: check the file (UTF-8 only, no forbidden characters) and hash it in one streamed pass,
 * then validate every row (pure validators beside this file) and write everything in one transaction, or
 * nothing when any row is bad (reports with a rejects file: the good rows, the bad ones to the file). Reports are imported as they are read, in bounded memory
 * (import-reports.ts); the reference files (institutions, BLS wages, cost of living) are small and read
 * whole. Every import is recorded as a batch (result.ts), refused ones included. Reports already in the DB,
 * or repeated within the file, are found by their content fingerprint (build/db/fingerprint.ts) and skipped
 * unless `allowDuplicates`.
 */
import { basename } from 'node:path';
import type { Db } from '../db/open.ts';
import { CsvSyntaxError, recordsToRows, type CsvRecord, type CsvRow, type RowError } from './csv.ts';
import { loadRefs } from './refs.ts';
import { INSTITUTION_COLUMNS, validateInstitutionRows } from './institutions.ts';
import { BLS_COLUMNS, validateBlsRows } from './bls.ts';
import { COL_COLUMNS, validateColRows } from './col.ts';
import type { DateFormat } from './fields.ts';
import { normalisedSuffix } from './normalise.ts';
import { PROGRESS_MIN_BYTES, silentImportProgress, ttyImportProgress, type ImportProgress } from './progress.ts';
import { FileChangedError, readCsvRecords, scanCsvFile } from './source.ts';
import { WORKER_MIN_BYTES, importReportsFile } from './import-reports.ts';
import { ImportRejected, alreadyImported, insertBatch, sameFile, type BatchRecord, type ImportKind, type ImportResult } from './result.ts';
import { RowErrorLog } from './row-log.ts';
import type { RejectSink } from './rejects.ts';

export { ImportRejected, type DuplicateRow, type ImportKind, type ImportResult } from './result.ts';

export interface ImportOptions {
  now?: () => Date;
  /** bls: the OEWS year when the file has no YEAR column; top-code value for "#". */
  year?: number;
  topCode?: number;
  /** reports: import rows even when the same report is already in the DB or earlier in the file. */
  allowDuplicates?: boolean;
  /** reports: give rows removed by `import undo` their last moderation decision back (default true). */
  restoreDecisions?: boolean;
  /** reports: import approved rows that fail the hard plausibility rule instead of refusing them (--keep-implausible). */
  keepImplausible?: boolean;
  /** reports: import the good rows and write the bad ones here instead of refusing the file (--rejects). */
  rejects?: RejectSink;
  /** Where progress text goes (a terminal). Used only for files of more than PROGRESS_MIN_BYTES bytes. */
  progress?: (text: string) => void;
  /** Progress as log lines (--progress): used for every file, whatever its size, instead of `progress`. */
  progressLog?: ImportProgress;
  /** reports: how to read submitted_at dates with the year last (--date-format). */
  dateFormat?: DateFormat;
  /**
   * reports: files of at least this many bytes are read and checked on a worker thread while the rows before
   * are written (default WORKER_MIN_BYTES, or PHYSPAY_IMPORT_WORKER_MIN_BYTES; 0: always, Infinity: never).
   */
  workerMinBytes?: number;
}

/** PHYSPAY_IMPORT_WORKER_MIN_BYTES when it is a number of bytes ('0': every file; 'never': none), else WORKER_MIN_BYTES. */
function workerMinBytesFromEnv(): number {
  const v = process.env.PHYSPAY_IMPORT_WORKER_MIN_BYTES?.trim();
  if (v === 'never') return Infinity;
  return v && /^\d+$/.test(v) ? Number(v) : WORKER_MIN_BYTES;
}

/** The whole file's rows (reference files are small), plus the rows with a wrong field count. */
function readAllRows(path: string, file: string, sha256: string, columns: readonly string[], extraAllowed = false): { rows: CsvRow[]; errors: RowError[] } {
  const records: CsvRecord[] = [];
  try {
    readCsvRecords(path, sha256, (r) => records.push(r));
    return recordsToRows(records, columns, { extraAllowed, optional: extraAllowed ? ['YEAR'] : [] });
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw fileRefused(file, err.line, err.message.replace(/^line \d+: /, ''));
    if (err instanceof FileChangedError) throw new ImportRejected(file, [], { fileLevel: true, detail: err.message });
    throw err;
  }
}

/** A file that cannot be read as the importer's rows (a bad header, an unclosed quote): refused whole, no bad rows. */
function fileRefused(file: string, line: number, message: string): ImportRejected {
  return new ImportRejected(file, [{ line, message }], { fileLevel: true, detail: `line ${line}: ${message}` });
}

/** Refuse the file when any row is bad: record the attempt as a refused batch, write nothing else. */
function rejectIfErrors(db: Db, errors: RowError[], b: Omit<BatchRecord, 'rowsImported'>): void {
  if (!errors.length) return;
  const log = new RowErrorLog();
  log.add(errors);
  const batchId = db.transaction(() => insertBatch(db, { ...b, rowsImported: 0, refused: log.lines }, 'refused')).immediate();
  throw new ImportRejected(b.file, log.kept, { batchId, omitted: log.omitted, errorCount: log.count });
}

const fmt = (n: number) => n.toLocaleString('en-US');

export function importFile(db: Db, kind: ImportKind, path: string, options: ImportOptions = {}): ImportResult {
  const now = (options.now ?? (() => new Date()))();
  const stamp = now.toISOString();
  const file = basename(path);
  let progress: ImportProgress = options.progressLog ?? silentImportProgress;
  let sha256: string;
  let bytes: number;
  try {
    if (options.progressLog) progress.stage(`checking ${file}`);
    const scanned = scanCsvFile(path, path, (done, size) => {
      if (progress === silentImportProgress && options.progress && size > PROGRESS_MIN_BYTES) {
        progress = ttyImportProgress(options.progress, kind === 'reports' ? 2 : 3);
        progress.stage(`checking ${file} (${fmt(Math.round(size / 1e5) / 10)} MB)`);
      }
      progress.tick(done, size, 'bytes');
    });
    sha256 = scanned.sha256;
    bytes = scanned.bytes;
  } catch (err) {
    progress.done();
    if (err instanceof CsvSyntaxError) {
      throw new ImportRejected(file, [{ line: err.line, message: err.message.replace(/^line \d+(, |: )/, '') }], { fileLevel: true, detail: err.message });
    }
    throw err;
  }

  if (kind === 'reports') {
    if (!options.allowDuplicates) {
      const previous = sameFile(db, kind, sha256);
      if (previous) {
        progress.done();
        return alreadyImported(file, previous);
      }
    }
    return importReportsFile(db, {
      path, file, sha256, stamp, now, progress,
      allowDuplicates: Boolean(options.allowDuplicates),
      restoreDecisions: options.restoreDecisions !== false,
      keepImplausible: Boolean(options.keepImplausible),
      rejects: options.rejects,
      dateFormat: options.dateFormat,
      bytes,
      workerMinBytes: options.workerMinBytes ?? workerMinBytesFromEnv(),
    });
  }
  const refs = loadRefs(db);
  switch (kind) {
    case 'institutions': {
      const { rows, errors: shapeErrors } = readAllRows(path, file, sha256, INSTITUTION_COLUMNS);
      const rowsRead = rows.length + shapeErrors.length;
      progress.stage(`validating ${fmt(rowsRead)} rows`);
      const { valid, errors, normalised } = validateInstitutionRows(rows, refs);
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
        kind, file, rows: rows.length, rowsRead, batchId, duplicates: [], duplicateCount: 0,
        summary: `${fmt(valid.length)} institutions imported from ${file} (${fmt(valid.length - replaced)} new, ${fmt(replaced)} pay scales replaced)${normalisedSuffix(normalised)}; batch ${batchId}`,
      };
    }
    case 'bls': {
      const { rows, errors: shapeErrors } = readAllRows(path, file, sha256, BLS_COLUMNS, true);
      if (options.year === undefined && rows.length > 0 && !('YEAR' in rows[0]!.values)) {
        throw fileRefused(file, 1, 'the file has no YEAR column: give the OEWS year with --year (e.g. --year 2024)');
      }
      const rowsRead = rows.length + shapeErrors.length;
      progress.stage(`validating ${fmt(rowsRead)} rows`);
      const { valid, errors, normalised } = validateBlsRows(rows, { year: options.year, topCode: options.topCode });
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
        kind, file, rows: valid.length, rowsRead, batchId, duplicates: [], duplicateCount: 0,
        summary: `${fmt(valid.length)} OEWS wages imported from ${file} (${fmt(top)} top-coded, ${fmt(missing)} not available)${normalisedSuffix(normalised)}; batch ${batchId}`,
      };
    }
    case 'col': {
      const { rows, errors: shapeErrors } = readAllRows(path, file, sha256, COL_COLUMNS);
      const rowsRead = rows.length + shapeErrors.length;
      const { valid, errors, normalised } = validateColRows(rows, refs);
      rejectIfErrors(db, [...shapeErrors, ...errors], { kind, file, sha256, stamp, rowsRead });
      const batchId = db.transaction(() => {
        const upd = db.prepare('UPDATE states SET col_index = ?, col_source = ?, col_year = ? WHERE code = ?');
        for (const c of valid) upd.run(c.index, c.source, c.year, c.state);
        return insertBatch(db, { kind, file, sha256, stamp, rowsRead, rowsImported: valid.length }, 'imported');
      }).immediate();
      const missing = (db.prepare('SELECT count(*) AS n FROM states').get() as { n: number }).n - valid.length;
      return {
        kind, file, rows: valid.length, rowsRead, batchId, duplicates: [], duplicateCount: 0,
        summary: `cost of living updated for ${valid.length} states from ${file}${missing > 0 ? ` (${missing} states keep their previous index)` : ''}${normalisedSuffix(normalised)}; batch ${batchId}`,
      };
    }
  }
}


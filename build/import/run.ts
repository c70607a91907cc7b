/**
 * The import shell: read a CSV file, validate every row (pure validators beside this file), then write
 * everything in one transaction, or nothing when any row is bad.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Db } from '../db/open.ts';
import { CsvSyntaxError, parseCsv, recordsToRows, type CsvRow, type RowError } from './csv.ts';
import { loadRefs } from './refs.ts';
import { REPORT_COLUMNS, validateReportRows } from './reports.ts';
import { INSTITUTION_COLUMNS, validateInstitutionRows } from './institutions.ts';
import { BLS_COLUMNS, validateBlsRows } from './bls.ts';
import { COL_COLUMNS, validateColRows } from './col.ts';

export type ImportKind = 'reports' | 'institutions' | 'bls' | 'col';

/** The file was refused; nothing was written. `errors` lists every bad line. */
export class ImportRejected extends Error {
  constructor(
    readonly file: string,
    readonly errors: RowError[],
  ) {
    super(`${file}: ${errors.length} bad row(s), nothing imported`);
  }
}

export interface ImportResult {
  kind: ImportKind;
  file: string;
  rows: number;
  /** Human summary, e.g. "1,204 reports imported (1,100 pending, 104 approved)". */
  summary: string;
  /** True when the same file was imported before and nothing was done. */
  alreadyImported?: boolean;
}

export interface ImportOptions {
  now?: () => Date;
  /** bls: the OEWS year when the file has no YEAR column; top-code value for "#". */
  year?: number;
  topCode?: number;
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

function rejectIfErrors(file: string, errors: RowError[]): void {
  if (errors.length) throw new ImportRejected(file, [...errors].sort((a, b) => a.line - b.line));
}

const fmt = (n: number) => n.toLocaleString('en-US');

export function importFile(db: Db, kind: ImportKind, path: string, options: ImportOptions = {}): ImportResult {
  const now = (options.now ?? (() => new Date()))();
  const bytes = readFileSync(path);
  const text = bytes.toString('utf8');
  const file = basename(path);
  const refs = loadRefs(db);
  switch (kind) {
    case 'reports': {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const previous = db.prepare("SELECT imported_at, rows FROM imports WHERE kind = 'reports' AND sha256 = ?").get(sha256) as
        | { imported_at: string; rows: number }
        | undefined;
      if (previous) {
        return { kind, file, rows: 0, alreadyImported: true, summary: `${file} was already imported on ${previous.imported_at} (${fmt(previous.rows)} reports); nothing to do` };
      }
      const { rows, errors: shapeErrors } = readRows(file, text, REPORT_COLUMNS);
      const { valid, errors } = validateReportRows(rows, refs, now);
      rejectIfErrors(file, [...shapeErrors, ...errors]);
      const stamp = now.toISOString();
      const counts = { pending: 0, approved: 0, rejected: 0 };
      db.transaction(() => {
        const importId = db
          .prepare("INSERT INTO imports (kind, file_name, sha256, rows, imported_at) VALUES ('reports', ?, ?, ?, ?)")
          .run(file, sha256, valid.length, stamp).lastInsertRowid;
        const ins = db.prepare(`INSERT INTO reports (specialty_id, state, year, total_compensation, base_salary, bonus,
          hours_per_week, years_in_practice, practice_setting, employment_type, wrvus, submitted_at, status, moderated_at, import_id)
          VALUES (@specialty_id, @state, @year, @total_compensation, @base_salary, @bonus, @hours_per_week, @years_in_practice,
          @practice_setting, @employment_type, @wrvus, @submitted_at, @status, @moderated_at, @import_id)`);
        for (const r of valid) {
          counts[r.status]++;
          const { line: _line, ...report } = r;
          ins.run({ ...report, moderated_at: r.status === 'pending' ? null : stamp, import_id: importId });
        }
      }).immediate();
      const detail = (Object.keys(counts) as (keyof typeof counts)[]).filter((k) => counts[k] > 0).map((k) => `${fmt(counts[k])} ${k}`);
      return { kind, file, rows: valid.length, summary: `${fmt(valid.length)} reports imported from ${file}${detail.length ? ` (${detail.join(', ')})` : ''}` };
    }
    case 'institutions': {
      const { rows, errors: shapeErrors } = readRows(file, text, INSTITUTION_COLUMNS);
      const { valid, errors } = validateInstitutionRows(rows, refs);
      rejectIfErrors(file, [...shapeErrors, ...errors]);
      let replaced = 0;
      db.transaction(() => {
        const find = db.prepare('SELECT id FROM institutions WHERE slug = ?');
        const upsert = db.prepare(`INSERT INTO institutions (slug, name, city, state, academic_year, checked_at, source_url)
          VALUES (@slug, @name, @city, @state, @academic_year, @checked_at, @source_url)
          ON CONFLICT (slug) DO UPDATE SET name = excluded.name, city = excluded.city, state = excluded.state,
            academic_year = excluded.academic_year, checked_at = excluded.checked_at, source_url = excluded.source_url
          RETURNING id`);
        const clear = db.prepare('DELETE FROM institution_pay WHERE institution_id = ?');
        const insPay = db.prepare('INSERT INTO institution_pay (institution_id, pgy, salary) VALUES (?, ?, ?)');
        for (const inst of valid) {
          if (find.get(inst.slug)) replaced++;
          const { id } = upsert.get({
            slug: inst.slug, name: inst.name, city: inst.city, state: inst.state,
            academic_year: inst.academic_year, checked_at: inst.checked_at, source_url: inst.source_url,
          }) as { id: number };
          clear.run(id);
          for (const [pgy, salary] of inst.pay) insPay.run(id, pgy, salary);
        }
      }).immediate();
      return { kind, file, rows: rows.length, summary: `${fmt(valid.length)} institutions imported from ${file} (${fmt(valid.length - replaced)} new, ${fmt(replaced)} pay scales replaced)` };
    }
    case 'bls': {
      const { rows, errors: shapeErrors } = readRows(file, text, BLS_COLUMNS, true);
      if (options.year === undefined && rows.length > 0 && !('YEAR' in rows[0]!.values)) {
        throw new ImportRejected(file, [{ line: 1, message: 'the file has no YEAR column: give the OEWS year with --year (e.g. --year 2024)' }]);
      }
      const { valid, errors } = validateBlsRows(rows, { year: options.year, topCode: options.topCode });
      rejectIfErrors(file, [...shapeErrors, ...errors]);
      db.transaction(() => {
        const upsert = db.prepare(`INSERT INTO bls_wages (soc_code, title, annual_median, top_coded, year)
          VALUES (?, ?, ?, ?, ?) ON CONFLICT (soc_code) DO UPDATE SET title = excluded.title,
          annual_median = excluded.annual_median, top_coded = excluded.top_coded, year = excluded.year`);
        for (const w of valid) upsert.run(w.soc_code, w.title, w.annual_median, w.top_coded ? 1 : 0, w.year);
      }).immediate();
      const top = valid.filter((w) => w.top_coded).length;
      const missing = valid.filter((w) => w.annual_median === null).length;
      return { kind, file, rows: valid.length, summary: `${fmt(valid.length)} OEWS wages imported from ${file} (${top} top-coded, ${missing} not available)` };
    }
    case 'col': {
      const { rows, errors: shapeErrors } = readRows(file, text, COL_COLUMNS);
      const { valid, errors } = validateColRows(rows, refs);
      rejectIfErrors(file, [...shapeErrors, ...errors]);
      db.transaction(() => {
        const upd = db.prepare('UPDATE states SET col_index = ?, col_source = ?, col_year = ? WHERE code = ?');
        for (const c of valid) upd.run(c.index, c.source, c.year, c.state);
      }).immediate();
      const missing = (db.prepare('SELECT count(*) AS n FROM states').get() as { n: number }).n - valid.length;
      return { kind, file, rows: valid.length, summary: `cost of living updated for ${valid.length} states from ${file}${missing > 0 ? ` (${missing} states keep their previous index)` : ''}` };
    }
  }
}

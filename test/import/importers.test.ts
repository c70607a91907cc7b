import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers/temp-dir.ts';
import { openReportsDb, type Db } from '../../build/db/open.ts';
import Database from 'better-sqlite3';
import { ImportRejected, importFile, type ImportKind, type ImportOptions } from '../../build/import/run.ts';
import { BatchError, listBatches, undoBatch } from '../../build/import/batches.ts';
import { MIGRATIONS, migrate } from '../../build/db/migrations.ts';
import { REPORT_COLUMNS } from '../../build/import/reports.ts';
import { INSTITUTION_COLUMNS } from '../../build/import/institutions.ts';
import type { RowError } from '../../build/import/csv.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/import/', import.meta.url));
const NOW = new Date('2026-01-15T12:00:00.000Z');
const now = () => NOW;

let db: Db;
const tmp = useTempDir('import', { each: true });
let dir: string;

beforeEach(() => {
  db = openReportsDb(':memory:');
  dir = tmp.path;
});
afterEach(() => {
  db.close();
});

let fileCounter = 0;
/** Write lines (joined with LF, trailing newline) to a temp CSV and return its path. */
function csv(lines: string[], name = `file-${++fileCounter}.csv`): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

function fixture(name: string): string {
  const path = join(dir, name);
  copyFileSync(join(FIXTURES, name), path);
  return path;
}

function count(table: string, where = ''): number {
  return (db.prepare(`SELECT count(*) AS n FROM ${table} ${where}`).get() as { n: number }).n;
}

/** Run an import that must be refused; return its row errors. */
function rejected(kind: ImportKind, path: string, opts: ImportOptions = {}): RowError[] {
  let caught: unknown;
  try {
    importFile(db, kind, path, { now, ...opts });
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ImportRejected);
  const err = caught as ImportRejected;
  expect(err.message).toMatch(/nothing imported/);
  for (const e of err.errors) {
    expect(Number.isInteger(e.line)).toBe(true);
    expect(e.message.length).toBeGreaterThan(5);
  }
  return err.errors;
}

function expectNoReportsImported(): void {
  expect(count('reports')).toBe(0);
  expect(count('imports')).toBe(0);
  expect(count('import_batches', "WHERE status = 'imported'")).toBe(0);
}

// ---------------------------------------------------------------------------------------------------------
// reports

const REPORT_HEADER = REPORT_COLUMNS.join(',');
/** A valid reports row, with any column replaced. */
function reportRow(over: Partial<Record<(typeof REPORT_COLUMNS)[number], string>> = {}): string {
  const base: Record<(typeof REPORT_COLUMNS)[number], string> = {
    specialty: 'family-medicine',
    state: 'NY',
    year: '2024',
    total_compensation: '285000',
    base_salary: '250000',
    bonus: '35000',
    hours_per_week: '50',
    years_in_practice: '8',
    practice_setting: 'Hospital Employed',
    employment_type: 'Full-Time (W-2)',
    wrvus: '5200',
    submitted_at: '2025-02-10',
    status: 'approved',
  };
  const v = { ...base, ...over };
  return REPORT_COLUMNS.map((c) => v[c]).join(',');
}

interface ReportRow {
  specialty: string;
  state: string;
  year: number;
  total_compensation: number;
  base_salary: number | null;
  bonus: number | null;
  hours_per_week: number | null;
  years_in_practice: number | null;
  practice_setting: string | null;
  employment_type: string | null;
  wrvus: number | null;
  submitted_at: string;
  status: string;
  moderated_at: string | null;
  batch_id: number | null;
}

function reports(): ReportRow[] {
  return db
    .prepare(
      `SELECT s.slug AS specialty, r.state, r.year, r.total_compensation, r.base_salary, r.bonus, r.hours_per_week,
              r.years_in_practice, r.practice_setting, r.employment_type, r.wrvus, r.submitted_at, r.status, r.moderated_at,
              r.batch_id
       FROM reports r JOIN specialties s ON s.id = r.specialty_id ORDER BY r.id`,
    )
    .all() as ReportRow[];
}

describe('import reports', () => {
  it('imports a good file: aliases, case-insensitive vocabularies, NULL for empty cells, status default pending', () => {
    const result = importFile(db, 'reports', fixture('reports-good.csv'), { now });
    expect(result).toMatchObject({ kind: 'reports', file: 'reports-good.csv', rows: 4 });
    expect(result.alreadyImported).toBeFalsy();
    expect(result.summary).toMatch(/^4 reports imported from reports-good\.csv/);
    expect(result.summary).toMatch(/2 pending, 1 approved, 1 rejected/);

    const rows = reports();
    expect(rows).toHaveLength(4);
    const batchId = (db.prepare('SELECT id FROM import_batches').get() as { id: number }).id;
    expect(result.batchId).toBe(batchId);
    expect(rows[0]).toEqual({
      specialty: 'family-medicine',
      state: 'NY',
      year: 2024,
      total_compensation: 285000,
      base_salary: 250000,
      bonus: 35000,
      hours_per_week: 50,
      years_in_practice: 8,
      practice_setting: 'Hospital Employed', // given as "hospital employed"
      employment_type: 'Full-Time (W-2)', // given as "FULL-TIME (W-2)"
      wrvus: 5200,
      submitted_at: '2025-02-10T00:00:00.000Z',
      status: 'approved',
      moderated_at: NOW.toISOString(),
      batch_id: batchId,
    });
    // "ob-gyn", every optional cell empty, status empty
    expect(rows[1]).toEqual({
      specialty: 'obstetrics-gynecology',
      state: 'TX',
      year: 2025,
      total_compensation: 360000,
      base_salary: null,
      bonus: null,
      hours_per_week: null,
      years_in_practice: null,
      practice_setting: null,
      employment_type: null,
      wrvus: null,
      submitted_at: '2025-06-01T09:30:00.000Z',
      status: 'pending',
      moderated_at: null,
      batch_id: batchId,
    });
    expect(rows[2]).toMatchObject({
      specialty: 'cardiology', // "Cardiology"
      practice_setting: 'Private Practice', // "PRIVATE PRACTICE"
      employment_type: 'Partner/Owner', // "partner/owner"
      submitted_at: '2025-12-01T08:00:00.000Z', // "2025-12-01 08:00", no offset: UTC
      status: 'rejected',
      moderated_at: NOW.toISOString(),
    });
    // A quoted specialty with a line break inside, an offset timestamp, decimals
    expect(rows[3]).toMatchObject({
      specialty: 'family-medicine',
      state: 'DC',
      year: 2023,
      total_compensation: 301000.5,
      bonus: 21000.5,
      years_in_practice: 0,
      practice_setting: 'Academic',
      employment_type: 'Part-Time (W-2)',
      wrvus: 4100.5,
      submitted_at: '2024-03-01T08:00:00.000Z',
      status: 'pending',
      moderated_at: null,
    });
    expect(db.prepare('SELECT kind, file_name, rows_read, rows_imported, duplicates_skipped, rows_refused, imported_at, status FROM import_batches').all()).toEqual([
      { kind: 'reports', file_name: 'reports-good.csv', rows_read: 4, rows_imported: 4, duplicates_skipped: 0, rows_refused: 0, imported_at: NOW.toISOString(), status: 'imported' },
    ]);
  });

  it('accepts the columns in any order and specialties by display name or alias', () => {
    const cols = [...REPORT_COLUMNS].reverse();
    const row = (spec: string, total = '400000') =>
      cols
        .map((c) => ({ specialty: spec, state: 'CA', year: '2025', total_compensation: total, submitted_at: '2025-07-01' })[c as string] ?? '')
        .join(',');
    const path = csv([cols.join(','), row('Diagnostic Radiology'), row('ENT'), row('cardiologist'), row('OB/GYN'), row('obgyn', '410000')]);
    expect(importFile(db, 'reports', path, { now }).rows).toBe(5);
    expect(reports().map((r) => r.specialty)).toEqual([
      'radiology',
      'otolaryngology',
      'cardiology',
      'obstetrics-gynecology',
      'obstetrics-gynecology',
    ]);
    expect(reports().every((r) => r.status === 'pending')).toBe(true);
  });

  it('reads CRLF line endings and a byte-order mark', () => {
    const path = join(dir, 'crlf.csv');
    writeFileSync(path, `\uFEFF${REPORT_HEADER}\r\n${reportRow()}\r\n${reportRow({ state: 'DC' })}\r\n`);
    expect(importFile(db, 'reports', path, { now }).rows).toBe(2);
    expect(reports().map((r) => [r.state, r.status])).toEqual([
      ['NY', 'approved'],
      ['DC', 'approved'],
    ]);
  });

  it('re-importing the same file is a no-op', () => {
    const path = fixture('reports-good.csv');
    importFile(db, 'reports', path, { now });
    const before = reports();
    const again = importFile(db, 'reports', path, { now: () => new Date('2026-01-16T00:00:00Z') });
    expect(again.alreadyImported).toBe(true);
    expect(again.rows).toBe(0);
    expect(again.summary).toMatch(/already imported/);
    expect(reports()).toEqual(before);
    expect(count('reports')).toBe(4);
    expect(count('import_batches')).toBe(1);

    // The same bytes under another name are still the same file.
    const copy = join(dir, 'renamed.csv');
    copyFileSync(path, copy);
    expect(importFile(db, 'reports', copy, { now }).alreadyImported).toBe(true);
    expect(count('reports')).toBe(4);
  });

  it('a different file with the same rows imports only the new rows; --allow-duplicates imports them all', () => {
    importFile(db, 'reports', csv([REPORT_HEADER, reportRow()]), { now });
    const second = importFile(db, 'reports', csv([REPORT_HEADER, reportRow(), reportRow({ state: 'CA' })]), { now });
    expect(second.rows).toBe(1);
    expect(second.duplicates).toEqual([{ line: 2, reportId: 1, batchId: 1 }]);
    expect(count('reports')).toBe(2);
    const third = importFile(db, 'reports', csv([REPORT_HEADER, reportRow(), reportRow()]), { now, allowDuplicates: true });
    expect(third.rows).toBe(2);
    expect(third.duplicates).toEqual([]);
    expect(count('reports')).toBe(4);
    expect(count('import_batches')).toBe(3);
  });

  // Each kind of bad row: the file has good rows around the bad one (line 3), and nothing is imported.
  it.each<[string, string, RegExp]>([
    ['unknown specialty', reportRow({ specialty: 'astrology' }), /specialty: unknown specialty "astrology"/],
    ['empty specialty', reportRow({ specialty: '' }), /specialty: is required/],
    ['bad state code', reportRow({ state: 'XX' }), /state: must be a two-letter US state code.*"XX"/],
    ['state given by name', reportRow({ state: 'New York' }), /state: must be a two-letter US state code/],
    ['non-numeric compensation', reportRow({ total_compensation: '285k' }), /total_compensation: must be an amount in US dollars.*"285k"/],
    ['ambiguous compensation', reportRow({ total_compensation: '285.000' }), /total_compensation: is ambiguous.*"285\.000"/],
    ['missing compensation', reportRow({ total_compensation: '' }), /total_compensation: is required/],
    ['zero compensation', reportRow({ total_compensation: '0', base_salary: '', bonus: '' }), /total_compensation: must be between/],
    ['base + bonus above total', reportRow({ base_salary: '260000', bonus: '40000' }), /base_salary \+ bonus \(300000\) exceed total_compensation \(285000\)/],
    ['future submitted_at', reportRow({ year: '2025', submitted_at: '2026-03-01' }), /submitted_at: is in the future/],
    ['malformed submitted_at', reportRow({ submitted_at: '02/10/2025' }), /submitted_at: must be an ISO 8601 date or timestamp/],
    ['impossible date', reportRow({ submitted_at: '2025-02-30' }), /submitted_at: must be an ISO 8601/],
    ['compensation year after submission year', reportRow({ year: '2026', submitted_at: '2025-06-01' }), /year: compensation year 2026 is after the submission date 2025-06-01/],
    ['fractional year', reportRow({ year: '2024.5' }), /year: must be a whole number/],
    ['bad status', reportRow({ status: 'approve' }), /status: must be one of pending, approved, rejected \(got "approve"\)/],
    ['bad practice_setting', reportRow({ practice_setting: 'Hospital' }), /practice_setting: "Hospital" is not one of: Hospital Employed/],
    ['bad employment_type', reportRow({ employment_type: 'W2' }), /employment_type: "W2" is not one of/],
    ['hours out of range', reportRow({ hours_per_week: '200' }), /hours_per_week: must be between 1 and 168/],
    ['negative years in practice', reportRow({ years_in_practice: '-1' }), /years_in_practice: must be between 0 and 70/],
    ['too few columns', reportRow().split(',').slice(0, -1).join(','), /expected 13 fields, found 12/],
    ['too many columns', `${reportRow()},extra`, /expected 13 fields, found 14/],
  ])('refuses the whole file for a row with %s, naming its line', (_label, bad, message) => {
    const path = csv([REPORT_HEADER, reportRow(), bad, reportRow({ state: 'CA' })]);
    const errors = rejected('reports', path);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.line).toBe(3);
    expect(errors[0]!.message).toMatch(message);
    expectNoReportsImported();
  });

  it('lists every bad line of a file at once, with a reason each, and imports nothing', () => {
    const path = csv([
      REPORT_HEADER, // 1
      reportRow(), // 2 good
      reportRow({ specialty: 'astrology' }), // 3
      reportRow({ state: 'XX' }), // 4
      reportRow({ total_compensation: '285.000' }), // 5 thousands or decimals?
      reportRow({ base_salary: '300000', bonus: '50000' }), // 6
      reportRow({ year: '2025', submitted_at: '2026-06-01T00:00:00Z' }), // 7
      reportRow({ year: '2026', submitted_at: '2025-12-31' }), // 8
      reportRow({ status: 'done' }), // 9
      `${reportRow({ specialty: '"Family\nMedicine"' })}`, // 10-11 good, spans two lines
      reportRow({ practice_setting: 'Clinic' }), // 12
      reportRow().split(',').slice(0, 5).join(','), // 13 wrong column count
      reportRow({ state: 'ca' }), // 14 good (code in lower case)
    ]);
    const errors = rejected('reports', path);
    expect(errors.map((e) => e.line)).toEqual([3, 4, 5, 6, 7, 8, 9, 12, 13]);
    const byLine = new Map(errors.map((e) => [e.line, e.message]));
    expect(byLine.get(3)).toMatch(/unknown specialty/);
    expect(byLine.get(4)).toMatch(/state/);
    expect(byLine.get(5)).toMatch(/is ambiguous/);
    expect(byLine.get(6)).toMatch(/exceed total_compensation/);
    expect(byLine.get(7)).toMatch(/future/);
    expect(byLine.get(8)).toMatch(/after the submission date/);
    expect(byLine.get(9)).toMatch(/status/);
    expect(byLine.get(12)).toMatch(/practice_setting/);
    expect(byLine.get(13)).toMatch(/expected 13 fields, found 5/);
    expectNoReportsImported();
  });

  it('a submitted_at within a day of the clock is not "in the future" (time zones)', () => {
    const path = csv([REPORT_HEADER, reportRow({ year: '2026', submitted_at: '2026-01-16' })]);
    expect(importFile(db, 'reports', path, { now }).rows).toBe(1);
  });

  it('refuses a header with a missing required column, naming it, at line 1 (optional columns may be absent)', () => {
    const header = REPORT_COLUMNS.filter((c) => c !== 'total_compensation').join(',');
    const row = reportRow().split(',');
    row.splice(REPORT_COLUMNS.indexOf('total_compensation'), 1);
    const errors = rejected('reports', csv([header, row.join(',')]));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.line).toBe(1);
    expect(errors[0]!.message).toMatch(/missing column\(s\): total_compensation/);
    expectNoReportsImported();
  });

  it('refuses a header with an unknown column, naming it', () => {
    const errors = rejected('reports', csv([`${REPORT_HEADER},notes`, `${reportRow()},hello`]));
    expect(errors).toEqual([{ line: 1, message: expect.stringMatching(/unknown column\(s\): notes/) }]);
    expectNoReportsImported();
  });

  it('refuses a file with an unclosed quote at the line of its record', () => {
    const errors = rejected('reports', csv([REPORT_HEADER, reportRow(), reportRow({ specialty: '"Family Medicine' }), reportRow()]));
    expect(errors).toEqual([{ line: 3, message: expect.stringMatching(/never closed/) }]);
    expectNoReportsImported();
  });

  it('refuses an empty file', () => {
    const path = join(dir, 'empty.csv');
    writeFileSync(path, '');
    expect(rejected('reports', path)[0]!.message).toMatch(/empty/);
    expectNoReportsImported();
  });

  it('a refused file can be imported once fixed (the refusal imported nothing)', () => {
    const bad = csv([REPORT_HEADER, reportRow({ status: 'nope' })], 'r.csv');
    rejected('reports', bad);
    const good = csv([REPORT_HEADER, reportRow()], 'r.csv');
    expect(importFile(db, 'reports', good, { now }).rows).toBe(1);
    expect(count('reports')).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------------------
// institutions

const INST_HEADER = INSTITUTION_COLUMNS.join(',');
function instRow(over: Partial<Record<(typeof INSTITUTION_COLUMNS)[number], string>> = {}): string {
  const base: Record<(typeof INSTITUTION_COLUMNS)[number], string> = {
    institution_slug: 'mercy-general-hospital',
    institution_name: 'Mercy General Hospital',
    city: 'Sacramento',
    state: 'CA',
    academic_year: '2025-2026',
    checked_at: '2025-07-01',
    source_url: 'https://example.org/mercy/gme',
    pgy: '1',
    salary: '72000',
  };
  const v = { ...base, ...over };
  return INSTITUTION_COLUMNS.map((c) => v[c]).join(',');
}

function payScale(slug: string): { pgy: number; salary: number }[] {
  return db
    .prepare(
      'SELECT p.pgy, p.salary FROM institution_pay p JOIN institutions i ON i.id = p.institution_id WHERE i.slug = ? ORDER BY p.pgy',
    )
    .all(slug) as { pgy: number; salary: number }[];
}

describe('import institutions', () => {
  it('imports institutions with their PGY scales (rows in any order)', () => {
    const result = importFile(db, 'institutions', fixture('institutions-good.csv'), { now });
    expect(result.kind).toBe('institutions');
    expect(result.summary).toMatch(/^2 institutions imported from institutions-good\.csv \(2 new, 0 pay scales replaced\)/);
    expect(db.prepare('SELECT slug, name, city, state, academic_year, checked_at, source_url FROM institutions ORDER BY slug').all()).toEqual([
      {
        slug: 'lakeview-medical-center',
        name: 'Lakeview Medical Center, Chicago',
        city: 'Chicago',
        state: 'IL',
        academic_year: '2025-2026',
        checked_at: '2025-08-15',
        source_url: 'https://example.org/lakeview?page=salaries',
      },
      {
        slug: 'mercy-general-hospital',
        name: 'Mercy General Hospital',
        city: 'Sacramento',
        state: 'CA',
        academic_year: '2025-2026',
        checked_at: '2025-07-01',
        source_url: 'https://example.org/mercy/gme',
      },
    ]);
    expect(payScale('mercy-general-hospital')).toEqual([
      { pgy: 1, salary: 72000 },
      { pgy: 2, salary: 74500 },
      { pgy: 3, salary: 77000 },
    ]);
    expect(payScale('lakeview-medical-center').map((p) => p.pgy)).toEqual([1, 2, 3, 4]);
    expect(count('institution_pay')).toBe(7);
  });

  it("re-importing an institution replaces its details and whole scale (old PGY rows gone), leaving others alone", () => {
    importFile(db, 'institutions', fixture('institutions-good.csv'), { now });
    const id = (db.prepare("SELECT id FROM institutions WHERE slug = 'mercy-general-hospital'").get() as { id: number }).id;
    const lakeview = payScale('lakeview-medical-center');
    const update = csv([
      INST_HEADER,
      instRow({ academic_year: '2026-2027', checked_at: '2026-07-01', pgy: '1', salary: '75000' }),
      instRow({ academic_year: '2026-2027', checked_at: '2026-07-01', pgy: '2', salary: '78000' }),
    ]);
    const result = importFile(db, 'institutions', update, { now });
    expect(result.summary).toMatch(/1 institutions imported .*\(0 new, 1 pay scales replaced\)/);
    expect(payScale('mercy-general-hospital')).toEqual([
      { pgy: 1, salary: 75000 },
      { pgy: 2, salary: 78000 },
    ]);
    expect(db.prepare("SELECT id, academic_year, checked_at FROM institutions WHERE slug = 'mercy-general-hospital'").get()).toEqual({
      id,
      academic_year: '2026-2027',
      checked_at: '2026-07-01',
    });
    expect(payScale('lakeview-medical-center')).toEqual(lakeview);
    expect(count('institutions')).toBe(2);
    expect(count('institution_pay')).toBe(6);
  });

  it.each<[string, string[], number, RegExp]>([
    [
      'conflicting details for one slug',
      [instRow(), instRow({ pgy: '2', salary: '74000', city: 'Davis' })],
      3,
      /city "Davis" differs from line 2 \("Sacramento"\) for institution mercy-general-hospital/,
    ],
    [
      'conflicting academic year for one slug',
      [instRow(), instRow({ pgy: '2', salary: '74000', academic_year: '2024-2025' })],
      3,
      /academic_year "2024-2025" differs from line 2/,
    ],
    ['a duplicate PGY level', [instRow(), instRow({ salary: '73000' })], 3, /PGY-1 of mercy-general-hospital is already given/],
    [
      'a gap in PGY levels',
      [instRow(), instRow({ pgy: '2', salary: '74000' }), instRow({ pgy: '4', salary: '78000' })],
      2,
      /PGY levels must run 1, 2, 3, \.\.\. without gaps \(got 1, 2, 4\)/,
    ],
    ['a scale not starting at PGY-1', [instRow({ pgy: '2' }), instRow({ pgy: '3', salary: '75000' })], 2, /without gaps \(got 2, 3\)/],
    ['a bad URL', [instRow({ source_url: 'example.org/mercy' })], 2, /source_url: must be an http\(s\) URL/],
    ['a non-http URL', [instRow({ source_url: 'ftp://example.org/mercy' })], 2, /source_url: must be an http\(s\) URL/],
    ['a bad academic_year', [instRow({ academic_year: '2025-2027' })], 2, /academic_year: must look like 2026-2027/],
    ['an academic_year written 2025/26', [instRow({ academic_year: '2025/26' })], 2, /academic_year: must look like/],
    ['a bad checked_at', [instRow({ checked_at: '2025-13-01' })], 2, /checked_at: must be a date YYYY-MM-DD/],
    ['a bad slug', [instRow({ institution_slug: 'Mercy General' })], 2, /institution_slug: must be a lower-case slug/],
    ['a bad state', [instRow({ state: 'California' })], 2, /state: must be a two-letter US state code/],
    ['a PGY above 10', [instRow({ pgy: '11' })], 2, /pgy: must be between 1 and 10/],
    ['a salary out of range', [instRow({ salary: '7200' })], 2, /salary: must be between 20000 and 250000/],
  ])('refuses the whole file for %s', (_label, rows, line, message) => {
    importFile(db, 'institutions', fixture('institutions-good.csv'), { now });
    const before = {
      institutions: db.prepare('SELECT * FROM institutions ORDER BY id').all(),
      pay: db.prepare('SELECT * FROM institution_pay ORDER BY institution_id, pgy').all(),
    };
    const other = [
      'lakeview-medical-center,Lakeview,Chicago,IL,2026-2027,2026-08-15,https://example.org/l,1,90000',
    ];
    const errors = rejected('institutions', csv([INST_HEADER, ...rows, ...other]));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.line).toBe(line);
    expect(errors[0]!.message).toMatch(message);
    // Nothing changed, not even the good institution of the same file.
    expect(db.prepare('SELECT * FROM institutions ORDER BY id').all()).toEqual(before.institutions);
    expect(db.prepare('SELECT * FROM institution_pay ORDER BY institution_id, pgy').all()).toEqual(before.pay);
  });

  it('lists every bad line of an institutions file at once', () => {
    const errors = rejected(
      'institutions',
      csv([
        INST_HEADER,
        instRow(), // 2
        instRow({ pgy: '2', salary: '74000', city: 'Davis' }), // 3 conflict
        instRow({ pgy: '1', salary: '74000' }), // 4 duplicate
        instRow({ institution_slug: 'other', pgy: '1', source_url: 'nope' }), // 5 bad url
        instRow({ institution_slug: 'third', pgy: '2' }), // 6 gap (starts at 2)
        'a,b,c', // 7 wrong count
      ]),
    );
    expect(errors.map((e) => e.line)).toEqual([3, 4, 5, 6, 7]);
    expect(count('institutions')).toBe(0);
    expect(count('institution_pay')).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------------------
// BLS OEWS

interface WageRow {
  soc_code: string;
  title: string;
  annual_median: number | null;
  top_coded: number;
  year: number;
}
function wages(): WageRow[] {
  return db.prepare('SELECT soc_code, title, annual_median, top_coded, year FROM bls_wages ORDER BY soc_code').all() as WageRow[];
}

describe('import bls', () => {
  it('reads the official columns, ignores the others, and maps "#", "*" and thousands separators', () => {
    const result = importFile(db, 'bls', fixture('bls-oews-national.csv'), { now, year: 2024 });
    expect(result.rows).toBe(4);
    expect(result.summary).toMatch(/4 OEWS wages imported from bls-oews-national\.csv \(1 top-coded, 1 not available\)/);
    expect(wages()).toEqual([
      { soc_code: '29-1212', title: 'Cardiologists', annual_median: 239200, top_coded: 1, year: 2024 },
      { soc_code: '29-1215', title: 'Family Medicine Physicians', annual_median: 231770, top_coded: 0, year: 2024 },
      { soc_code: '29-1216', title: 'General Internal Medicine Physicians', annual_median: 239200, top_coded: 0, year: 2024 },
      { soc_code: '29-1243', title: 'Pediatric Surgeons', annual_median: null, top_coded: 0, year: 2024 },
    ]);
    const columns = (db.prepare('PRAGMA table_info(bls_wages)').all() as { name: string }[]).map((c) => c.name);
    expect(columns).not.toContain('TOT_EMP');
  });

  it('stores "#" as the custom top-code value when one is given', () => {
    importFile(db, 'bls', fixture('bls-oews-national.csv'), { now, year: 2025, topCode: 250_000 });
    expect(wages().find((w) => w.soc_code === '29-1212')).toEqual({
      soc_code: '29-1212',
      title: 'Cardiologists',
      annual_median: 250000,
      top_coded: 1,
      year: 2025,
    });
  });

  it('takes the year from a YEAR column when the file has one', () => {
    const path = csv(['OCC_CODE,OCC_TITLE,A_MEDIAN,YEAR,TOT_EMP', '29-1215,Family Medicine Physicians,231770,2023,"106,290"']);
    importFile(db, 'bls', path, { now });
    expect(wages()).toEqual([{ soc_code: '29-1215', title: 'Family Medicine Physicians', annual_median: 231770, top_coded: 0, year: 2023 }]);
  });

  it('refuses a file without a YEAR column when no year is given, pointing at --year', () => {
    const errors = rejected('bls', fixture('bls-oews-national.csv'));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/--year/);
    expect(count('bls_wages')).toBe(0);
  });

  it('refuses a file missing one of the official columns', () => {
    const errors = rejected('bls', csv(['OCC_CODE,OCC_TITLE,A_MEAN', '29-1215,Family Medicine Physicians,258190']), { year: 2024 });
    expect(errors).toEqual([{ line: 1, message: expect.stringMatching(/missing column\(s\): A_MEDIAN/) }]);
  });

  it('re-importing upserts: one row per SOC code with the newest values', () => {
    importFile(db, 'bls', fixture('bls-oews-national.csv'), { now, year: 2024 });
    const next = csv([
      'AREA,OCC_CODE,OCC_TITLE,A_MEDIAN',
      '99,29-1215,Family Medicine Physicians,"240,100"',
      '99,29-1243,Pediatric Surgeons,#',
      '99,29-1221,"Pediatricians, General","205,860"',
    ]);
    importFile(db, 'bls', next, { now, year: 2025 });
    expect(wages()).toEqual([
      { soc_code: '29-1212', title: 'Cardiologists', annual_median: 239200, top_coded: 1, year: 2024 },
      { soc_code: '29-1215', title: 'Family Medicine Physicians', annual_median: 240100, top_coded: 0, year: 2025 },
      { soc_code: '29-1216', title: 'General Internal Medicine Physicians', annual_median: 239200, top_coded: 0, year: 2024 },
      { soc_code: '29-1221', title: 'Pediatricians, General', annual_median: 205860, top_coded: 0, year: 2025 },
      { soc_code: '29-1243', title: 'Pediatric Surgeons', annual_median: 239200, top_coded: 1, year: 2025 },
    ]);
  });

  it('refuses bad rows (SOC code, median, duplicate code), listing each line, and writes nothing', () => {
    importFile(db, 'bls', fixture('bls-oews-national.csv'), { now, year: 2024 });
    const before = wages();
    const errors = rejected(
      'bls',
      csv([
        'OCC_CODE,OCC_TITLE,A_MEDIAN',
        '29-1215,Family Medicine Physicians,250000', // 2 good
        '291212,Cardiologists,#', // 3 bad code
        '29-1213,Dermatologists,n/a', // 4 bad median
        '29-1214,Emergency Medicine Physicians,$239200', // 5 bad median
        '29-1215,Family Medicine Physicians,251000', // 6 duplicate
        '29-1217,,#', // 7 missing title
      ]),
      { year: 2025 },
    );
    expect(errors.map((e) => e.line)).toEqual([3, 4, 5, 6, 7]);
    expect(errors[0]!.message).toMatch(/OCC_CODE: must be a SOC code NN-NNNN/);
    expect(errors[1]!.message).toMatch(/A_MEDIAN: must be an annual wage/);
    expect(errors[3]!.message).toMatch(/OCC_CODE 29-1215 already appears on line 2/);
    expect(errors[4]!.message).toMatch(/OCC_TITLE: is required/);
    expect(wages()).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------------------
// cost of living

interface ColRow {
  code: string;
  col_index: number;
  col_source: string;
  col_year: number;
}
function col(code: string): ColRow {
  return db.prepare('SELECT code, col_index, col_source, col_year FROM states WHERE code = ?').get(code) as ColRow;
}

describe('import col', () => {
  it('updates the listed states, given by code or full name, and keeps the others', () => {
    const alabama = col('AL');
    const result = importFile(db, 'col', fixture('col-good.csv'), { now });
    expect(result.rows).toBe(3);
    expect(result.summary).toMatch(/cost of living updated for 3 states from col-good\.csv \(48 states keep their previous index\)/);
    expect(col('NY')).toEqual({ code: 'NY', col_index: 120.5, col_source: 'BEA Regional Price Parities 2023', col_year: 2023 });
    expect(col('CA')).toEqual({ code: 'CA', col_index: 115.25, col_source: 'BEA Regional Price Parities 2023', col_year: 2023 });
    expect(col('DC')).toMatchObject({ col_index: 111, col_year: 2023 });
    expect(col('AL')).toEqual(alabama);
  });

  it('accepts a lower-case code', () => {
    importFile(db, 'col', csv(['year,source,index,state', '2024,RPP,99.5,ny']), { now });
    expect(col('NY')).toEqual({ code: 'NY', col_index: 99.5, col_source: 'RPP', col_year: 2024 });
  });

  it.each<[string, string[], number, RegExp]>([
    ['the same state twice by code', ['NY,120,RPP,2023', 'TX,95,RPP,2023', 'NY,121,RPP,2023'], 4, /state NY already appears on line 2/],
    ['the same state by code and by name', ['NY,120,RPP,2023', 'New York,121,RPP,2023'], 3, /state NY already appears on line 2/],
    ['an index below the range', ['NY,10,RPP,2023'], 2, /index: must be between 20 and 300/],
    ['an index above the range', ['NY,301,RPP,2023'], 2, /index: must be between 20 and 300/],
    ['a non-numeric index', ['NY,high,RPP,2023'], 2, /index: must be a plain number/],
    ['an unknown state', ['Atlantis,100,RPP,2023'], 2, /unknown state "Atlantis"/],
    ['a missing source', ['NY,100,,2023'], 2, /source: is required/],
  ])('refuses the whole file for %s', (_label, rows, line, message) => {
    const before = db.prepare('SELECT * FROM states ORDER BY code').all();
    const errors = rejected('col', csv(['state,index,source,year', ...rows, 'CA,130,RPP,2023']));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.line).toBe(line);
    expect(errors[0]!.message).toMatch(message);
    expect(db.prepare('SELECT * FROM states ORDER BY code').all()).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------------------
// batches, duplicates and undo (issue 18)

describe('import batches and duplicate reports', () => {
  const EIGHT = [
    reportRow(),
    reportRow({ state: 'CA' }),
    reportRow({ state: 'TX', status: 'pending' }),
    reportRow({ specialty: 'cardiology', total_compensation: '520000', base_salary: '480000', bonus: '40000' }),
    reportRow({ specialty: 'pediatrics', total_compensation: '240000', base_salary: '', bonus: '' }),
    reportRow({ year: '2023', submitted_at: '2024-11-02T10:00:00Z' }),
    reportRow({ practice_setting: 'Academic', status: '' }),
    reportRow({ wrvus: '', hours_per_week: '', status: 'rejected' }),
  ];
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const batches = () =>
    db.prepare('SELECT id, kind, file_name, rows_read, rows_imported, duplicates_skipped, rows_refused, status FROM import_batches ORDER BY id').all();

  it('the same rows with CRLF line endings, or one blank line more, are duplicates: 8 reports stay 8', () => {
    const first = importFile(db, 'reports', write('lf.csv', `${[REPORT_HEADER, ...EIGHT].join('\n')}\n`), { now });
    expect(first.rows).toBe(8);
    const crlf = importFile(db, 'reports', write('crlf.csv', `${[REPORT_HEADER, ...EIGHT].join('\r\n')}\r\n`), { now });
    expect(crlf.alreadyImported).toBeFalsy();
    expect(crlf.rows).toBe(0);
    expect(crlf.duplicates.map((d) => [d.line, d.reportId])).toEqual(EIGHT.map((_, i) => [i + 2, i + 1]));
    expect(crlf.summary).toBe('0 reports imported from crlf.csv; 8 duplicates skipped (already in the DB: 8; --allow-duplicates imports them); batch 2');
    const blank = importFile(db, 'reports', write('blank.csv', `${[REPORT_HEADER, ...EIGHT].join('\n')}\n\n`), { now });
    expect(blank.rows).toBe(0);
    expect(count('reports')).toBe(8);
    expect(batches()).toEqual([
      { id: 1, kind: 'reports', file_name: 'lf.csv', rows_read: 8, rows_imported: 8, duplicates_skipped: 0, rows_refused: 0, status: 'imported' },
      { id: 2, kind: 'reports', file_name: 'crlf.csv', rows_read: 8, rows_imported: 0, duplicates_skipped: 8, rows_refused: 0, status: 'imported' },
      { id: 3, kind: 'reports', file_name: 'blank.csv', rows_read: 8, rows_imported: 0, duplicates_skipped: 8, rows_refused: 0, status: 'imported' },
    ]);
  });

  it('row order, letter case of enumerations, spellings of the specialty, date forms and status do not make a row new', () => {
    importFile(db, 'reports', write('a.csv', `${[REPORT_HEADER, ...EIGHT].join('\n')}\n`), { now });
    const variants = [
      reportRow({ state: 'ca' }), // row 2 with a lower-case state
      reportRow({ practice_setting: 'HOSPITAL EMPLOYED', employment_type: 'full-time (w-2)', status: 'rejected' }), // row 1, other status
      reportRow({ specialty: 'Family Medicine', submitted_at: '2025-02-10T00:00:00Z', total_compensation: '285000.00' }), // row 1 again
    ].reverse();
    const result = importFile(db, 'reports', write('b.csv', `${[REPORT_HEADER, ...variants].join('\n')}\n`), { now });
    expect(result.rows).toBe(0);
    expect(result.duplicates.map((d) => [d.line, d.reportId ?? null, d.firstLine ?? null])).toEqual([
      [2, 1, null],
      [3, 1, null],
      [4, 2, null],
    ]);
    expect(count('reports')).toBe(8);
  });

  it('a row repeated within one file is a duplicate of its first line', () => {
    const result = importFile(db, 'reports', csv([REPORT_HEADER, reportRow(), reportRow({ state: 'CA' }), reportRow({ status: 'pending' })]), { now });
    expect(result.rows).toBe(2);
    expect(result.duplicates).toEqual([{ line: 4, firstLine: 2 }]);
    expect(result.summary).toMatch(/^2 reports imported from .*; 1 duplicate skipped \(repeated in the file: 1; --allow-duplicates imports them\); batch 1$/);
  });

  it('a changed value is a new report', () => {
    importFile(db, 'reports', csv([REPORT_HEADER, reportRow()]), { now });
    expect(importFile(db, 'reports', csv([REPORT_HEADER, reportRow({ bonus: '35001', total_compensation: '285001' })]), { now }).rows).toBe(1);
  });

  it('byte-identical files are recognised by their SHA-256 and name the batch that imported them', () => {
    const path = csv([REPORT_HEADER, ...EIGHT], 'nightly.csv');
    importFile(db, 'reports', csv([REPORT_HEADER, reportRow({ state: 'WA' })]), { now });
    importFile(db, 'reports', path, { now });
    const again = importFile(db, 'reports', path, { now });
    expect(again.alreadyImported).toBe(true);
    expect(again.batchId).toBe(2);
    expect(again.summary).toBe(`nightly.csv was already imported as batch 2 on ${NOW.toISOString()} (8 reports); nothing to do`);
    expect(count('import_batches')).toBe(2);
  });

  it('records a refused file as a refused batch with its rows read and refused, and imports no report', () => {
    let caught: unknown;
    try {
      importFile(db, 'reports', csv([REPORT_HEADER, reportRow(), reportRow({ specialty: 'astrology' }), reportRow({ state: 'XX' })], 'bad.csv'), { now });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ImportRejected);
    expect((caught as ImportRejected).batchId).toBe(1);
    expect(count('reports')).toBe(0);
    expect(batches()).toEqual([
      { id: 1, kind: 'reports', file_name: 'bad.csv', rows_read: 3, rows_imported: 0, duplicates_skipped: 0, rows_refused: 2, status: 'refused' },
    ]);
  });

  it('records imports of every kind as batches', () => {
    importFile(db, 'institutions', fixture('institutions-good.csv'), { now });
    importFile(db, 'bls', fixture('bls-oews-national.csv'), { now, year: 2024 });
    importFile(db, 'col', fixture('col-good.csv'), { now });
    expect(batches()).toEqual([
      { id: 1, kind: 'institutions', file_name: 'institutions-good.csv', rows_read: 7, rows_imported: 7, duplicates_skipped: 0, rows_refused: 0, status: 'imported' },
      { id: 2, kind: 'bls', file_name: 'bls-oews-national.csv', rows_read: 4, rows_imported: 4, duplicates_skipped: 0, rows_refused: 0, status: 'imported' },
      { id: 3, kind: 'col', file_name: 'col-good.csv', rows_read: 3, rows_imported: 3, duplicates_skipped: 0, rows_refused: 0, status: 'imported' },
    ]);
  });

  it('stores a fingerprint for every imported report', () => {
    importFile(db, 'reports', csv([REPORT_HEADER, ...EIGHT]), { now });
    const fps = db.prepare('SELECT fingerprint FROM reports').all() as { fingerprint: string | null }[];
    expect(fps.every((f) => typeof f.fingerprint === 'string' && f.fingerprint.length >= 32)).toBe(true);
    expect(new Set(fps.map((f) => f.fingerprint)).size).toBe(8);
    const plan = db.prepare("EXPLAIN QUERY PLAN SELECT id FROM reports WHERE fingerprint = 'x'").all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING (COVERING )?INDEX/);
  });

  it('finds duplicates of reports written without a fingerprint (e.g. by the demo generator)', () => {
    importFile(db, 'reports', csv([REPORT_HEADER, reportRow()]), { now });
    db.prepare('UPDATE reports SET fingerprint = NULL').run();
    expect(importFile(db, 'reports', csv([REPORT_HEADER, reportRow()]), { now }).rows).toBe(0);
  });
});

describe('undo of an import batch', () => {
  it('removes exactly the reports of that batch, in one go, and says how many', () => {
    importFile(db, 'reports', csv([REPORT_HEADER, reportRow(), reportRow({ state: 'CA' })]), { now });
    importFile(db, 'reports', csv([REPORT_HEADER, reportRow({ state: 'TX' }), reportRow({ state: 'WA', status: '' }), reportRow({ state: 'OR', status: 'rejected' })]), { now });
    importFile(db, 'reports', csv([REPORT_HEADER, reportRow({ state: 'NV' })]), { now });
    const later = new Date('2026-01-16T08:00:00.000Z');
    const result = undoBatch(db, 2, { now: () => later });
    expect(result).toMatchObject({ removed: 3, byStatus: { approved: 1, pending: 1, rejected: 1 }, dryRun: false });
    expect(result.batch).toMatchObject({ id: 2, file_name: 'file-' + (fileCounter - 1) + '.csv' });
    expect(reports().map((r) => [r.state, r.batch_id])).toEqual([
      ['NY', 1],
      ['CA', 1],
      ['NV', 3],
    ]);
    expect(db.prepare('SELECT status, undone_at, reports_removed FROM import_batches WHERE id = 2').get()).toEqual({
      status: 'undone',
      undone_at: later.toISOString(),
      reports_removed: 3,
    });
  });

  it('--dry-run counts and changes nothing', () => {
    importFile(db, 'reports', fixture('reports-good.csv'), { now });
    const result = undoBatch(db, 1, { now, dryRun: true });
    expect(result).toMatchObject({ removed: 4, dryRun: true, byStatus: { approved: 1, pending: 2, rejected: 1 } });
    expect(count('reports')).toBe(4);
    expect(db.prepare('SELECT status FROM import_batches').get()).toEqual({ status: 'imported' });
  });

  it('refuses an unknown batch, a second undo, a refused batch and a batch of another kind', () => {
    importFile(db, 'reports', fixture('reports-good.csv'), { now });
    importFile(db, 'bls', fixture('bls-oews-national.csv'), { now, year: 2024 });
    expect(() => rejected('reports', csv([REPORT_HEADER, reportRow({ state: 'XX' })]))).not.toThrow();
    expect(() => undoBatch(db, 99, { now })).toThrow(BatchError);
    expect(() => undoBatch(db, 99, { now })).toThrow(/no import batch 99/);
    expect(() => undoBatch(db, 2, { now })).toThrow(/batch 2 imported bls data; only reports batches can be undone/);
    expect(() => undoBatch(db, 3, { now })).toThrow(/batch 3 was refused/);
    undoBatch(db, 1, { now });
    expect(() => undoBatch(db, 1, { now })).toThrow(/batch 1 was already undone on 2026-01-15T12:00:00.000Z \(4 reports removed\)/);
    expect(count('reports')).toBe(0);
  });

  it('after an undo the same file can be imported again, and report ids are never reused', () => {
    const path = fixture('reports-good.csv');
    importFile(db, 'reports', path, { now });
    undoBatch(db, 1, { now });
    const again = importFile(db, 'reports', path, { now });
    expect(again.alreadyImported).toBeFalsy();
    expect(again.rows).toBe(4);
    expect((db.prepare('SELECT min(id) AS lo FROM reports').get() as { lo: number }).lo).toBe(5);
  });

  it('lists batches newest first with their counts', () => {
    importFile(db, 'reports', fixture('reports-good.csv'), { now });
    importFile(db, 'reports', csv([REPORT_HEADER, reportRow({ state: 'VT' }), reportRow({ state: 'WY' })], 'more.csv'), { now });
    undoBatch(db, 1, { now });
    expect(listBatches(db).map((b) => ({ id: b.id, file: b.file_name, status: b.status, imported: b.rows_imported, dup: b.duplicates_skipped, left: b.reports_remaining }))).toEqual([
      { id: 2, file: 'more.csv', status: 'imported', imported: 2, dup: 0, left: 2 },
      { id: 1, file: 'reports-good.csv', status: 'undone', imported: 4, dup: 0, left: 0 },
    ]);
  });
});

describe('migration v3 on a DB of schema v2', () => {
  it('turns the old imports into batches, links their reports and fingerprints every existing report', () => {
    const old = new Database(':memory:');
    old.pragma('foreign_keys = ON');
    old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT');
    for (const m of MIGRATIONS.filter((x) => x.version <= 2)) {
      m.up(old);
      old.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, NOW.toISOString());
    }
    old.prepare("INSERT INTO imports (id, kind, file_name, sha256, rows, imported_at) VALUES (1, 'reports', 'old.csv', 'abc', 2, '2025-01-01T00:00:00.000Z')").run();
    const ins = old.prepare(`INSERT INTO reports (specialty_id, state, year, total_compensation, practice_setting, submitted_at, status, import_id)
      VALUES ((SELECT id FROM specialties WHERE slug = 'family-medicine'), ?, 2024, 285000, ?, '2025-02-10T00:00:00.000Z', 'approved', ?)`);
    ins.run('NY', 'Hospital Employed', 1);
    ins.run('CA', 'Hospital Employed', 1);
    ins.run('TX', null, null); // e.g. demo data: no import
    migrate(old);
    db.close();
    db = old;
    expect(db.prepare('SELECT id, kind, file_name, sha256, rows_read, rows_imported, status FROM import_batches').all()).toEqual([
      { id: 1, kind: 'reports', file_name: 'old.csv', sha256: 'abc', rows_read: 2, rows_imported: 2, status: 'imported' },
    ]);
    expect(db.prepare('SELECT state, batch_id FROM reports ORDER BY id').all()).toEqual([
      { state: 'NY', batch_id: 1 },
      { state: 'CA', batch_id: 1 },
      { state: 'TX', batch_id: null },
    ]);
    expect(count('reports', 'WHERE fingerprint IS NULL')).toBe(0);
    // The migrated fingerprints match what an import computes.
    const result = importFile(db, 'reports', csv([REPORT_HEADER, reportRow({ base_salary: '', bonus: '', hours_per_week: '', years_in_practice: '', employment_type: '', wrvus: '', state: 'CA' })]), { now });
    expect(result.duplicates).toEqual([{ line: 2, reportId: 2, batchId: 1 }]);
  });
});

describe('encodings', () => {
  const write = (name: string, bytes: Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  function refusedForEncoding(kind: ImportKind, path: string, opts: ImportOptions = {}): ImportRejected {
    let caught: unknown;
    try {
      importFile(db, kind, path, { now, ...opts });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ImportRejected);
    expect((caught as ImportRejected).fileLevel).toBe(true);
    expect(count('import_batches')).toBe(0);
    return caught as ImportRejected;
  }

  it('refuses a Latin-1 institutions file before writing anything, naming the line and Latin-1', () => {
    const text = `${INST_HEADER}\n${instRow({ institution_name: 'H\xf4pital Mercy' })}\n`;
    const err = refusedForEncoding('institutions', write('inst.csv', Buffer.from(text, 'latin1')));
    expect(err.errors).toHaveLength(1);
    expect(err.errors[0]!.line).toBe(2);
    expect(err.errors[0]!.message).toMatch(/Latin-1/);
    expect(err.errors[0]!.message).toContain(`iconv -f latin1 -t utf-8 ${join(dir, 'inst.csv')} > ${join(dir, 'inst-utf8.csv')}`);
    expect(count('institutions')).toBe(0);
  });

  it('refuses a Latin-1 reports file (no "H\\uFFFDpital" ever reaches the DB)', () => {
    const text = `${REPORT_HEADER}\n${reportRow()}\n${reportRow({ practice_setting: 'Acad\xe9mic' })}\n`;
    const err = refusedForEncoding('reports', write('r.csv', Buffer.from(text, 'latin1')));
    expect(err.errors[0]!.line).toBe(3);
    expect(count('reports')).toBe(0);
  });

  it('refuses UTF-16 col and bls files, naming UTF-16', () => {
    const col = refusedForEncoding('col', write('col.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('state,index,source,year\nNY,120,RPP,2023\n', 'utf16le')])));
    expect(col.errors[0]!.message).toMatch(/UTF-16/);
    const bls = refusedForEncoding('bls', write('bls.csv', Buffer.from('OCC_CODE,OCC_TITLE,A_MEDIAN\n29-1215,Family,1\n', 'utf16le')), { year: 2024 });
    expect(bls.errors[0]!.message).toMatch(/UTF-16 \(little-endian\)/);
  });

  it('accepts a UTF-8 file with a byte-order mark and real accents for every kind', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    importFile(db, 'institutions', write('i.csv', Buffer.concat([bom, Buffer.from(`${INST_HEADER}\n${instRow({ institution_name: 'Hôpital Mercy' })}\n`)])), { now });
    expect(db.prepare('SELECT name FROM institutions').get()).toEqual({ name: 'Hôpital Mercy' });
    importFile(db, 'col', write('c.csv', Buffer.concat([bom, Buffer.from('state,index,source,year\nNY,120,Régional,2023\n')])), { now });
    expect(col('NY').col_source).toBe('Régional');
    importFile(db, 'bls', write('b.csv', Buffer.concat([bom, Buffer.from('OCC_CODE,OCC_TITLE,A_MEDIAN\n29-1215,Médecins,231770\n')])), { now, year: 2024 });
    expect(wages()[0]!.title).toBe('Médecins');
  });
});

describe('progress on large imports', () => {
  it('reports stages with the share of the file read above 512 KB, and stays silent below', () => {
    const rows = Array.from({ length: 10_001 }, (_, i) => reportRow({ total_compensation: String(200_000 + i), base_salary: '', bonus: '' }));
    const big = csv([REPORT_HEADER, ...rows]);
    const written: string[] = [];
    importFile(db, 'reports', big, { now, progress: (s) => written.push(s) });
    const text = written.join('');
    expect(text).toMatch(/\[1\/2\] checking file-\d+\.csv \(\d(\.\d)? MB\)/);
    expect(text).toMatch(/\[2\/2\] importing the rows of file-\d+\.csv: \d+%, [\d,]+ rows/);
    expect(text).toMatch(/\(\d+\.\d s\) *\n$/);
    const small: string[] = [];
    importFile(db, 'reports', csv([REPORT_HEADER, reportRow({ state: 'AK' })]), { now, progress: (s) => small.push(s) });
    expect(small).toEqual([]);
  });
});

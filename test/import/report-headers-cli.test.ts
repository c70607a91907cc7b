/**
 * Headers of reports files as exports write them (issue 42, item 7): names match with spaces and underscores
 * alike (`Total Compensation`), optional columns may be absent, and a bad header is one file-level refusal,
 * not a "bad row".
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPORT_COLUMNS } from '../../build/import/reports.ts';
import { headerKeys } from '../../build/import/normalise.ts';
import { runCli } from '../helpers/cli.ts';
import { useReportsDb } from './reports-db.ts';

const fx = useReportsDb('report-headers');
const { file, query } = fx;

describe('header names', () => {
  it('match with spaces and underscores alike, whatever the letter case', () => {
    expect(headerKeys(['Total Compensation', ' years  in practice ', 'SUBMITTED_AT', 'wRVUs', ' Survey Notes '], REPORT_COLUMNS)).toEqual([
      'total_compensation', 'years_in_practice', 'submitted_at', 'wrvus', 'Survey Notes',
    ]);
  });

  it('two names of one column, spelt with a space and an underscore, are one column given twice', () => {
    expect(() => headerKeys(['total_compensation', 'Total Compensation'], REPORT_COLUMNS)).toThrow(
      'columns "total_compensation" and "Total Compensation" are the same column (header names ignore letter case, surrounding spaces, and spaces against underscores)',
    );
  });

  it('a survey export with a spelt-out header and only some optional columns imports', async () => {
    const r = await runCli(['import', 'reports', '--db', fx.db, file('export.csv', [
      'Specialty,State,Year,Total Compensation,Hours Per Week,Submitted At',
      'Cardiology,NY,2025,520000,55,2025-12-01',
      'Pediatrics,OH,2025,250000,,2025-12-02',
    ])]);
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.out).toEqual(['2 reports imported from export.csv (2 pending); batch 1']);
    expect(query('SELECT total_compensation, base_salary, bonus, hours_per_week, years_in_practice, practice_setting, employment_type, wrvus, status FROM reports ORDER BY id')).toEqual([
      { total_compensation: 520000, base_salary: null, bonus: null, hours_per_week: 55, years_in_practice: null, practice_setting: null, employment_type: null, wrvus: null, status: 'pending' },
      { total_compensation: 250000, base_salary: null, bonus: null, hours_per_week: null, years_in_practice: null, practice_setting: null, employment_type: null, wrvus: null, status: 'pending' },
    ]);
  });

  it('an absent optional column is read as empty: the same report as an empty cell (a duplicate)', async () => {
    expect((await runCli(['import', 'reports', '--db', fx.db, file('full.csv', [REPORT_COLUMNS.join(','), 'cardiology,NY,2025,520000,,,,,,,,2025-12-01,'])])).code).toBe(0);
    const r = await runCli(['import', 'reports', '--db', fx.db, file('short.csv', ['specialty,state,year,total_compensation,submitted_at', 'cardiology,NY,2025,520000,2025-12-01'])]);
    expect(r.code).toBe(0);
    expect(r.err).toEqual(['short.csv line 2: duplicate of report 1 (batch 1), skipped']);
  });
});

describe('a bad header is the file refused, not a bad row', () => {
  it('a missing required column: one line naming it, the required and the optional columns; no batch recorded', async () => {
    const r = await runCli(['import', 'reports', '--db', fx.db, file('no-total.csv', ['specialty,state,year,submitted_at', 'cardiology,NY,2025,2025-12-01'])]);
    expect(r.code).toBe(1);
    expect(r.out).toEqual([]);
    expect(r.err).toEqual([
      'physpay: no-total.csv line 1: bad header: missing column(s): total_compensation. Required: specialty, state, year, total_compensation, submitted_at; optional: base_salary, bonus, hours_per_week, years_in_practice, practice_setting, employment_type, wrvus, status, call_pay, call_nights_per_month, signing_bonus, retention_bonus, relocation, loan_repayment, loan_repayment_years, cme_allowance, pto_weeks, compensation_model, wrvu_conversion_rate, non_compete_miles, non_compete_years, partnership_track_years; nothing was imported',
    ]);
    expect(query('SELECT count(*) AS n FROM import_batches')).toEqual([{ n: 0 }]);
  });

  it('an unknown column and a column given twice read the same way', async () => {
    const unknown = await runCli(['import', 'reports', '--db', fx.db, file('notes.csv', [`${REPORT_COLUMNS.join(',')},notes`])]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toHaveLength(1);
    expect(unknown.err[0]).toMatch(/^physpay: notes\.csv line 1: bad header: unknown column\(s\): notes\. Required: .*; nothing was imported$/);
    const twice = await runCli(['import', 'reports', '--db', fx.db, file('twice.csv', [`${REPORT_COLUMNS.join(',')},Total Compensation`])]);
    expect(twice.err).toEqual([
      'physpay: twice.csv line 1: columns "total_compensation" and "Total Compensation" are the same column (header names ignore letter case, surrounding spaces, and spaces against underscores); nothing was imported',
    ]);
  });

  it('an empty file, and an unclosed quote, likewise', async () => {
    const empty = await runCli(['import', 'reports', '--db', fx.db, file('empty.csv', [])]);
    expect(empty.err).toEqual(['physpay: empty.csv line 1: the file is empty (a header row is required); nothing was imported']);
    const quote = await runCli(['import', 'reports', '--db', fx.db, file('quote.csv', [REPORT_COLUMNS.join(','), '"cardiology,NY,2025,520000,,,,,,,,2025-12-01,'])]);
    expect(quote.code).toBe(1);
    expect(quote.err).toEqual(['physpay: quote.csv line 2: a quoted field is never closed; nothing was imported']);
  });
});

describe('the other importers refuse a bad header the same way', () => {
  it('institutions with a missing column, a BLS file without a year', async () => {
    const inst = await runCli(['import', 'institutions', '--db', fx.db, file('hospitals.csv', ['institution_slug,institution_name,city,state', 'a,b,c,NY'])]);
    expect(inst.code).toBe(1);
    expect(inst.err).toHaveLength(1);
    expect(inst.err[0]).toMatch(/^physpay: hospitals\.csv line 1: bad header: missing column\(s\): academic_year, checked_at, source_url, pgy, salary\. Expected: .*; nothing was imported$/);
    const bls = await runCli(['import', 'bls', '--db', fx.db, file('bls.csv', ['OCC_CODE,OCC_TITLE,A_MEDIAN', '29-1221,"Pediatricians, General","205,860"'])]);
    expect(bls.code).toBe(1);
    expect(bls.err).toEqual(['physpay: bls.csv line 1: the file has no YEAR column: give the OEWS year with --year (e.g. --year 2024); nothing was imported']);
  });
});

/**
 * `physpay import reports` with the whole offer's columns (issue 43, item 1): a survey export's Title Case
 * offer columns are stored in the reports DB, on this thread and on the worker thread alike; $ and thousands
 * forms count as normalised numbers; a bad value or a contradiction refuses the file with its line and column;
 * a report with the same answers is a duplicate, one with another offer value is not.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { useReportsDb } from './reports-db.ts';
import { OFFER_COLUMNS } from '../../build/contract/offer-terms.ts';

const fx = useReportsDb('offer-cli');
const ENV = 'PHYSPAY_IMPORT_WORKER_MIN_BYTES';
const saved = process.env[ENV];
afterEach(() => {
  if (saved === undefined) delete process.env[ENV];
  else process.env[ENV] = saved;
});

const HEADER = 'Specialty,State,Year,Total Compensation,Submitted At,Status,Call Pay,Call Nights Per Month,Signing Bonus,Retention Bonus,Relocation,'
  + 'Loan Repayment,Loan Repayment Years,CME Allowance,PTO Weeks,Compensation Model,wRVU Conversion Rate,Non Compete Miles,Non Compete Years,Partnership Track Years';
const ROWS = [
  'cardiology,NY,2025,"$520,000",2025-12-01,,"$40,000",6,"$25,000",none,"12,500","$100,000",4,"$4,000",5,wRVU Production,$62.50,20,2,none',
  'pediatrics,OH,2025,250000,2025-12-02,,0,0,None,,,,,,4.5,salary,,none,,',
  'family-medicine,TX,2025,280000,2025-12-03,,,,,,,,,,,,,,,',
];
const stored = () => fx.query<Record<string, unknown>>(`SELECT s.slug, ${OFFER_COLUMNS.map((c) => `r.${c}`).join(', ')} FROM reports r JOIN specialties s ON s.id = r.specialty_id ORDER BY r.id`);
const EXPECTED = [
  {
    slug: 'cardiology', call_pay: 40_000, call_nights_per_month: 6, signing_bonus: 25_000, retention_bonus: 0, relocation: 12_500, loan_repayment: 100_000,
    loan_repayment_years: 4, cme_allowance: 4_000, pto_weeks: 5, compensation_model: 'production', wrvu_conversion_rate: 62.5, non_compete_miles: 20,
    non_compete_years: 2, partnership_track_years: 0,
  },
  {
    slug: 'pediatrics', call_pay: 0, call_nights_per_month: 0, signing_bonus: 0, retention_bonus: null, relocation: null, loan_repayment: null,
    loan_repayment_years: null, cme_allowance: null, pto_weeks: 4.5, compensation_model: 'salary', wrvu_conversion_rate: null, non_compete_miles: 0,
    non_compete_years: null, partnership_track_years: null,
  },
  { slug: 'family-medicine', ...Object.fromEntries(OFFER_COLUMNS.map((c) => [c, null])) },
];

describe('physpay import reports: the whole offer', () => {
  for (const [path, mode] of [['this thread', 'never'], ['the worker thread', '0']] as const) {
    it(`stores every offer column, read on ${path}; $ and thousands forms are counted as normalised`, async () => {
      process.env[ENV] = mode;
      const r = await runCli(['import', 'reports', '--db', fx.db, fx.file('offer.csv', [HEADER, ...ROWS])]);
      expect(r.err).toEqual([]);
      expect(r.code).toBe(0);
      expect(r.out).toEqual(['3 reports imported from offer.csv (3 pending); 7 values normalised (7 with $ or thousands separators); batch 1']);
      expect(stored()).toEqual(EXPECTED);
    });
  }

  it('the same answers again are a duplicate; another offer value is another report', async () => {
    expect((await runCli(['import', 'reports', '--db', fx.db, fx.file('a.csv', [HEADER, ROWS[0]!])])).code).toBe(0);
    const again = ROWS[0]!.replace('"$40,000"', '40000'); // the same value written another way
    const other = ROWS[0]!.replace(',5,wRVU', ',6,wRVU'); // 6 weeks off instead of 5
    const r = await runCli(['import', 'reports', '--db', fx.db, fx.file('b.csv', [HEADER, again, other])]);
    expect(r.code).toBe(0);
    expect(r.out[0]).toMatch(/^1 reports imported from b\.csv \(1 pending\); 1 duplicate skipped/);
    expect(stored().map((x) => x.pto_weeks)).toEqual([5, 6]);
  });

  it('a bad value and a contradiction refuse the file, each at its line, naming the column', async () => {
    const r = await runCli(['import', 'reports', '--db', fx.db, fx.file('bad.csv', [
      HEADER,
      ROWS[0]!.replace(',5,wRVU', ',30,wRVU'),
      ROWS[1]!.replace('salary', 'hourly'),
      ROWS[2]!.replace(/,{15}$/, () => `,,"$300,000"${','.repeat(13)}`),
      ROWS[2]!.replace(/,{15}$/, () => `${','.repeat(13)}25,,`),
    ])]);
    expect(r.code).toBe(1);
    expect(r.err.slice(0, 4)).toEqual([
      'bad.csv line 2: pto_weeks: must be between 0 and 26 (got 30)',
      'bad.csv line 3: compensation_model: "hourly" is not one of: salary, salary_plus_productivity, production, collections, shift (or a label: "Salary", "Salary + productivity", "wRVU production", "Collections", "Shift or hourly")',
      'bad.csv line 4: call_pay (300000) is part of total_compensation and cannot exceed it (280000)',
      'bad.csv line 5: non_compete_years is needed for a non-compete with a radius (non_compete_miles above 0): give its length in years',
    ]);
    expect(stored()).toEqual([]);
  });

  it('--help names the offer columns', async () => {
    const r = await runCli(['import', 'reports', '--help']);
    expect(r.out.join('\n')).toContain(`The whole offer, optional too: ${OFFER_COLUMNS.join(',')}`);
  });
});

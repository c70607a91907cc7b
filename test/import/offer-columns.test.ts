/**
 * The whole offer's columns in a reports file (issue 43, item 1): optional, in any order, with Title Case
 * headers as survey exports write them; each value in the forms the other money columns accept ($35,000,
 * 35,000), "none" as 0 where the contract allows it, the pay model by value or label; every bad form refused
 * with its column and a message that names the fix; the cross-field rule refuses a row; the values reach the
 * fingerprint only when given. Pure: the importer's own validators on parsed text.
 */
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { openReportsDb, type Db } from '../../build/db/open.ts';
import { loadRefs, type Refs } from '../../build/import/refs.ts';
import { parseCsv } from '../../build/import/csv.ts';
import {
  REPORT_ALL_COLUMNS, REPORT_COLUMNS, REPORT_OFFER_COLUMNS, REPORT_OPTIONAL_COLUMNS, reportRecordsToRows, validateReportRows, type ValidReport,
} from '../../build/import/reports.ts';
import { COMPENSATION_MODELS, NO_OFFER_TERMS, OFFER_COLUMNS, OFFER_RANGES, offerTermsIssue, type OfferColumn } from '../../build/contract/offer-terms.ts';
import { reportFingerprint } from '../../build/db/fingerprint.ts';

const NOW = new Date('2026-06-01T12:00:00.000Z');
let db: Db;
let refs: Refs;
beforeAll(() => {
  db = openReportsDb(':memory:');
  refs = loadRefs(db);
});
afterAll(() => db.close());

const BASE = { specialty: 'cardiology', state: 'NY', year: '2025', total_compensation: '500000', submitted_at: '2026-03-11' };
type Cells = Partial<Record<(typeof REPORT_ALL_COLUMNS)[number], string>>;

/** Validate one row of a file whose header holds the base columns and the given ones, in that order. */
function check(cells: Cells, header?: string[]) {
  const v: Cells = { ...BASE, ...cells };
  const names = Object.keys(v) as (keyof Cells)[];
  const head = header ?? names;
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const text = `${head.join(',')}\n${names.map((n) => q(v[n]!)).join(',')}\n`;
  const { rows, errors } = reportRecordsToRows(parseCsv(text));
  expect(errors).toEqual([]);
  return validateReportRows(rows, refs, NOW);
}
/** The one valid report of a row. */
function accepted(cells: Cells, header?: string[]): ValidReport {
  const r = check(cells, header);
  expect(r.errors).toEqual([]);
  return r.valid[0]!;
}
/** The refusal of a row. */
function refused(cells: Cells): string {
  const r = check(cells);
  expect(r.valid).toEqual([]);
  return r.errors[0]!.message;
}

describe('the columns', () => {
  it('REPORT_COLUMNS keeps the 13 columns; the 14 offer columns are optional, after them', () => {
    expect(REPORT_COLUMNS).toHaveLength(13);
    expect(REPORT_OFFER_COLUMNS).toEqual(OFFER_COLUMNS);
    expect(REPORT_ALL_COLUMNS).toEqual([...REPORT_COLUMNS, ...OFFER_COLUMNS]);
    for (const c of OFFER_COLUMNS) expect(REPORT_OPTIONAL_COLUMNS).toContain(c);
  });

  it('a file without them reads every offer value as unknown; its fingerprint is the one it had before', () => {
    const r = accepted({});
    for (const c of OFFER_COLUMNS) expect(r[c] ?? null, c).toBeNull();
    const { line: _line, status: _status, ...plain } = r;
    const withoutOffer = Object.fromEntries(Object.entries(plain).filter(([k]) => !(OFFER_COLUMNS as readonly string[]).includes(k)));
    expect(reportFingerprint(r)).toBe(reportFingerprint(withoutOffer as unknown as ValidReport));
  });

  it('any of them, in any order, under Title Case headers as survey exports write them', () => {
    const r = accepted({
      pto_weeks: '5', call_pay: '$35,000', signing_bonus: '25,000', compensation_model: 'wRVU production', non_compete_miles: '20', non_compete_years: '2',
    }, ['Specialty', 'State', 'Year', 'Total Compensation', 'Submitted At', 'PTO Weeks', 'Call Pay', 'Signing Bonus', 'Compensation Model', 'Non Compete Miles', 'non_compete_years ']);
    expect(r).toMatchObject({ pto_weeks: 5, call_pay: 35_000, signing_bonus: 25_000, compensation_model: 'production', non_compete_miles: 20, non_compete_years: 2 });
    expect(r.retention_bonus).toBeNull();
  });

  it('an unknown column is still refused, naming the optional ones', () => {
    expect(() => reportRecordsToRows(parseCsv('specialty,state,year,total_compensation,submitted_at,sign_on_bonus\n'))).toThrow(/unknown column\(s\): sign_on_bonus.*optional: .*signing_bonus/);
  });

  it('a row with every one stores every one; the fingerprint then covers them', () => {
    const all = {
      call_pay: '$40,000', call_nights_per_month: '6', signing_bonus: '$25,000', retention_bonus: '10000', relocation: '12,500', loan_repayment: '$100,000',
      loan_repayment_years: '4', cme_allowance: '$4,000', pto_weeks: '5.5', compensation_model: 'production', wrvu_conversion_rate: '$62.50',
      non_compete_miles: '15', non_compete_years: '1.5', partnership_track_years: '3',
    };
    const r = accepted(all);
    expect(Object.fromEntries(OFFER_COLUMNS.map((c) => [c, r[c]]))).toEqual({
      call_pay: 40_000, call_nights_per_month: 6, signing_bonus: 25_000, retention_bonus: 10_000, relocation: 12_500, loan_repayment: 100_000,
      loan_repayment_years: 4, cme_allowance: 4_000, pto_weeks: 5.5, compensation_model: 'production', wrvu_conversion_rate: 62.5,
      non_compete_miles: 15, non_compete_years: 1.5, partnership_track_years: 3,
    });
    expect(reportFingerprint(r)).not.toBe(reportFingerprint(accepted({})));
    expect(reportFingerprint(accepted({ ...all, pto_weeks: '6' }))).not.toBe(reportFingerprint(r));
  });

  it('$ and thousands separators count as normalised numbers, "none" and a label do not', () => {
    const r = check({ call_pay: '$40,000', signing_bonus: 'None', relocation: '12,500', cme_allowance: '4000', compensation_model: 'Salary' });
    expect(r.errors).toEqual([]);
    expect(r.normalised).toEqual({ numbers: 2, dates: 0, spaces: 0 });
  });
});

/** Each money column: the forms survey exports write are read, each bad form has its message. */
const MONEY = OFFER_COLUMNS.filter((c) => c !== 'compensation_model' && OFFER_RANGES[c].currency && c !== 'wrvu_conversion_rate') as Exclude<OfferColumn, 'compensation_model'>[];
const COUNTS = OFFER_COLUMNS.filter((c) => c !== 'compensation_model' && !OFFER_RANGES[c].currency) as Exclude<OfferColumn, 'compensation_model'>[];

describe('amounts in US dollars: call pay, the one-time payments, loan repayment, CME', () => {
  it('are the six money columns', () => {
    expect(MONEY).toEqual(['call_pay', 'signing_bonus', 'retention_bonus', 'relocation', 'loan_repayment', 'cme_allowance']);
  });

  for (const c of MONEY) {
    const { max } = OFFER_RANGES[c];
    it(`${c}: 15000, 15,000, $15,000, $15000.50; 0; its range up to ${max}`, () => {
      for (const [raw, v] of [['15000', 15_000], ['15,000', 15_000], ['$15,000', 15_000], ['$15000.50', 15_000.5], ['0', 0]] as const) {
        expect(accepted({ [c]: raw })[c], raw).toBe(v);
      }
      expect(accepted({ total_compensation: '20000000', [c]: String(max) })[c]).toBe(max);
      expect(refused({ total_compensation: '20000000', [c]: String(max + 1) })).toBe(`${c}: must be between 0 and ${max} (got ${max + 1})`);
      expect(refused({ [c]: '-$5,000' })).toBe(`${c}: must be between 0 and ${max} (got -$5,000)`);
      expect(refused({ [c]: '35k' })).toBe(`${c}: must be an amount in US dollars such as 285000, 285,000 or $285,000 (got "35k")`);
      expect(refused({ [c]: '35.000' })).toMatch(new RegExp(`^${c}: is ambiguous: a point before three digits`));
      expect(refused({ [c]: '35,00' })).toBe(`${c}: uses a comma as a decimal point (got "35,00": write 35.00, or group thousands by three as in 35,000)`);
    });
  }

  it('"none" (any letter case) is 0 for the one-time payments, loan repayment and CME, not for call pay', () => {
    for (const c of ['signing_bonus', 'retention_bonus', 'relocation', 'loan_repayment', 'cme_allowance'] as const) {
      for (const none of ['none', 'None', 'NONE']) expect(accepted({ [c]: none })[c], `${c} ${none}`).toBe(0);
    }
    expect(refused({ call_pay: 'none' })).toBe('call_pay: must be a number: write 0 for none, or leave it empty when unknown (got "none")');
    expect(refused({ call_pay: 'n/a' })).toBe('call_pay: must be an amount in US dollars such as 285000, 285,000 or $285,000 (got "n/a")');
  });
});

describe('counts: call nights, loan years, PTO weeks, non-compete miles and years, partnership track', () => {
  it('are the other numeric columns but the conversion rate', () => {
    expect(COUNTS).toEqual(['call_nights_per_month', 'loan_repayment_years', 'pto_weeks', 'non_compete_miles', 'non_compete_years', 'partnership_track_years']);
  });

  it('each is read in its range, and refused outside it with the range', () => {
    const pair = (c: OfferColumn): Cells => (c === 'loan_repayment_years' ? { loan_repayment: '50000' } : c === 'non_compete_years' ? { non_compete_miles: '10' } : c === 'non_compete_miles' ? { non_compete_years: '1' } : {});
    for (const c of COUNTS) {
      const { min, max } = OFFER_RANGES[c];
      expect(accepted({ ...pair(c), [c]: String(max) })[c], c).toBe(max);
      expect(accepted({ ...pair(c), [c]: String(Math.max(min, 1)) })[c], c).toBe(Math.max(min, 1));
      expect(refused({ ...pair(c), [c]: String(max + 1) }), c).toBe(`${c}: must be between ${min} and ${max} (got ${max + 1})`);
      expect(refused({ ...pair(c), [c]: '-1' }), c).toBe(`${c}: must be between ${min} and ${max} (got -1)`);
      expect(refused({ ...pair(c), [c]: 'two' }), c).toBe(`${c}: must be a plain number (got "two")`);
      expect(refused({ ...pair(c), [c]: '$5' }), c).toBe(`${c}: is a count, not an amount of dollars (got "$5": write 5)`);
    }
  });

  it('fractions where they make sense (5.5 weeks, 1.5 years), whole years of loan repayment only', () => {
    expect(accepted({ pto_weeks: '5.5', call_nights_per_month: '7.5' })).toMatchObject({ pto_weeks: 5.5, call_nights_per_month: 7.5 });
    expect(refused({ loan_repayment: '50000', loan_repayment_years: '2.5' })).toBe('loan_repayment_years: must be a whole number (got "2.5")');
    expect(refused({ loan_repayment: '50000', loan_repayment_years: '0' })).toBe('loan_repayment_years: must be between 1 and 10 (got 0)');
  });

  it('thousands separators are not a count\'s form', () => {
    expect(refused({ non_compete_miles: '1,000', non_compete_years: '1' })).toBe('non_compete_miles: must be written without separators (got "1,000": write 1000)');
  });

  it('"none" is 0 for the non-compete radius and the partnership track; elsewhere the message says what to write', () => {
    expect(accepted({ non_compete_miles: 'None', partnership_track_years: 'none' })).toMatchObject({ non_compete_miles: 0, partnership_track_years: 0 });
    expect(refused({ pto_weeks: 'none' })).toBe('pto_weeks: must be a number: write 0 for none, or leave it empty when unknown (got "none")');
    expect(refused({ call_nights_per_month: 'NONE' })).toBe('call_nights_per_month: must be a number: write 0 for none, or leave it empty when unknown (got "NONE")');
    expect(refused({ loan_repayment: '50000', loan_repayment_years: 'none' })).toBe('loan_repayment_years: must be a number from 1 to 10; leave it empty when there is none (got "none")');
    expect(refused({ non_compete_miles: '10', non_compete_years: 'none' })).toBe('non_compete_years: must be a number: write 0 for none, or leave it empty when unknown (got "none")');
  });

  it('the other optional numbers say the same; a required one has no "none" to offer', () => {
    expect(refused({ bonus: 'None' })).toBe('bonus: must be a number: write 0 for none, or leave it empty when unknown (got "None")');
    expect(refused({ hours_per_week: 'none' })).toBe('hours_per_week: must be a number from 1 to 168; leave it empty when there is none (got "none")');
    expect(refused({ total_compensation: 'none' })).toBe('total_compensation: must be an amount in US dollars such as 285000, 285,000 or $285,000 (got "none")');
  });
});

describe('the contract\'s conversion rate ($/wRVU)', () => {
  it('dollars and cents, with or without $, from 1 to 500', () => {
    expect(accepted({ wrvu_conversion_rate: '$62.50' }).wrvu_conversion_rate).toBe(62.5);
    expect(accepted({ wrvu_conversion_rate: '55' }).wrvu_conversion_rate).toBe(55);
    expect(refused({ wrvu_conversion_rate: '0' })).toBe('wrvu_conversion_rate: must be between 1 and 500 (got 0)');
    expect(refused({ wrvu_conversion_rate: '$600' })).toBe('wrvu_conversion_rate: must be between 1 and 500 (got $600)');
    expect(refused({ wrvu_conversion_rate: 'none' })).toBe('wrvu_conversion_rate: must be a number from 1 to 500; leave it empty when there is none (got "none")');
    expect(refused({ wrvu_conversion_rate: '62,50' })).toBe('wrvu_conversion_rate: uses a comma as a decimal point (got "62,50": write 62.50, or group thousands by three as in 62,000)');
  });
});

describe('the pay model', () => {
  it('by its value or its label, in any letter case; stored as the value', () => {
    for (const m of COMPENSATION_MODELS) {
      for (const raw of [m.value, m.label, m.label.toUpperCase(), m.value.toUpperCase(), ` ${m.label} `]) {
        expect(accepted({ compensation_model: raw }).compensation_model, raw).toBe(m.value);
      }
    }
    expect(accepted({ compensation_model: 'salary + PRODUCTIVITY' }).compensation_model).toBe('salary_plus_productivity');
  });

  it('anything else is refused, naming the values and the labels', () => {
    expect(refused({ compensation_model: 'RVU' })).toBe(
      'compensation_model: "RVU" is not one of: salary, salary_plus_productivity, production, collections, shift (or a label: "Salary", "Salary + productivity", "wRVU production", "Collections", "Shift or hourly")',
    );
  });
});

describe('the rule across fields (offerTermsIssue) refuses a row with its message', () => {
  it('call pay is part of the total and cannot exceed it (a dollar of rounding allowed)', () => {
    expect(accepted({ call_pay: '500000' }).call_pay).toBe(500_000);
    expect(accepted({ call_pay: '500001' }).call_pay).toBe(500_001);
    expect(refused({ call_pay: '$520,000' })).toBe('call_pay (520000) is part of total_compensation and cannot exceed it (500000)');
  });

  it('loan years need a loan amount above 0', () => {
    expect(refused({ loan_repayment_years: '3' })).toBe('loan_repayment_years needs a loan_repayment amount above 0');
    expect(refused({ loan_repayment: 'none', loan_repayment_years: '3' })).toBe('loan_repayment_years needs a loan_repayment amount above 0');
    expect(accepted({ loan_repayment: '90,000', loan_repayment_years: '3' })).toMatchObject({ loan_repayment: 90_000, loan_repayment_years: 3 });
    expect(accepted({ loan_repayment: '90,000' }).loan_repayment_years).toBeNull(); // over how many years: unknown
  });

  it('a non-compete: a radius above 0 needs its length; a length needs the radius; 0 miles is none, with no length or 0', () => {
    expect(refused({ non_compete_years: '2' })).toBe('non_compete_years needs non_compete_miles (0 or "none" when there is no non-compete)');
    expect(refused({ non_compete_miles: '25' })).toBe('non_compete_years is needed for a non-compete with a radius (non_compete_miles above 0): give its length in years');
    expect(refused({ non_compete_miles: '25', non_compete_years: '0' })).toBe('non_compete_years must be above 0 for a non-compete with a radius (non_compete_miles above 0)');
    expect(refused({ non_compete_miles: 'none', non_compete_years: '2' })).toBe('non_compete_years is above 0 but non_compete_miles says there is no non-compete (0)');
    expect(accepted({ non_compete_miles: 'none' })).toMatchObject({ non_compete_miles: 0, non_compete_years: null });
    expect(accepted({ non_compete_miles: '0', non_compete_years: '0' })).toMatchObject({ non_compete_miles: 0, non_compete_years: 0 });
    expect(accepted({ non_compete_miles: '25', non_compete_years: '2' })).toMatchObject({ non_compete_miles: 25, non_compete_years: 2 });
  });

  it('beside the other rules of the row: both refusals are listed', () => {
    expect(refused({ base_salary: '450000', bonus: '100000', call_pay: '600000' })).toBe(
      'base_salary + bonus (550000) exceed total_compensation (500000); call_pay (600000) is part of total_compensation and cannot exceed it (500000)',
    );
  });

  it('the contract function agrees: no issue for no values', () => {
    expect(offerTermsIssue(NO_OFFER_TERMS, 1)).toBeNull();
  });
});

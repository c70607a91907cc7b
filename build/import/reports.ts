/**
 * Reports CSV: row schema and validation (pure). The columns are fixed by README: Demo data and Input files;
 * a file must have the required ones, and may leave out any optional one (read as empty: unknown). Beside
 * the 13 columns of REPORT_COLUMNS, the whole offer's 14 (REPORT_OFFER_COLUMNS: build/contract/offer-terms.ts)
 * are optional columns too.
 */
import type { FingerprintedReport } from '../db/fingerprint.ts';
import { z } from 'zod';
import { EMPLOYMENT_TYPES, PRACTICE_SETTINGS, REPORT_STATUSES, type ReportStatus } from '../contract/vocab.ts';
import { recordsToRows, type CsvRecord, type CsvRow, type RowError } from './csv.ts';
import { OFFER_COLUMNS, offerTermsIssue } from '../contract/offer-terms.ts';
import { OFFER_NUMBER_COLUMNS, offerTermsOf, offerValueFields } from './offer-fields.ts';
import { describeIssues, isoTimestamp, optionalChoice, optionalNumber, requiredNumber, type DateFormat } from './fields.ts';
import { NormalisedCounter, addNormalised, type Normalised } from './normalise.ts';
import { resolveSpecialty, stateCodeIssue, unknownSpecialtyIssue, type Refs } from './refs.ts';

export const REPORT_COLUMNS = [
  'specialty', 'state', 'year', 'total_compensation', 'base_salary', 'bonus', 'hours_per_week',
  'years_in_practice', 'practice_setting', 'employment_type', 'wrvus', 'submitted_at', 'status',
] as const;

/** The whole offer's columns (call pay, one-time payments, benefits, pay model, contract terms): all optional. */
export const REPORT_OFFER_COLUMNS = OFFER_COLUMNS;

/** Every column a reports file may have, in the order of the documented header. */
export const REPORT_ALL_COLUMNS = [...REPORT_COLUMNS, ...REPORT_OFFER_COLUMNS] as const;

/** The columns every reports file must have; the others (REPORT_OPTIONAL_COLUMNS) may be left out. */
export const REPORT_REQUIRED_COLUMNS = ['specialty', 'state', 'year', 'total_compensation', 'submitted_at'] as const;
export const REPORT_OPTIONAL_COLUMNS = REPORT_ALL_COLUMNS.filter((c) => !(REPORT_REQUIRED_COLUMNS as readonly string[]).includes(c));

/** The optional columns of REPORT_COLUMNS: a file without one reads it as an empty cell in every row. */
const OWN_OPTIONAL_COLUMNS = REPORT_COLUMNS.filter((c) => !(REPORT_REQUIRED_COLUMNS as readonly string[]).includes(c));

/**
 * A reports file's records (header first) as rows of every column, an absent optional column empty (csv.ts);
 * an offer column the file lacks is left out of its rows (unknown as well: offer-fields.ts reads it so).
 */
export function reportRecordsToRows(records: CsvRecord[]): { rows: CsvRow[]; errors: RowError[] } {
  return recordsToRows(records, REPORT_REQUIRED_COLUMNS, { optional: REPORT_OPTIONAL_COLUMNS, absentEmpty: OWN_OPTIONAL_COLUMNS });
}

/** A checked row: the report's columns (those a fingerprint covers), its line and status. */
export interface ValidReport extends FingerprintedReport {
  line: number;
  status: ReportStatus;
}

/**
 * The rules of a report's values, one zod field per CSV column (strings in, as a spreadsheet or a web form
 * gives them): the importer's and the /contribute form's one set of rules and messages. The whole offer's
 * fields (offer-fields.ts) follow the others.
 */
export function reportValueFields() {
  return { ...ownValueFields(), ...offerValueFields() };
}

/** reportValueFields but the whole offer's. */
function ownValueFields() {
  return {
    year: requiredNumber({ min: 1990, max: 2100, int: true }),
    total_compensation: requiredNumber({ min: 1, max: 20_000_000, currency: true, thousands: true }),
    base_salary: optionalNumber({ min: 0, max: 20_000_000, currency: true, thousands: true }),
    bonus: optionalNumber({ min: 0, max: 20_000_000, currency: true, thousands: true }),
    hours_per_week: optionalNumber({ min: 1, max: 168, thousands: true }),
    years_in_practice: optionalNumber({ min: 0, max: 70, int: true }),
    practice_setting: optionalChoice(PRACTICE_SETTINGS),
    employment_type: optionalChoice(EMPLOYMENT_TYPES),
    wrvus: optionalNumber({ min: 1, max: 100_000, thousands: true }),
  };
}

/** Base salary and bonus must not add up to more than the total (a dollar of rounding allowed); null when they do not. */
export function componentsIssue(r: { total_compensation: number; base_salary: number | null; bonus: number | null }): string | null {
  const parts = (r.base_salary ?? 0) + (r.bonus ?? 0);
  return parts > r.total_compensation + 1 ? `base_salary + bonus (${parts}) exceed total_compensation (${r.total_compensation})` : null;
}

/**
 * A row's schema: `withOffer` adds the whole offer's fields and their rule across fields. A row that gives none
 * of the offer is checked without them (its offer is unknown either way): 14 more fields cost a third more time
 * on every row of a file that has none.
 */
function reportRowSchema(refs: Refs, now: Date, dateFormat: DateFormat | undefined, withOffer: boolean) {
  const fields = {
    specialty: z.string().transform((raw, ctx) => {
      const hit = raw === '' ? undefined : resolveSpecialty(refs, raw);
      if (!hit) ctx.addIssue({ code: 'custom', message: raw === '' ? 'is required' : unknownSpecialtyIssue(raw) });
      return hit?.id ?? 0;
    }),
    state: z.string().transform((raw, ctx) => {
      const code = raw.length === 2 ? refs.stateCode.get(raw.toUpperCase()) : undefined;
      if (!code) ctx.addIssue({ code: 'custom', message: stateCodeIssue(refs, raw, 'such as NY or DC') });
      return code ?? '';
    }),
    ...ownValueFields(),
    submitted_at: isoTimestamp(dateFormat),
    status: z.string().transform((raw, ctx): ReportStatus => {
      if (raw === '') return 'pending';
      const s = REPORT_STATUSES.find((v) => v === raw.toLowerCase());
      if (!s) ctx.addIssue({ code: 'custom', message: `must be one of ${REPORT_STATUSES.join(', ')} (got "${raw}")` });
      return s ?? 'pending';
    }),
  };
  /** The rules across a row's fields; `offer`: the whole offer's, after base and bonus. */
  const rules = (r: z.output<z.ZodObject<typeof fields>>, ctx: z.RefinementCtx, offer: () => string | null = () => null) => {
    const parts = componentsIssue(r);
    if (parts) ctx.addIssue({ code: 'custom', message: parts });
    const offerIssue = offer();
    if (offerIssue) ctx.addIssue({ code: 'custom', message: offerIssue });
    if (r.submitted_at) {
      const submittedYear = Number(r.submitted_at.slice(0, 4));
      if (r.year > submittedYear) {
        ctx.addIssue({ code: 'custom', path: ['year'], message: `compensation year ${r.year} is after the submission date ${r.submitted_at.slice(0, 10)}` });
      }
      if (Date.parse(r.submitted_at) > now.getTime() + 86_400_000) {
        ctx.addIssue({ code: 'custom', path: ['submitted_at'], message: `is in the future (${r.submitted_at})` });
      }
    }
  };
  if (!withOffer) return z.object(fields).superRefine((r, ctx) => rules(r, ctx));
  return z.object({ ...fields, ...offerValueFields() }).superRefine((r, ctx) => rules(r, ctx, () => offerTermsIssue(offerTermsOf(r), r.total_compensation)));
}

/** True when a row gives any of the whole offer (a column the file lacks reads as empty). */
const givesOffer = (values: Record<string, string>): boolean => OFFER_COLUMNS.some((c) => values[c]);

/** The columns whose values may be written with $ or thousands separators (counted as `numbers` when they are). */
const NUMBER_COLUMNS = ['total_compensation', 'base_salary', 'bonus', 'hours_per_week', 'wrvus', ...OFFER_NUMBER_COLUMNS] as const;

export interface ReportValidationOptions {
  /** How to read dates with the year last (11/03/2026): `--date-format`; without it they are refused. */
  dateFormat?: DateFormat;
  /**
   * A further check of each row that is otherwise valid (e.g. the plausibility of approved rows: approved-rows.ts):
   * its refusal, or null. A refused row is a bad row, and its values are not counted as normalised.
   */
  check?: (report: ValidReport) => string | null;
}

/**
 * Validate every row; a file is imported only when `errors` is empty. `tick` counts rows (progress).
 * `normalised` counts the values of the valid rows that were accepted in a non-canonical form
 * (normalise.ts): for the import summary, summed over the batches of one file.
 */
export function validateReportRows(
  rows: CsvRow[],
  refs: Refs,
  now: Date,
  tick: (done: number) => void = () => {},
  options: ReportValidationOptions = {},
): { valid: ValidReport[]; errors: RowError[]; normalised: Normalised } {
  const plain = reportRowSchema(refs, now, options.dateFormat, false);
  let offer: ReturnType<typeof reportRowSchema> | undefined;
  const counter = new NormalisedCounter(REPORT_COLUMNS, { numbers: NUMBER_COLUMNS, dates: ['submitted_at'] });
  const offerCounter = new NormalisedCounter(OFFER_COLUMNS, { numbers: NUMBER_COLUMNS });
  const valid: ValidReport[] = [];
  const errors: RowError[] = [];
  for (const [i, row] of rows.entries()) {
    tick(i);
    const withOffer = givesOffer(row.values);
    const schema = withOffer ? (offer ??= reportRowSchema(refs, now, options.dateFormat, true)) : plain;
    const parsed = schema.safeParse(row.values);
    if (!parsed.success) {
      errors.push({ line: row.line, message: describeIssues(parsed.error) });
      continue;
    }
    const r = parsed.data;
    const report: ValidReport = { line: row.line, ...r, specialty_id: r.specialty };
    const refused = options.check?.(report);
    if (refused) {
      errors.push({ line: row.line, message: refused });
      continue;
    }
    counter.add(row);
    if (withOffer) offerCounter.add(row);
    valid.push(report);
  }
  return { valid, errors, normalised: addNormalised(counter.counts, offerCounter.counts) };
}

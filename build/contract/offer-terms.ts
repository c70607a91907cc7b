/**
 * The whole offer: what a report may say beyond total, base and bonus (README: The whole offer). One list of
 * fields, shared by the reports DB (migration v8), the importer, /contribute, the demo generator, the build
 * and the server. Every field is optional; empty means unknown, and 0 means "none" (no sign-on bonus, no
 * non-compete, no partnership track).
 */

/**
 * How a contract pays. Stored and published as `value`; the importer and the form also accept `label`
 * (any letter case).
 */
export const COMPENSATION_MODELS = [
  { value: 'salary', label: 'Salary', description: 'A fixed salary; no pay tied to production.' },
  {
    value: 'salary_plus_productivity', label: 'Salary + productivity',
    description: 'A base salary plus productivity pay above a threshold (wRVUs or collections), often with quality metrics.',
  },
  {
    value: 'production', label: 'wRVU production',
    description: 'Pay is the wRVUs worked times the contract\'s $/wRVU conversion rate, usually with a guaranteed minimum for the first one or two years.',
  },
  { value: 'collections', label: 'Collections', description: 'Pay is a share of the professional fees collected, less overhead.' },
  { value: 'shift', label: 'Shift or hourly', description: 'Pay per shift or per hour worked (emergency medicine, hospital medicine, anesthesia, locums).' },
] as const;
export type CompensationModel = (typeof COMPENSATION_MODELS)[number]['value'];
export const COMPENSATION_MODEL_VALUES = COMPENSATION_MODELS.map((m) => m.value) as unknown as readonly [CompensationModel, ...CompensationModel[]];

/** The compensation model `raw` names (value or label, any case), or undefined. */
export function compensationModelOf(raw: string): CompensationModel | undefined {
  const w = raw.trim().toLowerCase();
  return COMPENSATION_MODELS.find((m) => m.value === w || m.label.toLowerCase() === w)?.value;
}

/**
 * Money paid once or yearly beside the salary, in US dollars. `kind`: `yearly` is paid every year (counted in
 * the steady-state value), `one_time` once (spread over the contract's years in the first-year value).
 * Call pay is part of a report's total compensation; the one-time amounts, loan repayment and CME money are not.
 */
export const MONEY_COMPONENTS = [
  { field: 'call_pay', label: 'Call pay', kind: 'yearly', max: 2_000_000, unit: 'USD a year', description: 'Pay for call taken beyond what the base covers, in a year.' },
  { field: 'signing_bonus', label: 'Sign-on bonus', kind: 'one_time', max: 1_000_000, unit: 'USD, once', description: 'Paid once on signing or starting.' },
  { field: 'retention_bonus', label: 'Retention bonus', kind: 'one_time', max: 1_000_000, unit: 'USD, once', description: 'Paid once for staying a stated time.' },
  { field: 'relocation', label: 'Relocation', kind: 'one_time', max: 250_000, unit: 'USD, once', description: 'Moving costs paid or reimbursed.' },
  { field: 'loan_repayment', label: 'Loan repayment', kind: 'one_time', max: 1_000_000, unit: 'USD in all', description: 'Student loan repayment over the whole contract (loan_repayment_years says over how many years).' },
  { field: 'cme_allowance', label: 'CME allowance', kind: 'yearly', max: 100_000, unit: 'USD a year', description: 'Continuing medical education money a year.' },
] as const;
export type MoneyComponent = (typeof MONEY_COMPONENTS)[number]['field'];
export const MONEY_COMPONENT_FIELDS = MONEY_COMPONENTS.map((c) => c.field) as MoneyComponent[];

/** Every column a report may carry for the whole offer, in the order of the CSV header and the DB. */
export const OFFER_COLUMNS = [
  'call_pay', 'call_nights_per_month', 'signing_bonus', 'retention_bonus', 'relocation', 'loan_repayment',
  'loan_repayment_years', 'cme_allowance', 'pto_weeks', 'compensation_model', 'wrvu_conversion_rate',
  'non_compete_miles', 'non_compete_years', 'partnership_track_years',
] as const;
export type OfferColumn = (typeof OFFER_COLUMNS)[number];

/** The numeric columns the published figures read (the open data's and the keyed API's; loan_repayment_years is not one). */
export const OFFER_FIGURE_COLUMNS = [
  'call_pay', 'signing_bonus', 'retention_bonus', 'relocation', 'loan_repayment', 'cme_allowance',
  'pto_weeks', 'call_nights_per_month', 'wrvu_conversion_rate', 'non_compete_miles', 'non_compete_years', 'partnership_track_years',
] as const satisfies readonly OfferColumn[];
export type OfferFigureColumn = (typeof OFFER_FIGURE_COLUMNS)[number];

/** A report's whole-offer values; null = unknown. */
export interface OfferTerms {
  call_pay: number | null;
  call_nights_per_month: number | null;
  signing_bonus: number | null;
  retention_bonus: number | null;
  relocation: number | null;
  loan_repayment: number | null;
  loan_repayment_years: number | null;
  cme_allowance: number | null;
  pto_weeks: number | null;
  compensation_model: CompensationModel | null;
  wrvu_conversion_rate: number | null;
  /** 0 = no non-compete */
  non_compete_miles: number | null;
  non_compete_years: number | null;
  /** 0 = no partnership track */
  partnership_track_years: number | null;
}

export const NO_OFFER_TERMS: OfferTerms = Object.freeze({
  call_pay: null, call_nights_per_month: null, signing_bonus: null, retention_bonus: null, relocation: null,
  loan_repayment: null, loan_repayment_years: null, cme_allowance: null, pto_weeks: null, compensation_model: null,
  wrvu_conversion_rate: null, non_compete_miles: null, non_compete_years: null, partnership_track_years: null,
}) as OfferTerms;

/** Range of each numeric column (inclusive); `int`: whole numbers only; `none`: the word "none" is read as 0. */
export const OFFER_RANGES: Record<Exclude<OfferColumn, 'compensation_model'>, { min: number; max: number; int?: boolean; currency?: boolean; none?: boolean }> = {
  call_pay: { min: 0, max: 2_000_000, currency: true },
  call_nights_per_month: { min: 0, max: 31 },
  signing_bonus: { min: 0, max: 1_000_000, currency: true, none: true },
  retention_bonus: { min: 0, max: 1_000_000, currency: true, none: true },
  relocation: { min: 0, max: 250_000, currency: true, none: true },
  loan_repayment: { min: 0, max: 1_000_000, currency: true, none: true },
  loan_repayment_years: { min: 1, max: 10, int: true },
  cme_allowance: { min: 0, max: 100_000, currency: true, none: true },
  pto_weeks: { min: 0, max: 26 },
  wrvu_conversion_rate: { min: 1, max: 500, currency: true },
  non_compete_miles: { min: 0, max: 500, none: true },
  non_compete_years: { min: 0, max: 10 },
  partnership_track_years: { min: 0, max: 15, none: true },
};

/**
 * Why a report's whole-offer values contradict each other (null when they do not): the importer's and the
 * form's one rule set across fields. The message names the column first (offerTermsProblem says which).
 */
export function offerTermsIssue(t: OfferTerms, total: number): string | null {
  const p = offerTermsProblem(t, total);
  return p ? `${p.field} ${p.message}` : null;
}

/**
 * offerTermsIssue by the column it is about (the form shows the message by that field): `message` reads
 * after the column's name, as a field's own messages do ("call_pay" + " (500000) is part of ...").
 */
export function offerTermsProblem(t: OfferTerms, total: number): { field: OfferColumn; message: string } | null {
  if (t.call_pay !== null && t.call_pay > total + 1) return { field: 'call_pay', message: `(${t.call_pay}) is part of total_compensation and cannot exceed it (${total})` };
  if (t.loan_repayment_years !== null && !(t.loan_repayment !== null && t.loan_repayment > 0)) return { field: 'loan_repayment_years', message: 'needs a loan_repayment amount above 0' };
  if (t.non_compete_years !== null && t.non_compete_miles === null) return { field: 'non_compete_years', message: 'needs non_compete_miles (0 or "none" when there is no non-compete)' };
  if (t.non_compete_miles !== null && t.non_compete_miles > 0 && !(t.non_compete_years !== null && t.non_compete_years > 0)) {
    return {
      field: 'non_compete_years',
      message: t.non_compete_years === null
        ? 'is needed for a non-compete with a radius (non_compete_miles above 0): give its length in years'
        : 'must be above 0 for a non-compete with a radius (non_compete_miles above 0)',
    };
  }
  if (t.non_compete_miles === 0 && t.non_compete_years !== null && t.non_compete_years > 0) return { field: 'non_compete_years', message: 'is above 0 but non_compete_miles says there is no non-compete (0)' };
  return null;
}

/** True when a report carries any whole-offer value. */
export function hasOfferTerms(t: Partial<OfferTerms>): boolean {
  return OFFER_COLUMNS.some((c) => t[c] !== null && t[c] !== undefined);
}

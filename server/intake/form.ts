/**
 * The /contribute form's fields and their check (pure): the values arrive as strings, as a CSV's cells do, and
 * are checked with the importer's own rules and messages (build/import/reports.ts), field by field. The
 * specialty and state are resolved against the loaded build's reference data (any spelling the site knows).
 * The whole offer's fields (offer-form.ts) are optional; a report keeps only those given.
 */
import { z } from 'zod';
import { EMPLOYMENT_TYPES, PRACTICE_SETTINGS } from '../../build/contract/vocab.ts';
import { offerTermsProblem } from '../../build/contract/offer-terms.ts';
import { componentsIssue, reportValueFields } from '../../build/import/reports.ts';
import { givenOfferTerms, offerTermsOf } from '../../build/import/offer-fields.ts';
import { OFFER_FIELDS, type OfferGroup } from './offer-form.ts';
import { parsePayAmount } from '../../build/contract/pay-amount.ts';
import type { Resolver } from '../open-data/resolve.ts';
import type { IntakeReport } from '../store/types.ts';

export interface FieldSpec {
  name: keyof IntakeReport;
  label: string;
  required: boolean;
  /** a short hint under the label */
  hint?: string;
  choices?: readonly string[];
  /** a choice whose stored value differs from what is shown (the pay model) */
  options?: readonly { value: string; label: string }[];
  inputmode?: 'numeric' | 'decimal';
  /** a dollar amount: also taken with k or m (300k, 1.2m; parsePayAmount), as the pages' pay box takes it */
  money?: boolean;
  /** the part of "The rest of the offer" the field belongs to (offer-form.ts); none: the main form */
  group?: OfferGroup;
}

export const INTAKE_FIELDS: readonly FieldSpec[] = [
  { name: 'specialty', label: 'Specialty', required: true, hint: 'As you would say it: "OB/GYN", "Family Medicine", "cardiology".' },
  { name: 'state', label: 'State where you practise', required: true },
  { name: 'year', label: 'Compensation year', required: true, hint: 'The year this pay was for, e.g. 2025.', inputmode: 'numeric' },
  { name: 'total_compensation', label: 'Total annual compensation (US dollars)', required: true, hint: 'Everything paid for the year before tax: salary, bonus, incentives. E.g. 350000, 350,000 or 350k.', inputmode: 'numeric', money: true },
  { name: 'base_salary', label: 'Base salary (optional)', required: false, inputmode: 'numeric', money: true },
  { name: 'bonus', label: 'Bonus and incentives (optional)', required: false, inputmode: 'numeric', money: true },
  { name: 'hours_per_week', label: 'Hours worked per week (optional)', required: false, inputmode: 'decimal' },
  { name: 'years_in_practice', label: 'Years in practice after training (optional)', required: false, inputmode: 'numeric' },
  { name: 'practice_setting', label: 'Practice setting (optional)', required: false, choices: PRACTICE_SETTINGS },
  { name: 'employment_type', label: 'Employment type (optional)', required: false, choices: EMPLOYMENT_TYPES },
  { name: 'wrvus', label: 'Annual wRVUs (optional)', required: false, hint: 'Work relative value units for the year, if you know them.', inputmode: 'decimal' },
  ...OFFER_FIELDS,
];

export const FIELD_NAMES = INTAKE_FIELDS.map((f) => f.name);

export type FieldErrors = Partial<Record<keyof IntakeReport, string>>;

export interface CheckContext {
  resolver: Resolver;
  /** the build's states: slug -> two-letter code */
  stateCodeBySlug: ReadonlyMap<string, string>;
  /** the current UTC year: a compensation year cannot be later */
  currentYear: number;
}

/** One value of a form field: a missing field is '', anything else is trimmed (at most 200 characters kept). */
function text(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v === 'number') return String(v);
  return typeof v === 'string' ? v.trim().slice(0, 200) : '';
}

/**
 * A dollar amount written with k or m (300k, $1.2m) as the digits the importer's rule reads; any other text
 * as it is, so the importer's own messages answer it (e.g. "1.350.000" uses a point to separate thousands).
 */
function moneyText(t: string): string {
  if (!/[kKmM]\s*$/.test(t)) return t;
  const r = parsePayAmount(t);
  return r.state === 'ok' ? String(r.x) : t;
}

/** The report, or a message per field that is wrong (pure). */
export function checkReport(values: Record<string, unknown>, ctx: CheckContext): { report: IntakeReport } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const specialtyRaw = text(values, 'specialty');
  let specialty = '';
  if (specialtyRaw === '') errors.specialty = 'is required';
  else {
    const r = ctx.resolver.resolve('specialty', specialtyRaw);
    if (r.found) specialty = r.entity.name;
    else errors.specialty = `"${specialtyRaw.slice(0, 60)}" is not a specialty we know${r.suggestions.length ? `; did you mean ${r.suggestions.slice(0, 3).map((s) => s.name).join(', ')}?` : ''}`;
  }
  const stateRaw = text(values, 'state');
  let state = '';
  if (stateRaw === '') errors.state = 'is required';
  else {
    const r = ctx.resolver.resolve('state', stateRaw);
    const code = r.found ? ctx.stateCodeBySlug.get(r.entity.slug) : undefined;
    if (code) state = code;
    else errors.state = `"${stateRaw.slice(0, 60)}" is not a US state or the District of Columbia`;
  }
  const raw = Object.fromEntries(INTAKE_FIELDS.filter((f) => f.name !== 'specialty' && f.name !== 'state').map((f) => [f.name, f.money ? moneyText(text(values, f.name)) : text(values, f.name)]));
  const parsed = z.object(reportValueFields()).safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof IntakeReport;
      errors[field] ??= issue.message;
    }
  }
  const year = Number(raw.year);
  if (!errors.year && Number.isInteger(year) && year > ctx.currentYear) errors.year = `is after this year (${ctx.currentYear}): give the year the pay was for`;
  if (parsed.success) {
    const parts = componentsIssue(parsed.data);
    if (parts) errors.base_salary = `base salary and bonus add up to more than the total (${parts.replace(/^base_salary \+ bonus /, '')})`;
    // the importer's rule across the offer's fields, its message by the field it is about
    const offer = offerTermsProblem(offerTermsOf(parsed.data), parsed.data.total_compensation);
    if (offer) errors[offer.field] ??= offer.message;
  }
  if (Object.keys(errors).length || !parsed.success) return { errors };
  const v = parsed.data;
  return {
    report: {
      specialty, state, year: v.year, total_compensation: v.total_compensation,
      base_salary: v.base_salary ?? null, bonus: v.bonus ?? null, hours_per_week: v.hours_per_week ?? null,
      years_in_practice: v.years_in_practice ?? null, practice_setting: v.practice_setting ?? null,
      employment_type: v.employment_type ?? null, wrvus: v.wrvus ?? null,
      ...givenOfferTerms(offerTermsOf(v)),
    },
  };
}

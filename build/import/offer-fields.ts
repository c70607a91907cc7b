/**
 * The whole offer's columns as zod fields (strings in, as a CSV cell or a web form gives them; typed values
 * out), from the one contract (build/contract/offer-terms.ts): its ranges, "none" as 0 where it is allowed,
 * amounts as survey exports write them ($35,000, 35,000), and the pay model by its value or its label in any
 * letter case. Part of reportValueFields (reports.ts): the importer's and the /contribute form's one set of
 * rules. A column a file leaves out (or a form does not send) is empty: unknown.
 */
import { z } from 'zod';
import {
  COMPENSATION_MODELS, OFFER_COLUMNS, OFFER_RANGES, compensationModelOf,
  type CompensationModel, type OfferColumn, type OfferTerms,
} from '../contract/offer-terms.ts';
import { parseOptionalNumber } from './fields.ts';

type NumericOfferColumn = Exclude<OfferColumn, 'compensation_model'>;

/** The offer's numeric columns, in OFFER_COLUMNS order. */
export const OFFER_NUMBER_COLUMNS = OFFER_COLUMNS.filter((c): c is NumericOfferColumn => c !== 'compensation_model');

/** An optional offer amount or count: empty or absent is unknown (null). */
function offerNumber(column: NumericOfferColumn) {
  const r = OFFER_RANGES[column];
  const rule = { min: r.min, max: r.max, int: r.int, currency: r.currency, thousands: r.currency, none: r.none };
  return z.string().optional().transform((raw, ctx): number | null => (raw === undefined || raw === '' ? null : parseOptionalNumber(raw, rule, ctx)));
}

const MODEL_CHOICES = `${COMPENSATION_MODELS.map((m) => m.value).join(', ')} (or a label: ${COMPENSATION_MODELS.map((m) => `"${m.label}"`).join(', ')})`;

/** The pay model by its value or its label, any letter case (compensationModelOf); empty or absent is unknown. */
function offerModel() {
  return z.string().optional().transform((raw, ctx): CompensationModel | null => {
    if (raw === undefined || raw === '') return null;
    const model = compensationModelOf(raw);
    if (!model) ctx.addIssue({ code: 'custom', message: `"${raw}" is not one of: ${MODEL_CHOICES}` });
    return model ?? null;
  });
}

/** One zod field per whole-offer column. */
export function offerValueFields() {
  const numbers = Object.fromEntries(OFFER_NUMBER_COLUMNS.map((c) => [c, offerNumber(c)])) as Record<NumericOfferColumn, ReturnType<typeof offerNumber>>;
  return { ...numbers, compensation_model: offerModel() };
}

/** The whole-offer values of a parsed row (OfferTerms: every column, null when unknown); spelt out, as it runs for every row. */
export function offerTermsOf(v: Partial<OfferTerms>): OfferTerms {
  return {
    call_pay: v.call_pay ?? null, call_nights_per_month: v.call_nights_per_month ?? null, signing_bonus: v.signing_bonus ?? null,
    retention_bonus: v.retention_bonus ?? null, relocation: v.relocation ?? null, loan_repayment: v.loan_repayment ?? null,
    loan_repayment_years: v.loan_repayment_years ?? null, cme_allowance: v.cme_allowance ?? null, pto_weeks: v.pto_weeks ?? null,
    compensation_model: v.compensation_model ?? null, wrvu_conversion_rate: v.wrvu_conversion_rate ?? null,
    non_compete_miles: v.non_compete_miles ?? null, non_compete_years: v.non_compete_years ?? null,
    partnership_track_years: v.partnership_track_years ?? null,
  };
}

/** Only the offer values given (not null): what a web submission stores, so that one without them stays as it was. */
export function givenOfferTerms(t: OfferTerms): Partial<OfferTerms> {
  return Object.fromEntries(OFFER_COLUMNS.filter((c) => t[c] !== null).map((c) => [c, t[c]])) as Partial<OfferTerms>;
}

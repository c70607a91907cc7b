/**
 * The /contribute form's "rest of the offer" (pure data): the whole offer's columns (build/contract/offer-terms.ts)
 * as optional fields in five groups, each with a label a physician knows and a short hint. The values are
 * checked by the importer's own rules (reportValueFields), so a field's messages are the importer's.
 */
import { COMPENSATION_MODELS, OFFER_COLUMNS, OFFER_RANGES } from '../../build/contract/offer-terms.ts';
import type { FieldSpec } from './form.ts';

/** The groups of the offer's fields, in the order of the form. */
export const OFFER_GROUPS = ['Call', 'One-time payments', 'Benefits', 'Pay model', 'Contract terms'] as const;
export type OfferGroup = (typeof OFFER_GROUPS)[number];

const NONE = 'write 0 or "none" if there was none';

export const OFFER_FIELDS: readonly FieldSpec[] = [
  { name: 'call_pay', money: true, group: 'Call', label: 'Call pay (US dollars a year)', required: false, inputmode: 'numeric', hint: 'Pay for call beyond what the base covers. It is part of your total above; 0 if call is unpaid or you take none.' },
  { name: 'call_nights_per_month', group: 'Call', label: 'Call nights a month', required: false, inputmode: 'decimal', hint: `0 to ${OFFER_RANGES.call_nights_per_month.max}; 0 if you take no call.` },
  { name: 'signing_bonus', money: true, group: 'One-time payments', label: 'Sign-on bonus (US dollars, once)', required: false, inputmode: 'numeric', hint: `Not part of your total above; ${NONE}.` },
  { name: 'retention_bonus', money: true, group: 'One-time payments', label: 'Retention bonus (US dollars, once)', required: false, inputmode: 'numeric', hint: `Paid once for staying a stated time; ${NONE}.` },
  { name: 'relocation', money: true, group: 'One-time payments', label: 'Relocation (US dollars, once)', required: false, inputmode: 'numeric', hint: `Moving costs paid or reimbursed; ${NONE}.` },
  { name: 'loan_repayment', money: true, group: 'One-time payments', label: 'Student loan repayment (US dollars in all)', required: false, inputmode: 'numeric', hint: `Over the whole contract; ${NONE}.` },
  { name: 'loan_repayment_years', group: 'One-time payments', label: 'Loan repayment spread over (years)', required: false, inputmode: 'numeric', hint: `A whole number of years, ${OFFER_RANGES.loan_repayment_years.min} to ${OFFER_RANGES.loan_repayment_years.max}.` },
  { name: 'cme_allowance', money: true, group: 'Benefits', label: 'CME allowance (US dollars a year)', required: false, inputmode: 'numeric', hint: `Continuing medical education money; ${NONE}.` },
  { name: 'pto_weeks', group: 'Benefits', label: 'Paid time off (weeks a year)', required: false, inputmode: 'decimal', hint: 'Vacation and personal days, in weeks, e.g. 5 or 5.5.' },
  { name: 'compensation_model', group: 'Pay model', label: 'How the contract pays', required: false, options: COMPENSATION_MODELS.map((m) => ({ value: m.value, label: m.label })) },
  { name: 'wrvu_conversion_rate', group: 'Pay model', label: 'Conversion rate (US dollars per wRVU)', required: false, inputmode: 'decimal', hint: 'The contract\'s dollars per wRVU, if it pays for production, e.g. 55.50.' },
  { name: 'non_compete_miles', group: 'Contract terms', label: 'Non-compete radius (miles)', required: false, inputmode: 'numeric', hint: '0 or "none" if the contract has no non-compete.' },
  { name: 'non_compete_years', group: 'Contract terms', label: 'Non-compete length (years)', required: false, inputmode: 'decimal', hint: 'How long it lasts after you leave.' },
  { name: 'partnership_track_years', group: 'Contract terms', label: 'Years to partnership', required: false, inputmode: 'decimal', hint: '0 or "none" if there is no partnership track.' },
];

/** Every offer column has its field, in the contract's order. */
if (OFFER_FIELDS.map((f) => f.name).join() !== OFFER_COLUMNS.join()) throw new Error('OFFER_FIELDS must list OFFER_COLUMNS in order');

/**
 * A report's whole offer in a few words, for the text table of `physpay moderate list` (pure): only what the
 * report gives, in OFFER_COLUMNS order, 0 as "none" where 0 means there is none. '' when it gives none of it.
 *
 *   call pay $40,000 (6 nights a month), sign-on $25,000, retention none, loan repayment $100,000 over 4 years,
 *   CME $4,000, 5 weeks off, pay model wRVU production at $62.50/wRVU, non-compete 20 miles for 2 years, no partnership track
 *   no call, sign-on none, pay model Collections, no non-compete
 */
import { COMPENSATION_MODELS, type OfferTerms } from '../contract/offer-terms.ts';

const dollars = (v: number) => `$${Math.round(v).toLocaleString('en-US')}`;
const num = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 2 });
const years = (v: number) => `${num(v)} ${v === 1 ? 'year' : 'years'}`;
/** an amount that is 0 when there is none */
const amount = (name: string, v: number | null | undefined) => (v === null || v === undefined ? [] : [`${name} ${v === 0 ? 'none' : dollars(v)}`]);

export function offerSummary(t: Partial<OfferTerms>): string {
  const parts: string[] = [];
  const nights = t.call_nights_per_month ?? null;
  const nightsText = nights === null ? '' : `${num(nights)} ${nights === 1 ? 'night' : 'nights'} a month`;
  const callPay = t.call_pay ?? null;
  if (nights === 0 && !callPay) parts.push('no call');
  else if (callPay !== null) parts.push(`call pay ${dollars(callPay)}${nightsText ? ` (${nightsText})` : ''}`);
  else if (nightsText) parts.push(`call ${nightsText}`);
  parts.push(...amount('sign-on', t.signing_bonus), ...amount('retention', t.retention_bonus), ...amount('relocation', t.relocation));
  const loan = t.loan_repayment ?? null;
  if (loan !== null) parts.push(loan === 0 ? 'loan repayment none' : `loan repayment ${dollars(loan)}${t.loan_repayment_years ? ` over ${years(t.loan_repayment_years)}` : ''}`);
  parts.push(...amount('CME', t.cme_allowance));
  if (t.pto_weeks !== null && t.pto_weeks !== undefined) parts.push(`${num(t.pto_weeks)} ${t.pto_weeks === 1 ? 'week' : 'weeks'} off`);
  const model = COMPENSATION_MODELS.find((m) => m.value === t.compensation_model)?.label;
  const rate = t.wrvu_conversion_rate ?? null;
  const rateText = rate === null ? '' : `$${rate.toFixed(2)}/wRVU`;
  if (model) parts.push(`pay model ${model}${rateText ? ` at ${rateText}` : ''}`);
  else if (rateText) parts.push(rateText);
  const miles = t.non_compete_miles ?? null;
  const ncYears = t.non_compete_years ?? null;
  if (miles === 0) parts.push('no non-compete');
  else if (miles !== null) parts.push(`non-compete ${num(miles)} miles${ncYears ? ` for ${years(ncYears)}` : ''}`);
  const track = t.partnership_track_years ?? null;
  if (track !== null) parts.push(track === 0 ? 'no partnership track' : `partnership in ${years(track)}`);
  return parts.join(', ');
}

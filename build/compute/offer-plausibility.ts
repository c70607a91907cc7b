/**
 * Implausible whole-offer values (pure: no DB, no clock), flagged for the moderator beside the total's flags
 * (plausibility.ts; README: Moderation). The importer's ranges (build/contract/offer-terms.ts) refuse what is
 * impossible; these rules flag what is possible but rare enough to be more likely a mistake (a value typed in
 * the wrong field, a monthly figure, a contract read wrongly):
 *
 * - call pay above 40% of the total (call pay is part of it; surveys put it near 5-15%);
 * - a sign-on bonus above 50% of the total (most are $10,000-$50,000, up to about $100,000 for surgeons);
 * - a $/wRVU conversion rate outside $20-$200, or beyond half to twice its specialty's median pay per wRVU
 *   (SpecialtyRate: what the build publishes as the specialty's $/wRVU, from the approved reports);
 * - a conversion rate given with pay model `salary` (a salary has no production pay to convert);
 * - more than 12 weeks of paid time off a year;
 * - loan repayment above $300,000.
 *
 * A flag never refuses a report, also one imported as approved: it is shown, and the moderator decides.
 */
import { COMPENSATION_MODELS, type OfferColumn, type OfferTerms } from '../contract/offer-terms.ts';

export const OFFER_FLAG_LIMITS = {
  /** call pay above this share of the total */
  callPayShare: 0.4,
  /** a sign-on bonus above this share of the total */
  signingBonusShare: 0.5,
  /** a plausible conversion rate, US dollars per wRVU */
  conversionRate: { min: 20, max: 200 },
  /** a conversion rate more than this many times its specialty's $/wRVU, or less than its inverse */
  conversionRateFactor: 2,
  /** paid time off above this many weeks a year */
  ptoWeeks: 12,
  /** loan repayment above this many US dollars */
  loanRepayment: 300_000,
} as const;

/** A specialty's median total compensation per wRVU over its approved reports that give wRVUs. */
export interface SpecialtyRate {
  /** US dollars per wRVU */
  rate: number;
  /** approved reports with wRVUs it is the median of */
  reports: number;
}

export type OfferFlagRule = 'call_pay_share' | 'signing_bonus_share' | 'conversion_rate_range' | 'conversion_rate_specialty' | 'rate_with_salary' | 'pto_weeks' | 'loan_repayment';

export interface OfferFlag {
  rule: OfferFlagRule;
  /** the column the flag is about */
  column: OfferColumn;
  /** in words, for `moderate list` and approvals (no `;`: flags are joined by it): `call pay $225,000 is 45% of the total (above 40%)` */
  text: string;
}

/** The fields the rules read: the total and the whole offer (any of it may be absent or unknown). */
export type OfferFields = { total_compensation: number } & Partial<OfferTerms>;

const dollars = (v: number) => `$${Math.round(v).toLocaleString('en-US')}`;
const perWrvu = (v: number) => `$${v.toFixed(2)}/wRVU`;
const pct = (share: number) => `${Math.round(share * 100)}%`;
const SALARY = COMPENSATION_MODELS.find((m) => m.value === 'salary')!;

/** Every flag of a report's whole offer, in OFFER_COLUMNS order; empty when there is none (or no offer). */
export function offerFlags(r: OfferFields, specialty?: SpecialtyRate): OfferFlag[] {
  const L = OFFER_FLAG_LIMITS;
  const flags: OfferFlag[] = [];
  const total = r.total_compensation;
  const callPay = r.call_pay ?? null;
  if (callPay !== null && total > 0 && callPay > total * L.callPayShare) {
    flags.push({ rule: 'call_pay_share', column: 'call_pay', text: `call pay ${dollars(callPay)} is ${pct(callPay / total)} of the total (above ${pct(L.callPayShare)})` });
  }
  const signing = r.signing_bonus ?? null;
  if (signing !== null && total > 0 && signing > total * L.signingBonusShare) {
    flags.push({ rule: 'signing_bonus_share', column: 'signing_bonus', text: `sign-on bonus ${dollars(signing)} is ${pct(signing / total)} of the total (above ${pct(L.signingBonusShare)})` });
  }
  const loan = r.loan_repayment ?? null;
  if (loan !== null && loan > L.loanRepayment) {
    flags.push({ rule: 'loan_repayment', column: 'loan_repayment', text: `loan repayment ${dollars(loan)} (above ${dollars(L.loanRepayment)})` });
  }
  const pto = r.pto_weeks ?? null;
  if (pto !== null && pto > L.ptoWeeks) flags.push({ rule: 'pto_weeks', column: 'pto_weeks', text: `${pto} weeks of paid time off (above ${L.ptoWeeks})` });
  const rate = r.wrvu_conversion_rate ?? null;
  if (rate !== null && r.compensation_model === 'salary') {
    flags.push({ rule: 'rate_with_salary', column: 'wrvu_conversion_rate', text: `conversion rate ${perWrvu(rate)} with pay model ${SALARY.value} (a salary converts no wRVUs)` });
  }
  if (rate !== null) {
    const { min, max } = L.conversionRate;
    if (rate < min || rate > max) {
      flags.push({ rule: 'conversion_rate_range', column: 'wrvu_conversion_rate', text: `conversion rate ${perWrvu(rate)} (outside $${min}-$${max})` });
    } else if (specialty && specialty.rate > 0) {
      const ratio = rate / specialty.rate;
      if (ratio > L.conversionRateFactor || ratio < 1 / L.conversionRateFactor) {
        const how = ratio > 1 ? `${ratio.toFixed(1)}x` : `${pct(ratio)} of`;
        flags.push({ rule: 'conversion_rate_specialty', column: 'wrvu_conversion_rate', text: `conversion rate ${perWrvu(rate)}: ${how} the specialty's ${perWrvu(specialty.rate)}` });
      }
    }
  }
  return flags;
}

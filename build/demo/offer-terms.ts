/**
 * Synthetic whole-offer values of demo reports (README: Demo data, "The whole offer"). Drawn from a random
 * stream of their own, so the rest of the demo dataset (and every figure computed from it) is the same as
 * before these fields existed. Levels are rounded figures near what recruiting surveys describe; they are
 * demo inputs, not published facts:
 *
 * - call pay: 55% of proceduralists and hospital-based specialties report some, 25% of the others; about
 *   6-12% of total pay; call nights 2-10 a month for those who take call;
 * - sign-on bonus: 45% (more in the first three years of practice), $10k-$50k, up to ~$100k for surgeons;
 *   retention bonus 15%; relocation 35% ($5k-$25k); loan repayment 15% ($50k-$200k over 2-5 years);
 * - CME money: 85% of employed physicians ($2.5k-$6k a year), 30% of partners; 4-7 weeks off;
 * - pay model by specialty type and setting, with the contract's $/wRVU near the specialty's pay per wRVU;
 * - a non-compete in 55% of employed contracts (10-30 miles, 1-2 years), a partnership track in 45% of
 *   private practice contracts (2-3 years).
 * About a third of reports answer none of it, and each question is left empty by some who answer the others.
 */
import { NO_OFFER_TERMS, type CompensationModel, type OfferTerms } from '../contract/offer-terms.ts';
import type { Rng } from './rng.ts';

/** Specialties whose physicians mostly take call (procedural and hospital-based). */
const CALL_HEAVY = new Set([
  'anesthesiology', 'cardiology', 'cardiothoracic-surgery', 'colon-rectal-surgery', 'critical-care', 'gastroenterology',
  'general-surgery', 'interventional-cardiology', 'interventional-radiology', 'neonatology', 'neurosurgery',
  'obstetrics-gynecology', 'orthopedic-surgery', 'otolaryngology', 'pediatric-surgery', 'plastic-surgery', 'radiology',
  'urology', 'vascular-surgery', 'nephrology', 'pulmonology', 'neurology',
]);
const SURGICAL = /surgery|neurosurgery|orthopedic|urology|otolaryngology/;
/** Specialties paid mostly by the shift. */
const SHIFT_BASED = new Set(['emergency-medicine', 'hospital-medicine', 'critical-care', 'urgent-care', 'anesthesiology', 'neonatology']);

const round = (x: number, step: number) => Math.round(x / step) * step;
const pickModel = (rng: Rng, weights: [CompensationModel, number][]): CompensationModel => {
  let r = rng.next() * weights.reduce((a, [, w]) => a + w, 0);
  for (const [m, w] of weights) if ((r -= w) < 0) return m;
  return weights[weights.length - 1]![0];
};

export interface OfferInput {
  specialtySlug: string;
  total: number;
  /** index into PRACTICE_SETTINGS, employment index into EMPLOYMENT_TYPES (README: vocabulary) */
  setting: number;
  employment: number;
  experience: number;
  /** the specialty's typical pay per wRVU */
  wrvuRate: number;
}

/** One report's whole-offer values from `rng` (its own stream). */
export function demoOfferTerms(rng: Rng, r: OfferInput): OfferTerms {
  if (rng.chance(0.35)) return { ...NO_OFFER_TERMS };
  const asked = () => rng.chance(0.88); // each question is left empty now and then
  const partner = r.employment === 3;
  const privatePractice = r.setting === 1;
  const early = r.experience <= 3;
  const t: OfferTerms = { ...NO_OFFER_TERMS };

  if (asked()) {
    const takesCall = rng.chance(CALL_HEAVY.has(r.specialtySlug) ? 0.55 : 0.25);
    t.call_pay = takesCall ? round(r.total * rng.uniform(0.06, 0.12), 1_000) : 0;
    if (asked()) t.call_nights_per_month = takesCall ? rng.int(2, 10) : 0;
  }
  if (asked()) {
    const has = rng.chance(early ? 0.6 : 0.35);
    t.signing_bonus = has ? round(SURGICAL.test(r.specialtySlug) ? rng.uniform(20_000, 100_000) : rng.uniform(10_000, 50_000), 5_000) : 0;
  }
  if (asked()) t.retention_bonus = rng.chance(0.15) ? round(rng.uniform(10_000, 50_000), 5_000) : 0;
  if (asked()) t.relocation = rng.chance(early ? 0.5 : 0.25) ? round(rng.uniform(5_000, 25_000), 1_000) : 0;
  if (asked()) {
    const has = rng.chance(early ? 0.25 : 0.08);
    t.loan_repayment = has ? round(rng.uniform(50_000, 200_000), 10_000) : 0;
    if (has && rng.chance(0.9)) t.loan_repayment_years = rng.int(2, 5);
  }
  if (asked()) t.cme_allowance = rng.chance(partner ? 0.3 : 0.85) ? round(rng.uniform(2_500, 6_000), 500) : 0;
  if (asked()) t.pto_weeks = Math.max(2, Math.min(10, Math.round(5 + 1.2 * rng.normal())));

  if (asked()) {
    const shift = SHIFT_BASED.has(r.specialtySlug);
    t.compensation_model = partner || privatePractice
      ? pickModel(rng, [['collections', 45], ['production', 30], ['salary_plus_productivity', 15], ['salary', 5], ['shift', shift ? 20 : 1]])
      : pickModel(rng, [['salary_plus_productivity', 45], ['salary', 20], ['production', 20], ['shift', shift ? 45 : 2], ['collections', 3]]);
    const productive = t.compensation_model === 'production' || t.compensation_model === 'salary_plus_productivity';
    if (productive && rng.chance(0.8)) t.wrvu_conversion_rate = Math.round(r.wrvuRate * Math.exp(0.1 * rng.normal()) * 100) / 100;
  }
  if (asked()) {
    const has = rng.chance(partner ? 0.2 : 0.55);
    t.non_compete_miles = has ? round(rng.uniform(10, 30), 5) : 0;
    if (has) t.non_compete_years = rng.chance(0.7) ? 1 : 2;
  }
  if (asked()) t.partnership_track_years = privatePractice && !partner && rng.chance(0.45) ? rng.int(2, 3) : 0;
  return t;
}

/**
 * The whole offer's plausibility flags (issue 43, item 3): pure functions of a report's total and offer, and
 * of its specialty's $/wRVU. Each rule flags past its limit and not at it; a report without an offer has no
 * flag; the text names the value, how far and the limit. And the offer in words for `moderate list`.
 */
import { describe, expect, it } from 'vitest';
import { OFFER_FLAG_LIMITS, offerFlags, type OfferFields, type SpecialtyRate } from '../../build/compute/offer-plausibility.ts';
import { flagCount, flagDetails, flagsAgainst, flagText } from '../../build/db/moderation.ts';
import { offerSummary } from '../../build/cli/offer-summary.ts';
import { NO_OFFER_TERMS } from '../../build/contract/offer-terms.ts';

const report = (over: Partial<OfferFields> = {}): OfferFields => ({ total_compensation: 500_000, ...over });
const texts = (r: OfferFields, rate?: SpecialtyRate) => offerFlags(r, rate).map((f) => f.text);
const rules = (r: OfferFields, rate?: SpecialtyRate) => offerFlags(r, rate).map((f) => [f.rule, f.column]);
const CARDIOLOGY: SpecialtyRate = { rate: 62.1, reports: 40 };

describe('the limits', () => {
  it('are the issue\'s: 40% call pay, 50% sign-on, $20-$200 and half to twice the specialty\'s $/wRVU, 12 weeks off, $300,000 of loans', () => {
    expect(OFFER_FLAG_LIMITS).toEqual({
      callPayShare: 0.4, signingBonusShare: 0.5, conversionRate: { min: 20, max: 200 }, conversionRateFactor: 2, ptoWeeks: 12, loanRepayment: 300_000,
    });
  });
});

describe('each rule flags past its limit, not at it', () => {
  it('no offer, or an ordinary one: no flag', () => {
    expect(offerFlags(report())).toEqual([]);
    expect(offerFlags(report({ ...NO_OFFER_TERMS }), CARDIOLOGY)).toEqual([]);
    expect(offerFlags(report({
      call_pay: 50_000, signing_bonus: 40_000, loan_repayment: 150_000, pto_weeks: 6, compensation_model: 'production', wrvu_conversion_rate: 60,
    }), CARDIOLOGY)).toEqual([]);
  });

  it('call pay above 40% of the total', () => {
    expect(offerFlags(report({ call_pay: 200_000 }))).toEqual([]);
    expect(offerFlags(report({ call_pay: 225_000 }))).toEqual([
      { rule: 'call_pay_share', column: 'call_pay', text: 'call pay $225,000 is 45% of the total (above 40%)' },
    ]);
  });

  it('a sign-on bonus above 50% of the total', () => {
    expect(offerFlags(report({ signing_bonus: 250_000 }))).toEqual([]);
    expect(texts(report({ signing_bonus: 300_000 }))).toEqual(['sign-on bonus $300,000 is 60% of the total (above 50%)']);
  });

  it('loan repayment above $300,000', () => {
    expect(offerFlags(report({ loan_repayment: 300_000, loan_repayment_years: 5 }))).toEqual([]);
    expect(texts(report({ loan_repayment: 400_000 }))).toEqual(['loan repayment $400,000 (above $300,000)']);
  });

  it('more than 12 weeks of paid time off', () => {
    expect(offerFlags(report({ pto_weeks: 12 }))).toEqual([]);
    expect(texts(report({ pto_weeks: 14.5 }))).toEqual(['14.5 weeks of paid time off (above 12)']);
  });

  it('a conversion rate outside $20-$200, with or without the specialty\'s', () => {
    expect(offerFlags(report({ wrvu_conversion_rate: 20 }))).toEqual([]);
    expect(offerFlags(report({ wrvu_conversion_rate: 200 }))).toEqual([]);
    expect(texts(report({ wrvu_conversion_rate: 19.99 }))).toEqual(['conversion rate $19.99/wRVU (outside $20-$200)']);
    // outside the range: that flag alone, not the specialty's too
    expect(texts(report({ wrvu_conversion_rate: 250 }), CARDIOLOGY)).toEqual(['conversion rate $250.00/wRVU (outside $20-$200)']);
  });

  it('a conversion rate beyond half to twice its specialty\'s $/wRVU; none without the specialty\'s', () => {
    expect(offerFlags(report({ wrvu_conversion_rate: 124.2 }), CARDIOLOGY)).toEqual([]); // exactly twice
    expect(offerFlags(report({ wrvu_conversion_rate: 31.05 }), CARDIOLOGY)).toEqual([]); // exactly half
    expect(texts(report({ wrvu_conversion_rate: 150 }), CARDIOLOGY)).toEqual(["conversion rate $150.00/wRVU: 2.4x the specialty's $62.10/wRVU"]);
    expect(texts(report({ wrvu_conversion_rate: 25 }), CARDIOLOGY)).toEqual(["conversion rate $25.00/wRVU: 40% of the specialty's $62.10/wRVU"]);
    expect(offerFlags(report({ wrvu_conversion_rate: 150 }))).toEqual([]);
  });

  it('a conversion rate with pay model salary (a rate with any other model, or salary without one, is not flagged)', () => {
    expect(texts(report({ compensation_model: 'salary', wrvu_conversion_rate: 55 }), CARDIOLOGY)).toEqual(['conversion rate $55.00/wRVU with pay model salary (a salary converts no wRVUs)']);
    expect(offerFlags(report({ compensation_model: 'salary' }))).toEqual([]);
    for (const m of ['salary_plus_productivity', 'production', 'collections', 'shift'] as const) expect(offerFlags(report({ compensation_model: m, wrvu_conversion_rate: 55 }), CARDIOLOGY)).toEqual([]);
  });

  it('several at once, in the order of the columns', () => {
    expect(rules(report({ call_pay: 300_000, signing_bonus: 300_000, loan_repayment: 500_000, pto_weeks: 20, compensation_model: 'salary', wrvu_conversion_rate: 300 }))).toEqual([
      ['call_pay_share', 'call_pay'], ['signing_bonus_share', 'signing_bonus'], ['loan_repayment', 'loan_repayment'], ['pto_weeks', 'pto_weeks'],
      ['rate_with_salary', 'wrvu_conversion_rate'], ['conversion_rate_range', 'wrvu_conversion_rate'],
    ]);
  });
});

describe('beside the total\'s flags (moderation.ts)', () => {
  const pay = { total_compensation: 500_000, hours_per_week: 50, employment_type: null };
  it('an offer flag alone makes a report flagged; the texts follow the total\'s, and count', () => {
    expect(flagsAgainst({ ...pay }, undefined, { level: 520_000, source: 'national' })).toBeNull();
    const flags = flagsAgainst({ ...pay, call_pay: 225_000, pto_weeks: 14 }, undefined, { level: 520_000, source: 'national' })!;
    expect(flagText(flags)).toBe('call pay $225,000 is 45% of the total (above 40%); 14 weeks of paid time off (above 12)');
    expect(flagCount(flags)).toBe(2);
    const both = flagsAgainst({ ...pay, total_compensation: 3_000_000, signing_bonus: 2_000_000 }, undefined, { level: 470_000, source: 'national' })!;
    expect(flagDetails(both)).toBe('implausible: 6.4x the national level ($470,000); sign-on bonus $2,000,000 is 67% of the total (above 50%)');
    expect(flagCount(both)).toBe(2);
  });

  it('the conversion rate against the specialty\'s $/wRVU given', () => {
    expect(flagText(flagsAgainst({ ...pay, wrvu_conversion_rate: 150 }, undefined, undefined, CARDIOLOGY))).toBe("conversion rate $150.00/wRVU: 2.4x the specialty's $62.10/wRVU");
  });
});

describe('the offer in words (moderate list)', () => {
  it('only what is given, 0 as none where 0 means none', () => {
    expect(offerSummary({})).toBe('');
    expect(offerSummary({ ...NO_OFFER_TERMS })).toBe('');
    expect(offerSummary({
      call_pay: 40_000, call_nights_per_month: 6, signing_bonus: 25_000, retention_bonus: 0, relocation: 12_500, loan_repayment: 100_000, loan_repayment_years: 4,
      cme_allowance: 4_000, pto_weeks: 5, compensation_model: 'production', wrvu_conversion_rate: 62.5, non_compete_miles: 20, non_compete_years: 2, partnership_track_years: 3,
    })).toBe('call pay $40,000 (6 nights a month), sign-on $25,000, retention none, relocation $12,500, loan repayment $100,000 over 4 years, CME $4,000, 5 weeks off, pay model wRVU production at $62.50/wRVU, non-compete 20 miles for 2 years, partnership in 3 years');
    expect(offerSummary({ call_nights_per_month: 1, signing_bonus: 0, loan_repayment: 0, cme_allowance: 0, pto_weeks: 1, non_compete_miles: 0, partnership_track_years: 0, loan_repayment_years: null }))
      .toBe('call 1 night a month, sign-on none, loan repayment none, CME none, 1 week off, no non-compete, no partnership track');
    expect(offerSummary({ call_pay: 0, wrvu_conversion_rate: 55, non_compete_miles: 10, non_compete_years: 1 })).toBe('call pay $0, $55.00/wRVU, non-compete 10 miles for 1 year');
    expect(offerSummary({ compensation_model: 'shift' })).toBe('pay model Shift or hourly');
    expect(offerSummary({ call_pay: 0, call_nights_per_month: 0 })).toBe('no call');
    expect(offerSummary({ call_nights_per_month: 0 })).toBe('no call');
    expect(offerSummary({ call_pay: 0, call_nights_per_month: 4 })).toBe('call pay $0 (4 nights a month)');
  });
});

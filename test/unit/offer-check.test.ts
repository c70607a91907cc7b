/**
 * The offer check's pure core (build/compute/offer-check.ts): every branch on hand-made published figures
 * (test/helpers/offer-arbitraries.ts), the answer against its schema, evaluateOffer on the golden build's
 * documents, and properties over random figures and offers: raising an amount never lowers its position,
 * its band or the offer's values; every answer validates.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  evaluateOffer, medianSide, offerCheckCore, offerFiguresOf, offerIssue, quartileBand, OfferInputError, type OfferFigures,
} from '../../build/compute/offer-check.ts';
import {
  DEFAULT_CONTRACT_YEARS, FIRST_YEAR_ONE_TIME, MISSING_SHARE_PCT, OFFER_NUMBER_FIELDS, OfferCheck, OfferCheckCore, OfferEcho, QUARTILE_BANDS, type Offer,
} from '../../build/contract/offer-check.ts';
import type { SpecialtyFeed, SpecialtyStateFeed } from '../../build/contract/open-feeds.ts';
import { payPosition, standardGrid } from '../../build/compute/pay-position.ts';
import { GOLDEN_DIR } from '../helpers/golden-files.ts';
import { WITHHELD, components, figures, figuresArb, head, offerArb } from '../helpers/offer-arbitraries.ts';

const offer = (o: Partial<Offer> = {}): Offer => ({ specialty: 'family-medicine', base_salary: 250_000, ...o });
const check = (o: Partial<Offer> = {}, f: OfferFigures = figures()) => offerCheckCore(offer(o), f);
const TX = (f: ReturnType<typeof head> | null) => ({ slug: 'texas', name: 'Texas', figures: f });

describe('bands', () => {
  it('quartileBand: below P25 / P25-median / median-P75 / above P75, each bound in the band above it (P75 in median-P75)', () => {
    const b = (x: number) => quartileBand(x, 10, 20, 30);
    expect([b(9.99), b(10), b(19.99), b(20), b(30), b(30.01)]).toEqual(['below P25', 'P25-median', 'P25-median', 'median-P75', 'median-P75', 'above P75']);
    expect(quartileBand(20, 20, 20, 20)).toBe('median-P75'); // ties
    expect(quartileBand(5, null, null, null)).toBe('no published range');
    expect(quartileBand(5, 1, null, 9)).toBe('no published range');
  });

  it('medianSide', () => {
    expect([medianSide(1, 2), medianSide(2, 2), medianSide(3, 2), medianSide(3, null)]).toEqual(['below the median', 'at the median', 'above the median', 'no published median']);
  });
});

describe('the total and where it falls', () => {
  it('total = base + bonus + call pay, placed among the national percentiles when no state is named', () => {
    const a = check({ bonus: 20_000, call_pay: 10_000 });
    expect(a.total_compensation).toBe(280_000);
    expect(a.scope_used).toBe('national');
    expect(a.scope_note).toBeNull();
    expect(a.state_asked).toBeNull();
    expect(a.position).toMatchObject({ scope: 'national', compared: 'total_compensation', value: 280_000, n: 80, rounded: false, band: 'P50-P75', percentile: 62.5 });
    expect(a.position!.percentiles).toEqual({ p10: 200_000, p25: 230_000, median: 260_000, p75: 300_000, p90: 350_000 });
    expect(a.position!.method).toMatch(/\(P10, P25, P50, P75, P90\)/);
    expect(check({ base_salary: 100_000 }).position).toMatchObject({ percentile: null, band: 'below P10', band_upper_value: 200_000 });
  });

  it('in the state when its document is published and not withheld (P10/P90 withheld there: a three-point grid)', () => {
    const a = check({}, figures(TX(head(null, 240_000, 255_000, 270_000, null, 9))));
    expect(a.scope_used).toBe('state');
    expect(a.state_asked).toEqual({ slug: 'texas', name: 'Texas' });
    expect(a.scope_note).toBeNull();
    expect(a.position).toMatchObject({ scope: 'state', n: 9, rounded: true, band: 'P25-P50' });
    expect(a.position!.percentiles).toEqual({ p10: null, p25: 240_000, median: 255_000, p75: 270_000, p90: null });
    expect(check({ base_salary: 200_000 }, figures(TX(head(null, 240_000, 255_000, 270_000, null, 9)))).position!.band).toBe('below P25');
  });

  it('falls back to the national figures, saying why: no document in the state, or a withheld one', () => {
    const none = check({}, figures(TX(null)));
    expect(none.scope_used).toBe('national');
    expect(none.scope_note).toBe('No figures are published for Family Medicine in Texas (no approved reports there): the national figures are used.');
    expect(none.position!.scope).toBe('national');
    const withheld = check({}, figures(TX(WITHHELD)));
    expect(withheld.scope_note).toBe('The figures for Family Medicine in Texas are withheld (fewer than 3 reports): the national figures are used.');
    expect(withheld.position!.n).toBe(80);
  });

  it('no position when the national figures are withheld too (or alone)', () => {
    const a = check({}, figures(TX(WITHHELD), { national: WITHHELD }));
    expect(a.position).toBeNull();
    expect(a.scope_used).toBe('national');
    expect(a.scope_note).toBe('The figures for Family Medicine in Texas are withheld (fewer than 3 reports), and the national figures for Family Medicine are withheld (fewer than 5 reports): no position can be given.');
    expect(check({}, figures(null, { national: WITHHELD })).scope_note).toBe('The national figures for Family Medicine are withheld (fewer than 5 reports): no position can be given.');
  });

  it('with hours a week: the full-time-equivalent total is placed (10-39 hours scaled to 40, 40 or more unchanged)', () => {
    const part = check({ hours_per_week: 20 });
    expect(part.fte_total_compensation).toBe(500_000);
    expect(part.position).toMatchObject({ compared: 'fte_total_compensation', value: 500_000, band: 'above P90' });
    expect(check({ hours_per_week: 30, bonus: 0.01 }).fte_total_compensation).toBe(333_333.35);
    for (const h of [40, 60, 100]) expect(check({ hours_per_week: h }).fte_total_compensation).toBe(250_000);
    expect(check().fte_total_compensation).toBeNull();
    expect(check().position!.compared).toBe('total_compensation');
  });
});

describe('each part against its published range', () => {
  it('money components: the band of each amount given; null when the offer has none (absent or 0); no range when withheld', () => {
    const a = check({ call_pay: 10_000, signing_bonus: 30_000, retention_bonus: 0, relocation: 15_000, loan_repayment: 50_000, cme_allowance: 5_000 });
    const by = Object.fromEntries(a.components.map((c) => [c.component, c]));
    expect(a.components.map((c) => c.component)).toEqual(['call_pay', 'signing_bonus', 'retention_bonus', 'relocation', 'loan_repayment', 'cme_allowance']);
    expect([by.call_pay!.band, by.signing_bonus!.band, by.retention_bonus!.band, by.relocation!.band, by.loan_repayment!.band, by.cme_allowance!.band])
      .toEqual(['below P25', 'median-P75', null, 'median-P75', 'no published range', 'above P75']);
    expect(by.retention_bonus!.amount).toBe(0);
    expect(check().components.every((c) => c.amount === null && c.band === null)).toBe(true);
    expect(by.cme_allowance).toMatchObject({ label: 'CME allowance', kind: 'yearly', unit: 'USD a year', share_with_pct: 75.6, p25: 3_370, median: 4_194, p75: 4_715, withheld: false });
  });

  it('weeks off and call nights against their quartiles (no call: no band), withheld quartiles give no range', () => {
    expect(check({ pto_weeks: 3 }).terms.pto_weeks).toMatchObject({ value: 3, band: 'below P25', unit: 'weeks a year', p25: 4, median: 5, p75: 6 });
    expect(check({ pto_weeks: 6.5 }).terms.pto_weeks.band).toBe('above P75');
    expect(check().terms.pto_weeks).toMatchObject({ value: null, band: null });
    expect(check({ call_nights_per_month: 4 }).terms.call_nights_per_month.band).toBe('median-P75');
    expect(check({ call_nights_per_month: 0 }).terms.call_nights_per_month).toMatchObject({ value: 0, band: null });
    const f = figures(null, { components: components({}, { pto: [null, null, null] }) });
    expect(check({ pto_weeks: 4 }, f).terms.pto_weeks).toMatchObject({ band: 'no published range', withheld: true });
  });

  it('the non-compete and partnership track against their medians', () => {
    expect(check({ non_compete_miles: 25, non_compete_years: 1 }).terms.non_compete).toMatchObject({ miles: 25, years: 1, share_with_pct: 50, median_miles: 20, median_years: 1, miles_vs_median: 'above the median', years_vs_median: 'at the median' });
    expect(check({ non_compete_miles: 10, non_compete_years: 0.5 }).terms.non_compete).toMatchObject({ miles_vs_median: 'below the median', years_vs_median: 'below the median' });
    expect(check({ non_compete_miles: 0 }).terms.non_compete).toMatchObject({ miles_vs_median: null, years_vs_median: null });
    expect(check().terms.non_compete).toMatchObject({ miles: null, years: null, miles_vs_median: null });
    const noMedians = figures(null, { components: components({}, { nonCompete: { share: 40, miles: null, years: null }, track: { share: 60, years: null } }) });
    expect(check({ non_compete_miles: 10, non_compete_years: 1, partnership_track_years: 2 }, noMedians).terms).toMatchObject({
      non_compete: { miles_vs_median: 'no published median', years_vs_median: 'no published median' },
      partnership_track: { years_vs_median: 'no published median' },
    });
    expect(check({ partnership_track_years: 2 }).terms.partnership_track).toMatchObject({ years: 2, median_years: 3, years_vs_median: 'below the median' });
    expect(check({ partnership_track_years: 0 }).terms.partnership_track.years_vs_median).toBeNull();
  });
});

describe('first-year and steady-state values', () => {
  it(`one-time parts spread over the contract (default ${DEFAULT_CONTRACT_YEARS} years); sign-on and relocation in the first year, retention not; loan repayment over its own years`, () => {
    const a = check({ bonus: 20_000, call_pay: 10_000, cme_allowance: 3_000, signing_bonus: 30_000, retention_bonus: 20_000, relocation: 10_000, loan_repayment: 60_000, loan_repayment_years: 4 });
    expect(FIRST_YEAR_ONE_TIME).toEqual(['signing_bonus', 'relocation']);
    expect(a.value).toMatchObject({ contract_years: 3, contract_years_assumed: true, loan_repayment_years: 4, yearly: 283_000, one_time: 120_000 });
    expect(a.value.first_year).toBe(283_000 + 30_000 + 10_000 + 15_000);
    expect(a.value.steady_state_yearly).toBe(283_000 + 10_000 + 6_666.67 + 3_333.33 + 15_000);
    expect(a.value.parts.map((p) => [p.part, p.kind, p.amount, p.first_year, p.per_year])).toEqual([
      ['base_salary', 'yearly', 250_000, 250_000, 250_000], ['bonus', 'yearly', 20_000, 20_000, 20_000], ['call_pay', 'yearly', 10_000, 10_000, 10_000],
      ['signing_bonus', 'one_time', 30_000, 30_000, 10_000], ['retention_bonus', 'one_time', 20_000, 0, 6_666.67], ['relocation', 'one_time', 10_000, 10_000, 3_333.33],
      ['loan_repayment', 'one_time', 60_000, 15_000, 15_000], ['cme_allowance', 'yearly', 3_000, 3_000, 3_000],
    ]);
  });

  it('contract_years given; loan repayment without its years spreads over the contract; no one-time parts: both values are the yearly pay', () => {
    const a = check({ contract_years: 2, signing_bonus: 10_000, loan_repayment: 40_000 });
    expect(a.value).toMatchObject({ contract_years: 2, contract_years_assumed: false, loan_repayment_years: 2, first_year: 250_000 + 10_000 + 20_000, steady_state_yearly: 250_000 + 5_000 + 20_000 });
    const plain = check({ bonus: 0 });
    expect(plain.value).toMatchObject({ yearly: 250_000, one_time: 0, first_year: 250_000, steady_state_yearly: 250_000, loan_repayment_years: null });
    expect(plain.value.parts.map((p) => p.part)).toEqual(['base_salary']);
  });
});

describe('pay per wRVU and the pay model', () => {
  it('implied = total / wRVUs (cents), placed among the specialty\'s published $/wRVU, against the model\'s median conversion rate', () => {
    const a = check({ bonus: 25_000, wrvus: 5_000, compensation_model: 'production', wrvu_conversion_rate: 50 });
    expect(a.productivity).toMatchObject({
      wrvus: 5_000, implied_per_wrvu: 55, conversion_rate: 50,
      compensation_model: { model: 'production', label: 'wRVU production', share_pct: 14, median_conversion_rate: 49 },
      implied_vs_model_median_pct: 12.2, conversion_rate_vs_model_median_pct: 2,
    });
    expect(a.productivity.specialty_per_wrvu).toMatchObject({ n: 35, withheld: false, position: payPosition(standardGrid({ p10: 49, p25: 51, p50: 55, p75: 56, p90: 62 }), 55) });
    expect(check({ wrvus: 3 }).productivity.implied_per_wrvu).toBe(83_333.33);
  });

  it('without wRVUs, with a withheld $/wRVU or a withheld model rate: the comparisons are null', () => {
    const none = check({ compensation_model: 'salary' }).productivity;
    expect(none).toMatchObject({ wrvus: null, implied_per_wrvu: null, implied_vs_model_median_pct: null, conversion_rate: null, conversion_rate_vs_model_median_pct: null });
    expect(none.specialty_per_wrvu.position).toBeNull();
    expect(none.compensation_model).toMatchObject({ model: 'salary', median_conversion_rate: null });
    const withheld = check({ wrvus: 5_000, wrvu_conversion_rate: 40 }, figures(null, { wrvu: { n: null, p10: null, p25: null, median: null, p75: null, p90: null, withheld: true } })).productivity;
    expect(withheld).toMatchObject({ implied_per_wrvu: 50, compensation_model: null, implied_vs_model_median_pct: null, conversion_rate_vs_model_median_pct: null });
    expect(withheld.specialty_per_wrvu.position).toBeNull();
  });
});

describe('what is missing', () => {
  it(`components the offer leaves out (absent or 0) that at least ${MISSING_SHARE_PCT}% of the reports answering have`, () => {
    const f = figures(null, {
      components: components({
        call_pay: { share: 50, q: [1, 2, 3] }, signing_bonus: { share: 49.9, q: [1, 2, 3] }, cme_allowance: { share: 75.6, q: [1, 2, 3] }, relocation: { share: null, q: [null, null, null] },
      }, { track: { share: 62, years: 3 } }),
    });
    const a = check({ cme_allowance: 0 }, f);
    expect(a.missing).toEqual([
      { component: 'call_pay', label: 'Call pay', share_with_pct: 50, text: 'no call pay, which 50% of the reports that answered have' },
      { component: 'cme_allowance', label: 'CME allowance', share_with_pct: 75.6, text: 'no CME allowance, which 75.6% of the reports that answered have' },
      { component: 'partnership_track', label: 'Partnership track', share_with_pct: 62, text: 'no partnership track, which 62% of the reports that answered have' },
    ]);
    expect(check({ call_pay: 1, cme_allowance: 1, partnership_track_years: 4 }, f).missing).toEqual([]);
  });
});

describe('refused offers', () => {
  it('offerIssue names the number and its limits, or the contradiction; evaluateOffer throws OfferInputError', () => {
    const cases: [Partial<Offer> & Record<string, unknown>, RegExp][] = [
      [{ base_salary: undefined }, /base_salary is required/],
      [{ base_salary: 0 }, /base_salary must be a number above 0 and at most 100000000/],
      [{ base_salary: 420 }, /^base_salary 420 is under \$10,000, too little for a year's total pay/],
      [{ base_salary: 150, bonus: 20, call_pay: 5 }, /^base_salary \+ bonus \+ call_pay \(175\) is under \$10,000/],
      [{ base_salary: 60_000_000, bonus: 50_000_000 }, /^base_salary \+ bonus \+ call_pay \(110000000\) is over \$100,000,000/],
      [{ bonus: -1 }, /bonus must be a number from 0 to 100000000/],
      [{ relocation: 250_001 }, /relocation .* to 250000/],
      [{ contract_years: 2.5 }, /contract_years must be a whole number from 1 to 10/],
      [{ hours_per_week: 9 }, /hours_per_week must be a number from 10 to 100/],
      [{ wrvus: Number.NaN }, /wrvus must be/],
      [{ compensation_model: 'piecework' as never }, /compensation_model must be one of: salary, salary_plus_productivity, production, collections, shift/],
      [{ loan_repayment_years: 3 }, /loan_repayment_years needs a loan_repayment amount above 0/],
      [{ non_compete_years: 2 }, /non_compete_years needs non_compete_miles/],
      [{ non_compete_miles: 20 }, /non_compete_years is needed for a non-compete with a radius/],
    ];
    for (const [o, msg] of cases) {
      const bad = { ...offer(), ...o } as Offer;
      if (o.base_salary === undefined && 'base_salary' in o) delete (bad as Partial<Offer>).base_salary;
      expect(offerIssue(bad), JSON.stringify(o)).toMatch(msg);
      expect(() => evaluateOffer(bad, { specialty: golden('family-medicine.json') }), JSON.stringify(o)).toThrow(OfferInputError);
    }
    expect(offerIssue(offer({ non_compete_miles: 0, loan_repayment: 1, loan_repayment_years: 10 }))).toBeNull();
  });
});

const golden = <T = SpecialtyFeed>(path: string): T => JSON.parse(readFileSync(join(GOLDEN_DIR, 'public/data/api/v1/specialties', path), 'utf8')) as T;

describe('evaluateOffer on the published documents (golden build)', () => {
  it('the specialty feed\'s fields and basis, the state document\'s citation when its percentiles were used, and the core of the trimmed figures', () => {
    const fm = golden('family-medicine.json');
    const ca = golden<SpecialtyStateFeed>('family-medicine/states/california.json');
    const wy = golden<SpecialtyStateFeed>('family-medicine/states/wyoming.json');
    const o = offer({ bonus: 30_000, call_pay: 12_000, cme_allowance: 4_000, wrvus: 5_200, compensation_model: 'salary_plus_productivity' });
    const inCa = evaluateOffer(o, { specialty: fm, state: { slug: 'california', name: 'California', document: ca } });
    expect(OfferCheck.parse(inCa)).toEqual(inCa);
    expect(inCa).toMatchObject({ n: fm.n, as_of: fm.as_of, attribution: fm.attribution, citation_url: fm.citation_url, feed_url: fm.feed_url, basis: fm.basis, synthetic: true, scope_used: 'state' });
    expect(inCa.state_source).toEqual({ title: ca.title, feed_url: ca.feed_url, citation_url: ca.citation_url, attribution: ca.attribution, n: ca.n, as_of: ca.as_of, release: ca.release, release_url: ca.release_url });
    const { n: _n, ...core } = inCa;
    expect(OfferCheckCore.parse(offerCheckCore(o, offerFiguresOf({ specialty: fm, state: { slug: 'california', name: 'California', document: ca } })))).toEqual(
      Object.fromEntries(Object.keys(OfferCheckCore.shape).map((k) => [k, (core as Record<string, unknown>)[k]])),
    );
    const inWy = evaluateOffer(o, { specialty: fm, state: { slug: 'wyoming', name: 'Wyoming', document: wy } });
    expect([inWy.scope_used, inWy.state_source, inWy.position!.percentiles.median]).toEqual(['national', null, fm.median]);
    const mg = evaluateOffer(o, { specialty: golden('medical-genetics.json') });
    expect(OfferCheck.parse(mg).position).toBeNull();
    expect(mg.notice).toMatch(/withheld/);
    expect(mg.components.every((c) => c.band === 'no published range' || c.band === null)).toBe(true);
  });

  it('the answer echoes every number of the offer (null when not given)', () => {
    expect(Object.keys(OfferEcho.shape).sort()).toEqual([...OFFER_NUMBER_FIELDS, 'compensation_model'].sort());
    const a = check({ bonus: 1, wrvus: 2 });
    expect(a.offer).toMatchObject({ base_salary: 250_000, bonus: 1, wrvus: 2, call_pay: null, compensation_model: null });
  });
});

// ---------------------------------------------------------------- properties

const RUNS = { numRuns: 400 };
const bandIndex = (b: string | null) => (b === null ? -1 : (QUARTILE_BANDS as readonly string[]).indexOf(b));
/** A position's order: its band's lower percentile, then the percentile (null: the open end's bound). */
const rank = (p: { band_lower_percentile: number; band_upper_percentile: number; percentile: number | null } | null) =>
  p === null ? null : [p.band_lower_percentile, p.percentile ?? (p.band_lower_percentile === 0 ? 0 : p.band_upper_percentile)];
const notLower = (a: number[] | null, b: number[] | null) => a === null || b === null || b[0]! > a[0]! || (b[0] === a[0] && b[1]! >= a[1]!);
const RAISABLE = ['base_salary', 'bonus', 'call_pay', 'signing_bonus', 'retention_bonus', 'relocation', 'loan_repayment', 'cme_allowance'] as const;

describe('properties', () => {
  it('every answer validates against the schema; the values add up', () => {
    fc.assert(fc.property(offerArb, figuresArb, (o, f) => {
      const a = offerCheckCore(o, f);
      OfferCheckCore.parse(a);
      expect(a.value.first_year).toBeLessThanOrEqual(a.value.yearly + a.value.one_time + 0.01);
      expect(a.value.steady_state_yearly).toBeGreaterThanOrEqual(a.value.yearly - 0.01);
      expect(a.total_compensation).toBeCloseTo(o.base_salary + (o.bonus ?? 0) + (o.call_pay ?? 0), 2);
      if (a.position) expect(a.position.value).toBe(a.fte_total_compensation ?? a.total_compensation);
    }), RUNS);
  });

  it('raising an amount never lowers its position: the total\'s percentile and band, the component\'s band, the first-year and steady-state values', () => {
    fc.assert(fc.property(offerArb, figuresArb, fc.constantFrom(...RAISABLE), fc.integer({ min: 1, max: 300_000 }), (o, f, field, by) => {
      const before = offerCheckCore(o, f);
      const raised = { ...o, [field]: (o[field] ?? 0) + by };
      if (offerIssue(raised) !== null) return; // beyond its maximum
      const after = offerCheckCore(raised, f);
      expect(notLower(rank(before.position), rank(after.position)), `${field} +${by}: ${JSON.stringify(before.position)} -> ${JSON.stringify(after.position)}`).toBe(true);
      expect(after.value.first_year).toBeGreaterThanOrEqual(before.value.first_year);
      expect(after.value.steady_state_yearly).toBeGreaterThanOrEqual(before.value.steady_state_yearly);
      const k = before.components.findIndex((c) => c.component === field);
      if (k >= 0 && before.components[k]!.band !== null) expect(bandIndex(after.components[k]!.band)).toBeGreaterThanOrEqual(bandIndex(before.components[k]!.band));
      if (after.productivity.implied_per_wrvu !== null) {
        expect(after.productivity.implied_per_wrvu).toBeGreaterThanOrEqual(before.productivity.implied_per_wrvu!);
        expect(notLower(rank(before.productivity.specialty_per_wrvu.position), rank(after.productivity.specialty_per_wrvu.position))).toBe(true);
      }
    }), RUNS);
  });

  it('more weeks off, more call nights, a longer non-compete never give a lower band or side', () => {
    const side = ['below the median', 'at the median', 'above the median'];
    fc.assert(fc.property(offerArb, figuresArb, fc.integer({ min: 1, max: 20 }), (o, f, by) => {
      const a = offerCheckCore(o, f);
      const b = offerCheckCore({ ...o, pto_weeks: Math.min(26, (o.pto_weeks ?? 0) + by / 2), call_nights_per_month: Math.min(31, (o.call_nights_per_month ?? 0) + by) }, f);
      if (a.terms.pto_weeks.band !== null) expect(bandIndex(b.terms.pto_weeks.band)).toBeGreaterThanOrEqual(bandIndex(a.terms.pto_weeks.band));
      if (a.terms.call_nights_per_month.band !== null) expect(bandIndex(b.terms.call_nights_per_month.band)).toBeGreaterThanOrEqual(bandIndex(a.terms.call_nights_per_month.band));
      if (o.non_compete_miles !== undefined && o.non_compete_miles > 0) {
        const c = offerCheckCore({ ...o, non_compete_miles: Math.min(500, o.non_compete_miles + by) }, f);
        const s = (x: string | null) => side.indexOf(x ?? '');
        if (s(a.terms.non_compete.miles_vs_median) >= 0) expect(s(c.terms.non_compete.miles_vs_median)).toBeGreaterThanOrEqual(s(a.terms.non_compete.miles_vs_median));
      }
    }), RUNS);
  });

  it('the state\'s figures are used exactly when its document is published with a usable grid; the national ones otherwise', () => {
    fc.assert(fc.property(offerArb, figuresArb, (o, f) => {
      const a = offerCheckCore(o, f);
      const stateUsable = f.state !== null && f.state.figures !== null && !f.state.figures.withheld;
      expect(a.scope_used).toBe(stateUsable ? 'state' : 'national');
      expect(a.scope_note === null).toBe((f.state === null || stateUsable) && (stateUsable || !f.national.withheld));
      expect(a.position === null).toBe(!stateUsable && f.national.withheld);
    }), RUNS);
  });
});

/**
 * offerFigures (build/compute/offer-figures.ts): the whole offer's open `components` section of one cell.
 * Small Datasets keyed and distorted like the build's (test/helpers/offer-dataset.ts), so counts and
 * quartiles carry the real draws.
 *
 * - floors: fewer than 5 reports with an item withhold its figures (n_with null), fewer than 5 answers its share;
 * - shares come from perturbed counts, a count below 5 standing in as 2.5: a share never tells how many of
 *   0 to 4 reports have (or lack) an item;
 * - small cells of amounts (money, $/wRVU; n <= 24): Harrell-Davis quartiles, draws twice as wide; type 7 and the
 *   headline's draws from 25 and for weeks, nights, miles, years; each figure reproduced from its own draw;
 * - rounding by the true n: money to $1,000 at n <= 24, $/wRVU to $1, miles to 5; weeks, nights, years to half units;
 * - stability: the same reports give the same figures whatever else is in the specialty or the section;
 * - properties (fast-check): every figure >= 0, quartiles ordered, within their disclosure bound, counts null or >= 5.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OFFER_SMALL_SPAN, offerFigures, offerQuantileMoveBound, offerQuartiles, SMALL_COUNT_STAND_IN } from '../../build/compute/offer-figures.ts';
import { OfferComponents, type MoneyComponentFigures } from '../../build/contract/offer-figures.ts';
import { COMPENSATION_MODEL_VALUES, MONEY_COMPONENT_FIELDS, type CompensationModel, type MoneyComponent, type OfferTerms } from '../../build/contract/offer-terms.ts';
import { cellKeyOf, COLUMN, drawsFor, perturbedCount, quantileMoveBound, SLOT } from '../../build/compute/disclosure.ts';
import { spreadRatio, towardsMedian } from '../../build/compute/published.ts';
import { FLOORS, harrellDavis, quantile, ROUNDING_MAX_N, roundMoney, roundPct } from '../../build/compute/stats.ts';
import type { Dataset } from '../../build/compute/dataset.ts';
import { offerDataset, positions, type OfferReport } from '../helpers/offer-dataset.ts';

const money = (f: OfferComponents, c: MoneyComponent): MoneyComponentFigures => f.money.find((m) => m.component === c)!;
const reportsOf = (offers: Partial<OfferTerms>[], firstId = 1): OfferReport[] => offers.map((offer, i) => ({ id: firstId + i, offer }));
const all = (rs: OfferReport[], o?: Parameters<typeof offerDataset>[1]) => {
  const ds = offerDataset(rs, o);
  return { ds, f: offerFigures(ds, positions(rs.length)) };
};
/** The published count of the reports at `idx` of `ds`, from the method's own functions. */
const published = (ds: Dataset, idx: number[]) => perturbedCount(idx.length, [FLOORS.national, FLOORS.tails, ROUNDING_MAX_N + 1], {
  draws: drawsFor(ds.drawKey), key: cellKeyOf(ds.reports.keyLo, ds.reports.keyHi, idx),
});
const rep = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

describe('offerFigures: floors', () => {
  it('no reports (a withheld specialty): every figure and count null, every item withheld', () => {
    const ds = offerDataset(reportsOf([{ signing_bonus: 10_000 }]));
    const f = offerFigures(ds, []);
    for (const m of f.money) expect(m).toMatchObject({ answered: null, share_with_pct: null, n_with: null, p25: null, median: null, p75: null, rounded: false, withheld: true });
    expect(f.pto_weeks).toMatchObject({ n: null, p25: null, median: null, p75: null, withheld: true });
    expect(f.call_nights_per_month).toMatchObject({ n: null, median: null, withheld: true });
    expect(f.compensation_models.answered).toBeNull();
    for (const m of f.compensation_models.models) expect(m).toMatchObject({ share_pct: null, conversion_rate: { n: null, median: null, withheld: true } });
    expect(f.non_compete).toMatchObject({ answered: null, share_with_pct: null, n_with: null, withheld: true, median_miles: null, median_years: null });
    expect(f.partnership_track).toMatchObject({ answered: null, share_with_pct: null, n_with: null, withheld: true, median_years: null });
    expect(OfferComponents.parse(f)).toEqual(f);
  });

  it.each([0, 1, 2, 3, 4])('%i of 40 answers with a sign-on bonus: withheld, n_with null, quartiles null; the share and answered are published', (k) => {
    const { f } = all(reportsOf(rep(40, (i) => ({ signing_bonus: i < k ? 20_000 + 1_000 * i : 0 }))));
    const m = money(f, 'signing_bonus');
    expect(m).toMatchObject({ n_with: null, p25: null, median: null, p75: null, withheld: true, rounded: false });
    expect(m.answered).toBeGreaterThanOrEqual(38);
    expect(m.share_with_pct).toBeGreaterThan(0); // 2.5 of about 40: never 0, whether 0 or 4 have it
    expect(m.share_with_pct).toBeLessThan(10);
  });

  it('5 with it is published (n_with 5-7: perturbed within its class 5-14), quartiles ordered', () => {
    const { f } = all(reportsOf(rep(5, (i) => ({ signing_bonus: 10_000 * (i + 1) }))));
    const m = money(f, 'signing_bonus');
    expect(m.withheld).toBe(false);
    expect(m.n_with).toBeGreaterThanOrEqual(5);
    expect(m.n_with).toBeLessThanOrEqual(7);
    expect(m.p25).toBeLessThanOrEqual(m.median!);
    expect(m.median).toBeLessThanOrEqual(m.p75!);
    expect(m.rounded).toBe(true);
    expect(m.share_with_pct).toBe(roundPct((100 * m.n_with!) / (m.n_with! + SMALL_COUNT_STAND_IN))); // none without: 2.5
  });

  it('fewer than 5 answers: share and answered null too', () => {
    const { f } = all(reportsOf(rep(4, () => ({ relocation: 10_000, pto_weeks: 5, non_compete_miles: 10, non_compete_years: 1, partnership_track_years: 2, compensation_model: 'salary' as const }))));
    expect(money(f, 'relocation')).toMatchObject({ answered: null, share_with_pct: null, n_with: null, withheld: true });
    expect(f.pto_weeks.withheld).toBe(true);
    expect(f.compensation_models.answered).toBeNull();
    expect(f.compensation_models.models.every((m) => m.share_pct === null)).toBe(true);
    expect(f.non_compete).toMatchObject({ answered: null, share_with_pct: null, n_with: null, withheld: true, median_miles: null, median_years: null });
    expect(f.partnership_track).toMatchObject({ answered: null, share_with_pct: null, withheld: true, median_years: null });
  });

  it('an unanswered question is not a "none": only values count as answers (0 included)', () => {
    const { f } = all(reportsOf([...rep(6, () => ({ cme_allowance: 3_000 })), ...rep(6, () => ({ pto_weeks: 5 }))]));
    const m = money(f, 'cme_allowance');
    expect(m.answered).toBeGreaterThanOrEqual(5);
    expect(m.answered).toBeLessThanOrEqual(8); // 6 answered, not 12
    expect(m.share_with_pct).toBe(roundPct((100 * m.n_with!) / (m.n_with! + SMALL_COUNT_STAND_IN)));
  });

  it('call nights count only reports that take call (above 0); weeks off count every answer', () => {
    const rs = reportsOf([...rep(4, () => ({ call_nights_per_month: 6, pto_weeks: 4 })), ...rep(30, () => ({ call_nights_per_month: 0, pto_weeks: 6 }))]);
    const { f } = all(rs);
    expect(f.call_nights_per_month).toMatchObject({ n: null, median: null, withheld: true }); // 4 take call
    expect(f.pto_weeks.withheld).toBe(false);
    const { f: g } = all([...rs, ...reportsOf([{ call_nights_per_month: 8 }], 100)]);
    expect(g.call_nights_per_month.withheld).toBe(false);
    expect(g.call_nights_per_month.n).toBeGreaterThanOrEqual(5);
    // 6, 6, 6, 6, 8: the median 6, moved by its draw (at most 25% from 5 reports: nights are not amounts), to half a night
    expect(Math.abs(g.call_nights_per_month.median! - 6)).toBeLessThanOrEqual(6 * (Math.exp(offerQuantileMoveBound(5, false)) - 1) + 0.25);
  });

  it('$/wRVU by pay model: withheld below 5 rated contracts of the model; the model share is of those naming a model', () => {
    const rs = reportsOf([
      ...rep(4, () => ({ compensation_model: 'production' as const, wrvu_conversion_rate: 50 })),
      ...rep(3, () => ({ compensation_model: 'production' as const })),
      ...rep(6, () => ({ compensation_model: 'salary_plus_productivity' as const, wrvu_conversion_rate: 60 })),
      ...rep(20, () => ({ compensation_model: 'salary' as const })),
    ]);
    const { f } = all(rs);
    const byModel = new Map(f.compensation_models.models.map((m) => [m.model, m]));
    expect(byModel.get('production')!.conversion_rate).toEqual({ n: null, median: null, withheld: true });
    expect(byModel.get('production')!.share_pct).not.toBeNull(); // 7 name it
    expect(byModel.get('salary_plus_productivity')!.conversion_rate.withheld).toBe(false);
    expect(byModel.get('salary_plus_productivity')!.conversion_rate.n).toBeGreaterThanOrEqual(5);
    // collections and shift: nobody, each counted as 2.5
    const total = f.compensation_models.models.reduce((a, m) => a + m.share_pct!, 0);
    expect(total).toBeGreaterThan(99.7);
    expect(total).toBeLessThan(100.3);
    expect(byModel.get('collections')!.share_pct).toBe(byModel.get('shift')!.share_pct);
    expect(byModel.get('collections')!.share_pct).toBeGreaterThan(0);
  });

  it('non-compete: the share counts "none" (0) as an answer; medians need 5 with one, years 5 with years', () => {
    const with5 = rep(5, (i) => ({ non_compete_miles: 10 + 5 * i, non_compete_years: i < 4 ? 1 : null }));
    const { f } = all(reportsOf([...with5, ...rep(10, () => ({ non_compete_miles: 0 }))]));
    expect(f.non_compete.withheld).toBe(false);
    expect(f.non_compete.median_miles).not.toBeNull();
    expect(f.non_compete.median_years).toBeNull(); // only 4 give the length
    const { f: g } = all(reportsOf([...rep(4, () => ({ non_compete_miles: 20, non_compete_years: 2 })), ...rep(10, () => ({ non_compete_miles: 0 }))]));
    expect(g.non_compete).toMatchObject({ n_with: null, withheld: true, median_miles: null, median_years: null });
    expect(g.non_compete.share_with_pct).not.toBeNull();
    const { f: h } = all(reportsOf([...rep(4, () => ({ partnership_track_years: 2 })), ...rep(10, () => ({ partnership_track_years: 0 }))]));
    expect(h.partnership_track).toMatchObject({ n_with: null, withheld: true, median_years: null });
  });
});

describe('offerFigures: shares from perturbed counts, a count below 5 standing in as 2.5', () => {
  const haveIt = rep(296, (i) => ({ signing_bonus: 10_000 + 100 * i }));
  it('296 with a sign-on bonus and 0, 1, 2, 3 or 4 without: the same share whichever (it never tells how many of 0-4 lack it)', () => {
    const shares = [0, 1, 2, 3, 4].map((k) => {
      const { ds, f } = all(reportsOf([...haveIt, ...rep(k, () => ({ signing_bonus: 0 }))]));
      const m = money(f, 'signing_bonus');
      // the share is the published count with it over that count plus 2.5
      expect(m.n_with).toBe(published(ds, positions(296)));
      expect(m.share_with_pct).toBe(roundPct((100 * m.n_with!) / (m.n_with! + 2.5)));
      return m.share_with_pct;
    });
    expect(new Set(shares).size).toBe(1);
    expect(shares[0]).toBeLessThan(100); // not "everyone": 0 without reads as 2.5 without
  });

  it('0-4 with it among 296 without: the same share whichever, and never 0', () => {
    const lack = rep(296, () => ({ loan_repayment: 0 }));
    const shares = [0, 1, 2, 3, 4].map((k) => money(all([...reportsOf(lack), ...reportsOf(rep(k, (i) => ({ loan_repayment: 100_000 + 10_000 * i })), 1000)]).f, 'loan_repayment').share_with_pct);
    expect(new Set(shares).size).toBe(1);
    expect(shares[0]).toBeGreaterThan(0);
  });

  it('the same for pay models, non-competes and partnership tracks', () => {
    const models = [0, 2, 4].map((k) => {
      const { f } = all([...reportsOf(rep(40, () => ({ compensation_model: 'salary' as const }))), ...reportsOf(rep(k, () => ({ compensation_model: 'shift' as const })), 1000)]);
      return f.compensation_models.models.map((m) => m.share_pct);
    });
    expect(models[1]).toEqual(models[0]);
    expect(models[2]).toEqual(models[0]);
    const nc = [0, 3, 4].map((k) => all([...reportsOf(rep(30, (i) => ({ non_compete_miles: 10 + i, non_compete_years: 1 }))), ...reportsOf(rep(k, () => ({ non_compete_miles: 0 })), 1000)]).f.non_compete.share_with_pct);
    expect(new Set(nc).size).toBe(1);
    const pt = [1, 4].map((k) => all([...reportsOf(rep(30, () => ({ partnership_track_years: 0 }))), ...reportsOf(rep(k, () => ({ partnership_track_years: 3 })), 1000)]).f.partnership_track.share_with_pct);
    expect(new Set(pt).size).toBe(1);
  });

  it('from 5 on both sides the share moves with the counts (each perturbed like n)', () => {
    const { ds, f } = all(reportsOf([...rep(20, (i) => ({ relocation: 5_000 + 500 * i })), ...rep(30, () => ({ relocation: 0 }))]));
    const m = money(f, 'relocation');
    const withP = published(ds, positions(20));
    const withoutP = published(ds, positions(30).map((i) => i + 20));
    expect(m.share_with_pct).toBe(roundPct((100 * withP) / (withP + withoutP)));
    expect(Math.abs(m.share_with_pct! - 40)).toBeLessThanOrEqual(5);
    expect(m.answered).toBe(published(ds, positions(50)));
  });
});

describe('offerFigures: small cells (24 reports or fewer) are Harrell-Davis estimates with wider draws', () => {
  it('the draws\' bound: for amounts OFFER_SMALL_SPAN / n^0.75 up to 24 reports, the headline\'s from 25 and for weeks, nights, miles, years', () => {
    expect(OFFER_SMALL_SPAN).toBe(1.5);
    expect(offerQuantileMoveBound(5)).toBeCloseTo(1.5 / 5 ** 0.75, 12);
    expect(offerQuantileMoveBound(24)).toBeCloseTo(1.5 / 24 ** 0.75, 12);
    expect(offerQuantileMoveBound(25)).toBe(quantileMoveBound(25));
    expect(offerQuantileMoveBound(400)).toBe(quantileMoveBound(400));
    expect(offerQuantileMoveBound(5, false)).toBe(quantileMoveBound(5));
  });

  it('before the draws: amounts\' quartiles Harrell-Davis up to 24 values, type 7 from 25 (with the spread correction); weeks, nights, miles, years type 7', () => {
    const values = (n: number) => Float64Array.from({ length: n }, (_, i) => 10_000 * Math.exp(0.08 * i)).sort();
    for (const n of [5, 11, 24, 25, 60]) {
      const s = values(n);
      const q = (p: number) => (n <= 24 ? harrellDavis(s, p) : quantile(s, p));
      const ratio = spreadRatio(q(0.25), q(0.75), true);
      expect(offerQuartiles(s, true)).toEqual([towardsMedian(q(0.25), q(0.5), ratio), q(0.5), towardsMedian(q(0.75), q(0.5), ratio)]);
      expect(offerQuartiles(s, false)).toEqual([quantile(s, 0.25), quantile(s, 0.5), quantile(s, 0.75)]);
    }
    // every value of a small cell counts: a larger top amount moves the median of 7 (a type-7 median would not move)
    const seven = [20_000, 22_000, 25_000, 30_000, 32_000, 35_000, 40_000];
    expect(offerQuartiles(Float64Array.from([...seven.slice(0, 6), 90_000]), true)[1]).toBeGreaterThan(offerQuartiles(Float64Array.from(seven), true)[1] + 100);
    expect(quantile([...seven.slice(0, 6), 90_000], 0.5)).toBe(quantile(seven, 0.5));
  });

  it('a published figure is its pre-draw quartile times its own draw (cell key of exactly the reports with it, the item\'s column), kept in order, rounded', () => {
    for (const n of [7, 30]) {
      const rs = reportsOf(rep(n, (i) => ({ retention_bonus: 12_000 + 1_500 * i + (i % 3) * 700 })));
      const { ds, f } = all(rs);
      const idx = positions(n);
      const sorted = Float64Array.from(idx, (i) => ds.reports.offer.retention_bonus[i]!).sort();
      const draws = drawsFor(ds.drawKey);
      const key = cellKeyOf(ds.reports.keyLo, ds.reports.keyHi, idx);
      const b = offerQuantileMoveBound(n);
      const moved = offerQuartiles(sorted, true).map((q, k) => q * Math.exp(2 * draws.draw(key, COLUMN.retention_bonus, [SLOT.p25, SLOT.p50, SLOT.p75][k]!) * b)).sort((x, y) => x - y);
      const m = money(f, 'retention_bonus');
      expect([m.p25, m.median, m.p75]).toEqual(moved.map((x) => roundMoney(x, n)));
    }
  });
});

describe('offerFigures: rounding by the true n', () => {
  const cell = (n: number, seed: number) => reportsOf(rep(n, (i) => ({
    call_pay: 20_000 + 977 * ((i * 7 + seed) % 31), pto_weeks: 3 + ((i + seed) % 5) * 0.75, call_nights_per_month: 2 + ((i * 3 + seed) % 9) * 0.5,
    non_compete_miles: 10 + ((i + seed) % 13) * 3, non_compete_years: 1 + ((i + seed) % 3) * 0.25, partnership_track_years: 1 + ((i * 5 + seed) % 4) * 0.75,
    compensation_model: 'production' as CompensationModel, wrvu_conversion_rate: 45 + ((i * 11 + seed) % 17) * 0.37,
  })), seed * 1000);

  it('24 reports: money to $1,000, $/wRVU to $1, miles to 5, weeks, nights and years to half units; rounded true', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const { f } = all(cell(24, seed));
      const m = money(f, 'call_pay');
      expect(m.rounded).toBe(true);
      for (const v of [m.p25, m.median, m.p75]) expect(v! % 1000).toBe(0);
      const rate = f.compensation_models.models.find((x) => x.model === 'production')!.conversion_rate.median!;
      expect(Number.isInteger(rate)).toBe(true);
      expect(f.non_compete.median_miles! % 5).toBe(0);
      for (const v of [f.pto_weeks.p25, f.pto_weeks.median, f.pto_weeks.p75, f.call_nights_per_month.median, f.non_compete.median_years, f.partnership_track.median_years]) expect((v! * 2) % 1).toBe(0);
    }
  });

  it('25 reports: whole dollars, cents, whole miles; still half units for weeks, nights and years; rounded false', () => {
    let notThousands = 0;
    let notWholeRate = 0;
    let notFives = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const { f } = all(cell(25, seed));
      const m = money(f, 'call_pay');
      expect(m.rounded).toBe(false);
      for (const v of [m.p25, m.median, m.p75]) {
        expect(Number.isInteger(v)).toBe(true);
        if (v! % 1000 !== 0) notThousands++;
      }
      const rate = f.compensation_models.models.find((x) => x.model === 'production')!.conversion_rate.median!;
      expect(Math.round(rate * 100)).toBeCloseTo(rate * 100, 6);
      if (!Number.isInteger(rate)) notWholeRate++;
      expect(Number.isInteger(f.non_compete.median_miles)).toBe(true);
      if (f.non_compete.median_miles! % 5 !== 0) notFives++;
      for (const v of [f.pto_weeks.median, f.call_nights_per_month.median, f.non_compete.median_years, f.partnership_track.median_years]) expect((v! * 2) % 1).toBe(0);
    }
    expect(notThousands).toBeGreaterThan(20);
    expect(notWholeRate).toBeGreaterThan(5);
    expect(notFives).toBeGreaterThan(3);
  });

  it('rounding follows the true n, not the published one (n_with 25 may be published as 25-27, n 24 as 22-24)', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const at24 = money(all(cell(24, seed)).f, 'call_pay');
      expect(at24.n_with).toBeLessThanOrEqual(24);
      const at25 = money(all(cell(25, seed)).f, 'call_pay');
      expect(at25.n_with).toBeGreaterThanOrEqual(25);
    }
  });
});

describe('offerFigures: the same reports give the same figures whatever else is there', () => {
  const bonuses = reportsOf(rep(9, (i) => ({ signing_bonus: 15_000 + 4_000 * i, pto_weeks: 4 + (i % 3) })));

  it('reports that do not answer an item (or another specialty\'s) move none of its figures', () => {
    const base = all(bonuses).f;
    const more = reportsOf(rep(12, (i) => ({ relocation: 8_000 + i * 500, cme_allowance: 3_000, pto_weeks: 5 })), 500);
    const withMore = all([...bonuses, ...more]).f;
    expect(money(withMore, 'signing_bonus')).toEqual(money(base, 'signing_bonus'));
    expect(withMore.pto_weeks).not.toEqual(base.pto_weeks); // these reports did answer it
    // another specialty's reports: not in the cell's indexes, nothing moves
    const ds = offerDataset([...bonuses, ...more.map((r) => ({ ...r, specialty: 1 }))]);
    expect(offerFigures(ds, positions(9))).toEqual(base);
  });

  it('a report that answered "none" moves the share and answered, never n_with or the quartiles', () => {
    const base = money(all(bonuses).f, 'signing_bonus');
    const withNone = money(all([...bonuses, ...reportsOf([{ signing_bonus: 0 }], 900)]).f, 'signing_bonus');
    expect({ ...withNone, answered: null, share_with_pct: null }).toEqual({ ...base, answered: null, share_with_pct: null });
  });

  it('the order of the indexes does not matter', () => {
    const rs = reportsOf(rep(40, (i) => ({ call_pay: 10_000 + 1_234 * i, signing_bonus: i % 3 ? 20_000 + 100 * i : 0, compensation_model: COMPENSATION_MODEL_VALUES[i % 5]!, wrvu_conversion_rate: 40 + i, non_compete_miles: i % 2 ? 15 : 0, non_compete_years: i % 2 ? 1 : null })));
    const ds = offerDataset(rs);
    const idx = positions(40);
    const shuffled = [...idx].sort((a, b) => ((a * 7919) % 41) - ((b * 7919) % 41));
    expect(offerFigures(ds, shuffled)).toEqual(offerFigures(ds, idx));
  });

  it('the same reports in another Dataset (other positions, other reports around them) give the same section', () => {
    const others = reportsOf(rep(30, (i) => ({ signing_bonus: 50_000 + i, call_pay: 9_000 })), 700);
    const a = offerFigures(offerDataset(bonuses), positions(9));
    const ds = offerDataset([...others.slice(0, 15), ...bonuses, ...others.slice(15)]);
    expect(offerFigures(ds, positions(9).map((i) => i + 15))).toEqual(a);
  });
});

// ---------------------------------------------------------------- properties

const amount = (max: number) => fc.oneof(fc.constant(0), fc.integer({ min: 1, max }), fc.constant(null));
const offerArb: fc.Arbitrary<Partial<OfferTerms>> = fc.record({
  call_pay: amount(400_000), signing_bonus: amount(200_000), retention_bonus: amount(100_000), relocation: amount(50_000),
  loan_repayment: amount(300_000), cme_allowance: amount(20_000),
  pto_weeks: fc.option(fc.integer({ min: 0, max: 52 }).map((x) => x / 2)),
  call_nights_per_month: fc.option(fc.integer({ min: 0, max: 62 }).map((x) => x / 2)),
  compensation_model: fc.option(fc.constantFrom(...COMPENSATION_MODEL_VALUES)),
  wrvu_conversion_rate: fc.option(fc.integer({ min: 100, max: 50_000 }).map((x) => x / 100)),
  non_compete_miles: fc.option(fc.integer({ min: 0, max: 100 })),
  non_compete_years: fc.option(fc.integer({ min: 0, max: 20 }).map((x) => x / 2)),
  partnership_track_years: fc.option(fc.integer({ min: 0, max: 30 }).map((x) => x / 2)),
});
/** Cells of 0-60 reports; a bias towards answering so that items reach their floors and n > 24. */
const cellArb = fc.array(offerArb, { minLength: 0, maxLength: 60 });
const RUNS = { numRuns: 150 };

/** Every published figure of a section with its rounding step and the values behind it. */
function quartileChecks(ds: Dataset, idx: number[], f: OfferComponents) {
  const O = ds.reports.offer;
  const values = (col: Float64Array, keep: (v: number) => boolean) => idx.map((i) => col[i]!).filter((v) => !Number.isNaN(v) && keep(v));
  const out: { what: string; figures: (number | null)[]; values: number[]; step: number; pay: boolean }[] = [];
  for (const c of MONEY_COMPONENT_FIELDS) {
    const v = values(O[c], (x) => x > 0);
    const m = money(f, c);
    out.push({ what: c, figures: [m.p25, m.median, m.p75], values: v, step: v.length <= ROUNDING_MAX_N ? 1000 : 1, pay: true });
  }
  out.push({ what: 'pto_weeks', figures: [f.pto_weeks.p25, f.pto_weeks.median, f.pto_weeks.p75], values: values(O.pto_weeks, () => true), step: 0.5, pay: false });
  out.push({ what: 'call_nights', figures: [f.call_nights_per_month.p25, f.call_nights_per_month.median, f.call_nights_per_month.p75], values: values(O.call_nights_per_month, (x) => x > 0), step: 0.5, pay: false });
  const miles = values(O.non_compete_miles, (x) => x > 0);
  out.push({ what: 'miles', figures: [f.non_compete.median_miles], values: miles, step: miles.length <= ROUNDING_MAX_N ? 5 : 1, pay: false });
  const years = idx.filter((i) => O.non_compete_miles[i]! > 0 && !Number.isNaN(O.non_compete_years[i]!)).map((i) => O.non_compete_years[i]!);
  out.push({ what: 'non-compete years', figures: [f.non_compete.median_years], values: years, step: 0.5, pay: false });
  out.push({ what: 'track years', figures: [f.partnership_track.median_years], values: values(O.partnership_track_years, (x) => x > 0), step: 0.5, pay: false });
  f.compensation_models.models.forEach((m, k) => {
    const rated = idx.filter((i) => O.compensation_model[i] === k && !Number.isNaN(O.wrvu_conversion_rate[i]!)).map((i) => O.wrvu_conversion_rate[i]!);
    out.push({ what: `rate ${m.model}`, figures: [m.conversion_rate.median], values: rated, step: rated.length <= ROUNDING_MAX_N ? 1 : 0.01, pay: true });
  });
  return out;
}

describe('offerFigures: properties', () => {
  it('the section validates; every figure >= 0; quartiles ordered; counts null or >= 5; withheld exactly when fewer than 5 have it', () => {
    fc.assert(fc.property(cellArb, (offers) => {
      const rs = reportsOf(offers);
      const ds = offerDataset(rs);
      const idx = positions(rs.length);
      const f = offerFigures(ds, idx);
      expect(OfferComponents.parse(f)).toEqual(f);
      const visit = (x: unknown, at: string) => {
        if (typeof x === 'number') {
          expect(x, at).toBeGreaterThanOrEqual(0);
          if (/(\.|^)(answered|n_with|n)$/.test(at)) expect(x, at).toBeGreaterThanOrEqual(FLOORS.national);
          if (/_pct$/.test(at)) expect(x, at).toBeLessThanOrEqual(100);
        } else if (x && typeof x === 'object') for (const [k, v] of Object.entries(x)) visit(v, `${at}.${k}`);
      };
      visit(f, 'components');
      for (const c of MONEY_COMPONENT_FIELDS) {
        const m = money(f, c);
        const withIt = idx.filter((i) => ds.reports.offer[c][i]! > 0).length;
        expect(m.withheld, c).toBe(withIt < FLOORS.national);
        expect(m.n_with === null, c).toBe(withIt < FLOORS.national);
        if (!m.withheld) {
          expect(m.p25!).toBeLessThanOrEqual(m.median!);
          expect(m.median!).toBeLessThanOrEqual(m.p75!);
          expect(m.rounded).toBe(withIt <= ROUNDING_MAX_N);
        }
      }
      for (const q of [f.pto_weeks, f.call_nights_per_month]) if (!q.withheld) expect(q.p25! <= q.median! && q.median! <= q.p75!).toBe(true);
    }), RUNS);
  });

  it('each quartile lies within its values\' range moved by the largest draw, plus half a rounding step', () => {
    fc.assert(fc.property(cellArb, (offers) => {
      const rs = reportsOf(offers);
      const ds = offerDataset(rs);
      const idx = positions(rs.length);
      const f = offerFigures(ds, idx);
      for (const c of quartileChecks(ds, idx, f)) {
        if (c.values.length < FLOORS.national) {
          expect(c.figures.every((x) => x === null), c.what).toBe(true);
          continue;
        }
        const b = Math.exp(offerQuantileMoveBound(c.values.length, c.pay));
        const lo = Math.min(...c.values) / b - c.step / 2 - 1e-9;
        const hi = Math.max(...c.values) * b + c.step / 2 + 1e-9;
        for (const x of c.figures) {
          expect(x, c.what).not.toBeNull();
          expect(x!, `${c.what} ${x} within [${lo}, ${hi}]`).toBeGreaterThanOrEqual(lo);
          expect(x!, `${c.what} ${x} within [${lo}, ${hi}]`).toBeLessThanOrEqual(hi);
          expect(Math.abs(x! / c.step - Math.round(x! / c.step)), `${c.what} ${x} rounded to ${c.step}`).toBeLessThan(1e-6);
        }
      }
    }), RUNS);
  });

  it('stability: adding reports that answer none of a money item leaves that item\'s figures as they were', () => {
    fc.assert(fc.property(cellArb, fc.array(offerArb, { maxLength: 20 }), fc.constantFrom(...MONEY_COMPONENT_FIELDS), (offers, extra, c) => {
      const rs = reportsOf(offers);
      const more = reportsOf(extra.map((o) => ({ ...o, [c]: null })), 10_000);
      const a = money(offerFigures(offerDataset(rs), positions(rs.length)), c);
      const b = money(offerFigures(offerDataset([...rs, ...more]), positions(rs.length + more.length)), c);
      expect(b).toEqual(a);
    }), RUNS);
  });

  it('a share never depends on how many of 0-4 reports lack (or have) an item', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 80 }), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 }), (withN, k1, k2) => {
      const haveIt = reportsOf(rep(withN, (i) => ({ retention_bonus: 10_000 + 250 * i })));
      const share = (k: number) => money(offerFigures(offerDataset([...haveIt, ...reportsOf(rep(k, () => ({ retention_bonus: 0 })), 5000)]), positions(withN + k)), 'retention_bonus').share_with_pct;
      if (withN + Math.min(k1, k2) >= FLOORS.national) expect(share(k1)).toBe(share(k2));
    }), { numRuns: 60 });
  });
});

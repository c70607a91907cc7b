/**
 * Hand-made published figures and offers for the offer check's tests (test/unit/offer-check.test.ts, the page
 * port's test): a fixed specialty with every branch reachable, and fast-check arbitraries of figures shaped
 * like the feeds (ascending percentiles, P10/P90 or everything withheld, quartiles withheld below their floor).
 */
import fc from 'fast-check';
import type { HeadlineFigures, OfferFigures } from '../../build/compute/offer-check.ts';
import type { Offer } from '../../build/contract/offer-check.ts';
import type { OfferComponents } from '../../build/contract/offer-figures.ts';
import { COMPENSATION_MODELS, MONEY_COMPONENTS, type MoneyComponent } from '../../build/contract/offer-terms.ts';

export const head = (p10: number | null, p25: number | null, median: number | null, p75: number | null, p90: number | null, n: number | null = 40): HeadlineFigures => ({
  n, p10, p25, median, p75, p90, rounded: n !== null && n <= 24, withheld: median === null,
});
export const WITHHELD = head(null, null, null, null, null, null);

type Quart = [number | null, number | null, number | null];
/** A components section: each money component's share and quartiles (null = withheld). */
export function components(money: Partial<Record<MoneyComponent, { share: number | null; q: Quart }>> = {}, o: {
  pto?: Quart; nights?: Quart; models?: Record<string, { share: number | null; rate: number | null }>;
  nonCompete?: { share: number | null; miles: number | null; years: number | null }; track?: { share: number | null; years: number | null };
} = {}): OfferComponents {
  const q = (t: Quart, unit: string) => ({ unit, n: t[1] === null ? null : 30, p25: t[0], median: t[1], p75: t[2], withheld: t[1] === null });
  return {
    description: 'test',
    money: MONEY_COMPONENTS.map((c) => {
      const m = money[c.field] ?? { share: null, q: [null, null, null] as Quart };
      const withheld = m.q[1] === null;
      return {
        component: c.field, label: c.label, unit: c.unit, kind: c.kind, answered: m.share === null ? null : 40, share_with_pct: m.share,
        n_with: withheld ? null : 20, p25: m.q[0], median: m.q[1], p75: m.q[2], rounded: true, withheld,
      };
    }),
    pto_weeks: q(o.pto ?? [4, 5, 6], 'weeks a year'),
    call_nights_per_month: q(o.nights ?? [2.5, 4, 6.5], 'nights a month'),
    compensation_models: {
      answered: 50,
      models: COMPENSATION_MODELS.map((m) => {
        const g = o.models?.[m.value] ?? { share: 20, rate: null };
        return { model: m.value, label: m.label, description: m.description, share_pct: g.share, conversion_rate: g.rate === null ? { n: null, median: null, withheld: true } : { n: 12, median: g.rate, withheld: false } };
      }),
    },
    non_compete: {
      answered: 40, share_with_pct: o.nonCompete?.share ?? 50, n_with: 20, withheld: false,
      median_miles: o.nonCompete ? o.nonCompete.miles : 20, median_years: o.nonCompete ? o.nonCompete.years : 1,
    },
    partnership_track: { answered: 40, share_with_pct: o.track?.share ?? 10, n_with: 5, withheld: false, median_years: o.track ? o.track.years : 3 },
  };
}

/** The fixed specialty: national P10-P90, CME common (75.6%), call pay at 30%, loan repayment withheld. */
export function figures(state: OfferFigures['state'] = null, over: Partial<OfferFigures> = {}): OfferFigures {
  return {
    specialty: { slug: 'family-medicine', name: 'Family Medicine' },
    national: head(200_000, 230_000, 260_000, 300_000, 350_000, 80),
    state,
    wrvu: { n: 35, p10: 49, p25: 51, median: 55, p75: 56, p90: 62, withheld: false },
    components: components({
      call_pay: { share: 30.4, q: [17_000, 23_000, 26_000] },
      signing_bonus: { share: 32, q: [18_000, 23_000, 43_000] },
      retention_bonus: { share: 23.3, q: [29_000, 40_000, 41_000] },
      relocation: { share: 26, q: [9_000, 13_000, 15_000] },
      loan_repayment: { share: 5.5, q: [null, null, null] },
      cme_allowance: { share: 75.6, q: [3_370, 4_194, 4_715] },
    }, { models: { production: { share: 14, rate: 49 }, salary_plus_productivity: { share: 47, rate: 52 } } }),
    ...over,
  };
}

// ---------------------------------------------------------------- arbitraries

const ascending = (k: number, max: number) => fc.array(fc.integer({ min: 1, max }), { minLength: k, maxLength: k }).map((v) => v.sort((a, b) => a - b));

/** Headline figures: all five, P10/P90 withheld (3-14 reports), or withheld. Ties are common (small ranges). */
export const headlineArb: fc.Arbitrary<HeadlineFigures> = fc.tuple(ascending(5, 600), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 3, max: 400 })).map(([v, shape, n]) => {
  const s = v.map((x) => x * 1000);
  if (shape === 0) return WITHHELD;
  if (shape === 1) return head(null, s[1]!, s[2]!, s[3]!, null, Math.min(n, 14));
  return head(s[0]!, s[1]!, s[2]!, s[3]!, s[4]!, Math.max(n, 15));
});

const quart = (max: number, unit = 1): fc.Arbitrary<Quart> => fc.oneof(
  { weight: 1, arbitrary: fc.constant([null, null, null] as Quart) },
  { weight: 4, arbitrary: ascending(3, max).map((v) => v.map((x) => x * unit) as Quart) },
);
const share = fc.option(fc.integer({ min: 0, max: 1000 }).map((x) => x / 10), { nil: null, freq: 4 });

export const componentsArb: fc.Arbitrary<OfferComponents> = fc.record({
  money: fc.tuple(...MONEY_COMPONENTS.map(() => fc.record({ share, q: quart(200, 500) }))),
  pto: quart(12), nights: quart(15),
  rates: fc.tuple(...COMPENSATION_MODELS.map(() => fc.record({ share, rate: fc.option(fc.integer({ min: 20, max: 120 }), { nil: null }) }))),
  nonCompete: fc.record({ share, miles: fc.option(fc.integer({ min: 5, max: 60 }), { nil: null }), years: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }) }),
  track: fc.record({ share, years: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }) }),
}).map((r) => components(
  Object.fromEntries(MONEY_COMPONENTS.map((c, k) => [c.field, r.money[k]!])),
  { pto: r.pto, nights: r.nights, models: Object.fromEntries(COMPENSATION_MODELS.map((m, k) => [m.value, r.rates[k]!])), nonCompete: r.nonCompete, track: r.track },
));

export const figuresArb: fc.Arbitrary<OfferFigures> = fc.record({
  national: headlineArb,
  state: fc.option(fc.record({ slug: fc.constant('texas'), name: fc.constant('Texas'), figures: fc.option(headlineArb, { nil: null }) }), { nil: null }),
  wrvu: fc.tuple(ascending(5, 9000), fc.boolean()).map(([v, withheld]) => withheld
    ? { n: null, p10: null, p25: null, median: null, p75: null, p90: null, withheld: true }
    : { n: 30, p10: v[0]! / 100, p25: v[1]! / 100, median: v[2]! / 100, p75: v[3]! / 100, p90: v[4]! / 100, withheld: false }),
  components: componentsArb,
}).map((r) => ({ specialty: { slug: 'family-medicine', name: 'Family Medicine' }, ...r }));

const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 2 });
const dollars = (max: number) => fc.oneof(fc.integer({ min: 0, max }), fc.integer({ min: 0, max: max * 100 }).map((c) => c / 100));

/** A valid offer (every number within OFFER_NUMBERS, the cross-field rules kept). */
export const offerArb: fc.Arbitrary<Offer> = fc.record({
  base_salary: fc.integer({ min: 1, max: 900_000 }),
  bonus: opt(dollars(200_000)),
  call_pay: opt(dollars(80_000)),
  signing_bonus: opt(dollars(100_000)),
  retention_bonus: opt(dollars(100_000)),
  relocation: opt(dollars(40_000)),
  loan: opt(fc.tuple(fc.integer({ min: 1, max: 300_000 }), opt(fc.integer({ min: 1, max: 10 })))),
  cme_allowance: opt(dollars(10_000)),
  contract_years: opt(fc.integer({ min: 1, max: 10 })),
  hours_per_week: opt(fc.oneof(fc.integer({ min: 10, max: 100 }), fc.double({ min: 10, max: 100, noNaN: true }))),
  wrvus: opt(fc.integer({ min: 1, max: 100_000 })),
  wrvu_conversion_rate: opt(fc.integer({ min: 100, max: 50_000 }).map((c) => c / 100)),
  pto_weeks: opt(fc.integer({ min: 0, max: 52 }).map((x) => x / 2)),
  call_nights_per_month: opt(fc.integer({ min: 0, max: 31 })),
  nonCompete: opt(fc.oneof(fc.constant([0, undefined] as [number, number | undefined]), fc.tuple(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 10 })))),
  partnership_track_years: opt(fc.integer({ min: 0, max: 15 })),
  compensation_model: opt(fc.constantFrom(...COMPENSATION_MODELS.map((m) => m.value))),
}).map(({ loan, nonCompete, ...o }) => {
  const offer: Offer = { specialty: 'family-medicine' } as Offer;
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (offer as Record<string, unknown>)[k] = v;
  if (loan) {
    offer.loan_repayment = loan[0];
    if (loan[1] !== undefined) offer.loan_repayment_years = loan[1];
  }
  if (nonCompete) {
    offer.non_compete_miles = nonCompete[0];
    if (nonCompete[1] !== undefined) offer.non_compete_years = nonCompete[1];
  }
  return offer;
});

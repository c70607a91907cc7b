/**
 * The whole offer's open figures of one cell (pure): for each money component, how many of the reports that
 * answered have it and its quartiles among those who do; weeks off and call nights as quartiles; the share
 * of each pay model and its median $/wRVU conversion rate; the share with a non-compete (median radius and
 * years) and with a partnership track (median years).
 *
 * Every figure follows the open data's rules (README: Disclosure control): a floor on the reports behind it
 * (5), the record factors already applied to money values and conversion rates when the build read them, the
 * cell key method on each figure (its own column of draws), perturbed counts, and shares from perturbed
 * counts where a count below the floor counts as half the floor.
 *
 * Small cells of amounts (money components and $/wRVU rates, 24 reports or fewer: the rounded ones) are
 * protected more than a headline cell: the whole offer's cells are thin (a few reports of a specialty have a
 * retention bonus), and someone who planted every report of such a cell but one could otherwise read the
 * victim's amount off a quartile that is that report's value (test/disclosure/offer.test.ts measures it).
 * There each quartile and median is the Harrell-Davis estimate (a weighted average of every amount of the
 * cell: no figure is one report's amount) and its draw moves it by up to exp(OFFER_SMALL_SPAN / n^0.75),
 * twice the headline's move. From 25 reports on, and for weeks, nights, miles and years (coarse values that
 * many reports share, not distorted like pay): type-7 quantiles and the headline's draws, as every percentile.
 */
import { COMPENSATION_MODELS, MONEY_COMPONENTS, type MoneyComponent } from '../contract/offer-terms.ts';
import type { OfferComponents, QuantityFigures } from '../contract/offer-figures.ts';
import type { Dataset, OfferNumericColumn } from './dataset.ts';
import { cellKeyOf, COLUMN, drawsFor, perturbedCount, QUANTILE_DECAY, quantileMoveBound, SLOT, type CellNoise, type Column } from './disclosure.ts';
import { spreadRatio, towardsMedian } from './published.ts';
import { FLOORS, harrellDavis, quantile, ROUNDING_MAX_N, roundMoney, roundPct, roundRate, type Sorted } from './stats.ts';

/** A count below the floor enters a share as this (half the floor), whatever it is. */
export const SMALL_COUNT_STAND_IN = FLOORS.national / 2;

/** The span of a small cell's draws (24 reports or fewer): twice the headline's QUANTILE_SPAN. */
export const OFFER_SMALL_SPAN = 1.5;

/** A small cell of amounts (money, $/wRVU): 24 reports or fewer. */
const smallAmounts = (n: number, pay: boolean) => pay && n <= ROUNDING_MAX_N;

/**
 * Largest |log move| of a published quartile or median of the whole offer from n reports: for amounts (`pay`)
 * OFFER_SMALL_SPAN / n^0.75 up to 24 reports (a factor of at most exp(+-0.449) at 5: -36% to +57%; +-0.267 at
 * 10: -23% to +31%; +-0.138 at 24: -13% to +15%); otherwise the headline's bound (+-0.067 at 25).
 */
export function offerQuantileMoveBound(n: number, pay = true): number {
  return smallAmounts(n, pay) ? (n <= 0 ? 0 : OFFER_SMALL_SPAN / Math.pow(n, QUANTILE_DECAY)) : quantileMoveBound(n);
}

/**
 * A cell's P25, median and P75 before their draws: for amounts (`pay`) Harrell-Davis up to 24 reports, else
 * type 7; for amounts (distorted by the record factors) the quartiles brought towards the median by the
 * spread correction, as every pay percentile (published.ts).
 */
export function offerQuartiles(sorted: Sorted, pay: boolean): [number, number, number] {
  const q = (p: number) => (smallAmounts(sorted.length, pay) ? harrellDavis(sorted, p) : quantile(sorted, p));
  const [q1, median, q3] = [q(0.25), q(0.5), q(0.75)];
  const ratio = spreadRatio(q1, q3, pay);
  return [towardsMedian(q1, median, ratio), median, towardsMedian(q3, median, ratio)];
}

/** The published P25, median and P75 of a cell, unrounded: each moved by its own draw, then kept in order. */
function offerGrid(sorted: Sorted, noise: CellNoise): { p25: number; p50: number; p75: number } {
  const b = offerQuantileMoveBound(sorted.length, noise.pay);
  const slots = [SLOT.p25, SLOT.p50, SLOT.p75] as const;
  const [p25, p50, p75] = offerQuartiles(sorted, noise.pay)
    .map((q, k) => q * Math.exp(2 * noise.draws.draw(noise.key, noise.column, slots[k]!) * b))
    .sort((x, y) => x - y);
  return { p25: p25!, p50: p50!, p75: p75! };
}

const half = (v: number) => Math.round(v * 2) / 2;

export const OFFER_DESCRIPTION =
  'The rest of the offer, from the reports that answered each question (the same reports and compensation years as the headline figures; amounts as reported, not scaled to full time). A share is of the reports answering that question; quartiles and medians are among the reports that have the item.';

interface Ctx {
  ds: Dataset;
  floor: number;
}

function noiseOf(ctx: Ctx, idx: readonly number[], column: Column, pay: boolean): CellNoise {
  return { draws: drawsFor(ctx.ds.drawKey), key: cellKeyOf(ctx.ds.reports.keyLo, ctx.ds.reports.keyHi, idx), column, pay };
}

/** A published count of the reports `idx`: perturbed from the floor on, null below. */
function countOf(ctx: Ctx, idx: readonly number[]): number | null {
  if (idx.length < ctx.floor) return null;
  return perturbedCount(idx.length, [ctx.floor, FLOORS.tails, ROUNDING_MAX_N + 1], { draws: drawsFor(ctx.ds.drawKey), key: cellKeyOf(ctx.ds.reports.keyLo, ctx.ds.reports.keyHi, idx) });
}

/** What a count contributes to a share: its published value, or the stand-in below the floor. */
const shareCount = (ctx: Ctx, idx: readonly number[]) => countOf(ctx, idx) ?? SMALL_COUNT_STAND_IN;

/** Percent of `part` among `parts` (each a set of reports), from their share counts; null when fewer than the floor answered. */
function shareOf(ctx: Ctx, part: readonly number[], parts: (readonly number[])[]): number | null {
  if (parts.reduce((a, p) => a + p.length, 0) < ctx.floor) return null;
  const total = parts.reduce((a, p) => a + shareCount(ctx, p), 0);
  return roundPct((100 * shareCount(ctx, part)) / total);
}

function sortedValues(col: Float64Array, idx: readonly number[]): Float64Array {
  return Float64Array.from(idx, (i) => col[i]!).sort();
}

/** The reports of `idx` that answered `c` (a value, 0 included), and those of them above 0. */
function answeredAndWith(ctx: Ctx, idx: readonly number[], c: OfferNumericColumn): { answered: number[]; withIt: number[]; without: number[] } {
  const col = ctx.ds.reports.offer[c];
  const answered: number[] = [];
  const withIt: number[] = [];
  const without: number[] = [];
  for (const i of idx) {
    const v = col[i]!;
    if (Number.isNaN(v)) continue;
    answered.push(i);
    (v > 0 ? withIt : without).push(i);
  }
  return { answered, withIt, without };
}

function moneyFigures(ctx: Ctx, idx: readonly number[], c: (typeof MONEY_COMPONENTS)[number]) {
  const { answered, withIt, without } = answeredAndWith(ctx, idx, c.field);
  const n = withIt.length;
  const base = {
    component: c.field as MoneyComponent, label: c.label, unit: c.unit, kind: c.kind,
    answered: countOf(ctx, answered), share_with_pct: shareOf(ctx, withIt, [withIt, without]), n_with: countOf(ctx, withIt),
  };
  if (n < ctx.floor) return { ...base, p25: null, median: null, p75: null, rounded: false, withheld: true };
  const g = offerGrid(sortedValues(ctx.ds.reports.offer[c.field], withIt), noiseOf(ctx, withIt, COLUMN[c.field], true));
  return { ...base, p25: roundMoney(g.p25, n), median: roundMoney(g.p50, n), p75: roundMoney(g.p75, n), rounded: n <= ROUNDING_MAX_N, withheld: false };
}

/** Quartiles of a quantity (weeks, nights) over `idx`, to half units. */
function quantityFigures(ctx: Ctx, idx: readonly number[], c: 'pto_weeks' | 'call_nights_per_month', unit: string): QuantityFigures {
  if (idx.length < ctx.floor) return { unit, n: null, p25: null, median: null, p75: null, withheld: true };
  const g = offerGrid(sortedValues(ctx.ds.reports.offer[c], idx), noiseOf(ctx, idx, COLUMN[c], false));
  return { unit, n: countOf(ctx, idx), p25: half(g.p25), median: half(g.p50), p75: half(g.p75), withheld: false };
}

/** The median of column `c` over `idx` (a contract term's size), rounded by `round`; null below the floor. */
function medianOf(ctx: Ctx, idx: readonly number[], c: OfferNumericColumn, column: Column, round: (v: number, n: number) => number): number | null {
  if (idx.length < ctx.floor) return null;
  return round(offerGrid(sortedValues(ctx.ds.reports.offer[c], idx), noiseOf(ctx, idx, column, false)).p50, idx.length);
}

/** Miles: whole miles from 25 reports, else to 5 miles. */
const roundMiles = (v: number, n: number) => (n <= ROUNDING_MAX_N ? Math.round(v / 5) * 5 : Math.round(v));

const RATE_COLUMN = {
  salary: COLUMN.rate_salary, salary_plus_productivity: COLUMN.rate_salary_plus_productivity, production: COLUMN.rate_production,
  collections: COLUMN.rate_collections, shift: COLUMN.rate_shift,
} as const;

/**
 * The components section of the reports `idx` (a specialty's headline reports nationally). An empty `idx`
 * (a withheld specialty) gives every figure null.
 */
export function offerFigures(ds: Dataset, idx: readonly number[], floor: number = FLOORS.national): OfferComponents {
  const ctx: Ctx = { ds, floor };
  const O = ds.reports.offer;
  const nights = idx.filter((i) => O.call_nights_per_month[i]! > 0);
  const pto = idx.filter((i) => !Number.isNaN(O.pto_weeks[i]!));

  const byModel = COMPENSATION_MODELS.map(() => [] as number[]);
  for (const i of idx) if (O.compensation_model[i]! >= 0) byModel[O.compensation_model[i]!]!.push(i);
  const modelAnswered = byModel.flat();

  const nc = answeredAndWith(ctx, idx, 'non_compete_miles');
  const pt = answeredAndWith(ctx, idx, 'partnership_track_years');
  const ncWith = nc.withIt.length >= floor;
  const ptWith = pt.withIt.length >= floor;
  return {
    description: OFFER_DESCRIPTION,
    money: MONEY_COMPONENTS.map((c) => moneyFigures(ctx, idx, c)),
    pto_weeks: quantityFigures(ctx, pto, 'pto_weeks', 'weeks a year'),
    call_nights_per_month: quantityFigures(ctx, nights, 'call_nights_per_month', 'nights a month'),
    compensation_models: {
      answered: countOf(ctx, modelAnswered),
      models: COMPENSATION_MODELS.map((m, k) => {
        const rated = byModel[k]!.filter((i) => !Number.isNaN(O.wrvu_conversion_rate[i]!));
        const n = rated.length;
        return {
          model: m.value, label: m.label, description: m.description,
          share_pct: shareOf(ctx, byModel[k]!, byModel),
          conversion_rate: n < floor
            ? { n: null, median: null, withheld: true }
            : {
              n: countOf(ctx, rated),
              median: roundRate(offerGrid(sortedValues(O.wrvu_conversion_rate, rated), noiseOf(ctx, rated, RATE_COLUMN[m.value], true)).p50, n),
              withheld: false,
            },
        };
      }),
    },
    non_compete: {
      answered: countOf(ctx, nc.answered), share_with_pct: shareOf(ctx, nc.withIt, [nc.withIt, nc.without]), n_with: countOf(ctx, nc.withIt),
      withheld: !ncWith,
      median_miles: medianOf(ctx, nc.withIt, 'non_compete_miles', COLUMN.non_compete_miles, roundMiles),
      median_years: medianOf(ctx, nc.withIt.filter((i) => !Number.isNaN(O.non_compete_years[i]!)), 'non_compete_years', COLUMN.non_compete_years, half),
    },
    partnership_track: {
      answered: countOf(ctx, pt.answered), share_with_pct: shareOf(ctx, pt.withIt, [pt.withIt, pt.without]), n_with: countOf(ctx, pt.withIt),
      withheld: !ptWith,
      median_years: medianOf(ctx, pt.withIt, 'partnership_track_years', COLUMN.partnership_track_years, half),
    },
  };
}

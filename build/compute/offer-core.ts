/**
 * The whole offer's figures before rounding (pure), shared by the open data's components section
 * (offer-figures.ts) and the keyed API's (keyed-offer.ts), so one set of reports gives one figure in both:
 * the same subsets (who answered, who has it), the same draw columns (disclosure.ts: COLUMN), the same
 * published grid (published.ts) and the same share rule. What differs between the two interfaces is only
 * the rounding of each figure and the classes a published count stays within (`OfferCtx.thresholds`).
 *
 * Money values and $/wRVU conversion rates arrive already multiplied by each report's record factor (the
 * build reads them so); weeks, nights, miles and years are not pay (no spread correction).
 */
import { COMPENSATION_MODELS, MONEY_COMPONENTS, OFFER_FIGURE_COLUMNS, type MoneyComponent, type OfferFigureColumn } from '../contract/offer-terms.ts';
import { COLUMN, drawsFor, type Draws, perturbedCount, QUANTILE_DECAY, quantileMoveBound, SLOT, TWO32, type CellKey, type CellNoise, type Column, type DrawPair } from './disclosure.ts';
import { spreadRatio, towardsMedian, type PublishedGrid } from './published.ts';
import { FLOORS, harrellDavis, quantile, ROUNDING_MAX_N, type Sorted } from './stats.ts';

/*
 * Small cells of amounts (money components and $/wRVU rates, 24 reports or fewer: the rounded ones) are
 * protected more than a headline cell: the whole offer's cells are thin (a few reports of a specialty have a
 * retention bonus), and someone who planted every report of such a cell but one could otherwise read the
 * victim's amount off a quartile that is that report's value (test/disclosure/offer.test.ts measures it).
 * There each quartile and median is the Harrell-Davis estimate (a weighted average of every amount of the
 * cell: no figure is one report's amount) and its draw moves it by up to exp(OFFER_SMALL_SPAN / n^0.75),
 * twice the headline's move. From 25 reports on, and for weeks, nights, miles and years (coarse values that
 * many reports share, not distorted like pay): type-7 quantiles and the headline's draws, as every percentile.
 */

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

/** The published P25, median and P75 of a cell, unrounded: each moved by its own draw, then kept in order (no P10/P90). */
export function offerGrid(sorted: Sorted, noise: CellNoise): PublishedGrid {
  const b = offerQuantileMoveBound(sorted.length, noise.pay);
  const slots = [SLOT.p25, SLOT.p50, SLOT.p75] as const;
  const [p25, p50, p75] = offerQuartiles(sorted, noise.pay)
    .map((q, k) => q * Math.exp(2 * noise.draws.draw(noise.key, noise.column, slots[k]!) * b))
    .sort((x, y) => x - y);
  return { p10: null, p25: p25!, p50: p50!, p75: p75!, p90: null };
}

/** Per-report values: NaN unknown; compensation_model an index into COMPENSATION_MODELS, -1 unknown. */
export type OfferFigureColumns = Record<OfferFigureColumn, Float64Array> & { compensation_model: Int8Array };

/** Where the figures come from: the reports' values, their record-key lanes, and the key of the draws. */
export interface OfferSource {
  offer: OfferFigureColumns;
  keyLo: ArrayLike<number>;
  keyHi: ArrayLike<number>;
  drawKey: Uint8Array;
}

export interface OfferCtx {
  src: OfferSource;
  /** reports a figure needs (5 in both interfaces) */
  floor: number;
  /**
   * the classes a published count stays within (disclosure.ts: perturbedCount), the first the floor: the
   * open data's [5, 15, 25] (its rounding changes at 25), the keyed API's [5, 15] (as every keyed count)
   */
  thresholds: readonly number[];
}

/** No draws (every figure exact): a null draw key, which only the tests of the rules pass (as open cells do: cells.ts). */
const NO_DRAWS: Draws = { draw: () => 0 };
const drawsOf = (ctx: OfferCtx): Draws => (ctx.src.drawKey ? drawsFor(ctx.src.drawKey) : NO_DRAWS);

/** A count below the floor enters a share as this (half the floor), whatever it is. */
export const SMALL_COUNT_STAND_IN = FLOORS.national / 2;

/** To half units (weeks, nights, years). */
export const half = (v: number) => Math.round(v * 2) / 2;

/** The draw column of each money component. */
export const MONEY_COLUMN: Record<MoneyComponent, Column> = {
  call_pay: COLUMN.call_pay, signing_bonus: COLUMN.signing_bonus, retention_bonus: COLUMN.retention_bonus,
  relocation: COLUMN.relocation, loan_repayment: COLUMN.loan_repayment, cme_allowance: COLUMN.cme_allowance,
};

/** The draw column of each pay model's conversion rate. */
export const RATE_COLUMN = {
  salary: COLUMN.rate_salary, salary_plus_productivity: COLUMN.rate_salary_plus_productivity, production: COLUMN.rate_production,
  collections: COLUMN.rate_collections, shift: COLUMN.rate_shift,
} as const;

/**
 * A set of reports behind a figure, with the lane sums of their record keys taken as they were added (its cell
 * key is those sums modulo 2^32: disclosure.ts, cellKeyOf), so a subset that gives a count, a share and a
 * quartile grid is keyed once, in the pass that found it.
 */
interface Subset {
  /** how many reports */
  n: number;
  /** which, for a subset whose values are read (quartiles, medians); null for one that is only counted */
  idx: number[] | null;
  /** the two lanes' sums (exact: up to 2^21 reports x 2^32 stays below 2^53) */
  lo: number;
  hi: number;
}

/** A subset whose reports are listed (`listed`), or only counted and keyed. */
const subset = (listed: boolean): Subset => ({ n: 0, idx: listed ? [] : null, lo: 0, hi: 0 });

function add(s: Subset, i: number, lo: number, hi: number): void {
  s.n++;
  s.idx?.push(i);
  s.lo += lo;
  s.hi += hi;
}

/** The union of disjoint subsets, to be counted (its reports are not listed). */
function union(parts: Subset[]): Subset {
  const out = subset(false);
  for (const p of parts) {
    out.n += p.n;
    out.lo += p.lo;
    out.hi += p.hi;
  }
  return out;
}

const keyOf = (s: Subset): CellKey => ({ lo: s.lo % TWO32, hi: s.hi % TWO32 });

function noiseOf(ctx: OfferCtx, s: Subset, column: Column, pay: boolean): CellNoise {
  return { draws: drawsOf(ctx), key: keyOf(s), column, pay };
}

/** A published count of the reports of `s`: perturbed from the floor on (within the context's classes), null below. */
function offerCount(ctx: OfferCtx, s: Subset): number | null {
  if (s.n < ctx.floor) return null;
  return perturbedCount(s.n, ctx.thresholds, { draws: drawsOf(ctx), key: keyOf(s) });
}

/** What a count contributes to a share: its published value, or the stand-in below the floor. */
const shareCount = (ctx: OfferCtx, s: Subset) => offerCount(ctx, s) ?? SMALL_COUNT_STAND_IN;

/** Percent of `part` among `parts` (each a set of reports), from their share counts, unrounded; null when fewer than the floor answered. */
function shareOf(ctx: OfferCtx, part: Subset, parts: Subset[]): number | null {
  if (parts.reduce((a, p) => a + p.n, 0) < ctx.floor) return null;
  const total = parts.reduce((a, p) => a + shareCount(ctx, p), 0);
  return (100 * shareCount(ctx, part)) / total;
}

function sortedValues(col: Float64Array, idx: readonly number[]): Float64Array {
  const out = new Float64Array(idx.length);
  for (let k = 0; k < idx.length; k++) out[k] = col[idx[k]!]!;
  return out.sort();
}

/** The published grid (unrounded) of column `c` over `s`, or null below the floor. */
function gridOf(ctx: OfferCtx, s: Subset, c: OfferFigureColumn, column: Column, pay: boolean): PublishedGrid | null {
  if (s.n < ctx.floor) return null;
  return offerGrid(sortedValues(ctx.src.offer[c], s.idx!), noiseOf(ctx, s, column, pay));
}

/** The reports that answered a has-it-or-not question (a value, 0 included): those above 0 and those at 0. */
interface Answers {
  withIt: Subset;
  without: Subset;
}

/** Who answered a has-it-or-not question, and how many have it: counts as published, the share unrounded. */
export interface HasParts {
  answered: number | null;
  share_with_pct: number | null;
  n_with: number | null;
  /** exact reports with it (for floors and rounding) */
  exactWith: number;
}

function hasParts(ctx: OfferCtx, a: Answers): HasParts {
  const answered = union([a.withIt, a.without]);
  return {
    answered: offerCount(ctx, answered), share_with_pct: shareOf(ctx, a.withIt, [a.withIt, a.without]), n_with: offerCount(ctx, a.withIt), exactWith: a.withIt.n,
  };
}

export interface MoneyParts extends HasParts {
  component: MoneyComponent;
  /** quartiles among those with it, unrounded; null below the floor */
  grid: PublishedGrid | null;
}

export interface QuantityParts {
  n: number | null;
  exactN: number;
  grid: PublishedGrid | null;
}

/** A median of a term's size (unrounded) and the exact reports behind it; p50 null below the floor. */
export interface MedianParts {
  exactN: number;
  p50: number | null;
}

export interface OfferParts {
  /** MONEY_COMPONENTS order */
  money: MoneyParts[];
  pto_weeks: QuantityParts;
  /** among reports that take call (above 0) */
  call_nights_per_month: QuantityParts;
  compensation_models: {
    answered: number | null;
    /** COMPENSATION_MODELS order */
    models: { share_pct: number | null; rate: MedianParts & { n: number | null } }[];
  };
  non_compete: HasParts & { miles: MedianParts; years: MedianParts };
  partnership_track: HasParts & { years: MedianParts };
}

function medianParts(ctx: OfferCtx, s: Subset, c: OfferFigureColumn, column: Column, pay: boolean): MedianParts {
  return { exactN: s.n, p50: gridOf(ctx, s, c, column, pay)?.p50 ?? null };
}

function quantityParts(ctx: OfferCtx, s: Subset, c: 'pto_weeks' | 'call_nights_per_month'): QuantityParts {
  return { n: offerCount(ctx, s), exactN: s.n, grid: gridOf(ctx, s, c, COLUMN[c], false) };
}

const answered = new WeakMap<OfferFigureColumns, Uint8Array>();

/** 1 for each report that answers some whole-offer question (computed once per set of columns). */
export function answersAny(o: OfferFigureColumns): Uint8Array {
  let a = answered.get(o);
  if (a) return a;
  const n = o.compensation_model.length;
  a = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (o.compensation_model[i]! >= 0) a[i] = 1;
    else for (const c of OFFER_FIGURE_COLUMNS) if (!Number.isNaN(o[c][i]!)) { a[i] = 1; break; }
  }
  answered.set(o, a);
  return a;
}

/** The has-it-or-not questions: the money components (MONEY_COMPONENTS order), then non-compete and partnership track. */
const HAS_COLUMNS: readonly OfferFigureColumn[] = [...MONEY_COMPONENTS.map((c) => c.field), 'non_compete_miles', 'partnership_track_years'];

/**
 * Every whole-offer figure of the reports `idx` before rounding, from one pass over them. An empty `idx`
 * gives every figure null.
 */
export function offerParts(ctx: OfferCtx, idx: ArrayLike<number>): OfferParts {
  const O = ctx.src.offer;
  const has = HAS_COLUMNS.map((c): Answers & { col: Float64Array } => ({ col: O[c], withIt: subset(true), without: subset(false) }));
  const nights = subset(true);
  const pto = subset(true);
  const byModel = COMPENSATION_MODELS.map(() => subset(false));
  const rated = COMPENSATION_MODELS.map(() => subset(true));
  const ncYears = subset(true);
  const any = answersAny(O);
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k]!;
    if (!any[i]) continue; // answered nothing: in no subset
    const lo = ctx.src.keyLo[i]!;
    const hi = ctx.src.keyHi[i]!;
    for (let q = 0; q < has.length; q++) {
      const h = has[q]!;
      const v = h.col[i]!;
      if (v > 0) add(h.withIt, i, lo, hi);
      else if (!Number.isNaN(v)) add(h.without, i, lo, hi); // 0: none; NaN: not answered
    }
    if (O.call_nights_per_month[i]! > 0) add(nights, i, lo, hi);
    if (!Number.isNaN(O.pto_weeks[i]!)) add(pto, i, lo, hi);
    const m = O.compensation_model[i]!;
    if (m >= 0) {
      add(byModel[m]!, i, lo, hi);
      if (!Number.isNaN(O.wrvu_conversion_rate[i]!)) add(rated[m]!, i, lo, hi);
    }
    if (O.non_compete_miles[i]! > 0 && !Number.isNaN(O.non_compete_years[i]!)) add(ncYears, i, lo, hi);
  }
  const named = union(byModel);
  const nc = has[MONEY_COMPONENTS.length]!;
  const pt = has[MONEY_COMPONENTS.length + 1]!;
  // every draw the figures below take, enciphered together: the count of each subset from the floor on, and
  // the grid column of each subset that gives quartiles or a median (plain pushes: no spread of arrays that
  // may be empty, which sent V8 back and forth between optimised and unoptimised code)
  const pairs: DrawPair[] = [];
  const count = (x: Subset) => {
    if (x.n >= ctx.floor) pairs.push({ key: keyOf(x), column: COLUMN.total });
  };
  const gridded = (x: Subset, column: Column) => {
    if (x.n >= ctx.floor) pairs.push({ key: keyOf(x), column });
  };
  MONEY_COMPONENTS.forEach((c, k) => gridded(has[k]!.withIt, MONEY_COLUMN[c.field]));
  for (const h of has) {
    count(h.withIt);
    count(h.without);
    count(union([h.withIt, h.without]));
  }
  count(nights);
  count(pto);
  count(named);
  COMPENSATION_MODELS.forEach((m, k) => {
    count(byModel[k]!);
    count(rated[k]!);
    gridded(rated[k]!, RATE_COLUMN[m.value]);
  });
  gridded(pto, COLUMN.pto_weeks);
  gridded(nights, COLUMN.call_nights_per_month);
  gridded(nc.withIt, COLUMN.non_compete_miles);
  gridded(ncYears, COLUMN.non_compete_years);
  gridded(pt.withIt, COLUMN.partnership_track_years);
  drawsOf(ctx).prefetch?.(pairs);
  return {
    money: MONEY_COMPONENTS.map((c, k) => ({ component: c.field, ...hasParts(ctx, has[k]!), grid: gridOf(ctx, has[k]!.withIt, c.field, MONEY_COLUMN[c.field], true) })),
    pto_weeks: quantityParts(ctx, pto, 'pto_weeks'),
    call_nights_per_month: quantityParts(ctx, nights, 'call_nights_per_month'),
    compensation_models: {
      answered: offerCount(ctx, named),
      models: COMPENSATION_MODELS.map((m, k) => ({
        share_pct: shareOf(ctx, byModel[k]!, byModel),
        rate: { n: offerCount(ctx, rated[k]!), ...medianParts(ctx, rated[k]!, 'wrvu_conversion_rate', RATE_COLUMN[m.value], true) },
      })),
    },
    non_compete: {
      ...hasParts(ctx, nc),
      miles: medianParts(ctx, nc.withIt, 'non_compete_miles', COLUMN.non_compete_miles, false),
      years: medianParts(ctx, ncYears, 'non_compete_years', COLUMN.non_compete_years, false),
    },
    partnership_track: {
      ...hasParts(ctx, pt),
      years: medianParts(ctx, pt.withIt, 'partnership_track_years', COLUMN.partnership_track_years, false),
    },
  };
}

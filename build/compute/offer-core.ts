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
import { COMPENSATION_MODELS, MONEY_COMPONENTS, type MoneyComponent } from '../contract/offer-terms.ts';
import { cellKeyOf, COLUMN, drawsFor, perturbedCount, type CellNoise, type Column } from './disclosure.ts';
import { publishedGrid, type PublishedGrid } from './published.ts';
import { FLOORS } from './stats.ts';

/** The whole-offer columns a figure reads (loan_repayment_years is not one). */
export const OFFER_FIGURE_COLUMNS = [
  'call_pay', 'signing_bonus', 'retention_bonus', 'relocation', 'loan_repayment', 'cme_allowance',
  'pto_weeks', 'call_nights_per_month', 'wrvu_conversion_rate', 'non_compete_miles', 'non_compete_years', 'partnership_track_years',
] as const;
export type OfferFigureColumn = (typeof OFFER_FIGURE_COLUMNS)[number];

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

/** A count below the floor enters a share as this (half the floor), whatever it is. */
export const SMALL_COUNT_STAND_IN = FLOORS.national / 2;

/** To half units (weeks, nights, years). */
export const half = (v: number) => Math.round(v * 2) / 2;

/** Whole offer money components in their fixed order, with their draw columns. */
export const MONEY_COLUMN: Record<MoneyComponent, Column> = {
  call_pay: COLUMN.call_pay, signing_bonus: COLUMN.signing_bonus, retention_bonus: COLUMN.retention_bonus,
  relocation: COLUMN.relocation, loan_repayment: COLUMN.loan_repayment, cme_allowance: COLUMN.cme_allowance,
};

/** The draw column of each pay model's conversion rate. */
export const RATE_COLUMN = {
  salary: COLUMN.rate_salary, salary_plus_productivity: COLUMN.rate_salary_plus_productivity, production: COLUMN.rate_production,
  collections: COLUMN.rate_collections, shift: COLUMN.rate_shift,
} as const;

function noiseOf(ctx: OfferCtx, idx: readonly number[], column: Column, pay: boolean): CellNoise {
  return { draws: drawsFor(ctx.src.drawKey), key: cellKeyOf(ctx.src.keyLo, ctx.src.keyHi, idx), column, pay };
}

/** A published count of the reports `idx`: perturbed from the floor on (within the context's classes), null below. */
export function offerCount(ctx: OfferCtx, idx: readonly number[]): number | null {
  if (idx.length < ctx.floor) return null;
  return perturbedCount(idx.length, ctx.thresholds, { draws: drawsFor(ctx.src.drawKey), key: cellKeyOf(ctx.src.keyLo, ctx.src.keyHi, idx) });
}

/** What a count contributes to a share: its published value, or the stand-in below the floor. */
const shareCount = (ctx: OfferCtx, idx: readonly number[]) => offerCount(ctx, idx) ?? SMALL_COUNT_STAND_IN;

/** Percent of `part` among `parts` (each a set of reports), from their share counts, unrounded; null when fewer than the floor answered. */
function shareOf(ctx: OfferCtx, part: readonly number[], parts: (readonly number[])[]): number | null {
  if (parts.reduce((a, p) => a + p.length, 0) < ctx.floor) return null;
  const total = parts.reduce((a, p) => a + shareCount(ctx, p), 0);
  return (100 * shareCount(ctx, part)) / total;
}

function sortedValues(col: Float64Array, idx: readonly number[]): Float64Array {
  return Float64Array.from(idx, (i) => col[i]!).sort();
}

/** The published grid (unrounded) of column `c` over `idx`, or null below the floor. */
function gridOf(ctx: OfferCtx, idx: readonly number[], c: OfferFigureColumn, column: Column, pay: boolean): PublishedGrid | null {
  if (idx.length < ctx.floor) return null;
  return publishedGrid(sortedValues(ctx.src.offer[c], idx), noiseOf(ctx, idx, column, pay));
}

/** The reports of `idx` that answered `c` (a value, 0 included), and those of them above 0 and at 0. */
function answeredAndWith(ctx: OfferCtx, idx: ArrayLike<number>, c: OfferFigureColumn): { answered: number[]; withIt: number[]; without: number[] } {
  const col = ctx.src.offer[c];
  const answered: number[] = [];
  const withIt: number[] = [];
  const without: number[] = [];
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k]!;
    const v = col[i]!;
    if (Number.isNaN(v)) continue;
    answered.push(i);
    (v > 0 ? withIt : without).push(i);
  }
  return { answered, withIt, without };
}

/** Who answered a has-it-or-not question, and how many have it: counts as published, the share unrounded. */
export interface HasParts {
  answered: number | null;
  share_with_pct: number | null;
  n_with: number | null;
  /** exact reports with it (for floors and rounding) */
  exactWith: number;
}

function hasParts(ctx: OfferCtx, s: { answered: number[]; withIt: number[]; without: number[] }): HasParts {
  return {
    answered: offerCount(ctx, s.answered), share_with_pct: shareOf(ctx, s.withIt, [s.withIt, s.without]), n_with: offerCount(ctx, s.withIt), exactWith: s.withIt.length,
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

function medianParts(ctx: OfferCtx, idx: readonly number[], c: OfferFigureColumn, column: Column, pay: boolean): MedianParts {
  return { exactN: idx.length, p50: gridOf(ctx, idx, c, column, pay)?.p50 ?? null };
}

function quantityParts(ctx: OfferCtx, idx: readonly number[], c: 'pto_weeks' | 'call_nights_per_month'): QuantityParts {
  return { n: offerCount(ctx, idx), exactN: idx.length, grid: gridOf(ctx, idx, c, COLUMN[c], false) };
}

/**
 * Every whole-offer figure of the reports `idx` before rounding. An empty `idx` gives every figure null.
 */
export function offerParts(ctx: OfferCtx, idx: ArrayLike<number>): OfferParts {
  const O = ctx.src.offer;
  const nights: number[] = [];
  const pto: number[] = [];
  const byModel = COMPENSATION_MODELS.map(() => [] as number[]);
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k]!;
    if (O.call_nights_per_month[i]! > 0) nights.push(i);
    if (!Number.isNaN(O.pto_weeks[i]!)) pto.push(i);
    const m = O.compensation_model[i]!;
    if (m >= 0) byModel[m]!.push(i);
  }
  const nc = answeredAndWith(ctx, idx, 'non_compete_miles');
  const pt = answeredAndWith(ctx, idx, 'partnership_track_years');
  return {
    money: MONEY_COMPONENTS.map((c) => {
      const s = answeredAndWith(ctx, idx, c.field);
      return { component: c.field, ...hasParts(ctx, s), grid: gridOf(ctx, s.withIt, c.field, MONEY_COLUMN[c.field], true) };
    }),
    pto_weeks: quantityParts(ctx, pto, 'pto_weeks'),
    call_nights_per_month: quantityParts(ctx, nights, 'call_nights_per_month'),
    compensation_models: {
      answered: offerCount(ctx, byModel.flat()),
      models: COMPENSATION_MODELS.map((m, k) => {
        const rated = byModel[k]!.filter((i) => !Number.isNaN(O.wrvu_conversion_rate[i]!));
        return {
          share_pct: shareOf(ctx, byModel[k]!, byModel),
          rate: { n: offerCount(ctx, rated), ...medianParts(ctx, rated, 'wrvu_conversion_rate', RATE_COLUMN[m.value], true) },
        };
      }),
    },
    non_compete: {
      ...hasParts(ctx, nc),
      miles: medianParts(ctx, nc.withIt, 'non_compete_miles', COLUMN.non_compete_miles, false),
      years: medianParts(ctx, nc.withIt.filter((i) => !Number.isNaN(O.non_compete_years[i]!)), 'non_compete_years', COLUMN.non_compete_years, false),
    },
    partnership_track: {
      ...hasParts(ctx, pt),
      years: medianParts(ctx, pt.withIt, 'partnership_track_years', COLUMN.partnership_track_years, false),
    },
  };
}

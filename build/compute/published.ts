/**
 * Published order statistics of a cell (pure): the quantiles and the median's 95% interval as every
 * interface shows them, moved by the cell key method (disclosure.ts) and kept consistent. The keyed API
 * (keyed.ts) and the open cells (cells.ts) both call these, so a figure has one definition.
 */
import { FLOORS, medianCiRanks, quantile, type Sorted } from './stats.ts';
import { LOG_FACTOR_VARIANCE, perturbQuantile, quantileMoveBound, SLOT, type CellNoise, type Slot } from './disclosure.ts';

export type { CellNoise } from './disclosure.ts';

/** P10 and P90 are published from this many reports (every interface). */
export const TAILS_MIN_N = FLOORS.tails;

const SLOT_OF_P = new Map<number, Slot>([[0.1, SLOT.p10], [0.25, SLOT.p25], [0.5, SLOT.p50], [0.75, SLOT.p75], [0.9, SLOT.p90]]);

/** IQR / sd of a normal distribution. */
const IQR_PER_SD = 1.349;

/**
 * How much of a pay cell's log spread is the record factors' (disclosure.ts): the quartiles of distorted pay
 * sit further from the median than those of the pay itself, by the factors' variance. The ratio
 * sqrt(1 - Var(log factor) / Var(log pay as distorted)), from the cell's own quartiles q1 and q3, brings
 * them back (a normal approximation of log pay; at least 0.5). 1 for columns the factors do not touch.
 */
export function spreadRatio(q1: number, q3: number, pay: boolean): number {
  if (!pay || !(q1 > 0) || !(q3 > q1)) return 1;
  const sd = Math.log(q3 / q1) / IQR_PER_SD;
  return Math.sqrt(Math.max(0.25, 1 - LOG_FACTOR_VARIANCE / (sd * sd)));
}

/** A quantile q brought towards the median by the spread ratio, in log terms (the median and 0 stay). */
export function towardsMedian(q: number, median: number, ratio: number): number {
  return ratio === 1 || q === median || !(q > 0) || !(median > 0) ? q : median * Math.pow(q / median, ratio);
}

/**
 * Published quantiles `ps` (ascending, from 0.1 0.25 0.5 0.75 0.9) of a sorted sample, unrounded: the
 * spread correction around the median, then each moved by its own draw, then put back in order
 * (P10 <= P25 <= ... whatever the noise drew).
 */
export function publishedQuantiles(sorted: Sorted, ps: readonly number[], noise: CellNoise): number[] {
  const n = sorted.length;
  const median = quantile(sorted, 0.5);
  const ratio = spreadRatio(quantile(sorted, 0.25), quantile(sorted, 0.75), noise.pay);
  return ps.map((p) => perturbQuantile(towardsMedian(quantile(sorted, p), median, ratio), n, noise, SLOT_OF_P.get(p)!)).sort((a, b) => a - b);
}

export interface PublishedGrid {
  p10: number | null;
  p25: number;
  p50: number;
  p75: number;
  p90: number | null;
}

/**
 * The standard grid of a cell as every interface publishes it, unrounded: P10..P90 from TAILS_MIN_N values,
 * P25..P75 below (P10/P90 null). Every figure that shows a part of it (a breakdown row's quartiles, a
 * productivity P25-P90) takes it from here, so one set of reports shows the same P25 wherever it appears.
 */
export function publishedGrid(sorted: Sorted, noise: CellNoise): PublishedGrid {
  if (sorted.length >= TAILS_MIN_N) {
    const [p10, p25, p50, p75, p90] = publishedQuantiles(sorted, [0.1, 0.25, 0.5, 0.75, 0.9], noise);
    return { p10: p10!, p25: p25!, p50: p50!, p75: p75!, p90: p90! };
  }
  const [p25, p50, p75] = publishedQuantiles(sorted, [0.25, 0.5, 0.75], noise);
  return { p10: null, p25: p25!, p50: p50!, p75: p75!, p90: null };
}

export interface PublishedCi {
  lower: number;
  upper: number;
  /** achieved coverage of the order-statistic interval, or the nominal 0.95 of the approximate one */
  coverage: number;
  method: 'order_statistics' | 'approximate';
}

/** z of a two-sided 95% normal interval; 1.2533 = sqrt(pi / 2) (the median's standard error over the mean's). */
const Z95 = 1.959964;

/**
 * The median's published 95% interval, which covers the sampling error and the disclosure noise together.
 * From 9 reports the distribution-free interval [x(k), x(n-k+1)] of the cell's distorted values exists and is
 * not [min, max] (the factors are symmetric in log, so the distorted values' median is the pay's median, and
 * the interval covers it as stated); each bound is then moved OUTWARD by a share of the largest move of a
 * quantile, drawn from its own slot, and the interval holds the published median. Below 9 it would be
 * [min, max] (or not exist): it is built from the published median and quartiles instead,
 * median +- (1.96 x 1.2533 x (P75 - P25) / 1.349 / sqrt(n) + the median's largest move), floored at 0 and
 * labelled approximate; it holds no report that the quartiles do not.
 */
export function publishedMedianCi(sorted: Sorted, noise: CellNoise, p25: number, p50: number, p75: number): PublishedCi {
  const n = sorted.length;
  const { k, coverage } = medianCiRanks(n);
  const move = quantileMoveBound(n);
  if (k >= 2) {
    const out = (slot: Slot) => move * (0.5 + noise.draws.draw(noise.key, noise.column, slot));
    const lo = sorted[k - 1]! * Math.exp(-out(SLOT.ciLower));
    const hi = sorted[n - k]! * Math.exp(out(SLOT.ciUpper));
    return { lower: Math.min(lo, p50), upper: Math.max(hi, p50), coverage, method: 'order_statistics' };
  }
  const half = (Z95 * 1.2533 * Math.max(0, p75 - p25)) / IQR_PER_SD / Math.sqrt(n) + p50 * (Math.exp(move) - 1);
  return { lower: Math.max(0, p50 - half), upper: p50 + half, coverage: 0.95, method: 'approximate' };
}

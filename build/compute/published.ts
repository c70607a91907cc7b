/**
 * Published order statistics of a cell (pure): the quantiles and the median's 95% interval as every
 * interface shows them, moved by the cell key method (disclosure.ts) and kept consistent. The keyed API
 * (keyed.ts) and the open cells (cells.ts) both call these, so a figure has one definition.
 */
import { FLOORS, medianCiRanks, quantile, type Sorted } from './stats.ts';
import { perturbQuantile, STREAM_CI_LOWER, STREAM_CI_UPPER, type Column } from './disclosure.ts';

/** P10 and P90 are published from this many reports (every interface). */
export const TAILS_MIN_N = FLOORS.tails;

/** The size of a column's perturbation: its interquartile range, or a tenth of its median where that is 0. */
export function spreadOf(sorted: Sorted): number {
  if (sorted.length === 0) return 0;
  const iqr = quantile(sorted, 0.75) - quantile(sorted, 0.25);
  return iqr > 0 ? iqr : Math.abs(quantile(sorted, 0.5)) / 10;
}

/** The stream of percentile p (0 < p < 1): its whole percent. */
export const streamOfP = (p: number) => Math.round(p * 100);

/** Where a cell's figures come from: its values ascending, the cell key of exactly those reports, the noise column and size. */
export interface CellNoise {
  key: number;
  column: Column;
  spread: number;
}

/**
 * Published quantiles `ps` (ascending) of a sorted sample, unrounded: each moved by its own stream, then put
 * back in order (P10 <= P25 <= ... whatever the noise drew).
 */
export function publishedQuantiles(sorted: Sorted, ps: readonly number[], noise: CellNoise): number[] {
  const n = sorted.length;
  return ps
    .map((p) => perturbQuantile(quantile(sorted, p), n, noise.key, noise.column, streamOfP(p), noise.spread))
    .sort((a, b) => a - b);
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

/** z of a two-sided 95% normal interval; 1.2533 = sqrt(pi / 2) (the median's standard error over the mean's); 1.349 = IQR / sd of a normal. */
const Z95 = 1.959964;

/**
 * The median's published 95% interval. From 9 reports the distribution-free interval [x(k), x(n-k+1)] exists
 * and is not [min, max]: its bounds are order statistics, so each moves by its own stream (and the interval
 * is widened to hold the published median). Below 9 it would be [min, max] (or not exist): it is built from
 * the published median and quartiles instead, median +- 1.96 x 1.2533 x (P75 - P25) / 1.349 / sqrt(n),
 * floored at 0 and labelled approximate; it holds no report that the quartiles do not.
 */
export function publishedMedianCi(sorted: Sorted, noise: CellNoise, p25: number, p50: number, p75: number): PublishedCi {
  const n = sorted.length;
  const { k, coverage } = medianCiRanks(n);
  if (k >= 2) {
    const lo = perturbQuantile(sorted[k - 1]!, n, noise.key, noise.column, STREAM_CI_LOWER, noise.spread);
    const hi = perturbQuantile(sorted[n - k]!, n, noise.key, noise.column, STREAM_CI_UPPER, noise.spread);
    return { lower: Math.min(lo, hi, p50), upper: Math.max(lo, hi, p50), coverage, method: 'order_statistics' };
  }
  const half = (Z95 * 1.2533 * Math.max(0, p75 - p25)) / 1.349 / Math.sqrt(n);
  return { lower: Math.max(0, p50 - half), upper: p50 + half, coverage: 0.95, method: 'approximate' };
}

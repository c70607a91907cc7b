/**
 * Disclosure control (README: Disclosure control), pure: the cell key method, for sums (means, SDs) here
 * and for order statistics (percentiles, interval bounds) in the second half of this file.
 *
 * A mean times its n is a sum, and sums subtract: publishing the mean of a scope and of all but one of its
 * parts publishes the last part. So every published sum gets a small, secret, fixed perturbation:
 *
 * - every report has permanent record keys: 32-bit integers derived from its id under a secret that lives
 *   only in the reports DB (build/source/record-keys.ts); one key per "stream" (pay sums, sums of squares,
 *   pay per wRVU), so that a mean and an SD never share a perturbation (order statistics derive their draws
 *   from the pay-sum cell key with a second mix per figure: see below, and README's known limits);
 * - a cell's key is the sum of its reports' record keys modulo 2^32: it depends only on which reports are
 *   in the cell, so the same reports give the same figure whatever query, interface or year range reaches
 *   them, and asking again changes nothing;
 * - the cell key is mixed into a noise value u in [-1/2, 1/2), and the cell's sum moves by u x span, where
 *   span is NOISE_SPAN x a reference value of the specialty (its national median: "one typical report").
 *
 * Differencing two published sums then gives the withheld part plus the difference of two independent
 * noises: an error of about a typical report, whatever n. Sums of squared deviations (standard deviations)
 * get their own noise, SQUARE_SPAN x median^2. Medians and percentiles move too (below); counts are never
 * perturbed, they are withheld below the floor instead.
 */

/** A sum moves by at most +-NOISE_SPAN/2 x the reference (so +-0.75 of a typical report). */
export const NOISE_SPAN = 1.5;
/** A sum of squared deviations moves by at most +-SQUARE_SPAN/2 x reference^2. */
export const SQUARE_SPAN = 0.5;
/** Standard deviations are published from this many reports (below, the perturbation would dominate them). */
export const SD_MIN_N = 15;

/** Cell keys are sums of record keys modulo 2^32. */
export const TWO32 = 4294967296;

/** Record keys of one stream, one 32-bit key per report, and the reports of a cell (positions). */
export function cellKeyOf(keys: ArrayLike<number>, idx: ArrayLike<number>): number {
  let s = 0; // exact: up to 2^21 reports x 2^32 stays below 2^53
  for (let k = 0; k < idx.length; k++) s += keys[idx[k]!]!;
  return s % TWO32;
}

/** Cell key of a contiguous range [lo, hi) of positions. */
export function cellKeyOfRange(keys: ArrayLike<number>, lo: number, hi: number): number {
  let s = 0;
  for (let i = lo; i < hi; i++) s += keys[i]!;
  return s % TWO32;
}

/** The noise value of a cell key: a fixed bijective mix (murmur3's finaliser) mapped to [-1/2, 1/2). */
export function noiseOf(cellKey: number): number {
  let h = cellKey >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  return h / TWO32 - 0.5;
}

/** Published mean of a cell: (sum + noise x NOISE_SPAN x reference) / n. */
export function perturbedMean(sum: number, n: number, cellKey: number, reference: number): number {
  return (sum + noiseOf(cellKey) * NOISE_SPAN * reference) / n;
}

/**
 * Published sample standard deviation: the sum of squared deviations from the (true) mean plus its own
 * noise (SQUARE_SPAN x reference^2), floored at 0. Null below SD_MIN_N reports.
 */
export function perturbedSd(squaredDeviations: number, n: number, cellKey: number, reference: number): number | null {
  if (n < SD_MIN_N) return null;
  const v = squaredDeviations + noiseOf(cellKey) * SQUARE_SPAN * reference * reference;
  return Math.sqrt(Math.max(0, v) / (n - 1));
}

/** How far a published mean of n reports can be from the exact one, at most. */
export function meanNoiseBound(n: number, reference: number): number {
  return (NOISE_SPAN * reference) / 2 / n;
}

// ---------------------------------------------------------------- order statistics (README: Disclosure control)
//
// A percentile of a small cell is one report's value (the median of 5 reports is the third one), and the
// percentiles of nested cells (a year range and the next, yesterday's build and today's) differ by what one
// report does to them. So every published quantile moves too, by a fixed function of the cell key of the
// reports it is computed from and of WHICH figure it is (an independent stream per column and quantile):
//
//   published = exact + u x 2 x quantileMoveBound(n, spread),   u in [-1/2, 1/2) from (cell key, column, stream)
//   quantileMoveBound(n, spread) = QUANTILE_SPAN x spread / n^QUANTILE_DECAY
//
// `spread` is the specialty's national interquartile range of that column (all specialties' for cells that
// mix them). A cell of 5 reports moves by up to ~0.75 IQR (about its own uncertainty: its 95% interval is
// wider); the move falls faster than the sampling error (n^-0.75 against n^-0.5), so a national cell of
// 1,000 moves by a small fraction of its interval. The same reports always give the same figures.

/** Largest move of a quantile of n reports = QUANTILE_SPAN x spread / n^QUANTILE_DECAY. */
export const QUANTILE_SPAN = 2.5;
export const QUANTILE_DECAY = 0.75;

/** Columns whose quantiles are published, each with its own noise streams. */
export const COLUMN = { total: 0, fte: 1, base: 2, bonus: 3, wrvus: 4, perWrvu: 5, rate: 6 } as const;
export type Column = (typeof COLUMN)[keyof typeof COLUMN];

/** Streams beyond the percentiles (a percentile p is stream round(100 p)): the bounds of the median's interval. */
export const STREAM_CI_LOWER = 101;
export const STREAM_CI_UPPER = 102;

/** Largest move of a published quantile of n reports (before rounding to the published unit). */
export function quantileMoveBound(n: number, spread: number): number {
  return n <= 0 ? 0 : (QUANTILE_SPAN * spread) / Math.pow(n, QUANTILE_DECAY);
}

/** The noise value of one figure of a cell: the cell key mixed, then mixed again with the figure's stream. */
export function streamNoise(cellKey: number, column: Column, stream: number): number {
  const first = (noiseOf(cellKey) + 0.5) * TWO32; // the key's mix, back as a 32-bit integer
  return noiseOf((first ^ Math.imul(column * 256 + stream + 1, 0x9e3779b1)) >>> 0);
}

/** A published quantile before rounding: `exact` moved by its stream's noise. */
export function perturbQuantile(exact: number, n: number, cellKey: number, column: Column, stream: number, spread: number): number {
  return exact + 2 * streamNoise(cellKey, column, stream) * quantileMoveBound(n, spread);
}

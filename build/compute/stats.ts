/**
 * The pure statistics core (README: Statistics and publication rules). No I/O, no clock: every function is a function of its
 * arguments. The build uses it for every published figure; the keyed API calls the same functions at
 * request time for Enterprise custom year ranges.
 *
 * Sorted inputs are ascending arrays (number[] or Float64Array).
 */
import { mean as ssMean, quantileSorted as ssQuantileSorted, sampleStandardDeviation } from 'simple-statistics';

export type Sorted = ArrayLike<number>;

/** Type-7 quantile (linear interpolation between order statistics; numpy "linear", Excel PERCENTILE.INC). */
export function quantile(sorted: Sorted, p: number): number {
  return ssQuantileSorted(sorted as number[], p);
}

export function mean(values: ArrayLike<number>): number {
  return ssMean(values as number[]);
}

/** Sample standard deviation (n - 1); null below two values. */
export function sampleSd(values: ArrayLike<number>): number | null {
  return values.length < 2 ? null : sampleStandardDeviation(values as number[]);
}

/** Tukey fences of a sorted cell: [Q1 - 1.5 IQR, Q3 + 1.5 IQR] with type-7 quartiles of that cell. */
export function tukeyFences(sorted: Sorted): { lower: number; upper: number } {
  const q1 = quantile(sorted, 0.25);
  const q3 = quantile(sorted, 0.75);
  const iqr = q3 - q1;
  return { lower: q1 - 1.5 * iqr, upper: q3 + 1.5 * iqr };
}

/** Clamp a value into [lower, upper] (winsorization with fixed bounds). */
export function winsorize(value: number, lower: number, upper: number): number {
  return value < lower ? lower : value > upper ? upper : value;
}

// ---------------------------------------------------------------- publication floors and rounding (B, C)

/** Publication floors of the open data (spec: "Publication floors"). */
export const FLOORS = { national: 5, state: 5, specialtyInState: 3, tails: 15 } as const;
/** Figures from this many reports or fewer are rounded. */
export const ROUNDING_MAX_N = 24;

/** Round to the nearest integer, halves away from zero (so -7.25% and 7.25% round alike in size). */
export function roundHalfAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/** Dollar figure published from n reports: nearest $1,000 when n <= 24, else whole dollars. */
export function roundMoney(value: number, n: number): number {
  return n <= ROUNDING_MAX_N ? roundHalfAway(value / 1000) * 1000 : roundHalfAway(value);
}

/** $/wRVU figure published from n reports: nearest $1 when n <= 24, else cents. */
export function roundRate(value: number, n: number): number {
  return n <= ROUNDING_MAX_N ? roundHalfAway(value) : roundHalfAway(value * 100) / 100;
}

/** Percent to one decimal. */
export function roundPct(value: number): number {
  return roundHalfAway(value * 10) / 10;
}

// ---------------------------------------------------------------- confidence interval of the median (A)

export interface MedianCi {
  lower: number;
  upper: number;
  /** achieved coverage probability of [x(k), x(n-k+1)] */
  coverage: number;
}

const rankCache = new Map<number, { k: number; coverage: number }>();

/**
 * Order-statistic ranks of the distribution-free 95% interval of the median: the largest k with
 * P(Bin(n, 1/2) <= k - 1) <= 0.025 gives [x(k), x(n-k+1)], coverage 1 - 2 P(B <= k - 1).
 * For n < 6 no such k exists: k = 1 ([min, max]) with its (lower) coverage 1 - 2^(1-n).
 */
export function medianCiRanks(n: number): { k: number; coverage: number } {
  const hit = rankCache.get(n);
  if (hit) return hit;
  let k = 1;
  let tail = Math.pow(0.5, n); // P(B <= 0)
  if (tail <= 0.025) {
    // Walk the binomial CDF in log space (no underflow for large n): find the largest k - 1 with CDF <= 0.025.
    const logHalfN = n * Math.log(0.5);
    let logC = 0; // log C(n, j)
    let cdf = 0;
    let j = 0;
    for (; j <= n; j++) {
      if (j > 0) logC += Math.log((n - j + 1) / j);
      const next = cdf + Math.exp(logC + logHalfN);
      if (next > 0.025) break;
      cdf = next;
    }
    // j is the first count whose CDF exceeds 0.025, so k - 1 = j - 1.
    k = Math.max(1, j);
    tail = cdf;
  }
  const result = { k, coverage: n === 0 ? 0 : 1 - 2 * tail };
  if (rankCache.size < 100_000) rankCache.set(n, result);
  return result;
}

/** 95% interval of the median of a sorted sample (null when empty). */
export function medianCi95(sorted: Sorted): MedianCi | null {
  const n = sorted.length;
  if (n === 0) return null;
  const { k, coverage } = medianCiRanks(n);
  return { lower: sorted[k - 1]!, upper: sorted[n - k]!, coverage };
}

// ---------------------------------------------------------------- report-level derivations

/** FTE basis (spec): 40 hours a week, 2,080 hours a year. */
export const FTE_HOURS = 40;
export const FTE_MIN_HOURS = 10;
export const FTE_MAX_HOURS = 100;

/**
 * Full-time-equivalent pay (spec: "scales part-time compensation to a 40 hours/week basis"): a part-time
 * report (10 <= hours < 40) counts as total x 40 / hours; 40 hours or more is one FTE and counts unchanged
 * (a 60-hour week is not scaled down). Null when hours are unknown or outside [10, 100].
 */
export function fteNormalize(total: number, hoursPerWeek: number | null): number | null {
  if (hoursPerWeek === null || Number.isNaN(hoursPerWeek) || hoursPerWeek < FTE_MIN_HOURS || hoursPerWeek > FTE_MAX_HOURS) return null;
  return hoursPerWeek >= FTE_HOURS ? total : (total * FTE_HOURS) / hoursPerWeek;
}

export const EXPERIENCE_BANDS = ['0-2 years', '3-5 years', '6-10 years', '11-20 years', '21+ years'] as const;
export type ExperienceBand = (typeof EXPERIENCE_BANDS)[number];

/** Index into EXPERIENCE_BANDS, or -1 when years in practice are unknown. */
export function experienceBandIndex(years: number | null): number {
  if (years === null || years < 0) return -1;
  if (years <= 2) return 0;
  if (years <= 5) return 1;
  if (years <= 10) return 2;
  if (years <= 20) return 3;
  return 4;
}

/** Total compensation per wRVU, or null when wRVUs are not given. */
export function compPerWrvu(total: number, wrvus: number | null): number | null {
  return wrvus === null || wrvus <= 0 ? null : total / wrvus;
}

/** (service - bls) / bls x 100, one decimal. */
export function variancePct(serviceMedian: number, blsMedian: number): number {
  return roundPct(((serviceMedian - blsMedian) / blsMedian) * 100);
}

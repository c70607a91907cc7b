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

// ---------------------------------------------------------------- Harrell-Davis quantiles

/** log Gamma(x) for x > 0 (Lanczos, g = 7, 9 terms: about 15 significant digits). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  const z = x - 1;
  let a = c[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The continued fraction of the incomplete beta function (modified Lentz). */
function betaFraction(x: number, a: number, b: number): number {
  const TINY = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let num = (m * (b - m) * x) / ((a - 1 + m2) * (a + m2));
    d = 1 + num * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + num / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    num = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + 1 + m2));
    d = 1 + num * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + num / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b) (the Beta(a, b) distribution function at x), a, b > 0. */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(x, a, b)) / a : 1 - (front * betaFraction(1 - x, b, a)) / b;
}

const hdWeightCache = new Map<string, Float64Array>();

/**
 * Harrell-Davis weights of the p-quantile of n values: w_i = I_{i/n}(a, b) - I_{(i-1)/n}(a, b) with
 * a = (n + 1) p, b = (n + 1) (1 - p); they sum to 1.
 */
export function harrellDavisWeights(n: number, p: number): Float64Array {
  const key = `${n}|${p}`;
  let w = hdWeightCache.get(key);
  if (w) return w;
  const a = (n + 1) * p;
  const b = (n + 1) * (1 - p);
  w = new Float64Array(n);
  let prev = 0;
  for (let i = 1; i <= n; i++) {
    const next = i === n ? 1 : regularizedBeta(i / n, a, b);
    w[i - 1] = next - prev;
    prev = next;
  }
  if (hdWeightCache.size < 10_000) hdWeightCache.set(key, w);
  return w;
}

/**
 * The Harrell-Davis estimate of the p-quantile of a sorted sample (Harrell and Davis, Biometrika 1982): the
 * expected p-quantile of the values, a weighted average of every order statistic with Beta weights. No value is
 * the estimate itself, each weighs according to its rank; for small samples it is usually closer to the
 * population quantile than the type-7 quantile. 0 for an empty sample.
 */
export function harrellDavis(sorted: Sorted, p: number): number {
  const n = sorted.length;
  if (n === 0) return 0;
  const w = harrellDavisWeights(n, p);
  let s = 0;
  for (let i = 0; i < n; i++) s += w[i]! * sorted[i]!;
  return s;
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

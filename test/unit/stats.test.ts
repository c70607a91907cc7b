/**
 * Hand-computed cases for the pure statistics core (README: Statistics and publication rules).
 * Type-7 quantile: h = (n - 1) p, q = x[floor h] + (h - floor h) (x[ceil h] - x[floor h]) (0-based x).
 */
import { describe, expect, it } from 'vitest';
import {
  EXPERIENCE_BANDS, FLOORS, ROUNDING_MAX_N,
  compPerWrvu, experienceBandIndex, fteNormalize, mean, medianCi95, medianCiRanks, quantile, roundMoney, roundPct, roundRate,
  sampleSd, tukeyFences, variancePct, winsorize, harrellDavis, harrellDavisWeights, logGamma, regularizedBeta,
} from '../../build/compute/stats.ts';
import { tukeyKeep, tukeyRange } from '../helpers/tukey.ts';



/** 1, 2, ..., n */
const seq = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('quantile (Hyndman-Fan type 7)', () => {
  it('[1,2,3,4] matches numpy.percentile(..., method="linear")', () => {
    const x = [1, 2, 3, 4];
    expect(quantile(x, 0.1)).toBeCloseTo(1.3, 12); // h = 3*0.1 = 0.3 -> 1 + 0.3*(2-1) = 1.3
    expect(quantile(x, 0.25)).toBe(1.75); // h = 0.75 -> 1 + 0.75*(2-1) = 1.75 (numpy 1.75)
    expect(quantile(x, 0.5)).toBe(2.5); // h = 1.5 -> 2 + 0.5*(3-2) = 2.5
    expect(quantile(x, 0.75)).toBe(3.25); // h = 2.25 -> 3 + 0.25*(4-3) = 3.25 (numpy 3.25)
    expect(quantile(x, 0.9)).toBeCloseTo(3.7, 12); // h = 2.7 -> 3 + 0.7*(4-3) = 3.7
    // Not type 6 (Excel PERCENTILE.EXC: (n+1)p = 1.25 -> 1.25) and not the pre-7.8.9 simple-statistics
    // value (idx = n p = 1 integer, even n -> (x1 + x2)/2 = 1.5).
    expect(quantile(x, 0.25)).not.toBe(1.25);
    expect(quantile(x, 0.25)).not.toBe(1.5);
  });

  it('p = 0 and p = 1 are min and max', () => {
    expect(quantile([3, 8, 9], 0)).toBe(3); // h = 0 -> x0
    expect(quantile([3, 8, 9], 1)).toBe(9); // h = 2 -> x2
  });

  it('n = 0 throws (callers must guard the empty cell)', () => {
    expect(() => quantile([], 0.5)).toThrow();
  });

  it('n = 1: every quantile is the value', () => {
    for (const p of [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1]) expect(quantile([7], p)).toBe(7); // h = 0 always
  });

  it('n = 2', () => {
    expect(quantile([10, 20], 0.25)).toBe(12.5); // h = 0.25 -> 10 + 0.25*10
    expect(quantile([10, 20], 0.5)).toBe(15); // h = 0.5 -> 10 + 0.5*10
    expect(quantile([10, 20], 0.9)).toBe(19); // h = 0.9 -> 10 + 0.9*10
  });

  it('n = 3 with a skewed top value', () => {
    expect(quantile([1, 2, 10], 0.25)).toBe(1.5); // h = 0.5 -> 1 + 0.5*1
    expect(quantile([1, 2, 10], 0.5)).toBe(2); // h = 1 -> x1
    expect(quantile([1, 2, 10], 0.75)).toBe(6); // h = 1.5 -> 2 + 0.5*8
  });

  it('n = 5', () => {
    const x = [10, 20, 30, 40, 50];
    expect(quantile(x, 0.1)).toBe(14); // h = 0.4 -> 10 + 0.4*10
    expect(quantile(x, 0.25)).toBe(20); // h = 1 -> x1
    expect(quantile(x, 0.5)).toBe(30); // h = 2 -> x2
    expect(quantile(x, 0.75)).toBe(40); // h = 3 -> x3
    expect(quantile(x, 0.9)).toBe(46); // h = 3.6 -> 40 + 0.6*10
  });

  it('n = 6', () => {
    const x = seq(6);
    expect(quantile(x, 0.1)).toBe(1.5); // h = 0.5 -> 1 + 0.5
    expect(quantile(x, 0.25)).toBe(2.25); // h = 1.25 -> 2 + 0.25
    expect(quantile(x, 0.5)).toBe(3.5); // h = 2.5 -> 3 + 0.5
  });

  it('n = 14, 15, 24, 25', () => {
    expect(quantile(seq(14), 0.1)).toBeCloseTo(2.3, 12); // h = 13*0.1 = 1.3 -> 2 + 0.3
    expect(quantile(seq(14), 0.5)).toBe(7.5); // h = 6.5 -> 7 + 0.5
    expect(quantile(seq(15), 0.1)).toBeCloseTo(2.4, 12); // h = 14*0.1 = 1.4 -> 2 + 0.4
    expect(quantile(seq(15), 0.9)).toBeCloseTo(13.6, 12); // h = 12.6 -> 13 + 0.6
    expect(quantile(seq(24), 0.25)).toBe(6.75); // h = 23*0.25 = 5.75 -> 6 + 0.75
    expect(quantile(seq(24), 0.5)).toBe(12.5); // h = 11.5 -> 12 + 0.5
    expect(quantile(seq(25), 0.25)).toBe(7); // h = 24*0.25 = 6 -> x6 = 7
    expect(quantile(seq(25), 0.5)).toBe(13); // h = 12 -> x12 = 13
    expect(quantile(seq(25), 0.1)).toBeCloseTo(3.4, 12); // h = 2.4 -> 3 + 0.4
  });

  it('ties and all-equal values', () => {
    expect(quantile([5, 5, 5, 10], 0.5)).toBe(5); // h = 1.5 -> 5 + 0.5*0
    expect(quantile([5, 5, 5, 10], 0.75)).toBe(6.25); // h = 2.25 -> 5 + 0.25*5
    for (const p of [0.1, 0.25, 0.5, 0.75, 0.9]) expect(quantile([4, 4, 4, 4, 4], p)).toBe(4);
  });

  it('accepts a Float64Array', () => {
    expect(quantile(Float64Array.from([1, 2, 3, 4]), 0.25)).toBe(1.75);
  });
});

describe('mean and sample standard deviation', () => {
  it('mean', () => {
    expect(mean([1, 2, 3, 4])).toBe(2.5); // 10 / 4
    expect(mean([7])).toBe(7);
  });

  it('sampleSd is null below two values', () => {
    expect(sampleSd([])).toBeNull();
    expect(sampleSd([5])).toBeNull();
  });

  it('n = 2: [1, 3] -> mean 2, SS = 1 + 1 = 2, var = 2/(2-1) = 2, sd = sqrt 2', () => {
    expect(sampleSd([1, 3])).toBeCloseTo(Math.SQRT2, 12);
  });

  it('n = 3: [1, 2, 3] -> SS = 1 + 0 + 1 = 2, var = 2/2 = 1', () => {
    expect(sampleSd([1, 2, 3])).toBe(1);
  });

  it('divides by n - 1, not n', () => {
    // mean 5; squared deviations 9,1,1,1,0,0,4,16 = 32; sample var 32/7; (population would be 32/8 -> sd 2)
    expect(sampleSd([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(Math.sqrt(32 / 7), 12);
    expect(sampleSd([2, 4, 4, 4, 5, 5, 7, 9])).not.toBe(2);
  });

  it('all-equal values -> 0', () => {
    expect(sampleSd([3, 3, 3])).toBe(0);
  });
});

describe('Tukey fences and exclusion', () => {
  it('fences of [1,2,3,4]: Q1 1.75, Q3 3.25, IQR 1.5 -> [1.75 - 2.25, 3.25 + 2.25] = [-0.5, 5.5]', () => {
    expect(tukeyFences([1, 2, 3, 4])).toEqual({ lower: -0.5, upper: 5.5 });
  });

  it('n = 0: empty in, empty out', () => {
    expect(tukeyRange([])).toEqual({ lo: 0, hi: 0 });
    expect(tukeyKeep([]).length).toBe(0);
  });

  it('n = 1 keeps the value', () => {
    expect(tukeyRange([100])).toEqual({ lo: 0, hi: 1 }); // Q1 = Q3 = 100, IQR 0, fences [100, 100]
    expect(Array.from(tukeyKeep([100]))).toEqual([100]);
  });

  it('n = 2 always keeps both, however far apart', () => {
    // Q1 = 1 + 0.25*999 = 250.75, Q3 = 1 + 0.75*999 = 750.25, IQR 499.5,
    // fences [250.75 - 749.25, 750.25 + 749.25] = [-498.5, 1499.5]
    expect(tukeyFences([1, 1000])).toEqual({ lower: -498.5, upper: 1499.5 });
    expect(tukeyRange([1, 1000])).toEqual({ lo: 0, hi: 2 });
  });

  it('n = 3 keeps a far top value (fences grow with it)', () => {
    // Q1 = 1.5 (h 0.5), Q3 = 2 + 0.5*998 = 501 (h 1.5), IQR 499.5, upper = 501 + 749.25 = 1250.25 >= 1000
    expect(tukeyFences([1, 2, 1000]).upper).toBe(1250.25);
    expect(tukeyRange([1, 2, 1000])).toEqual({ lo: 0, hi: 3 });
  });

  it('n = 4: one outlier over three ties is dropped', () => {
    // Q1 = 10 (h 0.75 between 10 and 10), Q3 = 10 + 0.25*90 = 32.5 (h 2.25), IQR 22.5,
    // upper = 32.5 + 33.75 = 66.25 < 100
    expect(tukeyFences([10, 10, 10, 100])).toEqual({ lower: -23.75, upper: 66.25 });
    expect(tukeyRange([10, 10, 10, 100])).toEqual({ lo: 0, hi: 3 });
  });

  it('n = 5: a high outlier is dropped', () => {
    // Q1 = x1 = 110, Q3 = x3 = 130, IQR 20, fences [80, 160]; 1000 > 160
    const x = [100, 110, 120, 130, 1000];
    expect(tukeyFences(x)).toEqual({ lower: 80, upper: 160 });
    expect(tukeyRange(x)).toEqual({ lo: 0, hi: 4 });
    expect(Array.from(tukeyKeep(x))).toEqual([100, 110, 120, 130]);
  });

  it('n = 5: a low outlier is dropped', () => {
    // Q1 = 100, Q3 = 120, IQR 20, fences [70, 150]; 1 < 70
    expect(tukeyRange([1, 100, 110, 120, 130])).toEqual({ lo: 1, hi: 5 });
  });

  it('a value exactly on the fence is kept, just beyond it is dropped', () => {
    // [10,20,30,40,x]: Q1 = 20, Q3 = x3 = 40 (independent of x), IQR 20, upper = 40 + 30 = 70
    expect(tukeyRange([10, 20, 30, 40, 70])).toEqual({ lo: 0, hi: 5 });
    expect(tukeyRange([10, 20, 30, 40, 70.01])).toEqual({ lo: 0, hi: 4 });
  });

  it('all-equal values keep everything (IQR 0, fences equal the value)', () => {
    for (const n of [1, 2, 3, 5, 15, 25]) expect(tukeyRange(new Array(n).fill(250_000))).toEqual({ lo: 0, hi: n });
  });

  it('ties with IQR 0 exclude any value that differs', () => {
    // [5,5,5,5,6]: Q1 = Q3 = 5, IQR 0, fences [5, 5] -> 6 dropped
    expect(tukeyRange([5, 5, 5, 5, 6])).toEqual({ lo: 0, hi: 4 });
  });

  it('n = 6, 14, 15, 24, 25 with an evenly spaced cell plus one outlier', () => {
    // 1..(n-1) then 1000. For n = 6: [1..5, 1000]: Q1 h 1.25 -> 2.25, Q3 h 3.75 -> 4.75, IQR 2.5, upper 8.5
    expect(tukeyFences([1, 2, 3, 4, 5, 1000])).toEqual({ lower: -1.5, upper: 8.5 });
    for (const n of [6, 14, 15, 24, 25]) {
      const x = [...seq(n - 1), 1000];
      // Q3 <= n - 1 + small, IQR < n/2 + ..., upper < 2n << 1000: only the outlier goes
      expect(tukeyRange(x)).toEqual({ lo: 0, hi: n - 1 });
      // without the outlier nothing is dropped: 1..n has fences well outside [1, n]
      expect(tukeyRange(seq(n))).toEqual({ lo: 0, hi: n });
    }
  });

  it('tukeyKeep returns a sorted Float64Array copy of the kept range', () => {
    const kept = tukeyKeep(Float64Array.from([1, 100, 110, 120, 130]));
    expect(kept).toBeInstanceOf(Float64Array);
    expect(Array.from(kept)).toEqual([100, 110, 120, 130]);
  });
});

describe('winsorize', () => {
  it('clamps into [lower, upper]', () => {
    expect(winsorize(40_000, 50_000, 3_000_000)).toBe(50_000);
    expect(winsorize(3_500_000, 50_000, 3_000_000)).toBe(3_000_000);
    expect(winsorize(275_000, 50_000, 3_000_000)).toBe(275_000);
    expect(winsorize(50_000, 50_000, 3_000_000)).toBe(50_000);
    expect(winsorize(3_000_000, 50_000, 3_000_000)).toBe(3_000_000);
  });
});

describe('rounding', () => {
  it('constants match the spec', () => {
    expect(ROUNDING_MAX_N).toBe(24);
    expect(FLOORS).toEqual({ national: 5, state: 5, specialtyInState: 3, tails: 15 });
  });

  it('roundMoney: nearest $1,000 for n <= 24, whole dollars for n >= 25', () => {
    expect(roundMoney(123_456.78, 24)).toBe(123_000); // 123.45678 -> 123 thousand
    expect(roundMoney(123_456.78, 25)).toBe(123_457); // whole dollars
    expect(roundMoney(123_500, 24)).toBe(124_000); // 123.5 -> 124 (half up)
    expect(roundMoney(123_499.99, 24)).toBe(123_000);
    expect(roundMoney(123_456.49, 25)).toBe(123_456);
    expect(roundMoney(987_654.5, 1)).toBe(988_000); // n = 1 is rounded too
    expect(roundMoney(987_654.5, 100)).toBe(987_655); // .5 -> up
  });

  it('roundRate: nearest $1 for n <= 24, cents for n >= 25', () => {
    expect(roundRate(52.346, 24)).toBe(52);
    expect(roundRate(52.5, 24)).toBe(53);
    expect(roundRate(52.346, 25)).toBe(52.35); // 5234.6 -> 5235 cents
    expect(roundRate(61.004, 25)).toBe(61); // 6100.4 -> 6100 cents
  });

  it('roundPct: one decimal', () => {
    expect(roundPct(12.34)).toBe(12.3);
    expect(roundPct(12.36)).toBe(12.4);
    expect(roundPct(7.25)).toBe(7.3); // 72.5 -> 73 (7.25 is exact in binary)
    expect(roundPct(-7.25)).toBe(-7.3); // halves away from zero: -72.5 -> -73
    expect(roundMoney(-2_500, 10)).toBe(-3_000); // -2.5 thousand -> -3 thousand
    expect(roundPct(-3.04)).toBe(-3);
    expect(roundPct(0)).toBe(0);
  });
});

describe('confidence interval of the median', () => {
  it('n <= 5: no 95% interval, k = 1 ([min, max]) with coverage 1 - 2^(1-n)', () => {
    expect(medianCiRanks(1)).toEqual({ k: 1, coverage: 0 }); // 1 - 2^0
    expect(medianCiRanks(2)).toEqual({ k: 1, coverage: 0.5 }); // 1 - 2^-1
    expect(medianCiRanks(3)).toEqual({ k: 1, coverage: 0.75 }); // 1 - 2^-2
    expect(medianCiRanks(4)).toEqual({ k: 1, coverage: 0.875 }); // 1 - 2^-3
    expect(medianCiRanks(5)).toEqual({ k: 1, coverage: 0.9375 }); // 1 - 2^-4
  });

  it('n = 6: P(B<=0) = 1/64 <= 0.025, P(B<=1) = 7/64 > 0.025 -> k = 1, coverage 1 - 2/64 = 0.96875', () => {
    expect(medianCiRanks(6)).toEqual({ k: 1, coverage: 0.96875 });
  });

  it('n = 9: P(B<=1) = 10/512 = 0.0195, P(B<=2) = 46/512 -> k = 2, coverage 1 - 20/512', () => {
    expect(medianCiRanks(9)).toEqual({ k: 2, coverage: 1 - 20 / 512 });
  });

  it('n = 10 -> ranks (2, 9): P(B<=1) = 11/1024, P(B<=2) = 56/1024 > 0.025', () => {
    const { k, coverage } = medianCiRanks(10);
    expect([k, 10 - k + 1]).toEqual([2, 9]);
    expect(coverage).toBe(1 - 22 / 1024); // 0.978515625
  });

  it('n = 14 -> (3, 12): cum 1, 15, 106, 470 over 2^14; 106/16384 <= 0.025 < 470/16384', () => {
    expect(medianCiRanks(14)).toEqual({ k: 3, coverage: 1 - 212 / 16384 });
  });

  it('n = 15 -> (4, 12): cum 1, 16, 121, 576, 1941 over 2^15; 576/32768 = 0.0176 <= 0.025 < 0.0592', () => {
    expect(medianCiRanks(15)).toEqual({ k: 4, coverage: 1 - 1152 / 32768 });
  });

  it('n = 20 -> ranks (6, 15): P(B<=5) = 21700/2^20 = 0.0207, P(B<=6) = 60460/2^20 = 0.0577', () => {
    const { k, coverage } = medianCiRanks(20);
    expect([k, 20 - k + 1]).toEqual([6, 15]);
    expect(coverage).toBeCloseTo(1 - 43400 / 1048576, 12);
  });

  it('n = 24 -> (7, 18): P(B<=6) = 190051/2^24 = 0.0113, P(B<=7) = 536155/2^24 = 0.032', () => {
    const { k, coverage } = medianCiRanks(24);
    expect([k, 24 - k + 1]).toEqual([7, 18]);
    expect(coverage).toBeCloseTo(1 - 380102 / 16777216, 12);
  });

  it('n = 25 -> (8, 18): P(B<=7) = 726206/2^25 = 0.0216, P(B<=8) = 1807781/2^25 = 0.0539', () => {
    const { k, coverage } = medianCiRanks(25);
    expect([k, 25 - k + 1]).toEqual([8, 18]);
    expect(coverage).toBeCloseTo(1 - 1452412 / 33554432, 12);
  });

  it('n = 100 -> ranks (40, 61)', () => {
    const { k, coverage } = medianCiRanks(100);
    expect([k, 100 - k + 1]).toEqual([40, 61]);
    expect(coverage).toBeGreaterThanOrEqual(0.95);
    expect(coverage).toBeLessThan(0.97); // 1 - 2 P(B<=39) = 0.9648
  });

  it('coverage is always >= 0.95 for n >= 6, including large n (log-space walk)', () => {
    for (let n = 6; n <= 400; n++) expect(medianCiRanks(n).coverage).toBeGreaterThanOrEqual(0.95);
    for (const n of [1000, 1100, 5000]) {
      const { k, coverage } = medianCiRanks(n);
      expect(coverage).toBeGreaterThanOrEqual(0.95);
      expect(coverage).toBeLessThan(0.96);
      expect(k).toBeGreaterThan(1);
      expect(k).toBeLessThan(n / 2);
    }
  });

  it('medianCi95: empty -> null', () => {
    expect(medianCi95([])).toBeNull();
  });

  it('medianCi95: n = 1 -> [x, x] with coverage 0', () => {
    expect(medianCi95([42])).toEqual({ lower: 42, upper: 42, coverage: 0 });
  });

  it('medianCi95: n = 5 -> [min, max], coverage 0.9375', () => {
    expect(medianCi95([10, 20, 30, 40, 50])).toEqual({ lower: 10, upper: 50, coverage: 0.9375 });
  });

  it('medianCi95: n = 10 -> [x(2), x(9)]', () => {
    expect(medianCi95(seq(10).map((v) => v * 100))).toEqual({ lower: 200, upper: 900, coverage: 1 - 22 / 1024 });
  });

  it('medianCi95: n = 20 -> [x(6), x(15)]', () => {
    const ci = medianCi95(seq(20))!;
    expect([ci.lower, ci.upper]).toEqual([6, 15]);
  });

  it('medianCi95: n = 100 -> [x(40), x(61)]', () => {
    const ci = medianCi95(Float64Array.from(seq(100)))!;
    expect([ci.lower, ci.upper]).toEqual([40, 61]);
  });
});

describe('report-level derivations', () => {
  it('fteNormalize: part-time (10 <= hours < 40) scaled to 40 hours; 40 hours or more counts unchanged', () => {
    expect(fteNormalize(200_000, 20)).toBe(400_000); // 200k x 40/20 = doubled
    expect(fteNormalize(200_000, 10)).toBe(800_000); // lower bound accepted: x 4
    expect(fteNormalize(150_000, 39)).toBeCloseTo(153_846.15, 2); // just part-time
    expect(fteNormalize(200_000, 40)).toBe(200_000); // one FTE
    expect(fteNormalize(300_000, 55)).toBe(300_000); // a 55-hour cardiologist is not cut by 27%
    expect(fteNormalize(200_000, 100)).toBe(200_000); // upper bound accepted, unchanged
  });

  it('fteNormalize: null outside [10, 100] or when hours are unknown', () => {
    expect(fteNormalize(200_000, 9.9)).toBeNull();
    expect(fteNormalize(200_000, 100.1)).toBeNull();
    expect(fteNormalize(200_000, 0)).toBeNull();
    expect(fteNormalize(200_000, null)).toBeNull();
  });

  it('experienceBandIndex at every band edge', () => {
    const cases: [number | null, number][] = [
      [0, 0], [2, 0], [3, 1], [5, 1], [6, 2], [10, 2], [11, 3], [20, 3], [21, 4], [45, 4], [null, -1], [-1, -1],
    ];
    for (const [years, band] of cases) expect(experienceBandIndex(years), `years ${years}`).toBe(band);
    expect(EXPERIENCE_BANDS).toEqual(['0-2 years', '3-5 years', '6-10 years', '11-20 years', '21+ years']);
  });

  it('compPerWrvu', () => {
    expect(compPerWrvu(500_000, 10_000)).toBe(50); // 500k / 10k
    expect(compPerWrvu(250_000, 4_000)).toBe(62.5); // 250k / 4k
    expect(compPerWrvu(500_000, null)).toBeNull();
    expect(compPerWrvu(500_000, 0)).toBeNull();
  });

  it('variancePct: (service - bls) / bls x 100 to one decimal', () => {
    expect(variancePct(330_000, 300_000)).toBe(10); // 30k / 300k = 10%
    expect(variancePct(270_000, 300_000)).toBe(-10); // -30k / 300k
    expect(variancePct(301_234, 300_000)).toBe(0.4); // 1234 / 3000 = 0.411 -> 0.4
    expect(variancePct(345_678, 300_000)).toBe(15.2); // 45678 / 3000 = 15.226 -> 15.2
    expect(variancePct(245_000, 230_000)).toBe(6.5); // 15000 / 2300 = 6.52 -> 6.5
  });
});

describe('Harrell-Davis quantiles (the whole offer\'s small cells)', () => {
  /** P(Bin(n, x) >= a), from its terms: I_x(a, b) for whole a, b is P(Bin(a + b - 1, x) >= a). */
  const binomialTail = (n: number, x: number, a: number) => {
    let s = 0;
    for (let k = a; k <= n; k++) {
      let c = 1;
      for (let j = 0; j < k; j++) c = (c * (n - j)) / (j + 1);
      s += c * x ** k * (1 - x) ** (n - k);
    }
    return s;
  };

  it('log Gamma: whole numbers are log factorials, Gamma(1/2) = sqrt(pi)', () => {
    expect(logGamma(1)).toBeCloseTo(0, 12);
    expect(logGamma(6)).toBeCloseTo(Math.log(120), 12);
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
    expect(logGamma(25.5)).toBeCloseTo(logGamma(24.5) + Math.log(24.5), 10);
  });

  it('the regularized incomplete beta function: closed forms, the binomial identity and symmetry', () => {
    for (const x of [0.01, 0.2, 0.37, 0.5, 0.8, 0.99]) {
      expect(regularizedBeta(x, 1, 1)).toBeCloseTo(x, 12);
      expect(regularizedBeta(x, 2.5, 1)).toBeCloseTo(x ** 2.5, 12);
      expect(regularizedBeta(x, 1, 3.25)).toBeCloseTo(1 - (1 - x) ** 3.25, 12);
      expect(regularizedBeta(x, 3, 5)).toBeCloseTo(binomialTail(7, x, 3), 12);
      expect(regularizedBeta(x, 6, 13)).toBeCloseTo(binomialTail(18, x, 6), 11);
      expect(regularizedBeta(x, 2.75, 8.25) + regularizedBeta(1 - x, 8.25, 2.75)).toBeCloseTo(1, 12);
    }
    expect(regularizedBeta(0.5, 4.25, 4.25)).toBeCloseTo(0.5, 12);
    expect([regularizedBeta(0, 2, 3), regularizedBeta(1, 2, 3)]).toEqual([0, 1]);
  });

  it('weights sum to 1, are symmetric for the median and centred on the p-th value', () => {
    for (const n of [1, 2, 5, 9, 14, 24]) {
      for (const p of [0.25, 0.5, 0.75]) {
        const w = harrellDavisWeights(n, p);
        expect(w.reduce((a, x) => a + x, 0)).toBeCloseTo(1, 12);
        for (const x of w) expect(x).toBeGreaterThanOrEqual(0);
      }
      const m = harrellDavisWeights(n, 0.5);
      for (let i = 0; i < n; i++) expect(m[i]).toBeCloseTo(m[n - 1 - i]!, 12);
    }
    // n = 7, the median: the middle value weighs 0.306, its neighbours 0.239 each; no value weighs all
    expect(Array.from(harrellDavisWeights(7, 0.5), (x) => Math.round(x * 1000) / 1000)).toEqual([0.010, 0.098, 0.239, 0.306, 0.239, 0.098, 0.010]);
  });

  it('estimates: a constant sample is its value, a symmetric one its centre, and every estimate lies within the sample', () => {
    expect(harrellDavis([7, 7, 7, 7, 7], 0.25)).toBeCloseTo(7, 12);
    expect(harrellDavis([1, 2, 3, 4, 5], 0.5)).toBeCloseTo(3, 12);
    expect(harrellDavis([42], 0.75)).toBe(42);
    expect(harrellDavis([], 0.5)).toBe(0);
    const s = [10_000, 12_000, 15_000, 20_000, 25_000, 40_000];
    const [a, b, c] = [0.25, 0.5, 0.75].map((p) => harrellDavis(s, p));
    expect(a).toBeGreaterThan(10_000);
    expect(a!).toBeLessThan(b!);
    expect(b!).toBeLessThan(c!);
    expect(c).toBeLessThan(40_000);
    // every value counts: the largest moves the median (a type-7 median would not move)
    expect(harrellDavis([...s.slice(0, 5), 80_000], 0.5)).toBeGreaterThan(b!);
  });
});

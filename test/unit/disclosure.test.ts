/**
 * The disclosure control, method version 3 (build/compute/disclosure.ts, published.ts): record factors
 * bounded away from 1, 64-bit cell keys that depend only on the set of reports, draws that need the draw
 * key, noise relative to the cell's own figures (so nothing outside the cell moves it), positive figures,
 * and intervals that hold the noise.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  cellKeyOf, cellKeyOfRange, createDraws, drawKeyOf, meanMoveShare, perturbedMean, perturbedSd, quantileMoveBound, recordFactor,
  COLUMN, LOG_FACTOR_VARIANCE, MEAN_FACTOR, QUANTILE_DECAY, QUANTILE_SPAN, RECORD_NOISE, SD_MIN_N, SLOT, TWO32, type CellNoise,
} from '../../build/compute/disclosure.ts';
import { publishedMedianCi, publishedQuantiles, spreadRatio, towardsMedian, TAILS_MIN_N } from '../../build/compute/published.ts';
import { medianCiRanks, quantile } from '../../build/compute/stats.ts';

const lo = Uint32Array.from({ length: 50 }, (_, i) => (0x9e3779b9 * (i + 1)) >>> 0);
const hi = Uint32Array.from({ length: 50 }, (_, i) => (0x85ebca6b * (i + 7)) >>> 0);
const draws = createDraws(drawKeyOf(Buffer.alloc(32, 1)));
const otherDraws = createDraws(drawKeyOf(Buffer.alloc(32, 2)));
const keyOf = (k: number) => ({ lo: (k * 2654435761) >>> 0, hi: (k * 40503 + 977) >>> 0 });
const noiseOf = (k: number, column: CellNoise['column'] = COLUMN.total, pay = true): CellNoise => ({ draws, key: keyOf(k), column, pay });

describe('cell keys (64 bits)', () => {
  it('depend on the set of reports, not their order or the query that found them', () => {
    expect(cellKeyOf(lo, hi, [3, 7, 11])).toEqual(cellKeyOf(lo, hi, [11, 3, 7]));
    expect(cellKeyOfRange(lo, hi, 0, 10)).toEqual(cellKeyOf(lo, hi, [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]));
    expect(cellKeyOf(lo, hi, [3, 7, 11])).not.toEqual(cellKeyOf(lo, hi, [3, 7]));
  });

  it('are exact lane sums modulo 2^32 for a million reports', () => {
    const big = new Uint32Array(1_000_000).fill(0xffffffff);
    const k = cellKeyOfRange(big, big, 0, big.length);
    expect(k).toEqual({ lo: (TWO32 - 1_000_000) % TWO32, hi: (TWO32 - 1_000_000) % TWO32 });
  });
});

describe('draws need the draw key', () => {
  it('lie in [-1/2, 1/2), are spread evenly, and are a fixed function of (key, column, slot)', () => {
    const u = Array.from({ length: 20_000 }, (_, i) => draws.draw(keyOf(i), COLUMN.total, SLOT.p50));
    expect(Math.min(...u)).toBeGreaterThanOrEqual(-0.5);
    expect(Math.max(...u)).toBeLessThan(0.5);
    const tenths = new Array(10).fill(0);
    for (const x of u) tenths[Math.floor((x + 0.5) * 10)]++;
    for (const c of tenths) expect(Math.abs(c - 2_000)).toBeLessThan(200);
    expect(draws.draw(keyOf(5), COLUMN.fte, SLOT.sum)).toBe(createDraws(drawKeyOf(Buffer.alloc(32, 1))).draw(keyOf(5), COLUMN.fte, SLOT.sum));
  });

  it('another secret gives unrelated draws; so do another slot, another column and the other lane', () => {
    const n = 20_000;
    const series = (f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));
    const base = series((i) => draws.draw(keyOf(i), COLUMN.total, SLOT.p25));
    const corr = (ys: number[]) => {
      const mx = base.reduce((s, x) => s + x, 0) / n;
      const my = ys.reduce((s, y) => s + y, 0) / n;
      let sxy = 0, sxx = 0, syy = 0;
      for (let i = 0; i < n; i++) { sxy += (base[i]! - mx) * (ys[i]! - my); sxx += (base[i]! - mx) ** 2; syy += (ys[i]! - my) ** 2; }
      return sxy / Math.sqrt(sxx * syy);
    };
    expect(Math.abs(corr(series((i) => otherDraws.draw(keyOf(i), COLUMN.total, SLOT.p25))))).toBeLessThan(0.03);
    expect(Math.abs(corr(series((i) => draws.draw(keyOf(i), COLUMN.total, SLOT.p75))))).toBeLessThan(0.03);
    expect(Math.abs(corr(series((i) => draws.draw(keyOf(i), COLUMN.base, SLOT.p25))))).toBeLessThan(0.03);
    expect(Math.abs(corr(series((i) => draws.draw({ lo: keyOf(i).lo, hi: keyOf(i).hi ^ 1 }, COLUMN.total, SLOT.p25))))).toBeLessThan(0.03);
  });
});

describe('record factors', () => {
  it('move every report by 5.5% to 15% in log terms, never within 5%, up or down alike', () => {
    let up = 0;
    let sum = 0;
    for (let k = 0; k < 100_000; k++) {
      const f = recordFactor((k * 2654435761 + 12345) >>> 0);
      const d = Math.abs(Math.log(f));
      expect(d).toBeGreaterThanOrEqual(RECORD_NOISE.min - 1e-12);
      expect(d).toBeLessThanOrEqual(RECORD_NOISE.max + 1e-12);
      expect(Math.abs(f - 1)).toBeGreaterThan(0.05);
      if (f > 1) up++;
      sum += f;
    }
    expect(Math.abs(up / 100_000 - 0.5)).toBeLessThan(0.01);
    expect(sum / 100_000).toBeCloseTo(MEAN_FACTOR, 3);
    expect(LOG_FACTOR_VARIANCE).toBeCloseTo(0.01126, 4);
  });
});

describe('sums', () => {
  it('a mean moves by at most NOISE_SPAN/2 / n of itself (before the factors\' average), relative to the cell alone', () => {
    for (let k = 0; k < 2_000; k++) {
      for (const n of [5, 25, 2_000]) {
        const m = perturbedMean(300_000 * n, n, noiseOf(k)) * MEAN_FACTOR;
        expect(Math.abs(m / 300_000 - 1)).toBeLessThanOrEqual(meanMoveShare(n) + 1e-12);
      }
    }
    expect(meanMoveShare(5)).toBe(0.15);
    // wRVUs are not distorted: no division by the factors' average
    expect(perturbedMean(5_000 * 5, 5, { ...noiseOf(3, COLUMN.wrvus, false), draws: { draw: () => 0 } })).toBe(5_000);
  });

  it('the SD is withheld below SD_MIN_N reports and never negative', () => {
    expect(perturbedSd(1e9, 300_000 * 14, SD_MIN_N - 1, noiseOf(1))).toBeNull();
    for (let k = 0; k < 500; k++) expect(perturbedSd(0, 20 * 300_000, 20, noiseOf(k))!).toBeGreaterThanOrEqual(0);
  });

  it('two cells that differ by one report: the difference of their sums misses the report by more than 5% in 9 cases of 10', () => {
    const diffs = Array.from({ length: 2_000 }, (_, k) => {
      const idx = Array.from({ length: 20 }, (_, i) => (i + k) % 50);
      const n1 = { draws, key: cellKeyOf(lo, hi, idx), column: COLUMN.total, pay: true } as const;
      const n0 = { draws, key: cellKeyOf(lo, hi, idx.slice(1)), column: COLUMN.total, pay: true } as const;
      return perturbedMean(20 * 300_000, 20, n1) * 20 - perturbedMean(19 * 300_000, 19, n0) * 19 - 300_000 / MEAN_FACTOR;
    });
    expect(diffs.filter((d) => Math.abs(d) <= 15_000).length / diffs.length).toBeLessThan(0.1);
  });
});

describe('order statistics', () => {
  const sample = (n: number, seed: number) => {
    const out: number[] = [];
    let h = seed >>> 0;
    for (let i = 0; i < n; i++) {
      h = (Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
      out.push(Math.round(300_000 * Math.exp(0.25 * ((h / 2 ** 32) * 2 - 1) * 1.7)));
    }
    return Float64Array.from(out).sort();
  };

  it('the largest move is a factor exp(QUANTILE_SPAN / n^QUANTILE_DECAY): 22% at n = 5, under 0.5% at n = 1,000', () => {
    expect(quantileMoveBound(5)).toBeCloseTo(QUANTILE_SPAN / 5 ** QUANTILE_DECAY, 12);
    expect(Math.exp(quantileMoveBound(5)) - 1).toBeGreaterThan(0.2);
    expect(Math.exp(quantileMoveBound(1_000)) - 1).toBeLessThan(0.005);
    expect(quantileMoveBound(0)).toBe(0);
  });

  it('every published quantile is within its bound of the spread-corrected exact value, in order, and positive', () => {
    for (const n of [5, 6, 8, 9, 12, 15, 25, 100, 1_000]) {
      for (let k = 0; k < 100; k++) {
        const v = sample(n, k * 7919 + n);
        const noise = noiseOf(k + n);
        const ps = n >= TAILS_MIN_N ? [0.1, 0.25, 0.5, 0.75, 0.9] : [0.25, 0.5, 0.75];
        const got = publishedQuantiles(v, ps, noise);
        const ratio = spreadRatio(quantile(v, 0.25), quantile(v, 0.75), true);
        const target = ps.map((p) => towardsMedian(quantile(v, p), quantile(v, 0.5), ratio));
        const b = Math.exp(quantileMoveBound(n));
        got.forEach((g, i) => {
          expect(g).toBeGreaterThan(0);
          expect(g).toBeLessThanOrEqual(target[i]! * b + 1e-6);
          expect(g).toBeGreaterThanOrEqual(target[i]! / b - 1e-6);
        });
        for (let i = 1; i < got.length; i++) expect(got[i]!).toBeGreaterThanOrEqual(got[i - 1]!);
        const [p25, p50, p75] = n >= TAILS_MIN_N ? got.slice(1, 4) : got;
        const ci = publishedMedianCi(v, noise, p25!, p50!, p75!);
        expect(ci.lower).toBeLessThanOrEqual(p50!);
        expect(ci.upper).toBeGreaterThanOrEqual(p50!);
        expect(ci.lower).toBeGreaterThanOrEqual(0);
        if (ci.method === 'order_statistics') {
          // honest: never narrower than the distribution-free interval of the cell's values
          const { k: r } = medianCiRanks(n);
          expect(ci.lower).toBeLessThanOrEqual(v[r - 1]!);
          expect(ci.upper).toBeGreaterThanOrEqual(v[n - r]!);
        }
      }
    }
  });

  it('no published figure is negative, whatever the values and the draws (property)', () => {
    fc.assert(fc.property(
      fc.array(fc.integer({ min: 0, max: 5_000_000 }), { minLength: 5, maxLength: 40 }), fc.integer({ min: 0, max: 2 ** 31 }),
      (xs, k) => {
        const v = Float64Array.from(xs).sort();
        const noise = noiseOf(k);
        const ps = v.length >= TAILS_MIN_N ? [0.1, 0.25, 0.5, 0.75, 0.9] : [0.25, 0.5, 0.75];
        const got = publishedQuantiles(v, ps, noise);
        for (const g of got) expect(g).toBeGreaterThanOrEqual(0);
        const [p25, p50, p75] = v.length >= TAILS_MIN_N ? got.slice(1, 4) : got;
        const ci = publishedMedianCi(v, noise, p25!, p50!, p75!);
        expect(ci.lower).toBeGreaterThanOrEqual(0);
        expect(perturbedMean(xs.reduce((a, x) => a + x, 0), xs.length, noise)).toBeGreaterThanOrEqual(0);
      },
    ), { numRuns: 300 });
  });

  it('the interval is never the raw [min, max]: below 9 reports it is built from the published quartiles', () => {
    for (const n of [5, 6, 7, 8]) {
      const v = sample(n, n);
      const ci = publishedMedianCi(v, noiseOf(1), 280_000, 300_000, 320_000);
      expect(ci.method).toBe('approximate');
      expect(ci.coverage).toBe(0.95);
      expect(ci.lower).not.toBe(v[0]);
      expect(ci.upper).not.toBe(v[n - 1]);
    }
    const v9 = sample(9, 9);
    expect(publishedMedianCi(v9, noiseOf(1), 0, quantile(v9, 0.5), 0).method).toBe('order_statistics');
  });

  it('reading a cell of 5: its three published quartiles are within 1% of the values they are made of in under 1 case in 10', () => {
    let near = 0;
    let total = 0;
    for (let k = 0; k < 2_000; k++) {
      const v = sample(5, k + 1);
      const got = publishedQuantiles(v, [0.25, 0.5, 0.75], noiseOf(k));
      [v[1]!, v[2]!, v[3]!].forEach((x, i) => { total++; if (Math.abs(got[i]! - x) <= 0.01 * x) near++; });
    }
    expect(near / total).toBeLessThan(0.1);
  });
});

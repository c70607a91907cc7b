/**
 * The cell key method (build/compute/disclosure.ts, published.ts): a cell's perturbation depends only on which
 * reports are in it, is bounded, and differs between cells that differ by one report; every published quantile
 * and interval bound is within its documented bound of the exact value, in order, and never the raw [min, max].
 */
import { describe, expect, it } from 'vitest';
import {
  cellKeyOf, cellKeyOfRange, meanNoiseBound, noiseOf, perturbedMean, perturbedSd, quantileMoveBound, streamNoise, COLUMN, NOISE_SPAN, QUANTILE_DECAY, QUANTILE_SPAN, SD_MIN_N,
} from '../../build/compute/disclosure.ts';
import { publishedMedianCi, publishedQuantiles, spreadOf, TAILS_MIN_N } from '../../build/compute/published.ts';
import { medianCiRanks, quantile } from '../../build/compute/stats.ts';

const keys = Uint32Array.from({ length: 50 }, (_, i) => (0x9e3779b9 * (i + 1)) >>> 0);

describe('cell keys', () => {
  it('depend on the set of reports, not their order or the query that found them', () => {
    expect(cellKeyOf(keys, [3, 7, 11])).toBe(cellKeyOf(keys, [11, 3, 7]));
    expect(cellKeyOfRange(keys, 0, 10)).toBe(cellKeyOf(keys, [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]));
    expect(cellKeyOf(keys, [3, 7, 11])).not.toBe(cellKeyOf(keys, [3, 7]));
  });

  it('are exact integers below 2^32 for any number of reports', () => {
    const big = new Uint32Array(1_000_000).fill(0xffffffff);
    const k = cellKeyOfRange(big, 0, big.length);
    expect(Number.isInteger(k)).toBe(true);
    expect(k).toBeGreaterThanOrEqual(0);
    expect(k).toBeLessThan(2 ** 32);
    expect(k).toBe((2 ** 32 - 1_000_000) % 2 ** 32); // 1e6 x (2^32 - 1) mod 2^32
  });
});

describe('noise', () => {
  it('lies in [-1/2, 1/2) and is spread evenly over many cell keys', () => {
    const u = Array.from({ length: 20_000 }, (_, i) => noiseOf((i * 2654435761) >>> 0));
    expect(Math.min(...u)).toBeGreaterThanOrEqual(-0.5);
    expect(Math.max(...u)).toBeLessThan(0.5);
    const mean = u.reduce((a, x) => a + x, 0) / u.length;
    expect(Math.abs(mean)).toBeLessThan(0.01);
    const tenths = new Array(10).fill(0);
    for (const x of u) tenths[Math.floor((x + 0.5) * 10)]++;
    for (const c of tenths) expect(Math.abs(c - 2_000)).toBeLessThan(200);
  });

  it('is a fixed function of the cell key (asking again gives the same figure)', () => {
    expect(noiseOf(123_456)).toBe(noiseOf(123_456));
    expect(perturbedMean(1_000_000, 4, 99, 300_000)).toBe(perturbedMean(1_000_000, 4, 99, 300_000));
  });
});

describe('perturbed figures', () => {
  it('a mean moves by at most NOISE_SPAN/2 x reference / n', () => {
    for (let k = 0; k < 2_000; k++) {
      const key = (k * 2654435761) >>> 0;
      for (const n of [5, 25, 2_000]) {
        const m = perturbedMean(300_000 * n, n, key, 300_000);
        expect(Math.abs(m - 300_000)).toBeLessThanOrEqual(meanNoiseBound(n, 300_000));
      }
    }
    expect(meanNoiseBound(5, 300_000)).toBe((NOISE_SPAN * 300_000) / 2 / 5); // 45,000: 15% at n = 5
    expect(meanNoiseBound(2_000, 300_000)).toBe(112.5);
  });

  it('a reference of 0 perturbs nothing', () => {
    expect(perturbedMean(1_000, 4, 12_345, 0)).toBe(250);
    expect(perturbedSd(34_000e6, 16, 12_345, 0)).toBeCloseTo(Math.sqrt(34_000e6 / 15), 6);
  });

  it('the SD is withheld below SD_MIN_N reports and never negative', () => {
    expect(perturbedSd(1e9, SD_MIN_N - 1, 1, 300_000)).toBeNull();
    for (let k = 0; k < 500; k++) expect(perturbedSd(0, 20, (k * 2654435761) >>> 0, 300_000)!).toBeGreaterThanOrEqual(0);
  });

  it('two cells that differ by one report get unrelated noise (the difference is not the report)', () => {
    const diffs = Array.from({ length: 2_000 }, (_, k) => {
      const idx = Array.from({ length: 20 }, (_, i) => (i + k) % 50);
      const with1 = perturbedMean(20 * 300_000, 20, cellKeyOf(keys, idx), 300_000) * 20;
      const without = perturbedMean(19 * 300_000, 19, cellKeyOf(keys, idx.slice(1)), 300_000) * 19;
      return with1 - without - 300_000; // error of the recovered report
    });
    const within5pct = diffs.filter((d) => Math.abs(d) <= 15_000).length / diffs.length;
    expect(within5pct).toBeLessThan(0.1);
  });
});

describe('order statistics (README: Disclosure control)', () => {
  const sample = (n: number, seed: number) => {
    // a lognormal-ish sample around 300k, ascending
    const out: number[] = [];
    let h = seed >>> 0;
    for (let i = 0; i < n; i++) {
      h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) + 0x9e3779b9 >>> 0;
      out.push(Math.round(300_000 * Math.exp(0.25 * ((h / 2 ** 32) * 2 - 1) * 1.7)));
    }
    return Float64Array.from(out).sort();
  };
  const cellKey = (k: number) => (k * 2654435761 + 12345) >>> 0;

  it('the largest move is QUANTILE_SPAN x spread / n^QUANTILE_DECAY: ~0.75 IQR at n = 5, small at n = 1,000', () => {
    expect(quantileMoveBound(5, 100_000)).toBeCloseTo((QUANTILE_SPAN * 100_000) / 5 ** QUANTILE_DECAY, 6);
    expect(quantileMoveBound(5, 100_000) / 100_000).toBeGreaterThan(0.7);
    expect(quantileMoveBound(1_000, 100_000) / 100_000).toBeLessThan(0.015);
    expect(quantileMoveBound(0, 100_000)).toBe(0);
  });

  it('every published quantile and interval bound lies within its bound of the exact value (recomputed here)', () => {
    for (const n of [5, 6, 8, 9, 12, 15, 25, 100, 1_000]) {
      for (let k = 0; k < 200; k++) {
        const v = sample(n, k * 7919 + n);
        const spread = spreadOf(v);
        const noise = { key: cellKey(k + n), column: COLUMN.total, spread };
        const ps = n >= TAILS_MIN_N ? [0.1, 0.25, 0.5, 0.75, 0.9] : [0.25, 0.5, 0.75];
        const got = publishedQuantiles(v, ps, noise);
        const exact = ps.map((p) => quantile(v, p));
        const bound = quantileMoveBound(n, spread);
        // sorting after perturbing keeps each published value within the bound of the exact one at its rank
        got.forEach((g, i) => expect(Math.abs(g - exact[i]!)).toBeLessThanOrEqual(bound + 1e-6));
        for (let i = 1; i < got.length; i++) expect(got[i]!).toBeGreaterThanOrEqual(got[i - 1]!);
        const [p25, p50, p75] = n >= TAILS_MIN_N ? got.slice(1, 4) : got;
        const ci = publishedMedianCi(v, noise, p25!, p50!, p75!);
        expect(ci.lower).toBeLessThanOrEqual(p50!);
        expect(ci.upper).toBeGreaterThanOrEqual(p50!);
        if (ci.method === 'order_statistics') {
          const { k: r } = medianCiRanks(n);
          expect(r).toBeGreaterThanOrEqual(2);
          expect(Math.abs(ci.lower - Math.min(v[r - 1]!, p50!))).toBeLessThanOrEqual(bound + 1e-6 + Math.abs(p50! - v[r - 1]!));
        }
      }
    }
  });

  it('the interval is never the raw [min, max]: below 9 reports it is built from the published quartiles', () => {
    for (const n of [5, 6, 7, 8]) {
      const v = sample(n, n);
      const ci = publishedMedianCi(v, { key: 1, column: COLUMN.total, spread: spreadOf(v) }, 280_000, 300_000, 320_000);
      expect(ci.method).toBe('approximate');
      expect(ci.coverage).toBe(0.95);
      expect(ci.lower).not.toBe(v[0]);
      expect(ci.upper).not.toBe(v[n - 1]);
    }
    const v9 = sample(9, 9);
    expect(publishedMedianCi(v9, { key: 1, column: COLUMN.total, spread: spreadOf(v9) }, 0, quantile(v9, 0.5), 0).method).toBe('order_statistics');
  });

  it('the same reports give the same figures; the streams of one cell are unrelated (no shared draw)', () => {
    const v = sample(25, 3);
    const noise = { key: 987_654_321, column: COLUMN.total, spread: spreadOf(v) };
    expect(publishedQuantiles(v, [0.25, 0.5, 0.75], noise)).toEqual(publishedQuantiles(v, [0.25, 0.5, 0.75], noise));
    // over many keys, the draws of P25 and P75 (and of one column against another) are uncorrelated
    const draws = Array.from({ length: 20_000 }, (_, k) => [
      streamNoise(cellKey(k), COLUMN.total, 25), streamNoise(cellKey(k), COLUMN.total, 75), streamNoise(cellKey(k), COLUMN.base, 25), noiseOf(cellKey(k)),
    ]);
    const corr = (a: number, b: number) => {
      const xs = draws.map((d) => d[a]!);
      const ys = draws.map((d) => d[b]!);
      const mx = xs.reduce((s, x) => s + x, 0) / xs.length;
      const my = ys.reduce((s, y) => s + y, 0) / ys.length;
      let sxy = 0, sxx = 0, syy = 0;
      for (let i = 0; i < xs.length; i++) { sxy += (xs[i]! - mx) * (ys[i]! - my); sxx += (xs[i]! - mx) ** 2; syy += (ys[i]! - my) ** 2; }
      return sxy / Math.sqrt(sxx * syy);
    };
    for (const [a, b] of [[0, 1], [0, 2], [0, 3], [1, 3]] as const) expect(Math.abs(corr(a, b))).toBeLessThan(0.03);
    for (const d of draws) for (const x of d) expect(x >= -0.5 && x < 0.5).toBe(true);
  });

  it('reading a cell of 5: its three published quartiles are within 1% of the reports they are made of in under 1 case in 10', () => {
    let near = 0;
    let total = 0;
    for (let k = 0; k < 2_000; k++) {
      const v = sample(5, k + 1);
      const got = publishedQuantiles(v, [0.25, 0.5, 0.75], { key: cellKey(k), column: COLUMN.total, spread: 75_000 });
      [v[1]!, v[2]!, v[3]!].forEach((x, i) => { total++; if (Math.abs(got[i]! - x) <= 0.01 * x) near++; });
    }
    expect(near / total).toBeLessThan(0.1);
  });
});

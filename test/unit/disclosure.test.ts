/**
 * The cell key method (build/compute/disclosure.ts): a cell's perturbation depends only on which reports are
 * in it, is bounded, and differs between cells that differ by one report.
 */
import { describe, expect, it } from 'vitest';
import { cellKeyOf, cellKeyOfRange, meanNoiseBound, noiseOf, perturbedMean, perturbedSd, NOISE_SPAN, SD_MIN_N } from '../../build/compute/disclosure.ts';

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

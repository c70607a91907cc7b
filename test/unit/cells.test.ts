/**
 * openCell: publication floors, P10/P90 floor and rounding of one open-data cell (outliers are decided per
 * report beforehand: national.test.ts; the mean's perturbation: disclosure.test.ts).
 * Type-7 quantile: h = (n - 1) p.
 */
import { describe, expect, it } from 'vitest';
import { openCell } from '../../build/compute/cells.ts';

/** An open cell of these values without a draw key: no perturbation (tested in disclosure.test.ts). */
const cell = (values: ArrayLike<number>, days: ArrayLike<number>) => ({ values, days, keyLo: new Uint32Array(values.length), keyHi: new Uint32Array(values.length), drawKey: null });

const WITHHELD = { n: null, median: null, mean: null, p10: null, p25: null, p75: null, p90: null, rounded: false, withheld: true };

/** start, start + step, ... (n values) */
const ladder = (n: number, start: number, step: number) => Array.from({ length: n }, (_, i) => start + step * i);
const daysFor = (n: number) => Array.from({ length: n }, (_, i) => 19_000 + i);

describe('openCell floors', () => {
  it('n = 0 (empty cell) is withheld with no day', () => {
    const r = openCell(cell([], []), 5);
    expect(r.summary).toEqual(WITHHELD);
    expect(r.newestDay).toBeNull();
    expect(r.raw).toBeNull();
  });

  it('n = 0 is withheld even with a floor of 0', () => {
    expect(openCell(cell([], []), 0).summary).toEqual(WITHHELD);
  });

  it.each([
    [1, 3], [2, 3], [1, 5], [2, 5], [3, 5], [4, 5],
  ])('n = %i below floor %i: every figure null, n null, withheld', (n, floor) => {
    const r = openCell(cell(ladder(n, 200_000, 10_000), daysFor(n)), floor);
    expect(r.summary).toEqual(WITHHELD);
    expect(r.raw).toBeNull();
  });

  it('n = 3 exactly at the specialty-in-state floor 3 is published, rounded to $1,000', () => {
    const r = openCell(cell([101_400, 203_600, 305_900], [1, 2, 3]), 3);
    expect(r.summary).toEqual({
      n: 3,
      median: 204_000, // h = 1 -> 203,600 -> 204k
      mean: 204_000, // 610,900 / 3 = 203,633.33 -> 204k
      p10: null, // n < 15
      p25: 153_000, // h = 0.5 -> 101,400 + 0.5 x 102,200 = 152,500 -> 153k (half up)
      p75: 255_000, // h = 1.5 -> 203,600 + 0.5 x 102,300 = 254,750 -> 255k
      p90: null,
      rounded: true,
      withheld: false,
    });
    expect(r.raw!.median).toBe(203_600);
    expect(r.raw!.mean).toBeCloseTo(610_900 / 3, 6);
  });

  it('n = 5 exactly at the national floor 5 is published', () => {
    // [200k..240k step 10k]: Q1 210k, Q3 230k, IQR 20k, fences [180k, 260k]: nothing dropped
    const r = openCell(cell(ladder(5, 200_000, 10_000), daysFor(5)), 5);
    expect(r.summary).toEqual({
      n: 5, median: 220_000, mean: 220_000, p10: null, p25: 210_000, p75: 230_000, p90: null, rounded: true, withheld: false,
    });
  });

  it('n = 6 above the floor is published', () => {
    // 200k..250k: h = 5p; median h 2.5 -> 225k; p25 h 1.25 -> 212.5k -> 213k; p75 h 3.75 -> 237.5k -> 238k
    const r = openCell(cell(ladder(6, 200_000, 10_000), daysFor(6)), 5);
    expect(r.summary).toMatchObject({ n: 6, median: 225_000, mean: 225_000, p25: 213_000, p75: 238_000, p10: null, p90: null });
  });

  it('all-equal values keep everything', () => {
    const r = openCell(cell(new Array(5).fill(250_000), daysFor(5)), 5);
    expect(r.summary).toEqual({
      n: 5, median: 250_000, mean: 250_000, p10: null, p25: 250_000, p75: 250_000, p90: null, rounded: true, withheld: false,
    });
  });

  it('accepts typed arrays', () => {
    const r = openCell(cell(Float64Array.from(ladder(5, 200_000, 10_000)), Int32Array.from(daysFor(5))), 5);
    expect(r.summary.median).toBe(220_000);
  });
});

describe('openCell P10/P90 floor (15)', () => {
  it('n = 14: p10 and p90 null', () => {
    // 100,123 + 10,000 i, i = 0..13: Q1 h 3.25 -> 132,623, Q3 h 9.75 -> 197,623, IQR 65k: nothing dropped
    const r = openCell(cell(ladder(14, 100_123, 10_000), daysFor(14)), 5);
    expect(r.summary).toEqual({
      n: 14,
      median: 165_000, // h = 6.5 -> 165,123 -> 165k
      mean: 165_000, // 100,123 + 6.5 x 10k = 165,123 -> 165k
      p10: null,
      p25: 133_000, // h = 3.25 -> 132,623 -> 133k
      p75: 198_000, // h = 9.75 -> 197,623 -> 198k
      p90: null,
      rounded: true,
      withheld: false,
    });
  });

  it('n = 15: p10 and p90 published', () => {
    const r = openCell(cell(ladder(15, 100_123, 10_000), daysFor(15)), 5);
    expect(r.summary).toEqual({
      n: 15,
      median: 170_000, // h = 7 -> 170,123 -> 170k
      mean: 170_000, // 100,123 + 7 x 10k = 170,123
      p10: 114_000, // h = 1.4 -> 110,123 + 4,000 = 114,123 -> 114k
      p25: 135_000, // h = 3.5 -> 130,123 + 5,000 = 135,123 -> 135k
      p75: 205_000, // h = 10.5 -> 205,123 -> 205k
      p90: 226_000, // h = 12.6 -> 220,123 + 6,000 = 226,123 -> 226k
      rounded: true,
      withheld: false,
    });
  });
});

describe('openCell rounding at n = 24 / 25', () => {
  it('money, n = 24: nearest $1,000', () => {
    // 100,123 + 10,000 i, i = 0..23: Q1 h 5.75 -> 157,623, Q3 h 17.25 -> 272,623, IQR 115k: nothing dropped
    const r = openCell(cell(ladder(24, 100_123, 10_000), daysFor(24)), 5);
    expect(r.summary).toEqual({
      n: 24,
      median: 215_000, // h = 11.5 -> 215,123 -> 215k
      mean: 215_000, // 100,123 + 11.5 x 10k = 215,123
      p10: 123_000, // h = 2.3 -> 123,123
      p25: 158_000, // h = 5.75 -> 157,623
      p75: 273_000, // h = 17.25 -> 272,623
      p90: 307_000, // h = 20.7 -> 307,123
      rounded: true,
      withheld: false,
    });
  });

  it('money, n = 25: whole dollars', () => {
    // 100,123.6 + 10,000 i, i = 0..24
    const r = openCell(cell(ladder(25, 100_123.6, 10_000), daysFor(25)), 5);
    expect(r.summary).toEqual({
      n: 25,
      median: 220_124, // h = 12 -> 220,123.6 -> 220,124
      mean: 220_124, // 100,123.6 + 12 x 10k
      p10: 124_124, // h = 2.4 -> 120,123.6 + 4,000 = 124,123.6
      p25: 160_124, // h = 6 -> 160,123.6
      p75: 280_124, // h = 18 -> 280,123.6
      p90: 316_124, // h = 21.6 -> 310,123.6 + 6,000 = 316,123.6
      rounded: false,
      withheld: false,
    });
  });

  it('rate, n = 24: nearest $1', () => {
    // 40.37 + i, i = 0..23 ($/wRVU)
    const r = openCell(cell(ladder(24, 40.37, 1), daysFor(24)), 5, 'rate');
    expect(r.summary).toEqual({
      n: 24,
      median: 52, // h = 11.5 -> 51.37 + 0.5 = 51.87 -> 52
      mean: 52, // 40.37 + 11.5 = 51.87
      p10: 43, // h = 2.3 -> 42.67
      p25: 46, // h = 5.75 -> 46.12
      p75: 58, // h = 17.25 -> 57.62
      p90: 61, // h = 20.7 -> 61.07
      rounded: true,
      withheld: false,
    });
  });

  it('rate, n = 25: cents', () => {
    const r = openCell(cell(ladder(25, 40.37, 1), daysFor(25)), 5, 'rate');
    expect(r.summary).toEqual({
      n: 25,
      median: 52.37, // h = 12 -> 40.37 + 12
      mean: 52.37,
      p10: 42.77, // h = 2.4 -> 42.37 + 0.4
      p25: 46.37, // h = 6
      p75: 58.37, // h = 18
      p90: 61.97, // h = 21.6 -> 61.37 + 0.6
      rounded: false,
      withheld: false,
    });
  });

  it('rate, n = 5: nearest $1 (not $1,000)', () => {
    // [50.2, 51.4, 52.6, 53.8, 55]: median 52.6 -> 53, p25 51.4 -> 51, p75 53.8 -> 54, mean 52.6 -> 53
    const r = openCell(cell([50.2, 51.4, 52.6, 53.8, 55], daysFor(5)), 5, 'rate');
    expect(r.summary).toMatchObject({ n: 5, median: 53, mean: 53, p25: 51, p75: 54, rounded: true });
  });
});

describe('openCell newestDay', () => {
  it('withheld cells are still dated by their reports, so the document gets an as_of', () => {
    const r = openCell(cell([200_000, 210_000, 220_000, 230_000], [10, 50, 20, 30]), 5);
    expect(r.summary.withheld).toBe(true);
    expect(r.newestDay).toBe(50);
  });

  it('is not tied to position: the newest kept day may sit anywhere in the cell', () => {
    const r = openCell(cell(ladder(6, 200_000, 10_000), [5, 1, 77, 3, 2, 4]), 5);
    expect(r.newestDay).toBe(77);
  });

});

/**
 * keyedCell / breakdownFigures on small hand-made per-report columns (README: Statistics and publication rules, keyed API A):
 * nothing dropped, publishable n >= 5, whole dollars, sample SD, order-statistic CI with coverage.
 * Type-7 quantile: h = (n - 1) p.
 */
import { describe, expect, it } from 'vitest';
import { breakdownFigures, keyedCell, keyedColumnsFromArtifact, uint32ToBase64 } from '../../build/compute/keyed.ts';
import { isoToDay } from '../../build/compute/dataset.ts';
import type { BlsInfo, KeyedReportsArtifact } from '../../build/contract/keyed-artifacts.ts';
import { KeyedCell } from '../../build/contract/keyed-artifacts.ts';

const BLS: BlsInfo = {
  available: true, soc_code: '29-1215', soc_title: 'Family Medicine Physicians', soc_match: 'exact',
  median: 230_000, year: 2024, top_coded: false,
};
const NO_BLS: BlsInfo = { ...BLS, available: false, median: null };

const K = 1000;
const NO_SPREAD = { total: 0, fte: 0, base: 0, bonus: 0, wrvus: 0, per_wrvu: 0 };
/** n record keys of 0 (base64): no perturbation, with reference 0 */
const zeroKeys = (n: number) => uint32ToBase64(new Uint32Array(n));
// 12 reports, ascending by total (in $k): 150 180 200 210 220 240 250 260 280 300 340 400
const TOTALS = [150, 180, 200, 210, 220, 240, 250, 260, 280, 300, 340, 400].map((v) => v * K);
const YEARS = [2023, 2024, 2023, 2025, 2023, 2024, 2023, 2025, 2024, 2023, 2024, 2025];
// band per report: 0 at 1,3,5,7,11; 1 at 0,2; 3 at 4; unknown (-1) at 6,8,9,10; none in bands 2 and 4
const BANDS = [1, 0, 1, 0, 3, 0, -1, 0, -1, -1, -1, 0];
const FTE = [300, 180, 160, null, 220, null, 250, null, 224, null, 272, null].map((v) => (v === null ? null : v * K));
const BASE = [120, 150, 170, 180, null, 200, null, 210, null, null, null, null].map((v) => (v === null ? null : v * K));
const BONUS = [10, null, 20, null, 5, null, null, 30, null, null, null, null].map((v) => (v === null ? null : v * K));
const WRVUS = [5000, null, 6000, 7000, null, 4000, 5500, null, 6500, null, 8000, null];
const DATES = [
  '2023-02-01', '2024-03-05', '2023-04-10', '2025-01-15', '2023-06-20', '2024-07-01',
  '2023-08-08', '2025-02-02', '2024-09-09', '2023-10-10', '2024-11-11', '2025-03-31',
];

function artifact(overrides: Partial<KeyedReportsArtifact> = {}): KeyedReportsArtifact {
  return {
    slug: 'family-medicine',
    count: 12,
    reference: 0, // no perturbation here (reference and spreads 0): disclosure.test.ts and the attack test cover it
    spread: NO_SPREAD,
    partial_from: 2025,
    key: zeroKeys(12),
    key_square: zeroKeys(12),
    total: TOTALS,
    fte: FTE,
    base: BASE,
    bonus: BONUS,
    wrvus: WRVUS,
    year: YEARS,
    experience_band: BANDS,
    setting: [0, 1, 2, 3, 4, 5, -1, 0, 1, 2, 3, 4],
    employment: [0, 1, 2, 3, -1, 0, 1, 2, 3, 0, 1, 2],
    state: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
    day: DATES.map(isoToDay),
    ...overrides,
  };
}

const cols = keyedColumnsFromArtifact(artifact());
const all = Array.from({ length: 12 }, (_, i) => i);

describe('keyedColumnsFromArtifact', () => {
  it('maps null to NaN and keeps -1 codes', () => {
    expect(cols.count).toBe(12);
    expect(Number.isNaN(cols.fte[3]!)).toBe(true);
    expect(cols.fte[0]).toBe(300_000);
    expect(cols.band[6]).toBe(-1);
    expect(cols.total).toBeInstanceOf(Float64Array);
  });
});

describe('keyedCell below the minimum sample (n < 5)', () => {
  it('n = 0: nothing but n', () => {
    const c = keyedCell(cols, [], BLS);
    expect(c).toEqual({ n: 0, years: [], data_date_range: null, figures: null, bls_variance_pct: null, sections: null });
    expect(KeyedCell.safeParse(c).success).toBe(true);
  });

  it('n = 1, 2, 3, 4: n, years and date range, but null figures and sections', () => {
    // positions 1,5,8,10 are the 2024 reports; take growing prefixes of [0, 1, 3, 11]
    const picks = [[0], [0, 1], [0, 1, 3], [0, 1, 3, 11]];
    for (const idx of picks) {
      const c = keyedCell(cols, idx, BLS);
      expect(c.n).toBe(idx.length);
      expect(c.figures).toBeNull();
      expect(c.sections).toBeNull();
      expect(c.bls_variance_pct).toBeNull();
      expect(c.years).toEqual([...new Set(idx.map((i) => YEARS[i]!))].sort());
    }
    const c4 = keyedCell(cols, [0, 1, 3, 11], BLS);
    expect(c4.years).toEqual([2023, 2024, 2025]);
    expect(c4.data_date_range).toEqual({ earliest: '2023-02-01', latest: '2025-03-31' });
  });
});

describe('keyedCell with n = 5 (the 2023 reports)', () => {
  // positions 0,2,4,6,9 -> totals 150, 200, 220, 250, 300 ($k)
  const c = keyedCell(cols, [0, 2, 4, 6, 9], BLS);

  it('figures', () => {
    expect(c.n).toBe(5);
    expect(c.figures).toEqual({
      percentiles: {
        p10: null, // P10 and P90 need 15 reports
        p25: 200_000, // h = 1
        p50: 220_000, // h = 2
        p75: 250_000, // h = 3
        p90: null,
      },
      mean: 224_000, // 1,120k / 5
      standard_deviation: null, // n < 15
      // n = 5: no distribution-free 95% interval (it would be [min, max]): built from the quartiles,
      // 220k +- 1.959964 x 1.2533 x 50k / 1.349 / sqrt(5) = 220k +- 40,717
      confidence_interval_95: { lower: 179_283, upper: 260_717, coverage: 0.95, method: 'approximate' },
    });
    expect(c.bls_variance_pct).toBe(-4.3); // (220 - 230) / 230 x 100 = -4.348 -> -4.3
    expect(c.years).toEqual([2023]);
    expect(c.data_date_range).toEqual({ earliest: '2023-02-01', latest: '2023-10-10' });
  });

  it('sections', () => {
    const s = c.sections!;
    expect(s.trending).toEqual([{ year: 2023, n: 5, p25: 200_000, p50: 220_000, p75: 250_000, mean: 224_000, publishable: true, partial: false }]);
    // bands of 0,2,4,6,9: 1, 1, 3, -1, -1
    expect(s.by_experience.map((r) => [r.label, r.n, r.publishable])).toEqual([
      // counts below 5 are not published (null), whatever they are (2, 1 or 0 here)
      ['0-2 years', null, false], ['3-5 years', null, false], ['6-10 years', null, false], ['11-20 years', null, false], ['21+ years', null, false],
    ]);
    // fte of 0,2,4,6,9: 300, 160, 220, 250, null -> 4 values < 5
    expect(s.fte_normalized).toEqual({ n: null, percentiles: null, mean: null });
    // base of 0,2,4,6,9: 120, 170 -> 2 values; bonus: 10, 20, 5 -> 3 values
    expect(s.components).toEqual({
      base_salary: { n: null, p25: null, p50: null, p75: null },
      bonus: { n: null, p25: null, p50: null, p75: null },
    });
  });
});

describe('keyedCell standard deviation (n >= 15)', () => {
  it('is the sample SD (n - 1) when the perturbation is zero', () => {
    const totals = Array.from({ length: 16 }, (_, i) => (200 + 10 * i) * K); // 200k..350k
    const a: KeyedReportsArtifact = {
      slug: 'x', count: 16, reference: 0, spread: NO_SPREAD, partial_from: 2030, key: zeroKeys(16), key_square: zeroKeys(16), total: totals,
      fte: new Array(16).fill(null), base: new Array(16).fill(null), bonus: new Array(16).fill(null), wrvus: new Array(16).fill(null), year: new Array(16).fill(2024),
      experience_band: new Array(16).fill(-1), setting: new Array(16).fill(-1), employment: new Array(16).fill(-1), state: new Array(16).fill(0),
      day: new Array(16).fill(isoToDay('2024-05-05')),
    };
    const f = keyedCell(keyedColumnsFromArtifact(a), Array.from({ length: 16 }, (_, i) => i), BLS).figures!;
    // deviations (i - 7.5) x 10k; sum of squares = 100M x 340 = 34,000M; / 15 = 2,266.67M; sqrt = 47,609.5 -> 47,610
    expect(f.standard_deviation).toBe(47_610);
    expect(f.mean).toBe(275_000);
  });
});

describe('keyedCell with n = 12 (all reports)', () => {
  const c = keyedCell(cols, all, BLS);

  it('matches its zod schema', () => {
    expect(KeyedCell.safeParse(c).success).toBe(true);
  });

  it('percentiles, whole-dollar mean, sample SD and CI', () => {
    expect(c.n).toBe(12);
    expect(c.years).toEqual([2023, 2024, 2025]);
    expect(c.data_date_range).toEqual({ earliest: '2023-02-01', latest: '2025-03-31' });
    expect(c.figures).toEqual({
      percentiles: {
        p10: null, // n < 15
        p25: 207_500, // h = 2.75 -> 200 + 0.75 x 10 = 207.5 (whole dollars, not rounded to $1,000)
        p50: 245_000, // h = 5.5 -> 240 + 0.5 x 10 = 245
        p75: 285_000, // h = 8.25 -> 280 + 0.25 x 20 = 285
        p90: null,
      },
      mean: 252_500, // 3,030k / 12 = 252.5k
      standard_deviation: null, // n < 15
      // n = 12: cum P(B<=j) x 4096 = 1, 13, 79, 299; 79/4096 = 0.0193 <= 0.025 < 0.073 -> k = 3, ranks (3, 10)
      // coverage 1 - 158/4096 = 0.961426 -> 0.9614
      confidence_interval_95: { lower: 200_000, upper: 300_000, coverage: 0.9614, method: 'order_statistics' },
    });
  });

  it('bls_variance_pct = (p50 - bls) / bls x 100 to one decimal', () => {
    expect(c.bls_variance_pct).toBe(6.5); // (245 - 230) / 230 x 100 = 6.52 -> 6.5
    expect(keyedCell(cols, all, { ...BLS, median: 200_000 }).bls_variance_pct).toBe(22.5); // 45 / 200 x 100
  });

  it('bls_variance_pct is null when BLS is not available', () => {
    expect(keyedCell(cols, all, NO_BLS).bls_variance_pct).toBeNull();
    expect(keyedCell(cols, all, { ...BLS, available: false }).bls_variance_pct).toBeNull();
    expect(keyedCell(cols, all, { ...BLS, median: null }).bls_variance_pct).toBeNull();
    // the rest of the cell does not depend on BLS
    expect(keyedCell(cols, all, NO_BLS).figures).toEqual(c.figures);
  });

  it('trending: one row per year, publishable only with n >= 5', () => {
    expect(c.sections!.trending).toEqual([
      // 2023 at 0,2,4,6,9: 150,200,220,250,300 -> p25 h1 = 200, p50 220, p75 250, mean 1120/5 = 224
      { year: 2023, n: 5, p25: 200_000, p50: 220_000, p75: 250_000, mean: 224_000, publishable: true, partial: false },
      // 2024 at 1,5,8,10 -> 4 reports: no count below 5
      { year: 2024, n: null, p25: null, p50: null, p75: null, mean: null, publishable: false, partial: false },
      // 2025 at 3,7,11 -> 3 reports; 2025 is the year still being reported (partial_from)
      { year: 2025, n: null, p25: null, p50: null, p75: null, mean: null, publishable: false, partial: true },
    ]);
  });

  it('by_experience: all five bands, empty ones included; unknown years left out', () => {
    expect(c.sections!.by_experience).toEqual([
      // band 0 at 1,3,5,7,11: 180,210,240,260,400 -> p25 210, p50 240, p75 260, mean 1290/5 = 258
      { label: '0-2 years', n: 5, p25: 210_000, p50: 240_000, p75: 260_000, mean: 258_000, publishable: true },
      { label: '3-5 years', n: null, p25: null, p50: null, p75: null, mean: null, publishable: false },
      { label: '6-10 years', n: null, p25: null, p50: null, p75: null, mean: null, publishable: false },
      { label: '11-20 years', n: null, p25: null, p50: null, p75: null, mean: null, publishable: false },
      { label: '21+ years', n: null, p25: null, p50: null, p75: null, mean: null, publishable: false },
    ]);
  });

  it('fte_normalized uses only the non-null FTE values', () => {
    // non-null: 300,180,160,220,250,224,272 -> sorted 160,180,220,224,250,272,300 (n 7, h = 6p)
    expect(c.sections!.fte_normalized).toEqual({
      n: 7,
      percentiles: {
        p10: null, // n < 15
        p25: 200_000, // h = 1.5 -> 180 + 0.5 x 40 = 200
        p50: 224_000, // h = 3
        p75: 261_000, // h = 4.5 -> 250 + 0.5 x 22 = 261
        p90: null,
      },
      mean: 229_429, // 1,606k / 7 = 229,428.57 -> 229,429
    });
  });

  it('components: quartiles from 5 values up, null below', () => {
    expect(c.sections!.components).toEqual({
      // base non-null 120,150,170,180,200,210 (n 6, h = 5p)
      base_salary: {
        n: 6,
        p25: 155_000, // h = 1.25 -> 150 + 0.25 x 20 = 155
        p50: 175_000, // h = 2.5 -> 170 + 0.5 x 10 = 175
        p75: 195_000, // h = 3.75 -> 180 + 0.75 x 20 = 195
      },
      // bonus non-null 10,20,5,30 -> n 4 < 5
      bonus: { n: null, p25: null, p50: null, p75: null },
    });
  });

  it('components: exactly 5 values are published (unsorted input is sorted)', () => {
    const a = artifact({ bonus: [40, null, 20, null, 5, null, null, 30, null, 10, null, null].map((v) => (v === null ? null : v * K)) });
    const c2 = keyedCell(keyedColumnsFromArtifact(a), all, BLS);
    // sorted 5,10,20,30,40: p25 h 1 = 10, p50 20, p75 30
    expect(c2.sections!.components.bonus).toEqual({ n: 5, p25: 10_000, p50: 20_000, p75: 30_000 });
  });
});

describe('keyedCell with n = 6', () => {
  // totals 200,210,230,260,300,350 ($k), no optional columns
  const a: KeyedReportsArtifact = {
    slug: 'x', count: 6, reference: 0, spread: NO_SPREAD, partial_from: 2030, key: zeroKeys(6), key_square: zeroKeys(6),
    total: [200, 210, 230, 260, 300, 350].map((v) => v * K),
    fte: new Array(6).fill(null), base: new Array(6).fill(null), bonus: new Array(6).fill(null), wrvus: new Array(6).fill(null),
    year: new Array(6).fill(2024), experience_band: new Array(6).fill(-1), setting: new Array(6).fill(-1),
    employment: new Array(6).fill(-1), state: new Array(6).fill(0), day: new Array(6).fill(isoToDay('2024-05-05')),
  };
  const c = keyedCell(keyedColumnsFromArtifact(a), [0, 1, 2, 3, 4, 5], BLS);

  it('figures and 96.88% CI', () => {
    expect(c.figures).toEqual({
      percentiles: {
        p10: null, // n < 15
        p25: 215_000, // h = 1.25 -> 210 + 0.25 x 20
        p50: 245_000, // h = 2.5 -> 230 + 0.5 x 30
        p75: 290_000, // h = 3.75 -> 260 + 0.75 x 40
        p90: null,
      },
      mean: 258_333, // 1,550k / 6 = 258,333.33
      // n = 6 < 15: no SD (its disclosure perturbation would dominate it; disclosure.test.ts checks the formula)
      standard_deviation: null,
      // n = 6: the order-statistic interval would be [min, max] (k = 1): built from the quartiles,
      // 245k +- 1.959964 x 1.2533 x 75k / 1.349 / sqrt(6) = 245k +- 55,754
      confidence_interval_95: { lower: 189_246, upper: 300_754, coverage: 0.95, method: 'approximate' },
    });
    expect(c.bls_variance_pct).toBe(6.5); // (245 - 230) / 230 = 6.52%
  });

  it('sections with no optional data', () => {
    expect(c.sections!.fte_normalized).toEqual({ n: null, percentiles: null, mean: null });
    expect(c.sections!.components.base_salary).toEqual({ n: null, p25: null, p50: null, p75: null });
    expect(c.sections!.trending).toEqual([{ year: 2024, n: 6, p25: 215_000, p50: 245_000, p75: 290_000, mean: 258_333, publishable: true, partial: false }]);
    expect(c.sections!.by_experience).toHaveLength(5);
    expect(c.sections!.by_experience.every((r) => r.n === null && !r.publishable)).toBe(true);
  });

  it('all-equal totals: SD 0 and a degenerate CI', () => {
    const eq = keyedColumnsFromArtifact({ ...a, total: new Array(6).fill(275_000) });
    const f = keyedCell(eq, [0, 1, 2, 3, 4, 5], BLS).figures!;
    expect(f.percentiles).toEqual({ p10: null, p25: 275_000, p50: 275_000, p75: 275_000, p90: null });
    expect(f.mean).toBe(275_000);
    expect(f.standard_deviation).toBeNull(); // n < 15
    expect(f.confidence_interval_95).toEqual({ lower: 275_000, upper: 275_000, coverage: 0.95, method: 'approximate' });
  });
});

describe('breakdownFigures', () => {
  it('n < 5: nothing published, not even n', () => {
    expect(breakdownFigures(cols, [1, 5, 8, 10])).toEqual({ n: null, p25: null, p50: null, p75: null, mean: null, publishable: false });
    expect(breakdownFigures(cols, [])).toEqual({ n: null, p25: null, p50: null, p75: null, mean: null, publishable: false });
  });

  it('n = 6: quartiles and whole-dollar mean', () => {
    // positions 0..5: 150,180,200,210,220,240; h = 5p
    expect(breakdownFigures(cols, [0, 1, 2, 3, 4, 5])).toEqual({
      n: 6,
      p25: 185_000, // h = 1.25 -> 180 + 0.25 x 20 = 185
      p50: 205_000, // h = 2.5 -> 200 + 0.5 x 10 = 205
      p75: 217_500, // h = 3.75 -> 210 + 0.75 x 10 = 217.5
      mean: 200_000, // 1,200k / 6
      publishable: true,
    });
  });
});

describe('keyedCell productivity (wRVUs and compensation per wRVU)', () => {
  it('type-7 P25-P75 of the reports that give wRVUs (P90 from 15); $/wRVU to the cent; null below 5', () => {
    const c = keyedCell(cols, all, NO_BLS);
    const withW = all.filter((i) => WRVUS[i] !== null);
    const w = withW.map((i) => WRVUS[i]!).sort((a, b) => a - b);
    const per = withW.map((i) => TOTALS[i]! / WRVUS[i]!).sort((a, b) => a - b);
    const q7 = (xs: number[], p: number) => { const h = (xs.length - 1) * p; const lo = Math.floor(h); return xs[lo]! + (h - lo) * (xs[Math.min(lo + 1, xs.length - 1)]! - xs[lo]!); };
    expect(c.sections!.productivity).toEqual({
      n: 7, publishable: true, sufficient: false,
      wrvus: { p25: Math.round(q7(w, 0.25)), p50: Math.round(q7(w, 0.5)), p75: Math.round(q7(w, 0.75)), p90: null },
      compensation_per_wrvu: { p25: Math.round(q7(per, 0.25) * 100) / 100, p50: Math.round(q7(per, 0.5) * 100) / 100, p75: Math.round(q7(per, 0.75) * 100) / 100, p90: null },
    });
    // four reports with wRVUs: n and flags, no figures
    const few = keyedCell(cols, [0, 1, 2, 3, 4, 5], NO_BLS);
    expect(few.sections!.productivity).toEqual({ n: null, publishable: false, sufficient: false, wrvus: null, compensation_per_wrvu: null });
  });
});

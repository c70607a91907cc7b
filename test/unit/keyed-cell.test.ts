/**
 * keyedCell / breakdownFigures on small hand-made per-report columns (README: Statistics and publication rules, keyed API A):
 * nothing dropped, publishable n >= 5, whole dollars, sample SD, order-statistic CI with coverage.
 * Type-7 quantile: h = (n - 1) p.
 *
 * Every figure of the keyed API carries the disclosure control (method 3: build/compute/disclosure.ts,
 * published.ts), which has no "off" switch: the columns always have a draw key. So the exact statistics are
 * worked out by hand here (in the comments, as before), and `published*` below turns them into the published
 * figures by the documented method, written out from its definition: the pay quartiles' spread corrected for the
 * record factors (towards the median), each figure moved by its own draw of (cell key of exactly its reports,
 * column, slot), sorted, rounded; means / sums of squares moved by their draw relative to the cell's own mean,
 * pay means divided by the factors' mean. The draws come from the test's own draw key. The record factors
 * themselves are applied when the build reads the DB: these columns are already "distorted" values.
 */
import { describe, expect, it } from 'vitest';
import { breakdownFigures, keyedCell, keyedColumnsFromArtifact, uint32ToBase64 } from '../../build/compute/keyed.ts';
import { isoToDay } from '../../build/compute/dataset.ts';
import {
  createDraws, COLUMN, LOG_FACTOR_VARIANCE, MEAN_FACTOR, NOISE_SPAN, QUANTILE_DECAY, QUANTILE_SPAN, SLOT, SQUARE_FACTOR, SQUARE_SPAN,
  type CellKey, type Column,
} from '../../build/compute/disclosure.ts';
import type { BlsInfo, KeyedReportsArtifact } from '../../build/contract/keyed-artifacts.ts';
import { KeyedCell } from '../../build/contract/keyed-artifacts.ts';

const BLS: BlsInfo = {
  available: true, soc_code: '29-1215', soc_title: 'Family Medicine Physicians', soc_match: 'exact',
  median: 230_000, year: 2024, top_coded: false,
};
const NO_BLS: BlsInfo = { ...BLS, available: false, median: null };

const K = 1000;

// ------------------------------------------------------------------ the disclosure control, written out

const DRAW_KEY = Buffer.alloc(32, 0x5a);
const draws = createDraws(DRAW_KEY);
const TWO32 = 2 ** 32;
/** Record-key lanes of n reports (position i): arbitrary, distinct. */
const lanes = (n: number) => ({
  lo: Uint32Array.from({ length: n }, (_, i) => Math.imul(i + 1, 0x9e3779b1) >>> 0),
  hi: Uint32Array.from({ length: n }, (_, i) => Math.imul(i + 11, 0x85ebca6b) >>> 0),
});
/** The artifact fields of the record keys and the draw key of n reports. */
const keyFields = (n: number) => ({ key_lo: uint32ToBase64(lanes(n).lo), key_hi: uint32ToBase64(lanes(n).hi), draw_key: DRAW_KEY.toString('base64') });
/** Cell key of the reports at positions `idx` (of a column set of `count` reports): each lane summed modulo 2^32. */
function keyOf(count: number, idx: number[]): CellKey {
  const { lo, hi } = lanes(count);
  return { lo: idx.reduce((a, i) => a + lo[i]!, 0) % TWO32, hi: idx.reduce((a, i) => a + hi[i]!, 0) % TWO32 };
}
/** The noise of one column's figures in a cell: its cell key, its column, whether it is pay (record factors). */
interface Noise { key: CellKey; column: Column; pay: boolean }
const u = (z: Noise, slot: number) => draws.draw(z.key, z.column, slot as never);
/**
 * A count as published (README: Disclosure control, counts): from 5 reports n + round(4 u), u the count draw of
 * the reports counted (total column), kept within its class ([5, 15) or 15 and up); below 5 the cell stores the
 * exact n, which is never published.
 */
function publishedN(n: number, key: CellKey): number {
  if (n < 5) return n;
  const e = Math.round(4 * draws.draw(key, COLUMN.total, SLOT.count));
  return n < 15 ? Math.min(14, Math.max(5, n + e)) : Math.max(15, n + e);
}
/** Largest |log move| of a quantile of n values. */
const moveBound = (n: number) => QUANTILE_SPAN / n ** QUANTILE_DECAY;

/** Exact type-7 quantiles of a cell's values (by hand), P10 and P90 only from 15 values. */
interface Exact { n: number; p10?: number; p25: number; p50: number; p75: number; p90?: number }

/**
 * The published quantiles (unrounded): for pay, each brought towards the median by the spread ratio
 * sqrt(max(1/4, 1 - Var(log factor) / sd^2)), sd = ln(P75 / P25) / 1.349; then times exp(2 u moveBound(n)),
 * u the figure's own draw; then sorted.
 */
function publishedGrid(e: Exact, z: Noise): { p10: number | null; p25: number; p50: number; p75: number; p90: number | null } {
  const r = z.pay && e.p25 > 0 && e.p75 > e.p25 ? Math.sqrt(Math.max(0.25, 1 - LOG_FACTOR_VARIANCE / (Math.log(e.p75 / e.p25) / 1.349) ** 2)) : 1;
  const toward = (q: number) => (r === 1 || q === e.p50 ? q : e.p50 * (q / e.p50) ** r);
  const move = (q: number, slot: number) => toward(q) * Math.exp(2 * u(z, slot) * moveBound(e.n));
  if (e.n >= 15) {
    const [p10, p25, p50, p75, p90] = [move(e.p10!, SLOT.p10), move(e.p25, SLOT.p25), move(e.p50, SLOT.p50), move(e.p75, SLOT.p75), move(e.p90!, SLOT.p90)].sort((a, b) => a - b);
    return { p10: p10!, p25: p25!, p50: p50!, p75: p75!, p90: p90! };
  }
  const [p25, p50, p75] = [move(e.p25, SLOT.p25), move(e.p50, SLOT.p50), move(e.p75, SLOT.p75)].sort((a, b) => a - b);
  return { p10: null, p25: p25!, p50: p50!, p75: p75!, p90: null };
}
const whole = Math.round;
const cents = (v: number) => Math.round(v * 100) / 100;
const rounded = (g: ReturnType<typeof publishedGrid>, round: (v: number) => number = whole) => ({
  p10: g.p10 === null ? null : round(g.p10), p25: round(g.p25), p50: round(g.p50), p75: round(g.p75), p90: g.p90 === null ? null : round(g.p90),
});
/** Published mean of n values summing to `sum`: the sum moved by u x NOISE_SPAN x the mean, / the factors' mean for pay. */
const publishedMean = (sum: number, n: number, z: Noise) => whole(((sum / n) * (1 + (u(z, SLOT.sum) * NOISE_SPAN) / n)) / (z.pay ? MEAN_FACTOR : 1));
/** Published SD: the sum of squared deviations moved by u x SQUARE_SPAN x mean^2, then the factors' variance taken out. */
function publishedSd(squares: number, sum: number, n: number, z: Noise): number {
  const m = sum / n;
  const vy = Math.max(0, squares + u(z, SLOT.squares) * SQUARE_SPAN * m * m) / (n - 1);
  return whole(Math.sqrt(Math.max(0, (vy + m * m) / SQUARE_FACTOR - (m * m) / (MEAN_FACTOR * MEAN_FACTOR))));
}
/**
 * The median's published 95% interval. From 9 reports [x(k), x(n-k+1)] of the cell's values, each bound moved
 * outward by moveBound(n) x (1/2 + its own draw), holding the published median; below 9 the published median
 * +- (1.959964 x 1.2533 x (P75 - P25) / 1.349 / sqrt(n) + the median's largest move), floored at 0.
 */
function publishedCi(n: number, g: ReturnType<typeof publishedGrid>, z: Noise, orderStats?: { lower: number; upper: number; coverage: number }) {
  const b = moveBound(n);
  if (orderStats) {
    const lower = Math.min(orderStats.lower * Math.exp(-b * (0.5 + u(z, SLOT.ciLower))), g.p50);
    const upper = Math.max(orderStats.upper * Math.exp(b * (0.5 + u(z, SLOT.ciUpper))), g.p50);
    return { lower: whole(lower), upper: whole(upper), coverage: orderStats.coverage, method: 'order_statistics' as const };
  }
  const half = (1.959964 * 1.2533 * Math.max(0, g.p75 - g.p25)) / 1.349 / Math.sqrt(n) + g.p50 * (Math.exp(b) - 1);
  return { lower: whole(Math.max(0, g.p50 - half)), upper: whole(g.p50 + half), coverage: 0.95, method: 'approximate' as const };
}
/** (p50 - bls) / bls x 100, one decimal, halves away from zero. */
const variance = (p50: number, bls: number) => {
  const x = ((p50 - bls) / bls) * 1000;
  return (x < 0 ? -Math.round(-x) : Math.round(x)) / 10;
};

// ------------------------------------------------------------------ the columns

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
    partial_from: 2025,
    ...keyFields(12),
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

/** The noise of a column over positions `idx` of the 12 reports (pay unless wRVUs). */
const noise12 = (idx: number[], column: Column = COLUMN.total): Noise => ({ key: keyOf(12, idx), column, pay: column !== COLUMN.wrvus });
const known = (xs: (number | null)[], idx: number[]) => idx.filter((i) => xs[i] !== null);

const cols = keyedColumnsFromArtifact(artifact());
const all = Array.from({ length: 12 }, (_, i) => i);

describe('keyedColumnsFromArtifact', () => {
  it('maps null to NaN and keeps -1 codes; reads the record-key lanes and the draw key', () => {
    expect(cols.count).toBe(12);
    expect(Number.isNaN(cols.fte[3]!)).toBe(true);
    expect(cols.fte[0]).toBe(300_000);
    expect(cols.band[6]).toBe(-1);
    expect(cols.total).toBeInstanceOf(Float64Array);
    expect(Array.from(cols.keyLo)).toEqual(Array.from(lanes(12).lo));
    expect(Array.from(cols.keyHi)).toEqual(Array.from(lanes(12).hi));
    expect(Buffer.from(cols.drawKey).equals(DRAW_KEY)).toBe(true);
    expect(cols.exactTotal).toBeUndefined(); // the exact totals never travel in an artifact
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

// positions 0,2,4,6,9 (the 2023 reports) -> totals 150, 200, 220, 250, 300 ($k)
const Y2023 = [0, 2, 4, 6, 9];
const z2023 = noise12(Y2023);
// exact: p25 200k (h = 1), p50 220k (h = 2), p75 250k (h = 3); mean 1,120k / 5 = 224k
const g2023 = publishedGrid({ n: 5, p25: 200_000, p50: 220_000, p75: 250_000 }, z2023);

describe('keyedCell with n = 5 (the 2023 reports)', () => {
  const c = keyedCell(cols, Y2023, BLS);

  it('figures', () => {
    expect(c.n).toBe(publishedN(5, z2023.key));
    expect(c.figures).toEqual({
      percentiles: rounded(g2023), // P10 and P90 need 15 reports: null
      mean: publishedMean(1_120_000, 5, z2023),
      standard_deviation: null, // n < 15
      // n = 5: no distribution-free 95% interval (it would be [min, max]): built from the published quartiles,
      // p50 +- (1.959964 x 1.2533 x (p75 - p25) / 1.349 / sqrt(5) + the median's largest move)
      confidence_interval_95: publishedCi(5, g2023, z2023),
    });
    expect(c.figures!.percentiles.p10).toBeNull();
    expect(c.figures!.percentiles.p90).toBeNull();
    // the draws are real: the published quartiles are not the exact ones
    expect([c.figures!.percentiles.p25, c.figures!.percentiles.p50, c.figures!.percentiles.p75]).not.toEqual([200_000, 220_000, 250_000]);
    expect(c.bls_variance_pct).toBe(variance(c.figures!.percentiles.p50, 230_000)); // (p50 - 230k) / 230k x 100
    expect(c.years).toEqual([2023]);
    expect(c.data_date_range).toEqual({ earliest: '2023-02-01', latest: '2023-10-10' });
  });

  it('sections', () => {
    const s = c.sections!;
    // the year row holds exactly the cell's reports: the same reports give the same figures
    expect(s.trending).toEqual([{ year: 2023, n: publishedN(5, z2023.key), p25: whole(g2023.p25), p50: whole(g2023.p50), p75: whole(g2023.p75), mean: publishedMean(1_120_000, 5, z2023), publishable: true, partial: false }]);
    expect(s.trending[0]).toMatchObject({ p25: c.figures!.percentiles.p25, p50: c.figures!.percentiles.p50, p75: c.figures!.percentiles.p75, mean: c.figures!.mean });
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
  it('is the sample SD (n - 1) of the cell, its sum of squares moved by its own draw, the record factors\' variance taken out', () => {
    const totals = Array.from({ length: 16 }, (_, i) => (200 + 10 * i) * K); // 200k..350k
    const a: KeyedReportsArtifact = {
      slug: 'x', count: 16, partial_from: 2030, ...keyFields(16), total: totals,
      fte: new Array(16).fill(null), base: new Array(16).fill(null), bonus: new Array(16).fill(null), wrvus: new Array(16).fill(null), year: new Array(16).fill(2024),
      experience_band: new Array(16).fill(-1), setting: new Array(16).fill(-1), employment: new Array(16).fill(-1), state: new Array(16).fill(0),
      day: new Array(16).fill(isoToDay('2024-05-05')),
    };
    const idx = Array.from({ length: 16 }, (_, i) => i);
    const z: Noise = { key: keyOf(16, idx), column: COLUMN.total, pay: true };
    const f = keyedCell(keyedColumnsFromArtifact(a), idx, BLS).figures!;
    // deviations (i - 7.5) x 10k; sum of squares = 100M x 340 = 34,000M; / 15 = 2,266.67M; sqrt = 47,609.5 before the draw and the factors
    expect(f.standard_deviation).toBe(publishedSd(34_000e6, 4_400_000, 16, z));
    expect(f.mean).toBe(publishedMean(4_400_000, 16, z)); // 275k before the draw
    // from 15 reports P10 and P90 too: h = 15p -> P10 215k, P25 237.5k, P50 275k, P75 312.5k, P90 335k
    const g = publishedGrid({ n: 16, p10: 215_000, p25: 237_500, p50: 275_000, p75: 312_500, p90: 335_000 }, z);
    expect(f.percentiles).toEqual(rounded(g));
    // n = 16: cum P(B<=j) x 65536 = 1, 17, 137, 697, 2517: 697/65536 = 0.0106 <= 0.025 -> k = 4, ranks (4, 13):
    // x(4) = 230k, x(13) = 320k; coverage 1 - 1394/65536 = 0.97873 -> 0.9787
    expect(f.confidence_interval_95).toEqual(publishedCi(16, g, z, { lower: 230_000, upper: 320_000, coverage: 0.9787 }));
  });
});

describe('keyedCell with n = 12 (all reports)', () => {
  const c = keyedCell(cols, all, BLS);
  const z = noise12(all);
  // exact: p25 h = 2.75 -> 200 + 0.75 x 10 = 207.5; p50 h = 5.5 -> 240 + 0.5 x 10 = 245; p75 h = 8.25 -> 280 + 0.25 x 20 = 285
  const g = publishedGrid({ n: 12, p25: 207_500, p50: 245_000, p75: 285_000 }, z);

  it('matches its zod schema', () => {
    expect(KeyedCell.safeParse(c).success).toBe(true);
  });

  it('percentiles, whole-dollar mean, sample SD and CI', () => {
    expect(c.n).toBe(publishedN(12, z.key));
    expect(c.years).toEqual([2023, 2024, 2025]);
    expect(c.data_date_range).toEqual({ earliest: '2023-02-01', latest: '2025-03-31' });
    expect(c.figures).toEqual({
      percentiles: rounded(g), // P10 and P90 null: n < 15; whole dollars, not rounded to $1,000
      mean: publishedMean(3_030_000, 12, z), // 3,030k / 12 = 252.5k before the draw
      standard_deviation: null, // n < 15
      // n = 12: cum P(B<=j) x 4096 = 1, 13, 79, 299; 79/4096 = 0.0193 <= 0.025 < 0.073 -> k = 3, ranks (3, 10):
      // x(3) = 200k, x(10) = 300k, each moved outward; coverage 1 - 158/4096 = 0.961426 -> 0.9614
      confidence_interval_95: publishedCi(12, g, z, { lower: 200_000, upper: 300_000, coverage: 0.9614 }),
    });
    const ci = c.figures!.confidence_interval_95;
    expect(ci.lower).toBeLessThanOrEqual(200_000); // moved outward: never narrower than [x(3), x(10)]
    expect(ci.upper).toBeGreaterThanOrEqual(300_000);
  });

  it('bls_variance_pct = (p50 - bls) / bls x 100 to one decimal', () => {
    const p50 = c.figures!.percentiles.p50;
    expect(c.bls_variance_pct).toBe(variance(p50, 230_000));
    expect(keyedCell(cols, all, { ...BLS, median: 200_000 }).bls_variance_pct).toBe(variance(p50, 200_000));
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
      // 2023 at 0,2,4,6,9: 150,200,220,250,300 -> p25 h1 = 200, p50 220, p75 250, mean 1120/5 = 224 (before the draws)
      { year: 2023, n: publishedN(5, z2023.key), p25: whole(g2023.p25), p50: whole(g2023.p50), p75: whole(g2023.p75), mean: publishedMean(1_120_000, 5, z2023), publishable: true, partial: false },
      // 2024 at 1,5,8,10 -> 4 reports: no count below 5
      { year: 2024, n: null, p25: null, p50: null, p75: null, mean: null, publishable: false, partial: false },
      // 2025 at 3,7,11 -> 3 reports; 2025 is the year still being reported (partial_from)
      { year: 2025, n: null, p25: null, p50: null, p75: null, mean: null, publishable: false, partial: true },
    ]);
  });

  it('by_experience: all five bands, empty ones included; unknown years left out', () => {
    // band 0 at 1,3,5,7,11: 180,210,240,260,400 -> p25 210, p50 240, p75 260, mean 1290/5 = 258 (before the draws)
    const band0 = [1, 3, 5, 7, 11];
    const g0 = publishedGrid({ n: 5, p25: 210_000, p50: 240_000, p75: 260_000 }, noise12(band0));
    expect(c.sections!.by_experience).toEqual([
      { label: '0-2 years', n: publishedN(5, noise12(band0).key), p25: whole(g0.p25), p50: whole(g0.p50), p75: whole(g0.p75), mean: publishedMean(1_290_000, 5, noise12(band0)), publishable: true },
      { label: '3-5 years', n: null, p25: null, p50: null, p75: null, mean: null, publishable: false },
      { label: '6-10 years', n: null, p25: null, p50: null, p75: null, mean: null, publishable: false },
      { label: '11-20 years', n: null, p25: null, p50: null, p75: null, mean: null, publishable: false },
      { label: '21+ years', n: null, p25: null, p50: null, p75: null, mean: null, publishable: false },
    ]);
  });

  it('fte_normalized uses only the non-null FTE values, with the cell key of exactly those reports', () => {
    // non-null at 0,1,2,4,6,8,10: 300,180,160,220,250,224,272 -> sorted 160,180,220,224,250,272,300 (n 7, h = 6p):
    // p25 h = 1.5 -> 180 + 0.5 x 40 = 200; p50 h = 3 -> 224; p75 h = 4.5 -> 250 + 0.5 x 22 = 261; mean 1,606k / 7
    const withFte = known(FTE, all);
    expect(withFte).toEqual([0, 1, 2, 4, 6, 8, 10]);
    const z = noise12(withFte, COLUMN.fte);
    expect(c.sections!.fte_normalized).toEqual({
      n: publishedN(7, keyOf(12, withFte)),
      percentiles: rounded(publishedGrid({ n: 7, p25: 200_000, p50: 224_000, p75: 261_000 }, z)), // P10 and P90 null: n < 15
      mean: publishedMean(1_606_000, 7, z),
    });
  });

  it('components: quartiles from 5 values up, null below', () => {
    // base non-null at 0,1,2,3,5,7: 120,150,170,180,200,210 (n 6, h = 5p):
    // p25 h = 1.25 -> 150 + 0.25 x 20 = 155; p50 h = 2.5 -> 170 + 0.5 x 10 = 175; p75 h = 3.75 -> 180 + 0.75 x 20 = 195
    const g = publishedGrid({ n: 6, p25: 155_000, p50: 175_000, p75: 195_000 }, noise12(known(BASE, all), COLUMN.base));
    expect(c.sections!.components).toEqual({
      base_salary: { n: publishedN(6, keyOf(12, known(BASE, all))), p25: whole(g.p25), p50: whole(g.p50), p75: whole(g.p75) },
      // bonus non-null 10,20,5,30 -> n 4 < 5
      bonus: { n: null, p25: null, p50: null, p75: null },
    });
  });

  it('components: exactly 5 values are published (unsorted input is sorted)', () => {
    const bonus = [40, null, 20, null, 5, null, null, 30, null, 10, null, null].map((v) => (v === null ? null : v * K));
    const c2 = keyedCell(keyedColumnsFromArtifact(artifact({ bonus })), all, BLS);
    // sorted 5,10,20,30,40: p25 h 1 = 10, p50 20, p75 30
    const g = publishedGrid({ n: 5, p25: 10_000, p50: 20_000, p75: 30_000 }, noise12(known(bonus, all), COLUMN.bonus));
    expect(c2.sections!.components.bonus).toEqual({ n: publishedN(5, keyOf(12, known(bonus, all))), p25: whole(g.p25), p50: whole(g.p50), p75: whole(g.p75) });
  });
});

describe('keyedCell with n = 6', () => {
  // totals 200,210,230,260,300,350 ($k), no optional columns
  const a: KeyedReportsArtifact = {
    slug: 'x', count: 6, partial_from: 2030, ...keyFields(6),
    total: [200, 210, 230, 260, 300, 350].map((v) => v * K),
    fte: new Array(6).fill(null), base: new Array(6).fill(null), bonus: new Array(6).fill(null), wrvus: new Array(6).fill(null),
    year: new Array(6).fill(2024), experience_band: new Array(6).fill(-1), setting: new Array(6).fill(-1),
    employment: new Array(6).fill(-1), state: new Array(6).fill(0), day: new Array(6).fill(isoToDay('2024-05-05')),
  };
  const six = [0, 1, 2, 3, 4, 5];
  const z: Noise = { key: keyOf(6, six), column: COLUMN.total, pay: true };
  const c = keyedCell(keyedColumnsFromArtifact(a), six, BLS);
  // exact: p25 h = 1.25 -> 210 + 0.25 x 20 = 215; p50 h = 2.5 -> 230 + 0.5 x 30 = 245; p75 h = 3.75 -> 260 + 0.75 x 40 = 290
  const g = publishedGrid({ n: 6, p25: 215_000, p50: 245_000, p75: 290_000 }, z);

  it('figures and the approximate CI', () => {
    expect(c.figures).toEqual({
      percentiles: rounded(g), // P10 and P90 null: n < 15
      mean: publishedMean(1_550_000, 6, z), // 1,550k / 6 = 258,333.33 before the draw
      // n = 6 < 15: no SD (its disclosure perturbation would dominate it; disclosure.test.ts checks the formula)
      standard_deviation: null,
      // n = 6: the order-statistic interval would be [min, max] (k = 1): built from the published quartiles
      confidence_interval_95: publishedCi(6, g, z),
    });
    expect(c.bls_variance_pct).toBe(variance(c.figures!.percentiles.p50, 230_000));
  });

  it('sections with no optional data', () => {
    expect(c.sections!.fte_normalized).toEqual({ n: null, percentiles: null, mean: null });
    expect(c.sections!.components.base_salary).toEqual({ n: null, p25: null, p50: null, p75: null });
    // one year: its row has the cell's own reports, so the cell's own figures
    expect(c.sections!.trending).toEqual([{ year: 2024, n: publishedN(6, z.key), p25: whole(g.p25), p50: whole(g.p50), p75: whole(g.p75), mean: publishedMean(1_550_000, 6, z), publishable: true, partial: false }]);
    expect(c.sections!.by_experience).toHaveLength(5);
    expect(c.sections!.by_experience.every((r) => r.n === null && !r.publishable)).toBe(true);
  });

  it('all-equal totals: no SD below 15, and the interval is the median\'s largest move either side', () => {
    const eq = keyedColumnsFromArtifact({ ...a, total: new Array(6).fill(275_000) });
    const f = keyedCell(eq, six, BLS).figures!;
    // every exact quantile is 275k and there is no spread to correct: each moves by its own draw only
    const ge = publishedGrid({ n: 6, p25: 275_000, p50: 275_000, p75: 275_000 }, z);
    expect(f.percentiles).toEqual(rounded(ge));
    for (const v of [f.percentiles.p25, f.percentiles.p50, f.percentiles.p75]) {
      expect(v / 275_000).toBeGreaterThanOrEqual(Math.exp(-moveBound(6)) - 1e-5);
      expect(v / 275_000).toBeLessThanOrEqual(Math.exp(moveBound(6)) + 1e-5);
    }
    expect(f.mean).toBe(publishedMean(1_650_000, 6, z));
    expect(f.standard_deviation).toBeNull(); // n < 15
    // p50 +- (0 + p50 x (exp(moveBound(6)) - 1)), plus what the draws put between the published quartiles
    expect(f.confidence_interval_95).toEqual(publishedCi(6, ge, z));
    expect(f.confidence_interval_95.method).toBe('approximate');
    expect(f.confidence_interval_95.upper - f.confidence_interval_95.lower).toBeGreaterThan(0);
  });
});

describe('breakdownFigures', () => {
  it('n < 5: nothing published, not even n', () => {
    expect(breakdownFigures(cols, [1, 5, 8, 10])).toEqual({ n: null, p25: null, p50: null, p75: null, mean: null, publishable: false });
    expect(breakdownFigures(cols, [])).toEqual({ n: null, p25: null, p50: null, p75: null, mean: null, publishable: false });
  });

  it('n = 6: quartiles and whole-dollar mean', () => {
    // positions 0..5: 150,180,200,210,220,240; h = 5p:
    // p25 h = 1.25 -> 180 + 0.25 x 20 = 185; p50 h = 2.5 -> 200 + 0.5 x 10 = 205; p75 h = 3.75 -> 210 + 0.75 x 10 = 217.5; mean 1,200k / 6
    const idx = [0, 1, 2, 3, 4, 5];
    const g = publishedGrid({ n: 6, p25: 185_000, p50: 205_000, p75: 217_500 }, noise12(idx));
    expect(breakdownFigures(cols, idx)).toEqual({
      n: publishedN(6, noise12(idx).key), p25: whole(g.p25), p50: whole(g.p50), p75: whole(g.p75), mean: publishedMean(1_200_000, 6, noise12(idx)), publishable: true,
    });
  });
});

describe('keyedCell productivity (wRVUs and compensation per wRVU)', () => {
  it('type-7 P25-P75 of the reports that give wRVUs (P90 from 15); $/wRVU to the cent; null below 5', () => {
    const c = keyedCell(cols, all, NO_BLS);
    const withW = known(WRVUS, all);
    const w = withW.map((i) => WRVUS[i]!).sort((a, b) => a - b);
    const per = withW.map((i) => TOTALS[i]! / WRVUS[i]!).sort((a, b) => a - b);
    const q7 = (xs: number[], p: number) => { const h = (xs.length - 1) * p; const lo = Math.floor(h); return xs[lo]! + (h - lo) * (xs[Math.min(lo + 1, xs.length - 1)]! - xs[lo]!); };
    const exact = (xs: number[]): Exact => ({ n: xs.length, p25: q7(xs, 0.25), p50: q7(xs, 0.5), p75: q7(xs, 0.75) });
    // both figures come from the same reports (those with wRVUs): one cell key, two columns; wRVUs are not pay
    const key = keyOf(12, withW);
    const gw = publishedGrid(exact(w), { key, column: COLUMN.wrvus, pay: false });
    const gp = publishedGrid(exact(per), { key, column: COLUMN.perWrvu, pay: true });
    expect(c.sections!.productivity).toEqual({
      n: publishedN(7, key), publishable: true, sufficient: false,
      wrvus: { p25: whole(gw.p25), p50: whole(gw.p50), p75: whole(gw.p75), p90: null },
      compensation_per_wrvu: { p25: cents(gp.p25), p50: cents(gp.p50), p75: cents(gp.p75), p90: null },
    });
    // four reports with wRVUs: n and flags, no figures
    const few = keyedCell(cols, [0, 1, 2, 3, 4, 5], NO_BLS);
    expect(few.sections!.productivity).toEqual({ n: null, publishable: false, sufficient: false, wrvus: null, compensation_per_wrvu: null });
  });
});

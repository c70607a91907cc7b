/**
 * The disclosure accuracy table (build/compute/disclosure-accuracy.ts): the documented cell-key bound by size,
 * and the largest moves among cells of about each size, on synthetic keyed columns with cells of every size.
 * The moves are measured against the exact percentiles of the UNDISTORTED totals (exactTotal), so they hold
 * the record factors as well as the cell-key draws: the test measures every cell again here, with the
 * published figures as keyedCell gives them and type-7 percentiles of the exact totals written out.
 */
import { describe, expect, it } from 'vitest';
import { accuracyTable, specialtyAccuracy, ACCURACY_SIZES } from '../../build/compute/disclosure-accuracy.ts';
import { keyedCell, keyedColumnsFromArtifact, uint32ToBase64, type KeyedColumns } from '../../build/compute/keyed.ts';
import { quantileMoveBound, recordFactor, RECORD_NOISE } from '../../build/compute/disclosure.ts';
import { medianCiRanks } from '../../build/compute/stats.ts';
import type { BlsInfo, KeyedReportsArtifact } from '../../build/contract/keyed-artifacts.ts';

const NO_BLS: BlsInfo = { available: false, soc_code: null, soc_title: null, soc_match: 'exact', median: null, year: null, top_coded: false };

/** Type-7 quantile of ascending values: h = (n - 1) p. */
function q7(s: ArrayLike<number>, p: number): number {
  const h = (s.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, s.length - 1);
  return s[lo]! + (h - lo) * (s[hi]! - s[lo]!);
}

/** A report's secret factor word (a murmur3 finaliser of its position: both signs, every delta). */
function mix(i: number): number {
  let x = Math.imul(i + 0x1234567, 0x9e3779b1) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * Reports of one specialty: 1,000 in state 0, 100 in state 1, 25 in state 2, 5 in state 3 (all one region),
 * spread over 11 compensation years (cells of about 103). Each exact total gets a record factor as the build
 * gives it (recordFactor of a secret word; whole dollars), and the columns are ordered by the distorted total.
 */
function columns(): KeyedColumns {
  const sizes = [1_000, 100, 25, 5];
  const exact: number[] = [];
  const total: number[] = [];
  const state: number[] = [];
  let h = 12345;
  const next = () => (h = (Math.imul(h, 1103515245) + 12345) >>> 0);
  sizes.forEach((n, st) => {
    for (let i = 0; i < n; i++) {
      // lognormal pay (log sd 0.3, Box-Muller), the shape the spread correction of the quartiles assumes
      const z = Math.sqrt(-2 * Math.log((next() + 1) / (2 ** 32 + 1))) * Math.cos((2 * Math.PI * next()) / 2 ** 32);
      const x = Math.round(300_000 * Math.exp(0.3 * z));
      exact.push(x);
      total.push(Math.round(x * recordFactor(mix(exact.length))));
      state.push(st);
    }
  });
  const order = total.map((_, i) => i).sort((a, b) => total[a]! - total[b]! || a - b);
  const count = total.length;
  const lo = Uint32Array.from({ length: count }, (_, i) => Math.imul(i + 1, 0x9e3779b1) >>> 0);
  const hi = Uint32Array.from({ length: count }, (_, i) => Math.imul(i + 7, 0xc2b2ae35) >>> 0);
  const a: KeyedReportsArtifact = {
    slug: 'x', count, partial_from: 2030,
    key_lo: uint32ToBase64(lo), key_hi: uint32ToBase64(hi), draw_key: Buffer.alloc(32, 7).toString('base64'), total: order.map((i) => total[i]!),
    fte: new Array(count).fill(null), base: new Array(count).fill(null), bonus: new Array(count).fill(null), wrvus: new Array(count).fill(null),
    year: order.map((i) => 2016 + (i % 11)), experience_band: new Array(count).fill(-1), setting: new Array(count).fill(-1), employment: new Array(count).fill(-1),
    state: order.map((i) => state[i]!), day: new Array(count).fill(20_000),
  };
  // the exact totals never travel in an artifact: the build keeps them beside the columns for this table only
  return { ...keyedColumnsFromArtifact(a), exactTotal: Float64Array.from(order, (i) => exact[i]!) };
}

/** The table's cells, written out: national, each region, each state, each compensation year nationally. */
function cellsOf(c: KeyedColumns, regionOfState: number[]): number[][] {
  const groups = new Map<string, number[]>();
  for (let i = 0; i < c.count; i++) {
    for (const k of ['US', `R${regionOfState[c.state[i]!]}`, `S${c.state[i]}`, `Y${c.year[i]}`]) {
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k)!.push(i);
    }
  }
  return [...groups.values()];
}

interface Measured {
  n: number;
  move: number;
  shareOfCi: number;
  shareOfBound: number;
}

/** Width of a cell's exact 95% interval of the median: order statistics (x(k), x(n-k+1)) from 9 reports, else from the quartiles. */
function medianCiWidth(exact: Float64Array): number {
  const n = exact.length;
  const { k } = medianCiRanks(n);
  return k >= 2 ? exact[n - k]! - exact[k - 1]! : (2 * 1.959964 * 1.2533 * (q7(exact, 0.75) - q7(exact, 0.25))) / 1.349 / Math.sqrt(n);
}

/**
 * Width of the exact 95% interval of percentile p: the order statistics at n p -+ 1.96 sqrt(n p (1 - p)) (normal
 * approximation of the binomial ranks, 0-based, clamped to the sample); the median's own interval for P50 and below 9.
 */
function percentileCiWidth(exact: Float64Array, p: number): number {
  const n = exact.length;
  if (p === 0.5 || n < 9) return medianCiWidth(exact);
  const [lo, hi] = percentileCi(exact, p);
  return hi - lo;
}

/** The exact 95% interval of percentile p from 9 values (p = 0.5: the median's order-statistic interval). */
function percentileCi(exact: Float64Array, p: number): [number, number] {
  const n = exact.length;
  if (p === 0.5) {
    const { k } = medianCiRanks(n);
    return [exact[k - 1]!, exact[n - k]!];
  }
  const half = 1.959964 * Math.sqrt(n * p * (1 - p));
  return [exact[Math.max(0, Math.floor(n * p - half))]!, exact[Math.min(n - 1, Math.ceil(n * p + half))]!];
}

/**
 * One cell measured here: published P10..P90 (keyedCell, whole dollars) against type-7 percentiles of its exact
 * totals; its largest move, the largest share of a percentile's own interval, and the largest move / the cell-key bound.
 */
function measure(c: KeyedColumns, idx: number[]): { measured: Measured; figures: { p: number; published: number; exact: number; median: number }[] } {
  const n = idx.length;
  const published = keyedCell(c, idx, NO_BLS).figures!.percentiles;
  const exact = Float64Array.from(idx, (i) => c.exactTotal![i]!).sort();
  const median = q7(exact, 0.5);
  const figures = ([[0.1, published.p10], [0.25, published.p25], [0.5, published.p50], [0.75, published.p75], [0.9, published.p90]] as const)
    .filter(([, v]) => v !== null)
    .map(([p, v]) => ({ p, published: v!, exact: q7(exact, p), median }));
  const move = Math.max(...figures.map((f) => Math.abs(f.published - f.exact)));
  const shareOfCi = Math.max(...figures.map((f) => Math.abs(f.published - f.exact) / percentileCiWidth(exact, f.p)));
  const bound = median * (Math.exp(quantileMoveBound(n)) - 1);
  return { measured: { n, move, shareOfCi, shareOfBound: move / bound }, figures };
}

describe('disclosure accuracy table', () => {
  const c = columns();
  const region = [0, 0, 0, 0];
  const rows = accuracyTable([specialtyAccuracy(c, region)]);
  const exactSorted = Float64Array.from(c.exactTotal!).sort();
  const bucketOf = (n: number) => ACCURACY_SIZES.findIndex((s) => n >= 0.8 * s && n <= 1.25 * s);
  const cells = cellsOf(c, region).filter((idx) => idx.length >= 5 && bucketOf(idx.length) >= 0).map((idx) => ({ idx, ...measure(c, idx) }));

  it('the record factors are real here: each distorted total is 5.5% to 15% off its exact one, up or down', () => {
    let up = 0;
    for (let i = 0; i < c.count; i++) {
      const d = Math.log(c.total[i]! / c.exactTotal![i]!);
      expect(Math.abs(d)).toBeGreaterThanOrEqual(RECORD_NOISE.min - 1e-5);
      expect(Math.abs(d)).toBeLessThanOrEqual(RECORD_NOISE.max + 1e-5);
      if (d > 0) up++;
    }
    expect(c.count).toBe(1_130);
    expect(Math.abs(up / c.count - 0.5)).toBeLessThan(0.05);
  });

  it('has a row per documented size with the cell-key bound for the typical specialty median (exact pay)', () => {
    expect(rows.map((r) => r.n)).toEqual([...ACCURACY_SIZES]);
    const median = q7(exactSorted, 0.5);
    for (const r of rows) expect(r.bound).toBe(Math.round(median * (Math.exp(quantileMoveBound(r.n)) - 1)));
    // the bound shrinks faster than the interval: its share of the interval falls with n
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.bound_share_of_ci).toBeLessThan(rows[i - 1]!.bound_share_of_ci);
    expect(rows[rows.length - 1]!.bound_share_of_ci).toBeLessThan(0.15);
  });

  it('measures cells of about each size against the exact percentiles of the undistorted totals (the same figures measured here)', () => {
    // 1,000: national, the region (the same reports) and state 0; 100: state 1 and the 11 years; 25; 5
    expect(rows.map((r) => r.cells)).toEqual([1, 1, 12, 3]);
    rows.forEach((r, at) => {
      const mine = cells.filter((x) => bucketOf(x.idx.length) === at).map((x) => x.measured);
      expect(r.cells, `n = ${r.n}`).toBe(mine.length);
      const largest = mine.reduce((a, x) => (x.move > a.move ? x : a));
      expect(r.largest_move, `n = ${r.n}`).toBe(Math.round(largest.move));
      expect(r.largest_move!).toBeGreaterThan(0);
      expect(r.largest_move_share_of_ci!).toBeCloseTo(largest.shareOfCi, 3);
      expect(r.largest_share_of_bound!).toBeCloseTo(Math.max(...mine.map((x) => x.shareOfBound)), 3);
      const shares = mine.map((x) => x.shareOfCi).sort((a, b) => a - b);
      expect(r.median_share_of_ci!).toBeCloseTo(q7(shares, 0.5), 3);
    });
  });

  it('every measured figure stays within what the method allows against the exact pay: record factor, cell-key move, spread correction', () => {
    // published = (distorted quantile brought at most halfway to the distorted median, in log) x exp(+-quantileMoveBound(n));
    // every distorted value is within exp(+-RECORD_NOISE.max) of its exact one, and so is every quantile of them.
    // So in log terms a published figure lies between its exact percentile and the midpoint towards the exact median,
    // widened by RECORD_NOISE.max + quantileMoveBound(n) (and a dollar of rounding).
    let figures = 0;
    for (const { measured, figures: fs } of cells) {
      const c2 = RECORD_NOISE.max + quantileMoveBound(measured.n);
      for (const f of fs) {
        const mid = Math.sqrt(f.exact * f.median);
        const [lo, hi] = f.p <= 0.5 ? [f.exact, mid] : [mid, f.exact];
        expect(f.published, `n ${measured.n} p ${f.p}`).toBeGreaterThanOrEqual(lo * Math.exp(-c2) - 1);
        expect(f.published, `n ${measured.n} p ${f.p}`).toBeLessThanOrEqual(hi * Math.exp(c2) + 1);
        figures++;
      }
    }
    expect(figures).toBe(5 * (1 + 12 + 3) + 3);
  });

  it('cells of about 1,000: the cell-key draw is a small part of the interval; with the record factors, every figure stays inside its own interval', () => {
    // the documented draw at 1,000 is a small fraction of the interval (0.42% of the median)
    expect(rows[3]!.bound_share_of_ci).toBeLessThan(0.15);
    const big = cells.filter((x) => x.measured.n >= 800);
    expect(big).toHaveLength(3);
    for (const { idx, figures } of big) {
      const exact = Float64Array.from(idx, (i) => c.exactTotal![i]!).sort();
      for (const f of figures) {
        // each published percentile lies inside the exact 95% interval of that percentile: the disclosure
        // control (factors and draw together) costs such a cell less than the uncertainty it has anyway
        const [lo, hi] = percentileCi(exact, f.p);
        expect(f.published, `n ${idx.length} p ${f.p}`).toBeGreaterThanOrEqual(lo);
        expect(f.published, `n ${idx.length} p ${f.p}`).toBeLessThanOrEqual(hi);
        // and is closer to the exact one than any single report is to its own distorted value (the factors average out)
        expect(Math.abs(Math.log(f.published / f.exact)), `n ${idx.length} p ${f.p}`).toBeLessThan(RECORD_NOISE.min);
      }
    }
    // no figure of such a cell moved by half its own interval's width
    expect(rows[3]!.largest_move_share_of_ci!).toBeLessThan(0.5);
    // but the factors' sampling error in a percentile of 1,000 values (about sqrt(pi/2 x E[delta^2] / n) = 0.4% at
    // the median, more in the tails) is the size of the cell-key bound (0.42%): measured against the exact pay,
    // the table shows a share of that bound above 1
    expect(rows[3]!.largest_share_of_bound!).toBeGreaterThan(1);
  });
});

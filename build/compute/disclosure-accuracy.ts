/**
 * What the disclosure control costs the keyed API's percentiles (pure): the table the methodology page and
 * the README show. For each size n it gives the documented largest move of the cell-key draw (for a
 * specialty of typical median and spread) and, among this build's cells of about that size, how far the
 * published P10..P90 are from the exact percentiles of the undistorted pay (record factors and draws
 * together), in dollars and as a share of the cell's exact 95% interval of the median (the uncertainty the
 * figure has anyway). Only a maximum and a median over many cells are published, never a cell's own move.
 */
import { quantileMoveBound } from './disclosure.ts';
import { cellTotals, publishedTotals, type KeyedColumns } from './keyed.ts';
import { medianCiRanks, quantile } from './stats.ts';

export const ACCURACY_SIZES = [5, 25, 100, 1_000] as const;

export interface AccuracyRow {
  n: number;
  /** documented largest move of the cell-key draw at n, dollars, for a specialty of typical national median */
  bound: number;
  /** that bound as a share of the expected width of the median's 95% interval at n */
  bound_share_of_ci: number;
  /** figures (cells) of this build with n within [0.8 n, 1.25 n] that were measured */
  cells: number;
  /** the largest |published - exact| among their P10..P90 (exact: of the undistorted pay), whole dollars; null without cells */
  largest_move: number | null;
  /** that cell's largest share: a percentile's move / the width of that percentile's own 95% interval */
  largest_move_share_of_ci: number | null;
  /** the median over the cells of their largest share (move of a percentile / its own interval's width) */
  median_share_of_ci: number | null;
  /** the largest move of any cell as a share of its own cell-key bound (above 1 where the record factors move it further) */
  largest_share_of_bound: number | null;
}

/** One measured cell: its largest move, that move / its interval's width, and / its bound. */
export interface CellMove {
  move: number;
  shareOfCi: number;
  shareOfBound: number;
}

/** z x sqrt(pi/2) / 1.349: the median's 95% half-width per unit of IQR / sqrt(n) for a normal distribution. */
const HALF_WIDTH_PER_IQR = (1.959964 * 1.2533) / 1.349;

/** Width of a cell's exact 95% interval of the median, by the rule the API publishes (order statistics from 9 reports, else approximate). */
function exactCiWidth(v: Float64Array): number {
  const n = v.length;
  const { k } = medianCiRanks(n);
  if (k >= 2) return v[n - k]! - v[k - 1]!;
  return (2 * HALF_WIDTH_PER_IQR * (quantile(v, 0.75) - quantile(v, 0.25))) / Math.sqrt(n);
}

const GRID = [0.1, 0.25, 0.5, 0.75, 0.9] as const;

/**
 * Width of the distribution-free 95% interval of quantile p of a sorted sample: order statistics at
 * n p -+ 1.96 sqrt(n p (1 - p)) (normal approximation of the binomial ranks); the median's rule below 9.
 */
function quantileCiWidth(v: Float64Array, p: number): number {
  const n = v.length;
  if (p === 0.5 || n < 9) return exactCiWidth(v);
  const half = 1.959964 * Math.sqrt(n * p * (1 - p));
  return v[Math.min(n - 1, Math.ceil(n * p + half))]! - v[Math.max(0, Math.floor(n * p - half))]!;
}

/** The cells measured for one specialty: national, each region, each state, each compensation year nationally. */
function cellsOf(c: KeyedColumns, regionOfState: ArrayLike<number>): number[][] {
  const groups = new Map<string, number[]>();
  const add = (k: string, i: number) => {
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(i);
  };
  for (let i = 0; i < c.count; i++) {
    add('US', i);
    add(`R${regionOfState[c.state[i]!]}`, i);
    add(`S${c.state[i]}`, i);
    add(`Y${c.year[i]}`, i);
  }
  return [...groups.values()];
}

/** One specialty's share of the table: its national median and spread (exact pay) and, per size, the cells measured. */
export interface SpecialtyAccuracy {
  median: number;
  spread: number;
  sizes: CellMove[][];
}

/** Measure one specialty's cells (its keyed columns, ascending by total, with their exact totals) against the sizes of the table. */
export function specialtyAccuracy(c: KeyedColumns, regionOfState: ArrayLike<number>, sizes: readonly number[] = ACCURACY_SIZES): SpecialtyAccuracy {
  if (!c.exactTotal) return { median: NaN, spread: NaN, sizes: sizes.map(() => []) }; // columns read from an artifact carry no exact pay
  const exact = c.exactTotal;
  const exactOf = (idx: number[]) => Float64Array.from(idx, (i) => exact[i]!).sort();
  const all = c.count > 0 ? exactOf(Array.from({ length: c.count }, (_, i) => i)) : new Float64Array(0);
  const out: SpecialtyAccuracy = {
    median: c.count > 0 ? quantile(all, 0.5) : NaN,
    spread: c.count > 0 ? quantile(all, 0.75) - quantile(all, 0.25) : NaN,
    sizes: sizes.map(() => []),
  };
  for (const idx of cellsOf(c, regionOfState)) {
    const at = sizes.findIndex((n) => idx.length >= 0.8 * n && idx.length <= 1.25 * n);
    if (at < 0 || idx.length < 5) continue;
    const { v, key } = cellTotals(c, idx);
    const exact = exactOf(idx);
    const { percentiles: p } = publishedTotals(c, v, key);
    const pairs: [number | null, number][] = [
      [p.p10, quantile(exact, 0.1)], [p.p25, quantile(exact, 0.25)], [p.p50, quantile(exact, 0.5)], [p.p75, quantile(exact, 0.75)], [p.p90, quantile(exact, 0.9)],
    ];
    let move = 0;
    let shareOfCi = 0;
    pairs.forEach(([published, x], q) => {
      if (published === null) return;
      const m = Math.abs(Math.round(published) - x);
      move = Math.max(move, m);
      const w = quantileCiWidth(exact, GRID[q]!);
      shareOfCi = Math.max(shareOfCi, w > 0 ? m / w : Infinity);
    });
    const bound = quantile(exact, 0.5) * (Math.exp(quantileMoveBound(v.length)) - 1);
    out.sizes[at]!.push({ move, shareOfCi, shareOfBound: bound > 0 ? move / bound : 0 });
  }
  return out;
}

const share = (x: number) => Math.round(x * 1000) / 1000;

/** The table from every specialty's share. */
export function accuracyTable(parts: readonly SpecialtyAccuracy[], sizes: readonly number[] = ACCURACY_SIZES): AccuracyRow[] {
  const typicalOf = (xs: number[]) => {
    const known = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
    return known.length ? quantile(known, 0.5) : 0;
  };
  const typical = typicalOf(parts.map((p) => p.spread));
  const typicalMedian = typicalOf(parts.map((p) => p.median));
  return sizes.map((n, at): AccuracyRow => {
    const bound = typicalMedian * (Math.exp(quantileMoveBound(n)) - 1);
    const width = (2 * HALF_WIDTH_PER_IQR * typical) / Math.sqrt(n);
    const cells = parts.flatMap((p) => p.sizes[at]!);
    const largest = cells.reduce<CellMove | null>((a, x) => (a === null || x.move > a.move ? x : a), null);
    const shares = cells.map((x) => x.shareOfCi).filter(Number.isFinite).sort((a, b) => a - b);
    return {
      n,
      bound: Math.round(bound),
      bound_share_of_ci: width > 0 ? share(bound / width) : 0,
      cells: cells.length,
      largest_move: largest ? Math.round(largest.move) : null,
      largest_move_share_of_ci: largest && Number.isFinite(largest.shareOfCi) ? share(largest.shareOfCi) : null,
      median_share_of_ci: shares.length ? share(quantile(shares, 0.5)) : null,
      largest_share_of_bound: cells.length ? share(Math.max(...cells.map((x) => x.shareOfBound))) : null,
    };
  });
}

/**
 * Cells: subsets of reports, as index lists in ascending order of total compensation (the Dataset's order),
 * and the open-data summary of a cell (floors, rounding, perturbed mean). Pure.
 */
import type { Dataset } from './dataset.ts';
import type { NationalFacts } from './national.ts';
import { cellKeyOfRange, drawsFor, perturbedCount, perturbedMean, COLUMN, type CellNoise, type Draws } from './disclosure.ts';
import { publishedGrid } from './published.ts';
import { FLOORS, ROUNDING_MAX_N, roundMoney, roundRate } from './stats.ts';
import type { OpenSummary } from '../contract/open-feeds.ts';

/** Report indexes grouped by key, each group keeping the input order. */
export function groupBy(indexes: Iterable<number>, key: (i: number) => number): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  for (const i of indexes) {
    const k = key(i);
    if (k < 0) continue;
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(i);
  }
  return groups;
}

export function range(start: number, end: number): number[] {
  const out = new Array<number>(end - start);
  for (let i = start; i < end; i++) out[i - start] = i;
  return out;
}

export interface OpenCellResult {
  summary: OpenSummary;
  /** newest submission day among the reports used, or null when none */
  newestDay: number | null;
  /** unrounded figures as published (perturbed), for derived values such as differences */
  raw: { median: number; mean: number } | null;
}

const WITHHELD: OpenSummary = { n: null, median: null, mean: null, p10: null, p25: null, p75: null, p90: null, rounded: false, withheld: true };

/**
 * The reports of an open cell: values ascending (outliers already left out), with their days, record keys
 * and the draw key. A null draw key publishes the exact figures of `values`: only the tests of floors and
 * rounding use it; the build always passes its key.
 */
export interface OpenValues {
  values: ArrayLike<number>;
  days: ArrayLike<number>;
  keyLo: ArrayLike<number>;
  keyHi: ArrayLike<number>;
  drawKey: Uint8Array | null;
}

const NO_DRAWS: Draws = { draw: () => 0 };

export const NO_VALUES: OpenValues = { values: [], days: [], keyLo: [], keyHi: [], drawKey: null };

/**
 * Summary of an open cell (B, C). Outliers were decided per report beforehand (national.ts); this applies
 * `floor` to n, the P10/P90 floor and the rounding rule, and perturbs every figure with the cell key method
 * (disclosure.ts): the mean and each percentile by its own draw, relative to the cell's own figure, and the
 * count (perturbedCount: +-2, never below the floor). Rounding and the P10/P90 floor follow the exact n.
 * `kind` picks dollar or $/wRVU rounding (and the draws' column).
 */
export function openCell(cell: OpenValues, floor: number, kind: 'money' | 'rate' = 'money'): OpenCellResult {
  const { values, days } = cell;
  const n = values.length;
  let newestDay: number | null = null;
  for (let i = 0; i < n; i++) if (newestDay === null || days[i]! > newestDay) newestDay = days[i]!;
  if (n < floor || n === 0) return { summary: WITHHELD, newestDay, raw: null };
  const round = kind === 'money' ? roundMoney : roundRate;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i]!;
  const noise: CellNoise = {
    draws: cell.drawKey ? drawsFor(cell.drawKey) : NO_DRAWS, key: cellKeyOfRange(cell.keyLo, cell.keyHi, 0, n),
    column: kind === 'money' ? COLUMN.total : COLUMN.rate, pay: cell.drawKey !== null,
  };
  const avg = perturbedMean(sum, n, noise);
  const { p10, p25, p50: m, p75, p90 } = publishedGrid(values, noise);
  return {
    summary: {
      n: cell.drawKey ? perturbedCount(n, [Math.max(1, floor), FLOORS.tails, ROUNDING_MAX_N + 1], noise) : n,
      median: round(m, n),
      mean: round(avg, n),
      p10: p10 === null ? null : round(p10, n),
      p25: round(p25, n),
      p75: round(p75, n),
      p90: p90 === null ? null : round(p90, n),
      rounded: n <= ROUNDING_MAX_N,
      withheld: false,
    },
    newestDay,
    raw: { median: m, mean: avg },
  };
}

/** Totals, days and record keys of the reports in `idx` (ascending by total) that the open data counts. */
export function totalsOf(ds: Dataset, facts: NationalFacts, idx: number[]): OpenValues {
  const kept = idx.filter((r) => facts.openTotal[r] === 1);
  return {
    values: Float64Array.from(kept, (r) => ds.reports.total[r]!),
    days: Int32Array.from(kept, (r) => ds.reports.submittedDay[r]!),
    keyLo: Uint32Array.from(kept, (r) => ds.reports.keyLo[r]!),
    keyHi: Uint32Array.from(kept, (r) => ds.reports.keyHi[r]!),
    drawKey: ds.drawKey,
  };
}

/** Per-report compensation per wRVU of the given reports that the open data counts, sorted ascending. */
export function ratesOf(ds: Dataset, facts: NationalFacts, idx: number[]): OpenValues {
  const R = ds.reports;
  const kept = idx.filter((r) => facts.openRate[r] === 1);
  const rate = (r: number) => R.total[r]! / R.wrvus[r]!;
  kept.sort((a, b) => rate(a) - rate(b) || R.submittedDay[a]! - R.submittedDay[b]! || a - b);
  return {
    values: Float64Array.from(kept, rate),
    days: Int32Array.from(kept, (r) => R.submittedDay[r]!),
    keyLo: Uint32Array.from(kept, (r) => R.keyLo[r]!),
    keyHi: Uint32Array.from(kept, (r) => R.keyHi[r]!),
    drawKey: ds.drawKey,
  };
}

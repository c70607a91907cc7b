/**
 * Cells: subsets of reports, as index lists in ascending order of total compensation (the Dataset's order),
 * and the open-data summary of a cell (floors, rounding, perturbed mean). Pure.
 */
import type { Dataset } from './dataset.ts';
import type { NationalFacts } from './national.ts';
import { cellKeyOfRange, perturbedMean } from './disclosure.ts';
import { FLOORS, ROUNDING_MAX_N, quantile, roundMoney, roundRate } from './stats.ts';
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
  /** unrounded figures, for derived values such as differences (the mean as published, perturbed) */
  raw: { median: number; mean: number } | null;
}

const WITHHELD: OpenSummary = { n: null, median: null, mean: null, p10: null, p25: null, p75: null, p90: null, rounded: false, withheld: true };

/** The reports of an open cell: values ascending (outliers already left out), with their days and record keys. */
export interface OpenValues {
  values: ArrayLike<number>;
  days: ArrayLike<number>;
  keys: ArrayLike<number>;
}

export const NO_VALUES: OpenValues = { values: [], days: [], keys: [] };

/**
 * Summary of an open cell (B, C). Outliers were decided per report beforehand (national.ts); this applies
 * `floor` to n, the P10/P90 floor and the rounding rule, and perturbs the mean with the cell key method
 * (disclosure.ts) around `reference`, the typical report of the cell's specialty. `kind` picks dollar or
 * $/wRVU rounding.
 */
export function openCell(cell: OpenValues, floor: number, reference: number, kind: 'money' | 'rate' = 'money'): OpenCellResult {
  const { values, days } = cell;
  const n = values.length;
  let newestDay: number | null = null;
  for (let i = 0; i < n; i++) if (newestDay === null || days[i]! > newestDay) newestDay = days[i]!;
  if (n < floor || n === 0) return { summary: WITHHELD, newestDay, raw: null };
  const round = kind === 'money' ? roundMoney : roundRate;
  const tails = n >= FLOORS.tails;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i]!;
  const m = quantile(values, 0.5);
  const avg = perturbedMean(sum, n, cellKeyOfRange(cell.keys, 0, n), reference);
  return {
    summary: {
      n,
      median: round(m, n),
      mean: round(avg, n),
      p10: tails ? round(quantile(values, 0.1), n) : null,
      p25: round(quantile(values, 0.25), n),
      p75: round(quantile(values, 0.75), n),
      p90: tails ? round(quantile(values, 0.9), n) : null,
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
    keys: Uint32Array.from(kept, (r) => ds.reports.keyTotal[r]!),
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
    keys: Uint32Array.from(kept, (r) => R.keyRate[r]!),
  };
}

/**
 * Cells: subsets of reports, as index lists in ascending order of total compensation (the Dataset's order),
 * and the open-data summary of a cell (Tukey exclusion, floors, rounding). Pure.
 */
import type { Dataset } from './dataset.ts';
import { FLOORS, ROUNDING_MAX_N, mean, quantile, roundMoney, roundRate, tukeyRange } from './stats.ts';
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
  /** newest submission day among the reports used (after exclusion), or null when none */
  newestDay: number | null;
  /** unrounded figures, for derived values such as differences */
  raw: { median: number; mean: number } | null;
}

const WITHHELD: OpenSummary = { n: null, median: null, mean: null, p10: null, p25: null, p75: null, p90: null, rounded: false, withheld: true };

/**
 * Summary of a cell of values sorted ascending, with the day each value was submitted.
 * Excludes values outside the Tukey fences, then applies `floor` to the remaining n, the P10/P90 floor and
 * the rounding rule. `kind` picks dollar or $/wRVU rounding.
 */
export function openCell(values: ArrayLike<number>, days: ArrayLike<number>, floor: number, kind: 'money' | 'rate' = 'money'): OpenCellResult {
  const { lo, hi } = tukeyRange(values);
  const n = hi - lo;
  let newestDay: number | null = null;
  for (let i = lo; i < hi; i++) if (newestDay === null || days[i]! > newestDay) newestDay = days[i]!;
  if (n < floor || n === 0) {
    // Withheld: the newest day still dates the (unpublished) cell for as_of purposes.
    let newestAny: number | null = null;
    for (let i = 0; i < values.length; i++) if (newestAny === null || days[i]! > newestAny) newestAny = days[i]!;
    return { summary: WITHHELD, newestDay: newestAny, raw: null };
  }
  const kept = Array.prototype.slice.call(values, lo, hi) as number[];
  const round = kind === 'money' ? roundMoney : roundRate;
  const tails = n >= FLOORS.tails;
  const m = quantile(kept, 0.5);
  const avg = mean(kept);
  return {
    summary: {
      n,
      median: round(m, n),
      mean: round(avg, n),
      p10: tails ? round(quantile(kept, 0.1), n) : null,
      p25: round(quantile(kept, 0.25), n),
      p75: round(quantile(kept, 0.75), n),
      p90: tails ? round(quantile(kept, 0.9), n) : null,
      rounded: n <= ROUNDING_MAX_N,
      withheld: false,
    },
    newestDay,
    raw: { median: m, mean: avg },
  };
}

/** Values and days of a list of report indexes (already in ascending order of total). */
export function totalsOf(ds: Dataset, idx: number[]): { values: Float64Array; days: Int32Array } {
  const values = new Float64Array(idx.length);
  const days = new Int32Array(idx.length);
  idx.forEach((r, k) => {
    values[k] = ds.reports.total[r]!;
    days[k] = ds.reports.submittedDay[r]!;
  });
  return { values, days };
}

/** Per-report compensation per wRVU of the given reports, sorted ascending (for the wRVU feeds). */
export function ratesOf(ds: Dataset, idx: number[]): { values: Float64Array; days: Int32Array } {
  const pairs: [number, number][] = [];
  for (const r of idx) {
    const w = ds.reports.wrvus[r]!;
    if (w > 0) pairs.push([ds.reports.total[r]! / w, ds.reports.submittedDay[r]!]);
  }
  pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return { values: Float64Array.from(pairs, (p) => p[0]), days: Int32Array.from(pairs, (p) => p[1]) };
}

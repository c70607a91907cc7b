/**
 * Facts decided once per specialty from its national distribution, before any cell is computed (pure):
 *
 * - which reports the open data (B, C) counts: a report is an outlier when its total lies outside the
 *   Tukey fences of its own specialty's national totals (type-7 quartiles of every approved report of that
 *   specialty), and its pay per wRVU likewise against the specialty's national $/wRVU values. The decision
 *   holds in every open cell containing the report, so a state's all-specialty cell never drops a real
 *   neurosurgeon because family physicians set its fences.
 *
 * (Nothing here sizes the disclosure noise: each cell's noise is relative to its own figures, so that a
 * cell whose reports did not change keeps its figures when reports are added elsewhere.)
 */
import type { Dataset } from './dataset.ts';
import { tukeyFences, type Sorted } from './stats.ts';

export interface NationalFacts {
  /** 1 when the report's total is inside its specialty's national fences (counted by the open data) */
  openTotal: Uint8Array;
  /** 1 when the report gives wRVUs and its $/wRVU is inside its specialty's national $/wRVU fences */
  openRate: Uint8Array;
  /** per specialty: reports outside the fences (total) */
  outliers: Uint32Array;
}

/**
 * The open data's outlier rule for totals: the Tukey fences of one specialty's approved totals (ascending).
 * `physpay moderate list` flags reports with the same function, so a moderator sees what the build will do.
 */
export function specialtyTotalFences(sortedTotals: Sorted): { lower: number; upper: number } {
  return tukeyFences(sortedTotals);
}

/** 'low' or 'high' when a total lies outside the fences, else null. */
export function outsideFences(total: number, fences: { lower: number; upper: number }): 'low' | 'high' | null {
  return total < fences.lower ? 'low' : total > fences.upper ? 'high' : null;
}

export function nationalFacts(ds: Dataset): NationalFacts {
  const R = ds.reports;
  const S = ds.specialties.length;
  const facts: NationalFacts = {
    openTotal: new Uint8Array(R.count),
    openRate: new Uint8Array(R.count),
    outliers: new Uint32Array(S),
  };
  for (let si = 0; si < S; si++) {
    const { start, end } = ds.specialtyRange[si]!;
    if (end === start) continue;
    const totals = R.total.subarray(start, end); // ascending within a specialty
    const fences = specialtyTotalFences(totals);
    for (let i = start; i < end; i++) {
      if (outsideFences(R.total[i]!, fences) === null) facts.openTotal[i] = 1;
      else facts.outliers[si] = facts.outliers[si]! + 1;
    }
    const rated: number[] = [];
    for (let i = start; i < end; i++) if (R.wrvus[i]! > 0) rated.push(i);
    if (rated.length === 0) continue;
    const rates = Float64Array.from(rated, (i) => R.total[i]! / R.wrvus[i]!).sort();
    const f = tukeyFences(rates);
    for (const i of rated) {
      const rate = R.total[i]! / R.wrvus[i]!;
      if (rate >= f.lower && rate <= f.upper) facts.openRate[i] = 1;
    }
  }
  return facts;
}

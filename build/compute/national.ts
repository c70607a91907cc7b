/**
 * Facts decided once per specialty from its national distribution, before any cell is computed (pure):
 *
 * - which reports the open data (B, C) counts: a report is an outlier when its total lies outside the
 *   Tukey fences of its own specialty's national totals (type-7 quartiles of every approved report of that
 *   specialty), and its pay per wRVU likewise against the specialty's national $/wRVU values. The decision
 *   holds in every open cell containing the report, so a state's all-specialty cell never drops a real
 *   neurosurgeon because family physicians set its fences;
 * - the reference values of the disclosure control (disclosure.ts): each specialty's national median of
 *   every approved total ("a typical report"), of $/wRVU, and the median of all reports for cells that mix
 *   specialties (the size of a mean's perturbation); and the interquartile ranges of the same (the size of
 *   a percentile's). The keyed API uses the same references, so a report's perturbation has one size.
 */
import type { Dataset } from './dataset.ts';
import { quantile, tukeyFences, type Sorted } from './stats.ts';
import { spreadOf } from './published.ts';

export interface NationalFacts {
  /** 1 when the report's total is inside its specialty's national fences (counted by the open data) */
  openTotal: Uint8Array;
  /** 1 when the report gives wRVUs and its $/wRVU is inside its specialty's national $/wRVU fences */
  openRate: Uint8Array;
  /** per specialty: national median of every approved total (NaN for a specialty without reports) */
  reference: Float64Array;
  /** per specialty: national median $/wRVU (NaN without wRVU reports) */
  rateReference: Float64Array;
  /** median of every approved total, for cells mixing specialties */
  referenceAll: number;
  /** per specialty: interquartile range of every approved total (the size of a quantile's perturbation; 0 without reports) */
  spread: Float64Array;
  /** per specialty: interquartile range of $/wRVU */
  rateSpread: Float64Array;
  /** interquartile range of every approved total, for cells mixing specialties */
  spreadAll: number;
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
    reference: new Float64Array(S).fill(NaN),
    rateReference: new Float64Array(S).fill(NaN),
    referenceAll: NaN,
    spread: new Float64Array(S),
    rateSpread: new Float64Array(S),
    spreadAll: 0,
    outliers: new Uint32Array(S),
  };
  for (let si = 0; si < S; si++) {
    const { start, end } = ds.specialtyRange[si]!;
    if (end === start) continue;
    const totals = R.total.subarray(start, end); // ascending within a specialty
    facts.reference[si] = quantile(totals, 0.5);
    facts.spread[si] = spreadOf(totals);
    const fences = specialtyTotalFences(totals);
    for (let i = start; i < end; i++) {
      if (outsideFences(R.total[i]!, fences) === null) facts.openTotal[i] = 1;
      else facts.outliers[si] = facts.outliers[si]! + 1;
    }
    const rated: number[] = [];
    for (let i = start; i < end; i++) if (R.wrvus[i]! > 0) rated.push(i);
    if (rated.length === 0) continue;
    const rates = Float64Array.from(rated, (i) => R.total[i]! / R.wrvus[i]!).sort();
    facts.rateReference[si] = quantile(rates, 0.5);
    facts.rateSpread[si] = spreadOf(rates);
    const f = tukeyFences(rates);
    for (const i of rated) {
      const rate = R.total[i]! / R.wrvus[i]!;
      if (rate >= f.lower && rate <= f.upper) facts.openRate[i] = 1;
    }
  }
  if (R.count > 0) {
    const all = Float64Array.from(R.total).sort();
    facts.referenceAll = quantile(all, 0.5);
    facts.spreadAll = spreadOf(all);
  }
  return facts;
}

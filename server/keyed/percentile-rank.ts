/**
 * Shaping a /percentile-rank answer (pure): where a compensation falls among the published percentiles of
 * the scope /benchmarks would answer with (build/compute/pay-position.ts). Nothing here reads a report.
 */
import type { BenchmarkData, PercentileRankData } from '../../build/contract/keyed-api.ts';
import { payPosition, payPositionMethod, standardGrid } from '../../build/compute/pay-position.ts';
import { notFound } from './errors.ts';

export type RankBasis = 'total_compensation' | 'fte_normalized';

export function percentileRankData(bench: BenchmarkData, compensation: number, basis: RankBasis): PercentileRankData {
  let percentiles = bench.percentiles;
  let n = bench.sample_size;
  if (basis === 'fte_normalized') {
    const fte = bench.fte_normalized!;
    if (!fte.percentiles || fte.n === null) {
      throw notFound(`insufficient data: fewer than 5 reports in the ${bench.geography.scope_used} scope give usable weekly hours for FTE figures (at least 5 are needed)`);
    }
    percentiles = fte.percentiles;
    n = fte.n;
  }
  const grid = standardGrid(percentiles);
  return {
    specialty: bench.specialty,
    compensation,
    basis,
    geography: bench.geography,
    filters: { practice_setting: bench.filters.practice_setting, employment_type: bench.filters.employment_type },
    sample_size: n,
    ...payPosition(grid, compensation),
    percentiles,
    method: payPositionMethod(grid),
    data_as_of: bench.data_as_of,
    synthetic: bench.synthetic,
  };
}

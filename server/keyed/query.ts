/**
 * The query every figure endpoint shares (/available-data, /benchmarks, /percentile-rank): specialty,
 * geography, filters and, for Enterprise, a compensation-year range, parsed with the same rules and the same
 * tier gate; and where its cells come from (the build's precomputed cells, or the pure core over the build's
 * per-report columns for a year range).
 */
import type { LoadedBuild } from '../builds/loaded-build.ts';
import type { Filters } from '../../build/contract/keyed-api.ts';
import { KeyedBuildData } from './build-data.ts';
import { badRequest, forbidden } from './errors.ts';
import {
  allowOnly, parseEmploymentType, parsePracticeSetting, parseRegion, parseSpecialty, parseState, parseYear, type Query,
} from './params.ts';
import { computedSource, precomputedSource, type BenchmarkQuery, type CellSource } from './benchmark.ts';
import type { BlsInfo } from '../../build/contract/keyed-artifacts.ts';
import type { Plan } from './plans.ts';

export const SCOPE_PARAMS = ['specialty', 'state', 'region', 'practice_setting', 'employment_type', 'year_start', 'year_end'] as const;

/** Parse and check a figure query; `allowed` lists every parameter the endpoint takes. */
export function parseScopeQuery(query: Query, build: LoadedBuild, plan: Plan, allowed: readonly string[]): BenchmarkQuery {
  allowOnly(query, allowed);
  const q: BenchmarkQuery = {
    specialty: parseSpecialty(query, build.keyedIndex, build.resolver),
    state: parseState(query, build.keyedIndex, build.resolver),
    region: parseRegion(query),
    practiceSetting: parsePracticeSetting(query),
    employmentType: parseEmploymentType(query),
    yearStart: allowed.includes('year_start') ? parseYear(query, 'year_start') : null,
    yearEnd: allowed.includes('year_end') ? parseYear(query, 'year_end') : null,
  };
  if (q.state && q.region && q.state.region !== q.region) throw badRequest(`${q.state.name} is in the ${q.state.region} region, not ${q.region}`);
  if (isCustomRange(q) && !plan.customDateRanges) {
    throw forbidden(`custom date ranges (year_start, year_end) are an Enterprise plan feature; this key is on the ${plan.label} plan`);
  }
  if (q.yearStart !== null && q.yearEnd !== null && q.yearStart > q.yearEnd) throw badRequest(`year_start (${q.yearStart}) is after year_end (${q.yearEnd})`);
  return q;
}

export const isCustomRange = (q: BenchmarkQuery) => q.yearStart !== null || q.yearEnd !== null;

export const filtersOf = (q: BenchmarkQuery): Filters => ({
  practice_setting: q.practiceSetting, employment_type: q.employmentType, year_start: q.yearStart, year_end: q.yearEnd,
});

/** The cells a query reads, with the specialty's BLS facts. */
export async function cellsFor(build: LoadedBuild, q: BenchmarkQuery): Promise<{ cells: CellSource; bls: BlsInfo }> {
  const view = KeyedBuildData.of(build);
  const artifact = await view.specialty(q.specialty.slug);
  if (!isCustomRange(q)) return { cells: precomputedSource(artifact), bls: artifact.bls };
  const columns = await view.reportColumns(q.specialty.slug);
  return { cells: computedSource(columns, build.keyedIndex, artifact.bls, q.yearStart, q.yearEnd), bls: artifact.bls };
}

/** GET /api/v1/benchmarks: percentiles, mean, SD, CI at three scopes, BLS comparison, tier-gated sections. */
import type { BenchmarkResponse } from '../../../build/contract/keyed-api.ts';
import type { Answer, KeyedLocals } from '../context.ts';
import { KeyedBuildData } from '../build-data.ts';
import { badRequest, forbidden } from '../errors.ts';
import {
  allowOnly, parseEmploymentType, parsePracticeSetting, parseRegion, parseSpecialty, parseState, parseYear, type Query,
} from '../params.ts';
import { benchmarkData, computedSource, precomputedSource, type BenchmarkQuery } from '../benchmark.ts';
import { nextDailyReset } from '../quota-time.ts';
import type { BenchmarkData } from '../../../build/contract/keyed-api.ts';

const PARAMS = ['specialty', 'state', 'region', 'year_start', 'year_end', 'practice_setting', 'employment_type'];

export async function benchmarksRoute(query: Query, l: KeyedLocals): Promise<Answer> {
  const build = l.build!;
  allowOnly(query, PARAMS);
  const q: BenchmarkQuery = {
    specialty: parseSpecialty(query, build.keyedIndex, build.resolver),
    state: parseState(query, build.keyedIndex, build.resolver),
    region: parseRegion(query),
    practiceSetting: parsePracticeSetting(query),
    employmentType: parseEmploymentType(query),
    yearStart: parseYear(query, 'year_start'),
    yearEnd: parseYear(query, 'year_end'),
  };
  if (q.state && q.region && q.state.region !== q.region) throw badRequest(`${q.state.name} is in the ${q.state.region} region, not ${q.region}`);
  const custom = q.yearStart !== null || q.yearEnd !== null;
  if (custom && !l.plan!.customDateRanges) {
    throw forbidden(`custom date ranges (year_start, year_end) are an Enterprise plan feature; this key is on the ${l.plan!.label} plan`);
  }
  if (q.yearStart !== null && q.yearEnd !== null && q.yearStart > q.yearEnd) throw badRequest(`year_start (${q.yearStart}) is after year_end (${q.yearEnd})`);

  const view = KeyedBuildData.of(build);
  const artifact = await view.specialty(q.specialty.slug);
  let data: BenchmarkData;
  if (!custom) {
    data = benchmarkData({ index: build.keyedIndex, bls: artifact.bls, cells: precomputedSource(artifact), plan: l.plan! }, q);
  } else {
    const cacheKey = JSON.stringify([l.plan!.tier, q.specialty.slug, q.state?.code, q.region, q.practiceSetting, q.employmentType, q.yearStart, q.yearEnd]);
    const hit = view.computed.get(cacheKey) as BenchmarkData | Error | undefined;
    if (hit instanceof Error) throw hit;
    if (hit) data = hit;
    else {
      const columns = await view.reportColumns(q.specialty.slug);
      try {
        data = benchmarkData({ index: build.keyedIndex, bls: artifact.bls, cells: computedSource(columns, build.keyedIndex, artifact.bls, q.yearStart, q.yearEnd), plan: l.plan! }, q);
      } catch (err) {
        view.remember(cacheKey, err);
        throw err;
      }
      view.remember(cacheKey, data);
    }
  }
  const body: BenchmarkResponse = {
    data,
    meta: {
      request_id: l.requestId,
      rate_limit: {
        remaining_daily: Math.max(0, l.plan!.daily - l.used!.dayCount),
        remaining_monthly: Math.max(0, l.plan!.monthly - l.used!.monthCount),
        reset: nextDailyReset(l.now!),
      },
    },
  };
  return { body, cacheControl: 'private, max-age=3600' };
}

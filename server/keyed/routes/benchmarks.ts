/** GET /api/v1/benchmarks: percentiles, mean, SD, CI at three scopes, BLS comparison, tier-gated sections. */
import type { BenchmarkData, BenchmarkResponse } from '../../../build/contract/keyed-api.ts';
import type { Answer, KeyedLocals } from '../context.ts';
import { KeyedBuildData } from '../build-data.ts';
import type { Query } from '../params.ts';
import { benchmarkData } from '../benchmark.ts';
import { SCOPE_PARAMS, cellsFor, isCustomRange, parseScopeQuery } from '../query.ts';
import { rateLimitMeta } from '../context.ts';
import { KeyedError } from '../errors.ts';

export async function benchmarksRoute(query: Query, l: KeyedLocals): Promise<Answer> {
  const build = l.build!;
  const q = parseScopeQuery(query, build, l.plan!, SCOPE_PARAMS);
  const compute = async (): Promise<BenchmarkData> => {
    const { cells, bls } = await cellsFor(build, q);
    return benchmarkData({ index: build.keyedIndex, bls, cells, plan: l.plan! }, q);
  };
  let data: BenchmarkData;
  if (!isCustomRange(q)) data = await compute();
  else {
    // Enterprise year ranges are computed from per-report columns: remember answers (and 404s) for the build's life
    const view = KeyedBuildData.of(build);
    const cacheKey = JSON.stringify(['benchmarks', l.plan!.tier, q.specialty.slug, q.state?.code, q.region, q.practiceSetting, q.employmentType, q.yearStart, q.yearEnd]);
    const hit = view.computed.get(cacheKey) as BenchmarkData | Error | undefined;
    if (hit instanceof Error) throw hit;
    if (hit) data = hit;
    else {
      try {
        data = await compute();
      } catch (err) {
        if (err instanceof KeyedError) view.remember(cacheKey, err); // a 404 for this range; not a read failure

        throw err;
      }
      view.remember(cacheKey, data);
    }
  }
  const body: BenchmarkResponse = { data, meta: { request_id: l.requestId, rate_limit: rateLimitMeta(l) } };
  return { body, cacheControl: 'private, max-age=3600' };
}

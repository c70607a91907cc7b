/**
 * GET /api/v1/available-data: what data exists before asking for figures. Takes the same parameters as
 * /benchmarks under the same rules (filters for every plan, year ranges for Enterprise), so that a caller
 * can check any query it is about to make.
 */
import type { AvailabilityResponse } from '../../../build/contract/keyed-api.ts';
import { GEO_NATIONAL, geoRegion, geoState, type KeyedCell } from '../../../build/contract/keyed-artifacts.ts';
import { MIN_SAMPLE, SUFFICIENT_SAMPLE, publishedCount } from '../../../build/compute/keyed.ts';
import type { Answer, KeyedLocals } from '../context.ts';
import { SCOPE_PARAMS, cellsFor, filtersOf, parseScopeQuery } from '../query.ts';
import type { Query } from '../params.ts';

/** Below the floor neither the count nor the years are given (README: Disclosure control). */
const scope = (label: string, c: KeyedCell) => ({
  label, n: publishedCount(c.n), years: c.n >= MIN_SAMPLE ? c.years : [], sufficient: c.n >= SUFFICIENT_SAMPLE, publishable: c.n >= MIN_SAMPLE,
});

export async function availableDataRoute(query: Query, l: KeyedLocals): Promise<Answer> {
  const build = l.build!;
  const q = parseScopeQuery(query, build, l.plan!, SCOPE_PARAMS);
  const { cells, bls } = await cellsFor(build, q);
  const cell = (geo: string) => cells.cell(geo, q.practiceSetting, q.employmentType);
  const entry = build.keyedIndex.specialties.find((s) => s.slug === q.specialty.slug)!;
  const region = q.state?.region ?? q.region;
  const body: AvailabilityResponse = {
    specialty: q.specialty.name,
    availability: {
      ...(q.state ? { state: scope(q.state.name, cell(geoState(q.state.code))) } : {}),
      regional: region ? scope(region, cell(geoRegion(region))) : null,
      national: scope('National', cell(GEO_NATIONAL)),
    },
    filters: filtersOf(q),
    bls_available: bls.available,
    bls_soc_code: entry.bls_soc_code ?? '',
  };
  return { body, cacheControl: 'private, max-age=3600' };
}

/** GET /api/v1/available-data?specialty=&state=[&region=]: what data exists before asking for benchmarks. */
import type { AvailabilityResponse } from '../../../build/contract/keyed-api.ts';
import { GEO_NATIONAL, geoRegion, geoState, type KeyedCell } from '../../../build/contract/keyed-artifacts.ts';
import { MIN_SAMPLE, SUFFICIENT_SAMPLE } from '../../../build/compute/keyed.ts';
import type { Answer, KeyedLocals } from '../context.ts';
import { KeyedBuildData } from '../build-data.ts';
import { allowOnly, parseRegion, parseSpecialty, parseState, type Query } from '../params.ts';
import { badRequest } from '../errors.ts';
import { precomputedSource } from '../benchmark.ts';

const scope = (label: string, c: KeyedCell) => ({ label, n: c.n, years: c.years, sufficient: c.n >= SUFFICIENT_SAMPLE, publishable: c.n >= MIN_SAMPLE });

export async function availableDataRoute(query: Query, l: KeyedLocals): Promise<Answer> {
  const build = l.build!;
  allowOnly(query, ['specialty', 'state', 'region']);
  const specialty = parseSpecialty(query, build.keyedIndex, build.resolver);
  const state = parseState(query, build.keyedIndex, build.resolver);
  const region = parseRegion(query);
  if (state && region && state.region !== region) throw badRequest(`${state.name} is in the ${state.region} region, not ${region}`);
  const artifact = await KeyedBuildData.of(build).specialty(specialty.slug);
  const cells = precomputedSource(artifact).cell;
  const entry = build.keyedIndex.specialties.find((s) => s.slug === specialty.slug)!;
  const r = state?.region ?? region;
  const body: AvailabilityResponse = {
    specialty: specialty.name,
    availability: {
      ...(state ? { state: scope(state.name, cells(geoState(state.code), null, null)) } : {}),
      ...(r ? { regional: scope(r, cells(geoRegion(r), null, null)) } : {}),
      national: scope('National', cells(GEO_NATIONAL, null, null)),
    },
    bls_available: artifact.bls.available,
    bls_soc_code: entry.bls_soc_code ?? '',
  };
  return { body, cacheControl: 'private, max-age=3600' };
}

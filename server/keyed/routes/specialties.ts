/** GET /api/v1/specialties: every specialty with its sample size and quality flags. */
import type { SpecialtyListResponse } from '../../../build/contract/keyed-api.ts';
import type { Answer, KeyedLocals } from '../context.ts';
import { allowOnly, type Query } from '../params.ts';
import { MIN_SAMPLE, publishedCount } from '../../../build/compute/keyed.ts';

export function specialtiesRoute(query: Query, l: KeyedLocals): Answer {
  allowOnly(query, []);
  const index = l.build!.keyedIndex;
  const body: SpecialtyListResponse = {
    specialties: index.specialties.map((s) => ({
      name: s.name, slug: s.slug, sample_size: publishedCount(s.sample_size), states_with_data: s.states_with_data, states_with_data_min_n: MIN_SAMPLE, publishable: s.publishable, sufficient: s.sufficient,
    })),
    count: index.specialties.length,
  };
  return { body, cacheControl: 'private, max-age=86400' };
}

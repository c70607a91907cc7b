/** GET /api/v1/specialties: every specialty with its sample size and quality flags. */
import type { Request, Response } from 'express';
import type { SpecialtyListResponse } from '../../../build/contract/keyed-api.ts';
import { locals } from '../context.ts';
import { allowOnly } from '../params.ts';

export function specialtiesRoute(req: Request, res: Response): void {
  allowOnly(req.query, []);
  const index = locals(res).build!.keyedIndex;
  const body: SpecialtyListResponse = {
    specialties: index.specialties.map((s) => ({
      name: s.name, slug: s.slug, sample_size: s.sample_size, states_with_data: s.states_with_data, publishable: s.publishable, sufficient: s.sufficient,
    })),
    count: index.specialties.length,
  };
  res.setHeader('Cache-Control', 'private, max-age=86400');
  res.json(body);
}

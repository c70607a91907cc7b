/**
 * Output schemas of the tools: the open-feed schemas themselves, or, where one tool returns either of two
 * feeds, one object schema holding both (fields of only one feed optional). No `.meta({id})` here: it
 * would turn into a $ref that clients reject in tools/list.
 */
import { z } from 'zod';
import { InstitutionFeed, InstitutionsFeed, SpecialtyFeed, SpecialtyStateFeed } from '../../build/contract/open-feeds.ts';

function either(a: z.ZodObject, b: z.ZodObject, overrides: z.ZodRawShape = {}): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [k, v] of Object.entries(a.shape)) shape[k] = k in b.shape ? (v as z.ZodType) : (v as z.ZodType).optional();
  for (const [k, v] of Object.entries(b.shape)) if (!(k in a.shape)) shape[k] = (v as z.ZodType).optional();
  return z.object({ ...shape, ...overrides });
}

/** get_specialty_pay: specialties/{slug}.json (national) or specialties/{slug}/states/{state}.json. */
export const SpecialtyPayOutput = either(SpecialtyFeed, SpecialtyStateFeed, { scope: z.enum(['national', 'state']) });

export const CompareOutput = z.object({
  specialty_a: SpecialtyPayOutput,
  specialty_b: SpecialtyPayOutput,
  comparison: z.object({
    median_difference: z.number().nullable().describe('specialty_a median minus specialty_b median (null when either is withheld)'),
    median_difference_pct: z.number().nullable().describe('difference as a percent of specialty_b median, one decimal'),
    higher: z.string().nullable().describe('slug of the specialty with the higher median'),
  }),
});

/** get_resident_pay: residency/institutions/{slug}.json, or residency/institutions.json restricted to a state. */
export const ResidentPayOutput = either(InstitutionFeed, InstitutionsFeed);

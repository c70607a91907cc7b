/**
 * Output schemas of the tools: the open-feed schemas themselves, or, where one tool returns either of two
 * feeds, one object schema holding both (fields of only one feed optional). No `.meta({id})` here: it
 * would turn into a $ref that clients reject in tools/list.
 */
import { z } from 'zod';
import { CommonFields, type FeedKind, HeadlineBasis, InstitutionFeed, SpecialtyFeed, SpecialtyStateFeed, StateInstitutionsFeed } from '../../build/contract/open-feeds.ts';
import { REGIONS } from '../../build/contract/vocab.ts';
import { ReleaseId } from '../../build/contract/release-id.ts';
import { ExperienceLevels } from '../../build/contract/experience.ts';

function either(a: z.ZodObject, b: z.ZodObject, overrides: z.ZodRawShape = {}): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [k, v] of Object.entries(a.shape)) shape[k] = k in b.shape ? (v as z.ZodType) : (v as z.ZodType).optional();
  for (const [k, v] of Object.entries(b.shape)) if (!(k in a.shape)) shape[k] = (v as z.ZodType).optional();
  return z.object({ ...shape, ...overrides });
}

/** get_specialty_pay: specialties/{slug}.json (national) or specialties/{slug}/states/{state}.json. */
export const SpecialtyPayOutput = either(SpecialtyFeed, SpecialtyStateFeed, { scope: z.enum(['national', 'state']) });

/** get_resident_pay: residency/institutions/{slug}.json, or residency/states/{state}.json. */
export const ResidentPayOutput = either(InstitutionFeed, StateInstitutionsFeed);

/**
 * Strict tool arguments: an argument the tool does not take is an error that names the accepted ones
 * (never silently ignored).
 */
/** Every tool's optional `release`: the figures as that release published them (data/api/v1/releases/<release>/). */
export const releaseArg = ReleaseId.optional().describe('Optional: a release id from data/api/v1/releases.json (e.g. "2026-11-16") to get the figures exactly as that release published them, for a citation that must not move; leave out for the latest');

/** An optional argument sent as null, "" or only spaces: clients send these for "not given". */
const absent = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);

/**
 * A tool's arguments: its own and the optional `release`, nothing else (strictArgs). An optional argument
 * sent as null or "" is taken as absent (never refused, never used); the JSON Schema stays the argument's own.
 */
export function toolArgs<T extends z.ZodRawShape>(tool: string, shape: T) {
  const all: z.ZodRawShape = { ...shape, release: releaseArg };
  const lenient = Object.fromEntries(Object.entries(all).map(([k, v]) => [k, v instanceof z.ZodOptional ? z.preprocess(absent, v).optional() : v]));
  return strictArgs(tool, lenient as T & { release: typeof releaseArg });
}

export function strictArgs<T extends z.ZodRawShape>(tool: string, shape: T) {
  const accepted = Object.keys(shape);
  return z.strictObject(shape, {
    error: (iss) => (iss.code === 'unrecognized_keys'
      ? `${tool} does not take ${iss.keys.map((k) => `"${k.slice(0, 40)}"`).join(', ')}; it takes ${accepted.length ? accepted.join(', ') : 'no arguments'}`
      : undefined),
  });
}

const money = z.number().nullable();
/** evaluate_compensation: where a compensation falls among a specialty document's published percentiles. */
export const PayEvaluationOutput = z.object({
  ...CommonFields,
  specialty: z.object({ slug: z.string(), name: z.string() }),
  scope: z.enum(['national', 'state']),
  state: z.object({ code: z.string(), slug: z.string(), name: z.string(), region: z.enum(REGIONS) }).nullable(),
  basis: HeadlineBasis.describe('which reports the percentiles count (compensation years, full-time basis): compare a full-time annual total with them'),
  compensation: z.number().describe('the compensation asked about, dollars per year'),
  experience_levels: ExperienceLevels,
  percentile: z.number().nullable().describe('estimated percentile, one decimal, interpolated between published percentiles; null outside them or when withheld'),
  band: z.string().nullable().describe('"below P10", "P25-P50", ...; null when the figures are withheld'),
  band_lower_percentile: z.number().nullable(),
  band_upper_percentile: z.number().nullable(),
  band_lower_value: money,
  band_upper_value: money,
  percentiles: z.object({ p10: money, p25: money, median: money, p75: money, p90: money }).describe('the published figures the estimate uses (null = withheld)'),
  national_median: money.optional().describe('in a state: the published US median of the specialty (null = withheld); absent for national figures, whose median is the US median'),
  rounded: z.boolean(),
  withheld: z.boolean(),
  method: z.string(),
});

/** A field's type without its inner structure or description: nested objects and arrays become plain ones. */
function shallow(t: z.ZodType): z.ZodType {
  const def = (t as { def: { type: string; innerType?: z.ZodType } }).def;
  switch (def.type) {
    case 'optional': return shallow(def.innerType!).optional();
    case 'nullable': return shallow(def.innerType!).nullable();
    case 'string': case 'enum': return z.string();
    case 'number': return z.number();
    case 'boolean': return z.boolean();
    case 'literal': return z.literal((t as unknown as { def: { values: [string | number | boolean] } }).def.values[0]);
    case 'array': return z.array(z.unknown());
    default: return z.looseObject({});
  }
}

/**
 * The output schema as tools/list gives it (the full schemas made tools/list over 100 kB; the issue's target
 * is 15 kB): never field descriptions, nested objects and arrays as plain ones. A tool that returns an open
 * feed lists the common fields (n, as_of, the citation fields) and the few fields in `listed.keep` by type and
 * names the feed's published JSON Schema for the rest; any other tool lists every field by type. Either way
 * it describes what the tool returns: clients that validate structuredContent against it accept the document.
 */
export function listedOutputSchema(schema: z.ZodObject, listed?: { keep: string[]; schemas: FeedKind[] }): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [k, v] of Object.entries(schema.shape)) {
    if (!listed || k in CommonFields || listed.keep.includes(k)) shape[k] = shallow(v as z.ZodType);
  }
  const rest = listed ? `; every field: ${listed.schemas.map((k) => `/data/api/v1/schemas/${k}.schema.json`).join(' or ')} under the server's base URL` : '';
  return z.looseObject(shape).describe(`The published document (its open feed)${rest}. Quote n, as_of and attribution`);
}

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
export const releaseArg = ReleaseId.optional().describe('Release id (releases.json) for figures as published then; omit for the latest');

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

/** A JSON Schema without what says nothing: `$schema`, empty `properties`, `items: {}` and `additionalProperties: {}` (any: the default). */
function bare(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(bare);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const empty = x !== null && typeof x === 'object' && !Array.isArray(x) && Object.keys(x).length === 0;
    if (k === '$schema' || (empty && (k === 'properties' || k === 'items' || k === 'additionalProperties'))) continue;
    out[k] = bare(x);
  }
  return out;
}

/** A Standard Schema (what the SDK's registerTool takes): validated by `check`, listed in tools/list as `json`. */
export interface ListedSchema {
  '~standard': { version: 1; vendor: string; validate: (v: unknown) => unknown; jsonSchema: { input: () => Record<string, unknown>; output: () => Record<string, unknown> } };
}

export function listedAs(check: z.ZodType, json: Record<string, unknown>): ListedSchema {
  const std = (check as unknown as { '~standard': { validate: (v: unknown) => unknown } })['~standard'];
  return { '~standard': { version: 1, vendor: 'physpay', validate: (v) => std.validate(v), jsonSchema: { input: () => json, output: () => json } } };
}

/**
 * A tool's input schema as tools/list gives it: the zod schema's JSON Schema without `$schema` (2020-12 is
 * MCP's default dialect, so it said nothing on each of the tools), validated by the zod schema itself.
 */
export function listedInputSchema(schema: z.ZodObject): ListedSchema {
  return listedAs(schema, bare(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' })) as Record<string, unknown>);
}

/** How tools/list gives a tool's output schema: `keep` by type besides n, as_of and attribution; `see` names the JSON Schema of every field. */
export interface ListedOutput { keep: string[]; see: string }

/** The published JSON Schema of an open feed, as a path under the base URL. */
export const feedSchema = (...kinds: FeedKind[]) => kinds.map((k) => `/data/api/v1/schemas/${k}.schema.json`).join(' or ');

/**
 * The output schema as tools/list gives it (the full schemas made tools/list over 100 kB; the issue's target
 * is 15 kB): n, as_of, attribution and the tool's few headline fields (`keep`) by type, never with field
 * descriptions, nested objects and arrays as plain ones, any other field allowed; its description names the
 * JSON Schema of every field. It describes what the tool returns (the SDK checks structuredContent against it;
 * clients that validate, such as the v1 SDK client, accept the documents).
 */
export function listedOutputSchema(schema: z.ZodObject, listed: ListedOutput): ListedSchema {
  const shape: Record<string, z.ZodType> = {};
  for (const [k, v] of Object.entries(schema.shape)) {
    if (['n', 'as_of', 'attribution'].includes(k) || listed.keep.includes(k)) shape[k] = shallow(v as z.ZodType);
  }
  // a cut result (paging.ts): truncated: true and page
  if (listed.keep.includes('truncated')) Object.assign(shape, { truncated: z.boolean().optional(), page: z.looseObject({}).optional() });
  const check = z.looseObject(shape);
  const json = bare(z.toJSONSchema(check, { target: 'draft-2020-12', io: 'output' })) as Record<string, unknown>;
  return listedAs(check, { ...json, description: `Every field: ${listed.see}` });
}

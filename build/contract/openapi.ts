/**
 * OpenAPI 3.1 documents of the keyed API (A) and the open data API (B), and JSON Schema of every feed,
 * generated from the same zod schemas the build and the server use. `scripts/gen-schemas.ts` writes them
 * to docs/ (the drift test compares), the build writes B's into the public tree, and the server serves both.
 */
import { z } from 'zod';
import { ErrorBody, SpecialtyListResponse, AvailabilityResponse, BenchmarkResponse, PercentileRankResponse, OfferCheckResponse, UsageResponse, UsageHistoryResponse, KeyRotateResponse, AssistantsResponse, DisconnectResponse, USAGE_HISTORY_DEFAULT_DAYS, USAGE_HISTORY_MAX_DAYS } from './keyed-api.ts';
import { FEED_SCHEMAS, type FeedKind } from './open-feeds.ts';
import { ReleasesFeed } from './releases.ts';
import { EMPLOYMENT_TYPES, PRACTICE_SETTINGS, REGIONS } from './vocab.ts';
import { withCurlSamples } from './code-samples.ts';
import { DefinitionsDocument, FIGURE_DEFINITIONS, definitionText } from './definitions.ts';
import { COMPENSATION_MODEL_VALUES } from './offer-terms.ts';
import { OFFER_NUMBER_FIELDS, OFFER_NUMBERS } from './offer-check.ts';
import { MAX_ANNUAL_PAY, MIN_ANNUAL_PAY } from './annual-pay.ts';

type Json = Record<string, unknown>;

/** JSON Schema (2020-12) of a zod schema, without the top-level $schema (for embedding). */
export function jsonSchema(schema: z.ZodType): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'output', target: 'draft-2020-12' }) as Json;
  return rest;
}

/** The figures definitions.ts defines, by the property names the feeds give them. */
const DEFINED = new Set(FIGURE_DEFINITIONS.map((d) => d.figure).filter((f) => f !== 'n' && f !== 'pgy_salary'));

/**
 * A feed's JSON Schema with every figure's definition (definitions.ts) in its description, at any depth: the
 * open data's OpenAPI and JSON Schemas say what each figure means, in the same words as definitions.json, the
 * data package and the methodology page. (The tool server's schemas stay short: they name definitions.json.)
 */
export function withDefinitions(schema: Json): Json {
  // inside a specialty's `components` (the rest of the offer), p25, median and p75 are of its items, not of
  // total compensation: the section carries the components definition once, its own fields their own words
  const walk = (node: unknown, inOffer: boolean): unknown => {
    if (Array.isArray(node)) return node.map((x) => walk(x, inOffer));
    if (node === null || typeof node !== 'object') return node;
    const out: Json = {};
    for (const [k, v] of Object.entries(node as Json)) {
      out[k] = k === 'properties' && v !== null && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v as Json).map(([name, prop]) => [name, walk(prop, inOffer || name === 'components')]))
        : walk(v, inOffer);
    }
    const props = out.properties as Record<string, Json> | undefined;
    if (props && typeof props === 'object' && !inOffer) {
      for (const [name, prop] of Object.entries(props)) {
        if (!DEFINED.has(name) || typeof prop !== 'object' || prop === null) continue;
        const own = typeof prop.description === 'string' ? `${prop.description}. ` : '';
        props[name] = { ...prop, description: `${own}${definitionText(name)}` };
      }
    }
    return out;
  };
  return walk(schema, false) as Json;
}

/** A standalone JSON Schema document for one feed kind (published beside the feeds). */
export function feedJsonSchema(kind: FeedKind, baseUrl: string): Json {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${baseUrl}/data/api/v1/schemas/${kind}.schema.json`,
    title: `PhysPay open data feed: ${kind}`,
    ...withDefinitions(jsonSchema(FEED_SCHEMAS[kind])),
  };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const header = (description: string, type: 'string' | 'integer' = 'string') => ({ description, schema: { type } });
const errorResponse = (description: string, headers: Json = {}) => ({
  description,
  headers,
  content: { 'application/json': { schema: ref('Error') } },
});

const RATE_HEADERS = {
  'X-RateLimit-Limit-Daily': header('requests allowed per UTC day on this plan', 'integer'),
  'X-RateLimit-Remaining-Daily': header('requests left today', 'integer'),
  'X-RateLimit-Limit-Monthly': header('requests allowed per calendar month (UTC)', 'integer'),
  'X-RateLimit-Remaining-Monthly': header('requests left this month', 'integer'),
  'X-RateLimit-Reset': header('Unix epoch seconds of the next daily reset (00:00 UTC)', 'integer'),
  'RateLimit-Policy': header('IETF draft: "day";q=<limit>;w=86400, "month";q=<limit>;w=<seconds>'),
  RateLimit: header('IETF draft: "day";r=<remaining>;t=<seconds>, "month";r=..;t=..'),
  'X-Request-Id': header('UUID of this request (equals meta.request_id)'),
};

function keyedErrors(counted: boolean): Json {
  return {
    '400': errorResponse('missing or invalid parameters (state must be a full name)', RATE_HEADERS),
    '401': errorResponse('missing or invalid API key (no rate-limit headers)'),
    '403': errorResponse('subscription not active, or feature not in the plan', RATE_HEADERS),
    ...(counted ? { '404': errorResponse('insufficient data for the query (national n < 5)', RATE_HEADERS) } : {}),
    '429': errorResponse('daily or monthly quota exceeded', { ...RATE_HEADERS, 'Retry-After': header('seconds until the quota resets', 'integer') }),
    '503': errorResponse('no data loaded yet or service store unavailable', { 'Retry-After': header('seconds', 'integer') }),
  };
}

const q = (name: string, description: string, schema: Json, required = false, example?: string | number) => ({ name, in: 'query', required, description, schema, ...(example === undefined ? {} : { example }) });

export function keyedOpenApi(): Json {
  const ok = (schema: string, cache: string) => ({
    description: 'OK',
    headers: { ...RATE_HEADERS, 'Cache-Control': header(cache), Vary: header('X-API-Key') },
    content: { 'application/json': { schema: ref(schema) } },
  });
  const specialty = q('specialty', 'physician specialty: name, slug or common spelling', { type: 'string', maxLength: 200 }, true, 'Cardiology');
  const state = q('state', 'full US state name (or District of Columbia); two-letter codes are refused', { type: 'string', maxLength: 200 }, false, 'Texas');
  const region = q('region', 'Census region', { type: 'string', enum: [...REGIONS] });
  const practiceSetting = q('practice_setting', 'practice setting (any letter case)', { type: 'string', enum: [...PRACTICE_SETTINGS] });
  const employmentType = q('employment_type', 'employment type (any letter case)', { type: 'string', enum: [...EMPLOYMENT_TYPES] });
  const years = [
    q('year_start', 'first compensation year (Enterprise)', { type: 'integer', minimum: 1990, maximum: 2100 }),
    q('year_end', 'last compensation year (Enterprise)', { type: 'integer', minimum: 1990, maximum: 2100 }),
  ];
  return withCurlSamples({
    openapi: '3.1.0',
    info: {
      title: 'PhysPay keyed benchmark API',
      version: '1.0.0',
      description: 'Physician compensation benchmarks (percentiles, mean, SD, 95% CI at state, regional and national scope, BLS comparison; FTE, trending, breakdowns and components on Professional and Enterprise plans). Every request needs X-API-Key; requests count against daily and monthly quotas. Which reports: every compensation year unless year_start/year_end ask for a range, at the pay reported (totals winsorized); full-time pay is in fte_normalized. The open data API (/data/api/v1) differs on purpose: its headline figures count the most recent complete compensation years on a full-time basis and leave outliers out (its documents\' basis field).',
      // Not open data: the figures are for subscribers, under their PhysPay subscription terms (no SPDX id exists for those).
      license: { name: 'Proprietary: PhysPay subscription terms', identifier: 'LicenseRef-PhysPay-Proprietary' },
    },
    servers: [{ url: '/api/v1' }],
    security: [{ ApiKey: [] }],
    paths: {
      '/specialties': { get: { operationId: 'listSpecialties', summary: 'Specialties with sample sizes (counted; cached 24 h)', responses: { '200': ok('SpecialtyListResponse', 'private, max-age=86400'), ...keyedErrors(false) } } },
      '/available-data': {
        get: {
          operationId: 'availableData', summary: 'What data exists for a query (counted; call before /benchmarks: same parameters and tier rules)',
          parameters: [specialty, state, region, ...years, practiceSetting, employmentType],
          responses: { '200': ok('AvailabilityResponse', 'private, max-age=3600'), ...keyedErrors(false) },
        },
      },
      '/benchmarks': {
        get: {
          operationId: 'benchmarks', summary: 'Benchmarks at three scopes (counted)',
          parameters: [specialty, state, region, ...years, practiceSetting, employmentType],
          responses: { '200': ok('BenchmarkResponse', 'private, max-age=3600'), ...keyedErrors(true) },
        },
      },
      '/percentile-rank': {
        get: {
          operationId: 'percentileRank',
          summary: 'Where a compensation falls: its percentile, interpolated between the published percentiles of the scope /benchmarks would use (counted)',
          parameters: [
            specialty,
            q('compensation', `annual total compensation in dollars (digits, optional cents; no commas), at least ${MIN_ANNUAL_PAY}: a year's pay, not thousands (420 for $420k) or an hourly rate`, { type: 'number', minimum: MIN_ANNUAL_PAY, maximum: MAX_ANNUAL_PAY }, true, 450000),
            state, region, practiceSetting, employmentType,
            q('fte', 'true: rank among FTE-normalized figures (Professional and Enterprise)', { type: 'boolean' }),
          ],
          responses: { '200': ok('PercentileRankResponse', 'private, max-age=3600'), ...keyedErrors(true) },
        },
      },
      '/offer-check': {
        get: {
          operationId: 'offerCheck',
          summary: 'Where each part of a job offer falls among the open data\'s published figures: the total among the state\'s percentiles (else national), each money component against its P25/median/P75, first-year and steady-state values, the FTE total, the implied $/wRVU, and what most offers have that this one lacks (counted; every plan)',
          parameters: [
            specialty, state,
            ...OFFER_NUMBER_FIELDS.map((f) => {
              const s = OFFER_NUMBERS[f];
              const schema: Json = { type: s.int ? 'integer' : 'number', ...(s.above ? { exclusiveMinimum: s.min } : { minimum: s.min }), maximum: s.max };
              return q(f, `${s.description}${s.money ? ' Digits, optional cents; no commas.' : ''}`, schema, f === 'base_salary', s.example);
            }),
            q('compensation_model', 'the pay model (value or label, any letter case): its median $/wRVU conversion rate is compared with the implied and the offered rate', { type: 'string', enum: [...COMPENSATION_MODEL_VALUES] }),
          ],
          responses: { '200': ok('OfferCheckResponse', 'private, max-age=3600'), ...keyedErrors(true) },
        },
      },
      '/me/usage': {
        get: {
          operationId: 'usage', summary: 'The caller\'s plan, usage and features (never counted)',
          responses: {
            '200': { description: 'OK', headers: { ...RATE_HEADERS, 'Cache-Control': header('no-store') }, content: { 'application/json': { schema: ref('UsageResponse') } } },
            '400': errorResponse('unknown query parameter (the endpoint takes none; not counted)', RATE_HEADERS),
            '401': errorResponse('missing or invalid API key'),
            '503': errorResponse('service store unavailable', { 'Retry-After': header('seconds', 'integer') }),
          },
        },
      },
      '/me/usage/history': {
        get: {
          operationId: 'usageHistory', summary: 'Requests counted per UTC day, oldest first, up to today (never counted)',
          parameters: [q('days', `how many days, today included (1 to ${USAGE_HISTORY_MAX_DAYS}; default ${USAGE_HISTORY_DEFAULT_DAYS})`, { type: 'integer', minimum: 1, maximum: USAGE_HISTORY_MAX_DAYS, default: USAGE_HISTORY_DEFAULT_DAYS }, false, 90)],
          responses: {
            '200': { description: 'OK', headers: { ...RATE_HEADERS, 'Cache-Control': header('no-store') }, content: { 'application/json': { schema: ref('UsageHistoryResponse') } } },
            '400': errorResponse('days out of range, or an unknown parameter (not counted)', RATE_HEADERS),
            '401': errorResponse('missing or invalid API key'),
            '503': errorResponse('service store unavailable', { 'Retry-After': header('seconds', 'integer') }),
          },
        },
      },
      '/me/assistants': {
        get: {
          operationId: 'assistants', summary: 'The assistants connected with this key by OAuth (approved on the sign-in page) whose access has not ended (never counted)',
          responses: {
            '200': { description: 'OK', headers: { ...RATE_HEADERS, 'Cache-Control': header('no-store') }, content: { 'application/json': { schema: ref('AssistantsResponse') } } },
            '400': errorResponse('unknown query parameter (the endpoint takes none; not counted)', RATE_HEADERS),
            '401': errorResponse('missing or invalid API key'),
            '503': errorResponse('service store unavailable', { 'Retry-After': header('seconds', 'integer') }),
          },
        },
      },
      '/me/assistants/disconnect': {
        post: {
          operationId: 'disconnectAssistant', summary: 'End one assistant\'s access: every access and refresh token of that approval stops working at once; the key and its other assistants are unchanged (never counted)',
          parameters: [q('id', 'the assistant\'s id from GET /me/assistants', { type: 'string' }, true)],
          responses: {
            '200': { description: 'OK: disconnected', headers: { ...RATE_HEADERS, 'Cache-Control': header('no-store') }, content: { 'application/json': { schema: ref('DisconnectResponse') } } },
            '400': errorResponse('id missing, or an unknown parameter (not counted)', RATE_HEADERS),
            '401': errorResponse('missing or invalid API key'),
            '404': errorResponse('no assistant with this id is connected with this key (never connected, disconnected already, or another key\'s)', RATE_HEADERS),
            '503': errorResponse('service store unavailable', { 'Retry-After': header('seconds', 'integer') }),
          },
        },
      },
      '/me/key/rotate': {
        post: {
          operationId: 'rotateKey',
          summary: 'Replace the key sent with a new one (same plan, status, quota counts and history); the old key is revoked at once and the new key is shown in this answer only (never counted)',
          responses: {
            '200': { description: 'OK: the new key', headers: { ...RATE_HEADERS, 'Cache-Control': header('no-store') }, content: { 'application/json': { schema: ref('KeyRotateResponse') } } },
            '400': errorResponse('a query parameter was sent (the endpoint takes none; a request body is ignored)', RATE_HEADERS),
            '401': errorResponse('missing or invalid API key (also a key revoked by a rotation a moment earlier)'),
            '503': errorResponse('service store unavailable', { 'Retry-After': header('seconds', 'integer') }),
          },
        },
      },
    },
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      schemas: {
        Error: jsonSchema(ErrorBody),
        SpecialtyListResponse: jsonSchema(SpecialtyListResponse),
        AvailabilityResponse: jsonSchema(AvailabilityResponse),
        BenchmarkResponse: jsonSchema(BenchmarkResponse),
        PercentileRankResponse: jsonSchema(PercentileRankResponse),
        OfferCheckResponse: jsonSchema(OfferCheckResponse),
        UsageResponse: jsonSchema(UsageResponse),
        UsageHistoryResponse: jsonSchema(UsageHistoryResponse),
        KeyRotateResponse: jsonSchema(KeyRotateResponse),
        AssistantsResponse: jsonSchema(AssistantsResponse),
        DisconnectResponse: jsonSchema(DisconnectResponse),
      },
    },
  });
}

/** Error bodies of the open data API. */
export const OpenErrorBody = z.object({ error: z.string() }).catchall(z.unknown());
export const NotFoundBody = z
  .object({
    error: z.string(),
    did_you_mean: z.array(z.object({ slug: z.string(), name: z.string(), url: z.string() })).max(5).optional(),
    feeds: z.array(z.string()).optional(),
  })
  .strict();
export const RateLimitedBody = z.object({ error: z.string(), retry_after: z.number().int() }).strict();

const FEED_ROUTES: { path: string; kind: FeedKind; params: string[]; summary: string; operationId?: string }[] = [
  { path: '/specialties.json', kind: 'specialties', params: [], summary: 'Every specialty: national median, P25, P75, n' },
  { path: '/specialties/{slug}.json', kind: 'specialty', params: ['slug'], summary: 'One specialty nationally: median, mean, percentiles, top states, practice settings, $/wRVU' },
  { path: '/specialties/{slug}/states/{state}.json', kind: 'specialtyState', params: ['slug', 'state'], summary: 'One specialty in one state (floor 3)' },
  { path: '/states.json', kind: 'states', params: [], summary: 'Every state: median, n, cost of living' },
  { path: '/states/{state}.json', kind: 'state', params: ['state'], summary: 'One state: median, mean, top specialties vs national, cost of living' },
  { path: '/wrvu/{slug}.json', kind: 'wrvu', params: ['slug'], summary: 'Total compensation per wRVU for one specialty' },
  { path: '/residency/institutions.json', kind: 'institutions', params: [], summary: 'Every teaching hospital ranked by cost-of-living-adjusted PGY-1 pay' },
  { path: '/residency/institutions/{slug}.json', kind: 'institution', params: ['slug'], summary: 'One teaching hospital\'s PGY pay scale' },
  { path: '/residency/states/{state}.json', kind: 'stateInstitutions', params: ['state'], summary: 'One state\'s teaching hospitals, each academic year ranked by cost-of-living-adjusted PGY-1 pay' },
  { path: '/residency/pgy/{pgy}.json', kind: 'residencyLevel', params: ['pgy'], summary: 'One postgraduate year (2 to max_pgy; PGY-1 is /residency/institutions.json) across teaching hospitals: salary, cost-of-living-adjusted salary, national and state rank' },
  { path: '/compare/{slug}/{other}.json', kind: 'comparison', params: ['slug', 'other'], summary: 'Two different specialties nationally, side by side, with the difference of their medians (derived from their published documents); a specialty with itself is a 404' },
  { path: '/compare/{slug}/{other}/states/{state}.json', kind: 'comparison', operationId: 'get_comparison_in_state', params: ['slug', 'other', 'state'], summary: 'Two different specialties in one state, side by side, with the difference of their medians; a specialty with itself is a 404' },
];

/** CSV downloads beside the list feeds: the same figures, RFC 4180, licence fields repeated on every row. */
const CSV_ROUTES: { path: string; feed: string; summary: string }[] = [
  { path: '/specialties.csv', feed: '/specialties.json', summary: 'Every specialty as CSV (slug, name, n, median, mean, p10-p90, rounded, withheld, basis and licence fields per row)' },
  { path: '/specialty-states.csv', feed: '/specialties/{slug}/states/{state}.json (every pair)', summary: 'Every specialty in every state as CSV, one row per pair (most withheld): figures, the national median and the difference from it, licence fields per row' },
  { path: '/states.csv', feed: '/states.json', summary: 'Every state as CSV (code, slug, name, region, figures, cost of living, licence fields per row)' },
  { path: '/specialty-offer-components.csv', feed: '/specialties/{slug}.json (components)', summary: 'The rest of the offer as CSV, one row per specialty and item (call pay, one-time payments, CME money, weeks off, call nights, pay models with their $/wRVU, non-compete, partnership track): share with it, answered, n, P25, median, P75 in the row\'s unit, rounding step, withheld, basis and licence fields per row' },
  { path: '/residency/institutions.csv', feed: '/residency/institutions.json', summary: 'Every teaching hospital as CSV (PGY scale, adjusted PGY-1, rank, licence fields per row)' },
  { path: '/residency/pgy-levels.csv', feed: '/residency/pgy/{pgy}.json (every level)', summary: 'Every teaching hospital at every PGY level as CSV, one row per hospital and level (salary and adjusted salary empty where the scale has no such level), national and state rank, licence fields per row' },
];

/** Files of each release beside the feeds: the list of releases and the whole open data at once. */
const RELEASE_ROUTES: { path: string; summary: string; content: Json }[] = [
  {
    path: '/releases.json',
    summary: 'The published releases, newest first: date, reports used, specialties published, the archive\'s SHA-256 and what changed against the previous release',
    content: { 'application/json': { schema: ref('ReleasesFeed') } },
  },
  {
    path: '/datapackage.json',
    summary: 'Frictionless Data Package (v2) describing every CSV: fields, types, units, missing values, primary keys, licence, sources',
    content: { 'application/json': { schema: { type: 'object', description: 'a Data Package v2 descriptor (https://datapackage.org/profiles/2.0/datapackage.json)' } } },
  },
  {
    path: '/physpay-open-data.tar.gz',
    summary: 'Every feed and CSV of the latest release and datapackage.json in one archive (ustar, gzip)',
    content: { 'application/gzip': { schema: { type: 'string', contentMediaType: 'application/gzip' } } },
  },
  {
    path: '/definitions.json',
    summary: 'What every published figure means: for each, the reports it counts (years, full-time basis, outliers), what n counts, rounding, disclosure noise and unit',
    content: { 'application/json': { schema: ref('DefinitionsDocument') } },
  },
  {
    path: '/CITATION.cff',
    summary: 'Citation File Format 1.2.0 of the release: it cites the release\'s own archive (releases/{release}/physpay-open-data.tar.gz)',
    content: { 'text/plain': { schema: { type: 'string' } } },
  },
  {
    path: '/physpay-open-data.tar.gz.sha256',
    summary: 'The archive\'s SHA-256, one line that `sha256sum -c` reads',
    content: { 'text/plain': { schema: { type: 'string', pattern: '^[0-9a-f]{64}  physpay-open-data\\.tar\\.gz\\n$' } } },
  },
];

const FEED_SCHEMA_NAMES: Record<FeedKind, string> = {
  specialties: 'SpecialtiesFeed', specialty: 'SpecialtyFeed', specialtyState: 'SpecialtyStateFeed', states: 'StatesFeed',
  state: 'StateFeed', wrvu: 'WrvuFeed', institutions: 'InstitutionsFeed', institution: 'InstitutionFeed',
  stateInstitutions: 'StateInstitutionsFeed', residencyLevel: 'ResidencyLevelFeed', comparison: 'ComparisonFeed',
};

export function openDataOpenApi(): Json {
  const limitHeaders = {
    'RateLimit-Policy': header('IETF draft: "minute";q=60;w=60, "day";q=2000;w=86400'),
    RateLimit: header('IETF draft: "minute";r=<remaining>;t=<seconds>, "day";r=..;t=..'),
  };
  const paramDoc: Record<string, string> = {
    slug: 'specialty (or teaching hospital) slug; common spellings and any letter case are accepted and answered with the canonical document and a Link rel="canonical" header',
    state: 'state slug or two-letter code, any letter case',
    other: 'the second specialty (slug or common spelling); the difference is slug minus other',
    pgy: 'postgraduate year, 2 to the max_pgy of any level\'s document (digits only)',
  };
  const paramExample = (path: string, p: string) =>
    p === 'pgy' ? '3' : p === 'state' ? 'texas' : p === 'other' ? 'family-medicine' : path.startsWith('/residency/') ? 'methodist-medical-center-houston' : 'cardiology';
  const paths: Json = {};
  const routes = [
    ...FEED_ROUTES.map((r) => ({ ...r, operationId: r.operationId ?? `get_${r.kind}`, content: { 'application/json': { schema: ref(FEED_SCHEMA_NAMES[r.kind]) } } })),
    ...CSV_ROUTES.map((r) => ({
      path: r.path, params: [] as string[], summary: r.summary, operationId: `get_${r.path.slice(1).replace(/[/.-]/g, '_')}`,
      content: { 'text/csv': { schema: { type: 'string', description: `RFC 4180, UTF-8, one header row; the figures of ${r.feed}` } } },
    })),
    ...RELEASE_ROUTES.map((r) => ({ ...r, params: [] as string[], operationId: `get_${r.path.slice(1).replace(/[/.-]/g, '_')}` })),
  ];
  for (const r of routes) {
    paths[r.path] = {
      get: {
        operationId: r.operationId,
        summary: r.summary,
        parameters: [
          ...r.params.map((p) => ({ name: p, in: 'path', required: true, description: paramDoc[p], example: paramExample(r.path, p), schema: { type: 'string', maxLength: 200 } })),
          { name: 'If-None-Match', in: 'header', required: false, description: 'ETag from an earlier response: 304 when unchanged (not counted)', schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'The feed (CC BY 4.0)',
            headers: {
              ETag: header('strong validator: content hash and access date'),
              'Cache-Control': header('public, max-age=3600'),
              'Access-Control-Allow-Origin': header('*'),
              Link: header('<canonical URL>; rel="canonical" when the path used an alias'),
              ...limitHeaders,
            },
            content: r.content,
          },
          '304': { description: 'Not modified (no body; not counted against the limits)', headers: { ETag: header('the current tag') } },
          '400': { description: 'malformed path', content: { 'application/json': { schema: ref('Error') } } },
          '404': { description: 'unknown slug (with up to 5 close matches) or unknown path', content: { 'application/json': { schema: ref('NotFound') } } },
          '405': { description: 'method not allowed (GET, HEAD, OPTIONS only)', content: { 'application/json': { schema: ref('Error') } } },
          '429': {
            description: 'per-IP limit exceeded (60 a minute, 2,000 a UTC day)',
            headers: { 'Retry-After': header('seconds until the window ends', 'integer'), ...limitHeaders },
            content: { 'application/json': { schema: ref('RateLimited') } },
          },
          '503': { description: 'no build loaded yet, or the service store unavailable', headers: { 'Retry-After': header('seconds', 'integer') }, content: { 'application/json': { schema: ref('Error') } } },
        },
      },
    };
  }
  // every kept release's files: the same paths under releases/{release}/, immutable
  paths['/releases/{release}/{path}'] = {
    get: {
      operationId: 'get_release_file',
      summary: 'A file (any feed, CSV, datapackage.json, definitions.json, CITATION.cff, the archive) exactly as a release published it, for as long as the publisher keeps that release (releases.json: kept); the same bytes and ETag every time',
      parameters: [
        { name: 'release', in: 'path', required: true, description: 'a release id from releases.json (a document\'s `release`)', example: '2026-11-16', schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}(?:\\.[1-9]\\d*)?$' } },
        { name: 'path', in: 'path', required: true, description: 'the file\'s path under /data/api/v1/, exact (no alias spellings), e.g. specialties.json or specialties/cardiology.json (slashes as they are, not encoded)', example: 'specialties.json', schema: { type: 'string', maxLength: 1000 } },
        { name: 'If-None-Match', in: 'header', required: false, description: 'ETag from an earlier response: 304 (not counted)', schema: { type: 'string' } },
      ],
      responses: {
        '200': {
          description: 'The file as the release published it',
          headers: { ETag: header('strong validator; never changes'), 'Cache-Control': header('public, max-age=31536000, immutable'), 'X-Physpay-Release': header('the release'), 'Access-Control-Allow-Origin': header('*'), ...limitHeaders },
          content: { 'application/json': { schema: { type: 'object' } }, 'text/csv': { schema: { type: 'string' } }, 'application/gzip': { schema: { type: 'string', contentMediaType: 'application/gzip' } } },
        },
        '304': { description: 'Not modified (not counted)', headers: { ETag: header('the tag') } },
        '404': { description: 'the release is not kept here (the answer lists `kept`), or it has no such file', content: { 'application/json': { schema: { type: 'object', required: ['error', 'kept'], properties: { error: { type: 'string' }, kept: { type: 'array', items: { type: 'string' } } } } } } },
        '405': { description: 'method not allowed (GET, HEAD, OPTIONS only)', content: { 'application/json': { schema: ref('Error') } } },
        '429': { description: 'per-IP limit exceeded', headers: { 'Retry-After': header('seconds until the window ends', 'integer'), ...limitHeaders }, content: { 'application/json': { schema: ref('RateLimited') } } },
        '503': { description: 'no build loaded yet, or the release could not be read, or the service store unavailable', headers: { 'Retry-After': header('seconds', 'integer') }, content: { 'application/json': { schema: ref('Error') } } },
      },
    },
  };
  const schemas: Json = { Error: jsonSchema(OpenErrorBody), NotFound: jsonSchema(NotFoundBody), RateLimited: jsonSchema(RateLimitedBody) };
  for (const [kind, name] of Object.entries(FEED_SCHEMA_NAMES)) schemas[name] = withDefinitions(jsonSchema(FEED_SCHEMAS[kind as FeedKind]));
  schemas.ReleasesFeed = jsonSchema(ReleasesFeed);
  schemas.DefinitionsDocument = jsonSchema(DefinitionsDocument);
  return withCurlSamples({
    openapi: '3.1.0',
    info: {
      title: 'PhysPay open data API',
      version: '1.0.0',
      description: 'Public physician compensation feeds (CC BY 4.0) from approved, self-reported salary reports. Headline figures are full-time pay (part-time pay scaled to 40 hours a week) of the most recent complete compensation years (by default 3), outliers left out; every document with reported pay says which in its basis field, and by_year rows keep every year. Figures below publication floors are null with a notice. Within v1, fields may be added but never renamed or removed.',
      license: { name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' },
    },
    servers: [{ url: '/data/api/v1' }],
    security: [], // open data: no operation needs credentials
    paths,
    components: { schemas },
  });
}

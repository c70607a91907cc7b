/**
 * The keyed tools: one per keyed API endpoint a subscriber's assistant needs, served on /mcp to a caller
 * with a valid `Authorization: Bearer <key>` (server/mcp/auth.ts). Each runs the endpoint's own route
 * (server/keyed/routes/*) on the arguments as query parameters, so its structuredContent is exactly that
 * endpoint's JSON answer and its refusals are the endpoint's messages. Every key sees every keyed tool; what
 * the plan allows is decided per call as on the keyed API (Starter answers leave out the Professional
 * sections; `fte` needs Professional, `year_start`/`year_end` Enterprise, both a tool error naming the plan).
 */
import { z } from 'zod';
import { AvailabilityResponse, BenchmarkResponse, PercentileRankResponse, UsageResponse } from '../../../build/contract/keyed-api.ts';
import { EMPLOYMENT_TYPES, PRACTICE_SETTINGS, REGIONS } from '../../../build/contract/vocab.ts';
import type { Answer, KeyedLocals } from '../../keyed/context.ts';
import type { KeyedDeps } from '../../keyed/middleware.ts';
import type { Query } from '../../keyed/params.ts';
import { availableDataRoute } from '../../keyed/routes/available-data.ts';
import { benchmarksRoute } from '../../keyed/routes/benchmarks.ts';
import { percentileRankRoute } from '../../keyed/routes/percentile-rank.ts';
import { usageRoute } from '../../keyed/routes/usage.ts';
import { strictArgs } from '../schemas.ts';

export interface KeyedToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodObject;
  outputSchema: z.ZodObject;
  /** the keyed API path it answers like (README) */
  endpoint: string;
  /** counted against the key's quotas, as its endpoint is */
  counted: boolean;
  route: (query: Query, l: KeyedLocals, deps: KeyedDeps) => Answer | Promise<Answer>;
}

const specialty = z.string().min(1).max(200).describe('Specialty name, e.g. "Cardiology" (common spellings are accepted)');
const state = z.string().min(1).max(200).optional().describe('Optional full US state name, e.g. "Texas" (not a code); under 5 reports falls back to the region, then national');
const region = z.string().min(1).max(200).optional().describe(`Optional Census region: ${REGIONS.join(', ')}`);
// the lists are in the error a wrong value gets (the keyed API's 400), not repeated in every tool's schema
const practiceSetting = z.string().min(1).max(200).optional().describe(`Optional filter, e.g. "${PRACTICE_SETTINGS[0]}" (a wrong value gets the list)`);
const employmentType = z.string().min(1).max(200).optional().describe(`Optional filter, e.g. "${EMPLOYMENT_TYPES[0]}" (a wrong value gets the list)`);
const year = (which: string) => z.number().int().optional().describe(`Enterprise: ${which} compensation year of a range`);

const scopeArgs = {
  specialty, state, region, practice_setting: practiceSetting, employment_type: employmentType, year_start: year('first'), year_end: year('last'),
};

export const KEYED_TOOLS: readonly KeyedToolDefinition[] = [
  {
    name: 'get_benchmark',
    title: 'Compensation benchmark (subscribers)',
    description: 'The keyed API\'s /benchmarks answer for your plan: percentiles P10-P90, mean, SD and median CI at the state, regional and national scopes (scope_used says which answers), BLS comparison; Professional and Enterprise add FTE-normalized figures, trending, breakdowns and components; Enterprise may set year_start/year_end. Counts one request against your key\'s daily and monthly quotas.',
    inputSchema: strictArgs('get_benchmark', scopeArgs),
    outputSchema: BenchmarkResponse,
    endpoint: '/api/v1/benchmarks',
    counted: true,
    route: benchmarksRoute,
  },
  {
    name: 'get_percentile_rank',
    title: 'Percentile rank of a compensation (subscribers)',
    description: 'The keyed API\'s /percentile-rank answer: where a total annual compensation falls (estimated percentile and band) within the scope get_benchmark would use. fte=true (Professional and Enterprise) ranks among FTE-normalized figures. Counts one request against your key\'s quotas.',
    inputSchema: strictArgs('get_percentile_rank', {
      specialty,
      compensation: z.number().describe('Total annual compensation in dollars, e.g. 350000'),
      state, region, practice_setting: practiceSetting, employment_type: employmentType,
      fte: z.boolean().optional().describe('Optional, Professional and Enterprise: rank among FTE-normalized figures'),
    }),
    outputSchema: PercentileRankResponse,
    endpoint: '/api/v1/percentile-rank',
    counted: true,
    route: percentileRankRoute,
  },
  {
    name: 'get_available_data',
    title: 'Data available for a query (subscribers)',
    description: 'The keyed API\'s /available-data answer: report counts, years and quality flags of each scope for a specialty (and state or region, filters), to check a query before asking get_benchmark. Counts one request against your key\'s quotas.',
    inputSchema: strictArgs('get_available_data', scopeArgs),
    outputSchema: AvailabilityResponse,
    endpoint: '/api/v1/available-data',
    counted: true,
    route: availableDataRoute,
  },
  {
    name: 'get_key_usage',
    title: 'Your plan and quota usage (subscribers)',
    description: 'The keyed API\'s /me/usage answer: your plan, subscription status, requests used and left today and this month, reset times, and the features your plan includes. Never counted.',
    inputSchema: strictArgs('get_key_usage', {}),
    outputSchema: UsageResponse,
    endpoint: '/api/v1/me/usage',
    counted: false,
    route: usageRoute,
  },
];

export const KEYED_TOOL_NAMES = KEYED_TOOLS.map((t) => t.name);

const byName = new Map(KEYED_TOOLS.map((t) => [t.name, t]));
export const keyedToolNamed = (name: unknown): KeyedToolDefinition | undefined => (typeof name === 'string' ? byName.get(name) : undefined);

/** Tool arguments (already checked by the input schema) as the endpoint's query parameters. */
export function argsToQuery(args: Record<string, unknown>): Query {
  const q: Query = {};
  for (const [k, v] of Object.entries(args)) if (v !== undefined && v !== null) q[k] = String(v);
  return q;
}

/**
 * Responses of the keyed benchmark API (A), as zod schemas: the server's types come from these, the
 * tests validate real responses against them, and the OpenAPI document is generated from them.
 */
import { z } from 'zod';
import { EMPLOYMENT_TYPES, PLAN_TIERS, PRACTICE_SETTINGS, REGIONS, SUBSCRIPTION_STATUSES } from './vocab.ts';
import { OfferCheck } from './offer-check.ts';
import { COMPENSATION_MODEL_VALUES } from './offer-terms.ts';

/** What `methodology.data_date_range` measures. */
export const DATE_RANGE_BASIS = 'submission dates of the reports' as const;

const int = z.number().int();
const count = int.nonnegative();
const num = z.number();
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
/** A count as published: perturbed from 5 reports, null below (no count below the floor; README: Disclosure control). */
const floorCount = count.nullable().describe('a perturbed count: the number of reports moved by up to 2 (the same reports always give the same count), never across 5 or 15; null below 5 reports. No count below a floor follows by subtracting published counts');

export const ErrorBody = z.object({ error: z.string() }).strict();

export const SpecialtyEntry = z
  .object({
    name: z.string(),
    slug: z.string(),
    sample_size: floorCount,
    states_with_data: count.describe('states whose state scope is publishable in this API (n >= states_with_data_min_n)'),
    states_with_data_min_n: z.literal(5).describe('the floor behind states_with_data: the keyed API\'s publication floor (the open feeds use their own floor, 3, and say so in the same-named field)'),
    publishable: z.boolean(),
    sufficient: z.boolean(),
  })
  .strict();
export const SpecialtyListResponse = z.object({ specialties: z.array(SpecialtyEntry), count: count }).strict();

/** The filters a query applied, echoed (null = not filtered). */
export const Filters = z
  .object({
    practice_setting: z.enum(PRACTICE_SETTINGS).nullable(),
    employment_type: z.enum(EMPLOYMENT_TYPES).nullable(),
    year_start: int.nullable().describe('first compensation year (Enterprise)'),
    year_end: int.nullable().describe('last compensation year (Enterprise)'),
  })
  .strict();
export type Filters = z.infer<typeof Filters>;

export const AvailabilityScope = z.object({ label: z.string(), n: floorCount, years: z.array(int).describe('compensation years with reports in the scope; empty below 5 reports'), sufficient: z.boolean(), publishable: z.boolean() }).strict();
export const AvailabilityResponse = z
  .object({
    specialty: z.string(),
    availability: z
      .object({
        state: AvailabilityScope.optional().describe('present exactly when a state was asked for'),
        regional: AvailabilityScope.nullable().describe('the named or derived region; null when the query names neither a state nor a region'),
        national: AvailabilityScope,
      })
      .strict(),
    filters: Filters,
    bls_available: z.boolean(),
    bls_soc_code: z.string().regex(/^\d{2}-\d{4}$/),
  })
  .strict();

export const Percentiles = z.object({ p10: num.nullable().describe('null below 15 reports'), p25: num, p50: num, p75: num, p90: num.nullable().describe('null below 15 reports') }).strict();


const Quantiles4 = z.object({ p25: num, p50: num, p75: num, p90: num.nullable().describe('null below 15 reports') }).strict();
export const Productivity = z
  .object({
    n: floorCount.describe('reports in the headline scope that give annual wRVUs; null below 5'),
    publishable: z.boolean(),
    sufficient: z.boolean(),
    wrvus: Quantiles4.nullable().describe('annual work RVUs, whole units; null when n < 5'),
    compensation_per_wrvu: Quantiles4.nullable().describe('winsorized total compensation / annual wRVUs, dollars and cents; null when n < 5'),
  })
  .strict();

export const BenchmarkScope = z
  .object({ label: z.string(), n: floorCount, publishable: z.boolean(), sufficient: z.boolean(), percentiles: Percentiles.nullable(), mean: num.nullable() })
  .strict();

export const BreakdownElement = z
  .object({ label: z.string(), n: floorCount, p25: num.nullable(), p50: num.nullable(), p75: num.nullable(), mean: num.nullable(), publishable: z.boolean() })
  .strict();
const Quartiles = z.object({ n: floorCount, p25: num.nullable(), p50: num.nullable(), p75: num.nullable() }).strict();

// ------------------------------------------------------------------ the whole offer (README: Keyed benchmark API, components)

const pct = z.number().min(0).max(100);
const answered = floorCount.describe('reports in the headline scope that answered the question (0 counts as an answer: none), perturbed like every count (by up to 2, never across 5 or 15); null below 5');
const shareWith = pct.nullable().describe(
  'percent of the reports that answered that have it (above 0), one decimal, from the two perturbed counts (with it, without it), a count below 5 counted as 2.5 whatever it is; null when fewer than 5 answered',
);
const nWith = floorCount.describe('reports that have it (above 0), perturbed like every count; null below 5, and then so are its figures');

/** One money component: how common it is, and its quartiles among the reports that have it. */
export const OfferMoneyComponent = z
  .object({
    answered,
    share_with_pct: shareWith,
    n_with: nWith,
    p25: num.nullable().describe('among the reports that have it; whole USD, as reported (not scaled to full time); null when n_with is null'),
    p50: num.nullable(),
    p75: num.nullable(),
  })
  .strict();

/** Quartiles of a quantity that is not money, to half units. */
export const OfferQuantity = z
  .object({ n: floorCount.describe('reports behind the quartiles, perturbed; null below 5'), p25: num.nullable(), p50: num.nullable(), p75: num.nullable() })
  .strict();

export const OfferModel = z
  .object({
    model: z.enum(COMPENSATION_MODEL_VALUES),
    share_pct: pct.nullable().describe('percent of the reports naming a pay model that name this one, one decimal, from perturbed counts (a count below 5 counted as 2.5); null when fewer than 5 named one'),
    conversion_rate: z
      .object({
        n: floorCount.describe('reports with this pay model that give their $/wRVU conversion rate, perturbed; null below 5'),
        p50: num.nullable().describe('median of the contracts\' $/wRVU conversion rates, USD per wRVU in cents; null when n is null'),
      })
      .strict(),
  })
  .strict();

const contractTerm = { answered, share_with_pct: shareWith, n_with: nWith };

/** The whole offer beside base_salary and bonus: every field present whenever `components` is. */
export const OfferComponentsKeyed = {
  call_pay: OfferMoneyComponent.describe('pay for call beyond what the base covers, USD a year (part of total compensation)'),
  signing_bonus: OfferMoneyComponent.describe('sign-on bonus, USD once'),
  retention_bonus: OfferMoneyComponent.describe('retention bonus, USD once'),
  relocation: OfferMoneyComponent.describe('relocation money, USD once'),
  loan_repayment: OfferMoneyComponent.describe('student loan repayment over the whole contract, USD in all'),
  cme_allowance: OfferMoneyComponent.describe('continuing medical education money, USD a year'),
  pto_weeks: OfferQuantity.describe('weeks of paid time off a year, quartiles to half weeks'),
  call_nights_per_month: OfferQuantity.describe('nights of call a month among the reports that take call (above 0), quartiles to half nights'),
  compensation_models: z
    .object({
      answered: floorCount.describe('reports that name their pay model, perturbed; null below 5'),
      models: z.array(OfferModel).describe('every pay model, in a fixed order: salary, salary_plus_productivity, production, collections, shift'),
    })
    .strict(),
  non_compete: z
    .object({
      ...contractTerm,
      median_miles: num.nullable().describe('median radius among the contracts with a non-compete, whole miles; null when n_with is null'),
      median_years: num.nullable().describe('median length among the contracts with a non-compete that give it, to half years; null below 5 of them'),
    })
    .strict(),
  partnership_track: z
    .object({
      ...contractTerm,
      median_years: num.nullable().describe('median years to partnership among the contracts with a partnership track, to half years; null when n_with is null'),
    })
    .strict(),
};
export const KeyedOfferComponents = z.object(OfferComponentsKeyed).strict();
export type KeyedOfferComponents = z.infer<typeof KeyedOfferComponents>;

export const RateLimitMeta = z.object({ remaining_daily: count, remaining_monthly: count, reset: int }).strict();

export const BenchmarkData = z
  .object({
    specialty: z.string(),
    geography: z
      .object({ state: z.string().nullable(), region: z.enum(REGIONS).nullable(), scope_used: z.enum(['state', 'regional', 'national']) })
      .strict(),
    sample_size: count.describe('reports in the scope used, perturbed by up to 2 like every published count (never across 5 or 15)'),
    percentiles: Percentiles,
    mean: num,
    confidence: z
      .object({
        sufficient: z.boolean(),
        publishable: z.boolean(),
        standard_deviation: num.nullable(),
        confidence_interval_95: z
          .object({
            lower: num,
            upper: num,
            coverage: num.describe('order_statistics: the achieved coverage of the exact [x(k), x(n-k+1)]; each published bound is moved by at most the percentiles\' disclosure bound, so the published interval\'s coverage is close to it, not guaranteed; approximate: 0.95 (nominal)'),
            method: z.enum(['order_statistics', 'approximate']).describe('order_statistics: [x(k), x(n-k+1)], each bound perturbed; approximate: built from the published quartiles where that interval would be [min, max] or does not exist (n < 9)'),
          })
          .strict(),
      })
      .strict(),
    scopes: z
      .object({
        state: BenchmarkScope.optional().describe('present exactly when a state was asked for'),
        regional: BenchmarkScope.nullable().describe('the named or derived region; null when the query names neither a state nor a region'),
        national: BenchmarkScope,
      })
      .strict(),
    filters: Filters,
    bls_comparison: z
      .object({
        available: z.boolean(),
        bls_data: z
          .object({ soc_code: z.string(), soc_title: z.string(), median: num, year: int, top_coded: z.boolean(), soc_match: z.enum(['exact', 'broad']) })
          .strict()
          .nullable(),
        physpay_median: num,
        service_median: num,
        variance_pct: num.nullable(),
        methodology_note: z.string(),
      })
      .strict(),
    methodology: z
      .object({
        min_sample: int,
        sufficient_sample: int,
        outlier_handling: z.string(),
        fte_basis: z.string(),
        disclosure_control: z.string().describe('how means and the SD are perturbed against differencing'),
        confidence_interval_method: z.string(),
        data_date_range: z
          .object({ earliest: isoDay, latest: isoDay, basis: z.literal(DATE_RANGE_BASIS) })
          .strict()
          .describe('submission dates of the reports in the headline scope (not compensation years; year_start/year_end and trending use compensation years)'),
        year_range: z.object({ start: int.nullable(), end: int.nullable() }).strict(),
      })
      .strict(),
    data_as_of: isoDay.describe('submission date of the newest report behind the headline figures (the headline scope after filters and year range), as the open feeds\' as_of'),
    synthetic: z.boolean(),
    fte_normalized: z.object({ percentiles: Percentiles.nullable(), mean: num.nullable(), n: floorCount }).strict().optional(),
    components: z
      .object({ base_salary: Quartiles, bonus: Quartiles, ...OfferComponentsKeyed })
      .strict()
      .optional()
      .describe('Professional and Enterprise: base salary and bonus, then the rest of the offer (call pay, one-time payments, CME money, weeks off, call nights, pay models with their $/wRVU conversion rates, non-competes, partnership tracks) of the headline scope\'s reports, as reported (not scaled to full time)'),
    trending: z
      .array(BreakdownElement.omit({ label: true }).extend({ year: int.describe('compensation year'), partial: z.boolean().describe('the current compensation year, still being reported') }).strict())
      .optional(),
    productivity: Productivity.optional().describe('Professional and Enterprise'),
    breakdowns: z
      .object({ by_experience: z.array(BreakdownElement), by_practice_setting: z.array(BreakdownElement), by_employment_type: z.array(BreakdownElement) })
      .strict()
      .optional(),
  })
  .strict();

export const BenchmarkResponse = z
  .object({ data: BenchmarkData, meta: z.object({ request_id: z.string().uuid(), rate_limit: RateLimitMeta }).strict() })
  .strict();

export const PercentileRankData = z
  .object({
    specialty: z.string(),
    compensation: num.describe('the compensation asked about, dollars per year'),
    basis: z.enum(['total_compensation', 'fte_normalized']).describe('fte_normalized when fte=true: ranked among the FTE-normalized figures'),
    geography: z
      .object({ state: z.string().nullable(), region: z.enum(REGIONS).nullable(), scope_used: z.enum(['state', 'regional', 'national']) })
      .strict(),
    filters: Filters.omit({ year_start: true, year_end: true }),
    sample_size: count.describe('reports in the scope used (FTE figures: reports with usable hours), perturbed by up to 2 like every published count'),
    percentile: num.nullable().describe('estimated percentile, one decimal, interpolated between the published percentiles; null below P10 or above P90'),
    band: z.string().describe('"below P10", "P10-P25", "P25-P50", "P50-P75", "P75-P90" or "above P90"'),
    band_lower_percentile: num,
    band_upper_percentile: num,
    band_lower_value: num.nullable(),
    band_upper_value: num.nullable(),
    percentiles: Percentiles.describe('the published percentiles the estimate is interpolated from (as /benchmarks gives them)'),
    method: z.string(),
    data_as_of: isoDay.describe('submission date of the newest report behind the scope used'),
    synthetic: z.boolean(),
  })
  .strict();
export const PercentileRankResponse = z
  .object({ data: PercentileRankData, meta: z.object({ request_id: z.string().uuid(), rate_limit: RateLimitMeta }).strict() })
  .strict();

/**
 * /offer-check: the offer check of the open data's published figures (build/contract/offer-check.ts), the
 * same answer the tool server's evaluate_offer gives for the same offer.
 */
export const OfferCheckResponse = z
  .object({ data: OfferCheck, meta: z.object({ request_id: z.string().uuid(), rate_limit: RateLimitMeta }).strict() })
  .strict();

export const UsageResponse = z
  .object({
    plan_tier: z.enum(PLAN_TIERS),
    subscription_status: z.enum(SUBSCRIPTION_STATUSES),
    key_prefix: z.string(),
    created_at: z.string(),
    usage: z
      .object({
        requests_today: count,
        requests_this_month: count,
        daily_limit: count,
        monthly_limit: count,
        remaining_daily: count,
        remaining_monthly: count,
        daily_reset: int,
        monthly_reset: int,
      })
      .strict(),
    features: z.object({ trending: z.boolean(), fte_normalized: z.boolean(), breakdowns: z.boolean(), components: z.boolean(), custom_date_ranges: z.boolean() }).strict(),
  })
  .strict();

/** The most days GET /me/usage/history gives at once, and its default. */
export const USAGE_HISTORY_MAX_DAYS = 366;
export const USAGE_HISTORY_DEFAULT_DAYS = 90;

export const UsageHistoryResponse = z
  .object({
    key_prefix: z.string(),
    plan_tier: z.enum(PLAN_TIERS),
    daily_limit: count,
    from: isoDay.describe('first UTC day of the series'),
    to: isoDay.describe('last UTC day of the series (today)'),
    total: count.describe('requests counted over the series'),
    days: z
      .array(z.object({ date: isoDay, requests: count.describe('requests counted against the daily quota that UTC day') }).strict())
      .describe('one entry per UTC day, oldest first, days without requests included as 0'),
  })
  .strict();

export const KeyRotateResponse = z
  .object({
    key: z.string().describe('the new API key: shown in this answer only (only its hash is stored)'),
    key_prefix: z.string(),
    plan_tier: z.enum(PLAN_TIERS),
    subscription_status: z.enum(SUBSCRIPTION_STATUSES),
    created_at: z.string(),
    replaced: z.object({ key_prefix: z.string(), revoked_at: z.string() }).strict().describe('the key sent with this request, revoked now'),
  })
  .strict();

const ConnectedAssistant = z
  .object({
    id: z.string().describe('the approval: give it to POST /me/assistants/disconnect'),
    name: z.string().describe('the name the assistant registered itself with (its own words, not checked by physpay)'),
    redirect_hosts: z.array(z.string()).describe('where its approvals are sent back to (host and port), as registered'),
    last_refreshed_at: z.string().describe('when it last signed in or refreshed its access (UTC)'),
    expires_at: z.string().describe('when its access ends unless it refreshes again (UTC)'),
  })
  .strict();

export const AssistantsResponse = z
  .object({
    key_prefix: z.string(),
    assistants: z.array(ConnectedAssistant).describe('the assistants approved with this key whose access has not ended, last refreshed first'),
  })
  .strict();

export const DisconnectResponse = z
  .object({
    disconnected: z.string().describe('the id of the approval ended: its access and refresh tokens no longer work'),
  })
  .strict();

export type AssistantsResponse = z.infer<typeof AssistantsResponse>;
export type DisconnectResponse = z.infer<typeof DisconnectResponse>;
export type UsageHistoryResponse = z.infer<typeof UsageHistoryResponse>;
export type KeyRotateResponse = z.infer<typeof KeyRotateResponse>;
export type SpecialtyListResponse = z.infer<typeof SpecialtyListResponse>;
export type AvailabilityResponse = z.infer<typeof AvailabilityResponse>;
export type BenchmarkScope = z.infer<typeof BenchmarkScope>;
export type BenchmarkData = z.infer<typeof BenchmarkData>;
export type BenchmarkResponse = z.infer<typeof BenchmarkResponse>;
export type BreakdownElement = z.infer<typeof BreakdownElement>;
export type UsageResponse = z.infer<typeof UsageResponse>;
export type PercentileRankData = z.infer<typeof PercentileRankData>;
export type PercentileRankResponse = z.infer<typeof PercentileRankResponse>;
export type OfferCheckResponse = z.infer<typeof OfferCheckResponse>;
export type Productivity = z.infer<typeof Productivity>;

/**
 * The offer check (issue 43): what an offer may say, and the answer that places each part of it among the
 * PUBLISHED figures of its specialty (build/compute/offer-check.ts computes it). One field table feeds the
 * keyed API's query parameters (/api/v1/offer-check), the tool server's input schema (evaluate_offer), the
 * OpenAPI document and the specialty pages' form, so the four take the same numbers with the same limits.
 */
import { z } from 'zod';
import { MAX_ANNUAL_PAY, MIN_ANNUAL_PAY } from './annual-pay.ts';
import { ExperienceLevels } from './experience.ts';
import { COMPENSATION_MODEL_VALUES, MONEY_COMPONENTS, OFFER_RANGES, type MoneyComponent } from './offer-terms.ts';
import { CommonFields, HeadlineBasis } from './open-feeds.ts';
import { FTE_HOURS, FTE_MAX_HOURS, FTE_MIN_HOURS } from '../compute/stats.ts';

// ---------------------------------------------------------------- rules (named constants, README: Offer check)

/** Years a contract is assumed to run when the offer does not say (one-time payments are spread over them). */
export const DEFAULT_CONTRACT_YEARS = 3;
/** Longest contract the check takes, in years. */
export const MAX_CONTRACT_YEARS = 10;
/**
 * A money component (or a partnership track) the offer leaves out is listed as missing when at least this
 * percent of the reports that answered the question have it (its published share_with_pct).
 */
export const MISSING_SHARE_PCT = 50;
/**
 * One-time payments counted in the first-year value in full: paid on signing or starting. A retention bonus
 * is paid for staying a stated time, so it is left out of the first year (it still counts in the
 * steady-state value); loan repayment counts its yearly share (the total over its years).
 */
export const FIRST_YEAR_ONE_TIME: readonly MoneyComponent[] = ['signing_bonus', 'relocation'];
/** The largest pay amount (base salary, bonus) the check takes, in dollars: the same as /percentile-rank. */
export const OFFER_MAX_PAY = MAX_ANNUAL_PAY;

/** Where an amount falls against a published P25 / median / P75, lowest first. */
export const QUARTILE_BANDS = ['below P25', 'P25-median', 'median-P75', 'above P75'] as const;
export type QuartileBand = (typeof QUARTILE_BANDS)[number];
/** A figure withheld below its floor: no band is given (never estimated). */
export const NO_RANGE = 'no published range' as const;
/** A size (miles, years) against a published median. */
export const MEDIAN_SIDES = ['below the median', 'at the median', 'above the median'] as const;
export const NO_MEDIAN = 'no published median' as const;

// ---------------------------------------------------------------- the offer

/** Every number an offer may give (besides specialty, state and compensation_model). */
export const OFFER_NUMBER_FIELDS = [
  'base_salary', 'bonus', 'call_pay', 'signing_bonus', 'retention_bonus', 'relocation', 'loan_repayment', 'loan_repayment_years',
  'cme_allowance', 'contract_years', 'hours_per_week', 'wrvus', 'wrvu_conversion_rate', 'pto_weeks', 'call_nights_per_month',
  'non_compete_miles', 'non_compete_years', 'partnership_track_years',
] as const;
export type OfferNumberField = (typeof OFFER_NUMBER_FIELDS)[number];

export interface OfferNumberSpec {
  /** smallest value (inclusive unless `above`) */
  min: number;
  max: number;
  /** the value must be above `min` (not equal to it) */
  above?: boolean;
  /** whole numbers only */
  int?: boolean;
  /** dollars (at most two decimals) */
  money?: boolean;
  description: string;
  /** the OpenAPI example (base_salary only: the one required number) */
  example?: number;
}

const money = (c: MoneyComponent): OfferNumberSpec => {
  const m = MONEY_COMPONENTS.find((x) => x.field === c)!;
  return { min: 0, max: m.max, money: true, description: `${m.label}, ${m.unit}: ${m.description} 0 = none.` };
};
const range = (c: keyof typeof OFFER_RANGES, description: string): OfferNumberSpec => {
  const r = OFFER_RANGES[c];
  return { min: r.min, max: r.max, ...(r.int ? { int: true } : {}), ...(r.currency ? { money: true } : {}), description };
};

/** Limits and meaning of every number: the keyed API's 400s, the tool's input schema and the page form use these. */
export const OFFER_NUMBERS: Record<OfferNumberField, OfferNumberSpec> = {
  base_salary: { min: 0, above: true, max: OFFER_MAX_PAY, money: true, example: 300000, description: `Base salary offered, USD a year (required); with bonus and call pay at least ${MIN_ANNUAL_PAY} (a year's pay: 420000, not 420 for $420k or an hourly rate).` },
  bonus: { min: 0, max: OFFER_MAX_PAY, money: true, description: 'Expected bonus and incentives, USD a year (productivity, quality, other).' },
  call_pay: money('call_pay'),
  signing_bonus: money('signing_bonus'),
  retention_bonus: money('retention_bonus'),
  relocation: money('relocation'),
  loan_repayment: money('loan_repayment'),
  loan_repayment_years: range('loan_repayment_years', 'Years over which the loan repayment is paid (default: the contract\'s years).'),
  cme_allowance: money('cme_allowance'),
  contract_years: { min: 1, max: MAX_CONTRACT_YEARS, int: true, description: `Length of the contract in years, over which one-time payments are spread (default ${DEFAULT_CONTRACT_YEARS}).` },
  hours_per_week: { min: FTE_MIN_HOURS, max: FTE_MAX_HOURS, description: `Hours worked a week: from ${FTE_MIN_HOURS} to ${FTE_HOURS - 1} the pay is scaled to ${FTE_HOURS} hours (full-time equivalent), ${FTE_HOURS} or more counts unchanged.` },
  wrvus: { min: 1, max: 100_000, description: 'Expected work RVUs a year: gives the implied total pay per wRVU.' },
  wrvu_conversion_rate: range('wrvu_conversion_rate', 'The contract\'s $/wRVU conversion rate, USD per wRVU.'),
  pto_weeks: range('pto_weeks', 'Weeks of paid time off a year.'),
  call_nights_per_month: range('call_nights_per_month', 'Nights of call a month (0 = no call).'),
  non_compete_miles: range('non_compete_miles', 'Radius of the non-compete in miles (0 = no non-compete).'),
  non_compete_years: range('non_compete_years', 'Length of the non-compete in years.'),
  partnership_track_years: range('partnership_track_years', 'Years to partnership (0 = no partnership track).'),
};

/** The offer as the pure core takes it: numbers already checked against OFFER_NUMBERS (absent = not given). */
export type Offer = {
  /** as typed (the server resolves it to a document; the answer names the specialty of that document) */
  specialty: string;
  state?: string | undefined;
  compensation_model?: (typeof COMPENSATION_MODEL_VALUES)[number] | undefined;
} & { base_salary: number } & Partial<Record<Exclude<OfferNumberField, 'base_salary'>, number | undefined>>;

/** The zod type of one number (input schemas). */
export function offerNumberSchema(field: OfferNumberField): z.ZodNumber {
  const s = OFFER_NUMBERS[field];
  let t = z.number();
  t = s.above ? t.gt(s.min) : t.min(s.min);
  t = t.max(s.max);
  if (s.int) t = t.int();
  return t.describe(s.description);
}

// ---------------------------------------------------------------- the answer

const money$ = z.number();
const figure = z.number().nullable();
const pct = z.number().nullable();
const quartileBand = z.enum([...QUARTILE_BANDS, NO_RANGE]);
const medianSide = z.enum([...MEDIAN_SIDES, NO_MEDIAN]);
const Percentiles = z.object({ p10: figure, p25: figure, median: figure, p75: figure, p90: figure }).strict();

/** An estimated position among published percentiles (build/compute/pay-position.ts). */
const Position = {
  percentile: z.number().nullable().describe('estimated percentile, one decimal, interpolated between the published percentiles; null outside them'),
  band: z.string().describe('"below P10", "P25-P50", ..., "above P90" (P25 and P75 when P10 and P90 are withheld)'),
  band_lower_percentile: z.number(),
  band_upper_percentile: z.number(),
  band_lower_value: figure,
  band_upper_value: figure,
};

const given = z.number().nullable();
export const OfferEcho = z
  .object({
    base_salary: money$, bonus: given, call_pay: given, signing_bonus: given, retention_bonus: given, relocation: given,
    loan_repayment: given, loan_repayment_years: given, cme_allowance: given, contract_years: given, hours_per_week: given,
    wrvus: given, wrvu_conversion_rate: given, pto_weeks: given, call_nights_per_month: given, non_compete_miles: given,
    non_compete_years: given, partnership_track_years: given,
    compensation_model: z.enum(COMPENSATION_MODEL_VALUES).nullable(),
  })
  .strict()
  .describe('the offer as checked (null = not given)');

const ComponentCheck = z
  .object({
    component: z.enum(MONEY_COMPONENTS.map((c) => c.field) as [MoneyComponent, ...MoneyComponent[]]),
    label: z.string(),
    kind: z.enum(['yearly', 'one_time']),
    unit: z.string(),
    amount: figure.describe('the offer\'s amount (0 = none); null when the offer does not give it'),
    band: quartileBand.nullable().describe(`where the amount falls among reports that have it: ${QUARTILE_BANDS.join(', ')}, or "${NO_RANGE}" when the quartiles are withheld; null when the offer has none`),
    share_with_pct: pct.describe('published: percent of the reports answering that have it (null below 5 answering)'),
    p25: figure,
    median: figure,
    p75: figure,
    withheld: z.boolean(),
  })
  .strict();

const QuantityCheck = z
  .object({
    value: figure.describe('the offer\'s value; null when not given'),
    band: quartileBand.nullable().describe('null when the offer does not give it (call nights: also when it takes no call)'),
    unit: z.string(),
    p25: figure,
    median: figure,
    p75: figure,
    withheld: z.boolean(),
  })
  .strict();

const ValuePart = z
  .object({
    part: z.string().describe('base_salary, bonus or a money component'),
    label: z.string(),
    kind: z.enum(['yearly', 'one_time']),
    amount: money$,
    first_year: money$.describe('what it adds to the first-year value'),
    per_year: money$.describe('what it adds to the steady-state yearly value'),
  })
  .strict();

export const OfferCheckCore = z
  .object({
    specialty: z.object({ slug: z.string(), name: z.string() }).strict(),
    state_asked: z.object({ slug: z.string(), name: z.string() }).strict().nullable().describe('the state the offer names (null: national)'),
    scope_used: z.enum(['state', 'national']).describe('whose published percentiles place the total: the state\'s when published, else national'),
    scope_note: z.string().nullable().describe('why the national figures were used (or none could be), in a sentence; null when the scope asked for was used'),
    offer: OfferEcho,
    total_compensation: money$.describe('base salary + bonus + call pay, USD a year (what a report\'s total compensation counts)'),
    fte_total_compensation: figure.describe(`total compensation on a ${FTE_HOURS}-hour basis when hours_per_week is given (${FTE_MIN_HOURS}-${FTE_HOURS - 1} hours scaled by ${FTE_HOURS} / hours, ${FTE_HOURS} or more unchanged); null without hours`),
    position: z
      .object({
        scope: z.enum(['state', 'national']),
        compared: z.enum(['total_compensation', 'fte_total_compensation']).describe('the amount placed: the full-time-equivalent total when hours are given (the published figures are on a full-time basis)'),
        value: money$,
        n: z.number().int().nullable(),
        rounded: z.boolean(),
        ...Position,
        percentiles: Percentiles,
        method: z.string(),
      })
      .strict()
      .nullable()
      .describe('where the total falls among the published percentiles; null when the figures are withheld'),
    components: z.array(ComponentCheck).describe('every money component, in a fixed order, each against its published quartiles'),
    terms: z
      .object({
        pto_weeks: QuantityCheck,
        call_nights_per_month: QuantityCheck.describe('quartiles among reports that take call'),
        non_compete: z
          .object({
            miles: figure, years: figure, share_with_pct: pct, median_miles: figure, median_years: figure,
            miles_vs_median: medianSide.nullable().describe('null when the offer has no non-compete or does not say'),
            years_vs_median: medianSide.nullable(),
          })
          .strict(),
        partnership_track: z
          .object({ years: figure, share_with_pct: pct, median_years: figure, years_vs_median: medianSide.nullable() })
          .strict(),
      })
      .strict(),
    value: z
      .object({
        contract_years: z.number().int(),
        contract_years_assumed: z.boolean().describe(`true when the offer does not give contract_years (${DEFAULT_CONTRACT_YEARS} assumed)`),
        loan_repayment_years: z.number().nullable().describe('years the loan repayment is spread over: loan_repayment_years, else the contract\'s years; null without loan repayment'),
        yearly: money$.describe('base salary, bonus, call pay and CME allowance: paid every year'),
        one_time: money$.describe('sign-on and retention bonus, relocation, loan repayment (in all)'),
        first_year: money$.describe(`yearly parts + ${FIRST_YEAR_ONE_TIME.join(' + ')} + the first year of loan repayment`),
        steady_state_yearly: money$.describe('yearly parts + each one-time part spread over the contract\'s years (loan repayment over its own years)'),
        parts: z.array(ValuePart),
      })
      .strict(),
    productivity: z
      .object({
        wrvus: figure,
        implied_per_wrvu: figure.describe('total compensation / wRVUs, USD (cents); null without wrvus'),
        specialty_per_wrvu: z
          .object({ n: z.number().int().nullable(), percentiles: Percentiles, withheld: z.boolean() })
          .extend({ position: z.object(Position).strict().nullable().describe('where implied_per_wrvu falls; null without wrvus or when withheld') })
          .strict()
          .describe('the specialty\'s published total compensation per wRVU'),
        compensation_model: z
          .object({
            model: z.enum(COMPENSATION_MODEL_VALUES), label: z.string(), share_pct: pct,
            median_conversion_rate: figure.describe('published median $/wRVU conversion rate of contracts with this pay model (null = withheld)'),
          })
          .strict()
          .nullable(),
        implied_vs_model_median_pct: pct.describe('implied_per_wrvu against the pay model\'s median conversion rate, percent (one decimal)'),
        conversion_rate: figure.describe('the offer\'s own $/wRVU conversion rate'),
        conversion_rate_vs_model_median_pct: pct,
      })
      .strict(),
    missing: z
      .array(z.object({ component: z.string(), label: z.string(), share_with_pct: z.number(), text: z.string() }).strict())
      .describe(`what the offer leaves out that at least ${MISSING_SHARE_PCT}% of the reports answering have (money components and a partnership track)`),
    rules: z
      .object({
        default_contract_years: z.literal(DEFAULT_CONTRACT_YEARS),
        missing_share_pct: z.literal(MISSING_SHARE_PCT),
        first_year_one_time: z.array(z.string()),
        fte_hours: z.literal(FTE_HOURS),
      })
      .strict(),
  })
  .strict();
export type OfferCheckCore = z.infer<typeof OfferCheckCore>;

/** The document a state's position came from (its own citation). */
export const OfferStateSource = z
  .object({
    title: z.string(), feed_url: z.string(), citation_url: z.string(), attribution: z.string(),
    n: z.number().int().nullable(), as_of: z.string(), release: z.string(), release_url: z.string().optional(),
  })
  .strict();

/**
 * The whole answer: the specialty feed's own fields (n, as_of, attribution, citation_url, ...: the components,
 * wRVU and pay-model figures and the national percentiles are its), its basis, the state document's citation
 * when the state's percentiles were used, and the core.
 */
export const OfferCheck = z
  .object({
    ...CommonFields,
    basis: HeadlineBasis,
    experience_levels: ExperienceLevels,
    state_source: OfferStateSource.nullable().describe('the specialty-in-state document whose percentiles placed the total (cite it too); null when the national ones were used'),
    ...OfferCheckCore.shape,
  })
  .strict();
export type OfferCheck = z.infer<typeof OfferCheck>;

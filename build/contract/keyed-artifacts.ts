/**
 * Private artifacts of the keyed API (A), written by the build under private/ (never CDN-served) and read
 * by the server. Every figure in them comes from build/compute/keyed.ts.
 */
import { z } from 'zod';
import { EMPLOYMENT_TYPES, PRACTICE_SETTINGS, REGIONS } from './vocab.ts';
import { COMPENSATION_MODELS, OFFER_FIGURE_COLUMNS, type OfferFigureColumn } from './offer-terms.ts';

const num = z.number();
const count = z.number().int().nonnegative();
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** P10 and P90 are null below 15 reports (README: Disclosure control). */
export const Percentiles = z.object({ p10: num.nullable(), p25: num, p50: num, p75: num, p90: num.nullable() }).strict();
export type Percentiles = z.infer<typeof Percentiles>;

/** Figures of one scope: null when n < 5 (not publishable). */
export const KeyedFigures = z
  .object({
    percentiles: Percentiles,
    mean: num,
    standard_deviation: num.nullable(),
    confidence_interval_95: z.object({ lower: num, upper: num, coverage: num, method: z.enum(['order_statistics', 'approximate']) }).strict(),
  })
  .strict();

export const BreakdownRow = z
  .object({
    label: z.string(),
    /** null below 5 reports: no exact count below the floor */
    n: count.nullable(),
    p25: num.nullable(),
    p50: num.nullable(),
    p75: num.nullable(),
    mean: num.nullable(),
    publishable: z.boolean(),
  })
  .strict();
export type BreakdownRow = z.infer<typeof BreakdownRow>;

export const TrendRow = BreakdownRow.omit({ label: true })
  .extend({
    year: z.number().int().describe('compensation year'),
    partial: z.boolean().describe('true for the current compensation year, still being reported'),
  })
  .strict();
export type TrendRow = z.infer<typeof TrendRow>;

const Quantiles4 = z.object({ p25: num, p50: num, p75: num, p90: num.nullable() }).strict();
const Component = z.object({ n: count.nullable(), p25: num.nullable(), p50: num.nullable(), p75: num.nullable() }).strict();

/**
 * A cell's whole-offer figures, packed (build/compute/keyed-offer.ts writes and unpacks them into the API's
 * components beside base_salary and bonus): one array per group, in this order: the six money components
 * (call_pay, signing_bonus, retention_bonus, relocation, loan_repayment, cme_allowance: answered,
 * share_with_pct, n_with, p25, p50, p75), pto_weeks and call_nights_per_month (n, p25, p50, p75), the pay
 * models (answered, then share_pct, conversion-rate n and p50 of each model in COMPENSATION_MODELS order),
 * non_compete (answered, share_with_pct, n_with, median_miles, median_years) and partnership_track
 * (answered, share_with_pct, n_with, median_years). Each group leaves out its trailing nulls and is null when
 * all its figures are; the whole section is null when every figure is.
 */
export type KeyedOfferPacked = ((number | null)[] | null)[];
/** The most figures of each group. */
export const OFFER_GROUP_SIZES = [6, 6, 6, 6, 6, 6, 4, 4, 16, 5, 4] as const;
const isPackedOffer = (x: unknown): boolean =>
  Array.isArray(x) && x.length === OFFER_GROUP_SIZES.length && x.every((g, k) => g === null || (Array.isArray(g) && g.length <= OFFER_GROUP_SIZES[k]! && g.every((v) => v === null || (typeof v === 'number' && Number.isFinite(v)))));
/** a check written out rather than a zod tuple: it runs on every cell of every specialty (on the 60,000-report demo, 0.04 s against the tuple's 0.07 s) */
export const KeyedOfferPacked = z.custom<KeyedOfferPacked>(isPackedOffer, { message: `a packed offer is ${OFFER_GROUP_SIZES.length} groups, each null or at most its size of numbers or nulls` });

/** One geography x practice_setting x employment_type cell. Sections exist when n >= 5. */
export const KeyedCell = z
  .object({
    n: count,
    years: z.array(z.number().int()),
    data_date_range: z.object({ earliest: isoDay, latest: isoDay }).strict().nullable(),
    figures: KeyedFigures.nullable(),
    bls_variance_pct: num.nullable(),
    sections: z
      .object({
        fte_normalized: z.object({ n: count.nullable(), percentiles: Percentiles.nullable(), mean: num.nullable() }).strict(),
        productivity: z
          .object({
            n: count.nullable(),
            publishable: z.boolean(),
            sufficient: z.boolean(),
            wrvus: Quantiles4.nullable(),
            compensation_per_wrvu: Quantiles4.nullable(),
          })
          .strict(),
        components: z.object({ base_salary: Component, bonus: Component }).strict(),
        /** the whole offer, packed (KeyedOfferPacked); null when every figure of it is null */
        offer: KeyedOfferPacked.nullable(),
        trending: z.array(TrendRow),
        by_experience: z.array(BreakdownRow),
      })
      .strict()
      .nullable(),
  })
  .strict();
export type KeyedCell = z.infer<typeof KeyedCell>;

export const BlsInfo = z
  .object({
    available: z.boolean(),
    soc_code: z.string().regex(/^\d{2}-\d{4}$/).nullable(),
    soc_title: z.string().nullable(),
    soc_match: z.enum(['exact', 'broad']),
    median: num.nullable(),
    year: z.number().int().nullable(),
    top_coded: z.boolean(),
  })
  .strict();
export type BlsInfo = z.infer<typeof BlsInfo>;

/** private/keyed/benchmarks/{slug}.json */
export const KeyedSpecialtyArtifact = z
  .object({
    slug: z.string(),
    name: z.string(),
    bls: BlsInfo,
    /** keys: `${geo}|${practice_setting or *}|${employment_type or *}`, geo = US | R:<Region> | S:<code> */
    cells: z.record(z.string(), KeyedCell),
  })
  .strict();
export type KeyedSpecialtyArtifact = z.infer<typeof KeyedSpecialtyArtifact>;

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/);

/**
 * private/keyed/reports/{slug}.json: per-report columns for Enterprise custom year ranges (winsorized, pay as
 * distorted by the record factors: the exact values never leave the build). Never public: it holds the
 * disclosure control's record keys and draw key.
 */
export const KeyedReportsArtifact = z
  .object({
    slug: z.string(),
    count: count,
    /** compensation years from this one on are still being reported */
    partial_from: z.number().int(),
    /** the two 32-bit lanes of each report's record key (base64 of little-endian bytes) */
    key_lo: base64,
    key_hi: base64,
    /** the key of the draws (32 bytes, base64), derived from the reports DB's secret */
    draw_key: base64,
    /** ascending; winsorized total compensation */
    total: z.array(num),
    fte: z.array(num.nullable()),
    base: z.array(num.nullable()),
    bonus: z.array(num.nullable()),
    /** annual wRVUs, null when not given */
    wrvus: z.array(num.nullable()),
    year: z.array(z.number().int()),
    experience_band: z.array(z.number().int().min(-1).max(4)),
    setting: z.array(z.number().int().min(-1).max(PRACTICE_SETTINGS.length - 1)),
    employment: z.array(z.number().int().min(-1).max(EMPLOYMENT_TYPES.length - 1)),
    state: z.array(z.number().int().nonnegative()),
    day: z.array(z.number().int()),
    /**
     * the whole offer's columns the keyed figures read, for the reports that answer any of it: `reports` lists
     * their positions (ascending) and every column holds one value per listed report (null unknown; money
     * values and conversion rates distorted like pay; compensation_model an index into COMPENSATION_MODELS,
     * -1 unknown). Absent when no report of the specialty answers any of it.
     */
    offer: z
      .object({
        reports: z.array(z.number().int().nonnegative()),
        ...Object.fromEntries(OFFER_FIGURE_COLUMNS.map((c) => [c, z.array(num.nullable())])) as Record<OfferFigureColumn, z.ZodArray<z.ZodNullable<z.ZodNumber>>>,
        compensation_model: z.array(z.number().int().min(-1).max(COMPENSATION_MODELS.length - 1)),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((r) => Buffer.from(r.key_lo, 'base64').length === 4 * r.count && Buffer.from(r.key_hi, 'base64').length === 4 * r.count, { message: 'record keys must hold `count` 32-bit values' })
  .refine((r) => Buffer.from(r.draw_key, 'base64').length === 32, { message: 'the draw key has 32 bytes' })
  .refine((r) => ['total', 'fte', 'base', 'bonus', 'wrvus', 'year', 'experience_band', 'setting', 'employment', 'state', 'day'].every(
    (k) => (r[k as keyof typeof r] as unknown[]).length === r.count,
  ), { message: 'every column must hold `count` values' })
  .refine((r) => !r.offer || (r.offer.reports.every((p, k) => p < r.count && (k === 0 || p > r.offer!.reports[k - 1]!))
    && Object.values(r.offer).every((col) => col.length === r.offer!.reports.length)), { message: 'offer.reports must list positions below `count` in ascending order, and every offer column hold one value per listed report' });
export type KeyedReportsArtifact = z.infer<typeof KeyedReportsArtifact>;

export const Methodology = z
  .object({
    min_sample: z.number().int(),
    sufficient_sample: z.number().int(),
    winsor_lower: num,
    winsor_upper: num,
    outlier_handling: z.string(),
    fte_basis: z.string(),
    disclosure_control: z.string(),
    confidence_interval_method: z.string(),
  })
  .strict();
export type Methodology = z.infer<typeof Methodology>;

/** private/keyed/index.json: everything /specialties needs, plus lookups. */
export const KeyedIndex = z
  .object({
    data_as_of: isoDay,
    synthetic: z.boolean(),
    methodology: Methodology,
    states: z.array(z.object({ code: z.string().length(2), name: z.string(), slug: z.string(), region: z.enum(REGIONS) }).strict()),
    specialties: z.array(
      z
        .object({
          slug: z.string(),
          name: z.string(),
          aliases: z.array(z.string()),
          sample_size: count,
          states_with_data: count,
          publishable: z.boolean(),
          sufficient: z.boolean(),
          bls_available: z.boolean(),
          bls_soc_code: z.string().nullable(),
        })
        .strict(),
    ),
  })
  .strict();
export type KeyedIndex = z.infer<typeof KeyedIndex>;

export const keyedPaths = {
  index: () => 'private/keyed/index.json',
  specialty: (slug: string) => `private/keyed/benchmarks/${slug}.json`,
  reports: (slug: string) => `private/keyed/reports/${slug}.json`,
};

export const GEO_NATIONAL = 'US';
export const geoRegion = (region: string) => `R:${region}`;
export const geoState = (code: string) => `S:${code}`;
export const cellKey = (geo: string, setting: string | null, employment: string | null) => `${geo}|${setting ?? '*'}|${employment ?? '*'}`;

/**
 * The open data feeds (B) and the tool server's structured results (C): one zod schema per document.
 * The build validates every file it writes against these; the server and the tool server serve exactly
 * these documents; JSON Schema for the public tree is generated from them.
 */
import { z } from 'zod';
import { EMPLOYMENT_TYPES, PRACTICE_SETTINGS, REGIONS } from './vocab.ts';
import { ReleaseId } from './release-id.ts';
import { OfferComponents } from './offer-figures.ts';

export const LICENSE = 'CC BY 4.0' as const;
export const LICENSE_URL = 'https://creativecommons.org/licenses/by/4.0/' as const;

const money = z.number().nullable();
const count = z.number().int().nonnegative();
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const url = z.string().url();

/** Fields present in every document of B (spec "Fields present in every response of B"), plus ours. */
export const CommonFields = {
  n: count.nullable().describe('approved reports behind the figures, perturbed: moved by up to 2 (the same reports always give the same n), never across the floor, 15 or 25; null when withheld and for pay scales. No count below a floor follows by subtracting published counts'),
  as_of: isoDay.describe('submission date of the newest report included (an index: the newest as_of of its published entries), or the date a pay scale was checked. Withheld figures never date themselves by their own reports: a withheld specialty in a state and a withheld $/wRVU take the as_of of their specialty nationally when that is published, anything else withheld the fixed date 1970-01-01'),
  citation_url: url.describe('public page showing the same figures'),
  methodology_url: url,
  license: z.literal(LICENSE),
  license_url: z.literal(LICENSE_URL),
  attribution: z.string().describe('ready-made attribution line (the citation shape of the spec, with the release and its URL in the parentheses: "(data as of <as_of>; release <release>, <release_url>; accessed <date>)")'),
  notice: z.string().optional().describe('present only when figures are withheld; states why'),
  title: z.string(),
  publisher: z.string(),
  feed_url: url.describe('this document'),
  synthetic: z.boolean().describe('true when the data is the synthetic demo dataset, not real reports'),
  release: ReleaseId.describe('the release in which this document last changed (data/api/v1/releases.json lists the releases and what each changed); a document that did not change keeps its release, so its ETag stays'),
  modified: isoDay.describe('the date of `release`: when this document\'s figures last changed (as_of only dates the newest report behind them: figures also move when reports elsewhere change the outlier fences, or when the headline years move on)'),
  release_url: url.optional().describe('this document as published in `release`, at a URL that keeps serving the same bytes for as long as the operator keeps that release (data/api/v1/releases/<release>/...): cite it. Absent from comparisons, which are derived on request'),
};

/**
 * The basis of a document's headline figures: which reports they count (headline.ts). Every document with
 * figures from reports carries it; the by_year rows count every year on the same full-time basis.
 */
export const HeadlineBasis = z
  .object({
    compensation_years: z
      .object({ from: z.number().int(), to: z.number().int() })
      .strict()
      .describe('the compensation years counted, inclusive: the most recent complete years (the year of the newest submission is still being reported and is not counted)'),
    full_time_equivalent: z.literal(true).describe('pay is on a full-time basis: part-time pay (10-39 hours a week) scaled to 40 hours; reports without hours count as full-time unless their employment type is Part-Time (W-2), which is left out; hours outside 10-100 are left out'),
    hours_per_week: z.literal(40).describe('the full-time week the pay is scaled to'),
    description: z.string().describe('the same, in a sentence'),
  })
  .strict();
export type HeadlineBasis = z.infer<typeof HeadlineBasis>;
const BasisField = { basis: HeadlineBasis.describe('which reports the headline figures count: compensation years and the full-time basis') };

/** Percentile summary of one cell after outlier exclusion. Withheld: every figure null and n null. */
export const OpenSummary = z
  .object({
    n: count.nullable(),
    median: money,
    mean: money,
    p10: money,
    p25: money,
    p75: money,
    p90: money,
    rounded: z.boolean().describe('true when figures come from 24 or fewer reports and are rounded'),
    withheld: z.boolean(),
  })
  .strict();
export type OpenSummary = z.infer<typeof OpenSummary>;

const SpecialtyRef = z.object({ slug: z.string(), name: z.string() }).strict();

/** Cells with fewer reports than this never take part in a ranking (the keyed API's "sufficient"). */
export const RANKING_MIN_N = 15;
const Rank = z.number().int().positive().describe('1 = highest median; ties share a rank (1, 2, 2, 4)');
export const RankingRule = z
  .object({
    min_n: z.literal(RANKING_MIN_N).describe('only cells with at least this many reports are ranked'),
    order: z.string(),
    ties: z.string(),
  })
  .strict();
const StateRef = z.object({ code: z.string().length(2), slug: z.string(), name: z.string(), region: z.enum(REGIONS) }).strict();

export const WrvuSummary = z
  .object({
    n: count.nullable(),
    median: money,
    mean: money,
    p25: money,
    p75: money,
    p10: money,
    p90: money,
    rounded: z.boolean(),
    withheld: z.boolean(),
  })
  .strict();

/** specialties.json */
export const SpecialtiesFeed = z
  .object({
    ...CommonFields,
    ...BasisField,
    count: count,
    specialties: z.array(
      z
        .object({
          slug: z.string(),
          name: z.string(),
          n: count.nullable(),
          median: money,
          p25: money,
          p75: money,
          rounded: z.boolean(),
          withheld: z.boolean(),
          feed_url: url,
          citation_url: url,
        })
        .strict(),
    ),
  })
  .strict();

/** One compensation year of a specialty nationally (floor 5, rounding by n; no mean: means are perturbed sums). */
export const YearRow = z
  .object({
    year: z.number().int().describe('compensation year'),
    n: count.nullable(),
    median: money,
    p25: money,
    p75: money,
    rounded: z.boolean().describe('true when figures come from 24 or fewer reports and are rounded'),
    withheld: z.boolean(),
    partial: z.boolean().describe('the current compensation year, still being reported'),
  })
  .strict();
export type YearRow = z.infer<typeof YearRow>;

/** specialties/{slug}.json: national attending pay. Top-level figures are the national summary. */
export const SpecialtyFeed = z
  .object({
    ...CommonFields,
    ...BasisField,
    ...OpenSummary.shape,
    specialty: SpecialtyRef,
    scope: z.literal('national'),
    states_with_data: count.describe('states where this specialty has published figures in the open data (n >= states_with_data_min_n)'),
    states_with_data_min_n: z.literal(3).describe('the floor behind states_with_data: the open data\'s specialty-in-state floor (the keyed API counts with its own floor, 5, and says so in its same-named field)'),
    top_states: z.array(
      z.object({ rank: Rank, state: StateRef, n: count, median: z.number(), rounded: z.boolean(), feed_url: url, citation_url: url }).strict(),
    ).describe('up to 10 states by median, among states with at least 15 reports'),
    ranking: RankingRule,
    practice_settings: z.array(z.object({ practice_setting: z.enum(PRACTICE_SETTINGS), ...OpenSummary.shape }).strict()),
    wrvu: WrvuSummary.extend({ feed_url: url }).strict(),
    by_year: z.array(YearRow).describe('national figures by compensation year, oldest first, every year from the first to the last of the open data (gaps are withheld rows)'),
    components: OfferComponents.describe('the rest of the offer nationally: call pay, one-time payments, CME money, weeks off, call nights, pay models with their $/wRVU conversion rates, non-competes and partnership tracks'),
  })
  .strict();

/** specialties/{slug}/states/{state}.json: one specialty in one state (floor 3). */
export const SpecialtyStateFeed = z
  .object({
    ...CommonFields,
    ...BasisField,
    ...OpenSummary.shape,
    specialty: SpecialtyRef,
    state: StateRef,
    scope: z.literal('state'),
    national_median: money,
    difference_from_national_pct: z.number().nullable(),
  })
  .strict();

export const CostOfLiving = z.object({ index: z.number().nullable(), source: z.string().nullable(), year: z.number().int().nullable(), basis: z.string() }).strict();

/** states.json */
export const StatesFeed = z
  .object({
    ...CommonFields,
    ...BasisField,
    count: count,
    states: z.array(
      z
        .object({
          state: StateRef,
          n: count.nullable(),
          median: money,
          rounded: z.boolean(),
          withheld: z.boolean(),
          cost_of_living_index: z.number().nullable().describe('kept; the same as cost_of_living.index'),
          cost_of_living: CostOfLiving,
          feed_url: url,
          citation_url: url,
        })
        .strict(),
    ),
  })
  .strict();


/** states/{state}.json: all specialties in one state. */
export const StateFeed = z
  .object({
    ...CommonFields,
    ...BasisField,
    ...OpenSummary.shape,
    state: StateRef,
    scope: z.literal('state'),
    cost_of_living: CostOfLiving,
    cost_of_living_index: z.number().nullable().describe('the same as cost_of_living.index (as in states.json)'),
    col_adjusted_median: money.describe('median divided by the cost-of-living index / 100'),
    ranking: RankingRule,
    top_specialties: z.array(
      z
        .object({
          rank: Rank,
          specialty: SpecialtyRef,
          n: count,
          median: z.number(),
          rounded: z.boolean(),
          national_median: money,
          difference_from_national_pct: z.number().nullable(),
          feed_url: url,
          citation_url: url,
        })
        .strict(),
    ),
    specialties_with_data: count,
  })
  .strict();

/** wrvu/{slug}.json: total compensation per wRVU. */
export const WrvuFeed = z
  .object({
    ...CommonFields,
    ...BasisField,
    ...WrvuSummary.shape,
    specialty: SpecialtyRef,
    scope: z.literal('national'),
    unit: z.literal('USD per wRVU'),
  })
  .strict();

const PgyStep = z.object({ pgy: z.number().int().min(1).max(10), salary: z.number() }).strict();

export const InstitutionRef = z
  .object({ slug: z.string(), name: z.string(), city: z.string(), state: StateRef })
  .strict();

/** residency/institutions/{slug}.json: one teaching hospital's published PGY scale. */
export const InstitutionFeed = z
  .object({
    ...CommonFields,
    institution: InstitutionRef,
    academic_year: z.string(),
    source_url: url.describe('where the hospital publishes its scale'),
    pgy_scale: z.array(PgyStep).min(1),
    pgy1_salary: z.number(),
    cost_of_living: CostOfLiving,
    cost_of_living_index: z.number().nullable().describe('the same as cost_of_living.index (as in the institutions list)'),
    pgy1_col_adjusted: z.number().nullable(),
    rank_position: z.number().int().positive().nullable().describe('the same as rank.position (the institutions list\'s integer rank)'),
    rank_of: z.number().int().positive().nullable().describe('the same as rank.of'),
    rank: z
      .object({ position: z.number().int().positive(), of: z.number().int().positive(), basis: z.string(), academic_year: z.string() })
      .strict()
      .nullable()
      .describe('among the scales of the same academic year only; ties share a position'),
    state_rank: z.object({ position: z.number().int().positive(), of: z.number().int().positive(), academic_year: z.string() }).strict().nullable(),
  })
  .strict();

/** residency/institutions.json: every teaching hospital, ranked by cost-of-living-adjusted PGY-1 pay. */
export const InstitutionsFeed = z
  .object({
    ...CommonFields,
    count: count,
    institutions: z.array(
      z
        .object({
          institution: InstitutionRef,
          academic_year: z.string(),
          pgy1_salary: z.number(),
          pgy1_col_adjusted: z.number().nullable(),
          rank: z.number().int().positive().nullable().describe('kept for v1 (an integer here, an object in a hospital\'s own document): the same as rank_position'),
          rank_position: z.number().int().positive().nullable().describe('among the scales of the same academic_year only; ties share a rank'),
          rank_of: z.number().int().positive().nullable().describe('how many scales of that academic year are ranked'),
          cost_of_living_index: z.number().nullable(),
          levels: z.number().int().positive(),
          feed_url: url,
          citation_url: url,
        })
        .strict(),
    ),
  })
  .strict();

/** The document get_specialty_pay returns: a specialty nationally, or in one state. */
export const SpecialtyPayDocument = z.union([SpecialtyFeed, SpecialtyStateFeed]);

/**
 * compare/{a}/{b}.json and compare/{a}/{b}/states/{state}.json: two specialties' documents side by side and
 * the difference of their medians. Derived on request from the two published documents of the same build
 * (not written by the build: there are too many pairs); the tool server's compare_specialties returns it.
 */
export const ComparisonFeed = z
  .object({
    ...CommonFields,
    ...BasisField,
    n: count.nullable().describe('reports behind both medians (the sum of both n); null when either is withheld'),
    as_of: isoDay.describe('the newer as_of of the two documents'),
    scope: z.enum(['national', 'state']),
    state: StateRef.nullable(),
    specialty_a: SpecialtyPayDocument,
    specialty_b: SpecialtyPayDocument,
    comparison: z
      .object({
        median_difference: z.number().nullable().describe('specialty_a median minus specialty_b median (null when either is withheld)'),
        median_difference_pct: z.number().nullable().describe('difference as a percent of specialty_b median, one decimal'),
        higher: z.string().nullable().describe('slug of the specialty with the higher median (null when equal or withheld)'),
      })
      .strict(),
  })
  .strict();

/**
 * residency/states/{state}.json: the teaching hospitals of one state, newest academic year first, each year
 * ranked by cost-of-living-adjusted PGY-1 pay (the state_rank of each hospital's own document).
 */
export const StateInstitutionsFeed = z
  .object({
    ...CommonFields,
    state: StateRef,
    count: count,
    institutions: z.array(
      z
        .object({
          institution: InstitutionRef,
          academic_year: z.string(),
          pgy1_salary: z.number(),
          pgy1_col_adjusted: z.number().nullable(),
          rank: z.number().int().positive().nullable().describe('national rank among the scales of the same academic year (as in residency/institutions.json)'),
          rank_position: z.number().int().positive().nullable().describe('the same as rank'),
          rank_of: z.number().int().positive().nullable(),
          cost_of_living_index: z.number().nullable(),
          state_rank: z.number().int().positive().nullable().describe('among this state\'s scales of the same academic year; ties share a rank'),
          state_rank_of: z.number().int().positive().nullable(),
          levels: z.number().int().positive(),
          feed_url: url,
          citation_url: url,
        })
        .strict(),
    ),
  })
  .strict();

/**
 * residency/pgy/{n}.json (n = 2 and up; PGY-1 is residency/institutions.json): resident pay at one postgraduate year across teaching hospitals: every hospital
 * whose published scale has PGY-n, its salary adjusted for cost of living like PGY-1, national and state
 * rank among the scales of the same academic year. A hospital whose scale ends earlier is not listed
 * (`without_level` counts them): its pay at that level is not published, never 0.
 */
export const ResidencyLevelFeed = z
  .object({
    ...CommonFields,
    pgy: z.number().int().min(2).max(10).describe('the postgraduate year of this document (PGY-1 is residency/institutions.json)'),
    max_pgy: z.number().int().min(2).max(10).describe('the highest PGY level any published scale has: residency/pgy/2.json to residency/pgy/{max_pgy}.json exist'),
    count: count.describe('teaching hospitals whose scale has this level (listed)'),
    without_level: count.describe('teaching hospitals whose published scale ends before this level: not listed (their pay at this level is not published, never 0)'),
    rank_basis: z.string(),
    institutions: z.array(
      z
        .object({
          institution: InstitutionRef,
          academic_year: z.string(),
          salary: z.number().describe('the published annual salary at this PGY level'),
          col_adjusted: z.number().nullable().describe('salary divided by the state cost-of-living index / 100, whole dollars (as pgy1_col_adjusted); null without an index'),
          cost_of_living_index: z.number().nullable(),
          rank_position: z.number().int().positive().nullable().describe('national rank of col_adjusted among the scales of the same academic_year with this level; ties share a rank'),
          rank_of: z.number().int().positive().nullable().describe('how many scales of that academic year with this level are ranked'),
          state_rank: z.number().int().positive().nullable().describe('rank among the same state\'s scales of that academic year with this level'),
          state_rank_of: z.number().int().positive().nullable(),
          levels: z.number().int().positive().describe('how many PGY levels the hospital\'s scale has'),
          feed_url: url.describe('the hospital\'s own document (its whole scale)'),
          citation_url: url.describe('the hospital\'s page'),
        })
        .strict(),
    ),
  })
  .strict();

export const FEED_SCHEMAS = {
  specialties: SpecialtiesFeed,
  specialty: SpecialtyFeed,
  specialtyState: SpecialtyStateFeed,
  states: StatesFeed,
  state: StateFeed,
  wrvu: WrvuFeed,
  institutions: InstitutionsFeed,
  institution: InstitutionFeed,
  stateInstitutions: StateInstitutionsFeed,
  residencyLevel: ResidencyLevelFeed,
  comparison: ComparisonFeed,
} as const;
export type FeedKind = keyof typeof FEED_SCHEMAS;

export type SpecialtiesFeed = z.infer<typeof SpecialtiesFeed>;
export type SpecialtyFeed = z.infer<typeof SpecialtyFeed>;
export type SpecialtyStateFeed = z.infer<typeof SpecialtyStateFeed>;
export type StatesFeed = z.infer<typeof StatesFeed>;
export type StateFeed = z.infer<typeof StateFeed>;
export type WrvuFeed = z.infer<typeof WrvuFeed>;
export type InstitutionFeed = z.infer<typeof InstitutionFeed>;
export type InstitutionsFeed = z.infer<typeof InstitutionsFeed>;
export type StateInstitutionsFeed = z.infer<typeof StateInstitutionsFeed>;
export type ComparisonFeed = z.infer<typeof ComparisonFeed>;
export type ResidencyLevelFeed = z.infer<typeof ResidencyLevelFeed>;
export type SpecialtyPayDocument = z.infer<typeof SpecialtyPayDocument>;

/** Paths of the public tree (relative to the build's public/ folder). */
export const feedPaths = {
  specialties: () => 'data/api/v1/specialties.json',
  specialty: (slug: string) => `data/api/v1/specialties/${slug}.json`,
  specialtyState: (slug: string, stateSlug: string) => `data/api/v1/specialties/${slug}/states/${stateSlug}.json`,
  states: () => 'data/api/v1/states.json',
  state: (stateSlug: string) => `data/api/v1/states/${stateSlug}.json`,
  wrvu: (slug: string) => `data/api/v1/wrvu/${slug}.json`,
  institutions: () => 'data/api/v1/residency/institutions.json',
  institution: (slug: string) => `data/api/v1/residency/institutions/${slug}.json`,
  stateInstitutions: (stateSlug: string) => `data/api/v1/residency/states/${stateSlug}.json`,
  residencyLevel: (pgy: number) => `data/api/v1/residency/pgy/${pgy}.json`,
  /** derived on request by the server (not a file of the build) */
  comparison: (a: string, b: string, stateSlug?: string) => `data/api/v1/compare/${a}/${b}${stateSlug ? `/states/${stateSlug}` : ''}.json`,
};

/** Public HTML pages (citation targets). */
export const pagePaths = {
  specialty: (slug: string) => `/salaries/${slug}`,
  specialtyState: (slug: string, stateSlug: string) => `/salaries/${slug}/${stateSlug}`,
  state: (stateSlug: string) => `/states/${stateSlug}`,
  institution: (slug: string) => `/residency/${slug}`,
  /** a state's teaching hospitals: a section of the state page */
  stateInstitutions: (stateSlug: string) => `/states/${stateSlug}`,
  /** derived on request by the server, like its feed */
  comparison: (a: string, b: string, stateSlug?: string) => `/compare/${a}/${b}${stateSlug ? `/${stateSlug}` : ''}`,
  specialtiesIndex: () => '/salaries',
  statesIndex: () => '/states',
  institutionsIndex: () => '/residency',
  /** one PGY level across teaching hospitals: PGY-1's is the residency index */
  residencyLevel: (pgy: number) => (pgy === 1 ? '/residency' : `/residency/pgy/${pgy}`),
  /** one state's teaching hospitals at every PGY level */
  residencyLevelsState: (stateSlug: string) => `/residency/levels/${stateSlug}`,
  methodology: () => '/methodology',
  license: () => '/license',
};

/**
 * What every published figure of the open data means: one definition per figure (population, what n counts,
 * rounding and disclosure noise, unit). The one source of these words: the build serves them as
 * data/api/v1/definitions.json, the data package's field descriptions and the feeds' JSON Schema/OpenAPI
 * descriptions quote them, and the methodology page shows them as a table. Pure data.
 */
import { z } from 'zod';
import { FLOORS, ROUNDING_MAX_N } from '../compute/stats.ts';

export const DEFINITIONS_PATH = 'data/api/v1/definitions.json';

export const FigureDefinition = z
  .object({
    figure: z.string().describe('the field name, as in the feeds and CSVs'),
    title: z.string(),
    population: z.string().describe('which reports (or scales) the figure counts: years, full-time basis, outliers'),
    n: z.string().describe('what its n counts'),
    rounding: z.string(),
    noise: z.string().describe('how the disclosure control moves it'),
    unit: z.string(),
  })
  .strict();
export type FigureDefinition = z.infer<typeof FigureDefinition>;

export const DefinitionsDocument = z
  .object({
    title: z.string(),
    methodology_url: z.string().url(),
    definitions: z.array(FigureDefinition),
  })
  .strict();
export type DefinitionsDocument = z.infer<typeof DefinitionsDocument>;

/** The headline population, in words (headline.ts). */
export const HEADLINE_POPULATION = 'Approved reports of the most recent complete compensation years (by default the 3 years before the year of the newest submission; each document\'s basis names them), on a full-time basis (part-time pay of 10-39 hours a week x 40 / hours; reports without hours as reported unless Part-Time (W-2), which is left out; hours outside 10-100 left out), outliers left out (outside the Tukey fences of the specialty\'s national full-time pay, every year)';
const N_REPORTS = `the approved reports behind the figure after outlier exclusion, perturbed by up to 2 (never across the floor, ${FLOORS.tails} or ${ROUNDING_MAX_N + 1}); null when withheld (below ${FLOORS.national} nationally and per state, ${FLOORS.specialtyInState} for a specialty in a state)`;
const MONEY_ROUNDING = `whole dollars; nearest $1,000 when the figure comes from ${ROUNDING_MAX_N} reports or fewer`;
const PERCENTILE_NOISE = 'each report\'s pay carries its permanent secret factor; the percentile is then moved by a small deterministic draw of its cell (the same reports always give the same figure), and the quartiles\' spread is corrected for what the factors add';
const USD_YEAR = 'US dollars per year';

const percentile = (figure: string, p: string, extra = ''): FigureDefinition => ({
  figure, title: `${p} of total compensation`, population: HEADLINE_POPULATION, n: N_REPORTS, rounding: MONEY_ROUNDING,
  noise: PERCENTILE_NOISE + extra, unit: USD_YEAR,
});

/** Every figure the open feeds and CSVs publish, in the order the methodology page lists them. */
export const FIGURE_DEFINITIONS: readonly FigureDefinition[] = [
  percentile('median', 'Median (50th percentile, type 7)'),
  percentile('p25', '25th percentile (type 7)'),
  percentile('p75', '75th percentile (type 7)'),
  percentile('p10', '10th percentile (type 7)', `; published from ${FLOORS.tails} reports`),
  percentile('p90', '90th percentile (type 7)', `; published from ${FLOORS.tails} reports`),
  {
    figure: 'mean', title: 'Mean total compensation', population: `${HEADLINE_POPULATION}. Outliers are left out, not winsorized`,
    n: N_REPORTS, rounding: MONEY_ROUNDING,
    noise: 'the sum of the distorted pay divided by the factors\' average, moved by a draw of at most 0.75 / n of itself', unit: USD_YEAR,
  },
  {
    figure: 'n', title: 'Reports used', population: HEADLINE_POPULATION, n: N_REPORTS, rounding: 'a whole number',
    noise: 'moved by up to 2 by its cell\'s own draw, never across a threshold that decides what is shown, so subtracting counts never gives the count of a withheld group', unit: 'reports',
  },
  {
    figure: 'by_year', title: 'A specialty\'s figures by compensation year (n, median, P25, P75)',
    population: 'Approved reports of that compensation year, every year (not only the headline years), on the same full-time basis, outliers left out as for the headline; the year of the newest submission is marked partial',
    n: `the reports of that year, perturbed as every n; a year below ${FLOORS.national} reports is withheld (a gap)`, rounding: MONEY_ROUNDING,
    noise: `${PERCENTILE_NOISE}; no mean (a mean is a sum, and per-year sums beside the national one would subtract)`, unit: USD_YEAR,
  },
  {
    figure: 'wrvu', title: 'Total compensation per wRVU (median, mean, percentiles)',
    population: `Reports of the headline years that give annual wRVUs, total compensation / wRVUs as reported (the full-time basis scales both), outliers left out against the specialty's own $/wRVU fences`,
    n: 'the reports giving wRVUs behind the figure, perturbed as every n', rounding: `cents; nearest $1 when from ${ROUNDING_MAX_N} reports or fewer`,
    noise: PERCENTILE_NOISE, unit: 'US dollars per wRVU',
  },
  {
    figure: 'components', title: 'The rest of the offer: how common each component is and its size (share with it, n_with, P25, median, P75; weeks off, call nights, pay models and $/wRVU, non-compete, partnership track)',
    population: `The reports of the specialty's headline figures nationally (the same compensation years, full-time basis population and outliers) that answered each question; 0 is an answer (none). Amounts, weeks and nights as reported, not scaled to full time`,
    n: `answered: the reports that answered the question; n_with: those that have the item (above 0), behind its quartiles; n: those behind weeks off, call nights (those who take call) or a pay model's $/wRVU; each perturbed like every n, null below ${FLOORS.national} (an item with fewer than ${FLOORS.national} is withheld)`,
    rounding: `money: whole dollars, nearest $1,000 from ${ROUNDING_MAX_N} reports or fewer; $/wRVU: cents, nearest $1 from ${ROUNDING_MAX_N} or fewer; miles: whole, nearest 5 from ${ROUNDING_MAX_N} or fewer; weeks, nights and years: half units; shares: one decimal`,
    noise: `money amounts and $/wRVU rates carry each report's permanent secret factor; every quartile and median is moved by a draw of its own cell and column, like every percentile; shares are computed from perturbed counts, a count below ${FLOORS.national} counting as ${FLOORS.national / 2}, so a share never tells how many of fewer than ${FLOORS.national} reports have an item or lack it`,
    unit: 'per item: US dollars a year (call pay, CME), once (sign-on, retention, relocation) or in all (loan repayment); weeks a year; nights a month; US dollars per wRVU; miles; years; shares in percent',
  },
  {
    figure: 'national_median', title: 'The specialty\'s national median, beside a state\'s figures', population: HEADLINE_POPULATION,
    n: 'the national n of the specialty document', rounding: MONEY_ROUNDING, noise: 'the published national median itself (no further noise)', unit: USD_YEAR,
  },
  {
    figure: 'difference_from_national_pct', title: 'A state median\'s difference from the national median',
    population: 'Computed from the two published medians only', n: 'none (see each median\'s n)', rounding: 'one decimal',
    noise: 'none of its own: the difference of two perturbed medians', unit: 'percent of the national median',
  },
  {
    figure: 'col_adjusted_median', title: 'A state\'s median adjusted for cost of living', population: `${HEADLINE_POPULATION}; all specialties of the state`,
    n: 'the state document\'s n', rounding: MONEY_ROUNDING, noise: 'the state\'s perturbed median divided by the state\'s cost-of-living index / 100', unit: USD_YEAR,
  },
  {
    figure: 'pgy_salary', title: 'Resident salary by PGY level (pgy_scale, pgyN_salary)',
    population: 'The pay scale a teaching hospital publishes for one academic year, as checked on its as_of date: not reports', n: 'none (published scales: n is null)',
    rounding: 'as published', noise: 'none (published by the hospital)', unit: USD_YEAR,
  },
  {
    figure: 'pgy1_col_adjusted', title: 'PGY-1 salary adjusted for cost of living, and its rank', population: 'The hospital\'s published PGY-1 salary divided by its state\'s cost-of-living index / 100; ranked only among scales of the same academic year (1 = highest, ties share a rank)',
    n: 'none', rounding: 'whole dollars', noise: 'none', unit: USD_YEAR,
  },
  {
    figure: 'col_adjusted', title: 'Resident salary at one PGY level adjusted for cost of living, and its rank (residency/pgy/{n}.json)', population: 'The hospital\'s published salary at that PGY level divided by its state\'s cost-of-living index / 100, as for PGY-1; ranked only among scales of the same academic year that have the level (1 = highest, ties share a rank); a hospital whose scale ends before the level has no figure (not 0)',
    n: 'none', rounding: 'whole dollars', noise: 'none', unit: USD_YEAR,
  },
];

/** definitions.json (pure). */
export function definitionsDocument(baseUrl: string, publisher: string): DefinitionsDocument {
  return { title: `${publisher} open data: what every figure means`, methodology_url: `${baseUrl}/methodology#definitions`, definitions: [...FIGURE_DEFINITIONS] };
}

/** One figure's definition (throws for a figure without one: a test keeps every published field defined). */
export function definitionOf(figure: string): FigureDefinition {
  const d = FIGURE_DEFINITIONS.find((x) => x.figure === figure);
  if (!d) throw new Error(`no definition of ${figure}`);
  return d;
}

/** A definition in one line (JSON Schema / OpenAPI / data package descriptions). */
export function definitionText(figure: string): string {
  const d = definitionOf(figure);
  return `${d.title} (${d.unit}). Population: ${d.population}. n: ${d.n}. Rounding: ${d.rounding}. Disclosure noise: ${d.noise}.`;
}

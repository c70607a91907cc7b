/**
 * The whole offer as the open data publishes it (one specialty nationally): the `components` section of
 * specialties/{slug}.json, its page, its CSV and the offer check. build/compute/offer-figures.ts computes it.
 */
import { z } from 'zod';
import { COMPENSATION_MODEL_VALUES, MONEY_COMPONENT_FIELDS } from './offer-terms.ts';

const count = z.number().int().nonnegative();
const pct = z.number().min(0).max(100);
const figure = z.number().nonnegative().nullable();

const shareField = pct.nullable().describe(
  'percent of the reports answering the question that have it (one decimal). Each of the two counts behind it is perturbed like n; a count below 5 counts as 2.5, so a share never tells how many of fewer than 5 reports have it or lack it. Null when fewer than 5 reports answered',
);
const answeredField = count.nullable().describe('reports that answered the question (0 counts as an answer: none), perturbed like n; null below 5');
const withField = count.nullable().describe('reports that have it (above 0), perturbed like n; null below 5, and then so are its figures');

/** One money component: how common it is, and its quartiles among those who have it. */
export const MoneyComponentFigures = z
  .object({
    component: z.enum(MONEY_COMPONENT_FIELDS as [string, ...string[]]),
    label: z.string(),
    unit: z.string().describe('USD a year, USD once, or USD in all (loan repayment over the contract)'),
    kind: z.enum(['yearly', 'one_time']),
    answered: answeredField,
    share_with_pct: shareField,
    n_with: withField,
    p25: figure.describe('25th percentile (type 7) among reports that have it; USD as reported (not scaled to full time), rounded like every money figure (to $1,000 from 24 reports or fewer)'),
    median: figure.describe('median among reports that have it; USD, rounded like p25'),
    p75: figure.describe('75th percentile among reports that have it; USD, rounded like p25'),
    rounded: z.boolean(),
    withheld: z.boolean().describe('true when fewer than 5 reports have it: quartiles null'),
  })
  .strict();
export type MoneyComponentFigures = z.infer<typeof MoneyComponentFigures>;

/** Quartiles of a quantity that is not money (weeks off, call nights). */
export const QuantityFigures = z
  .object({
    unit: z.string(),
    n: count.nullable().describe('reports behind the quartiles, perturbed like n; null below 5'),
    p25: figure.describe('25th percentile (type 7), in `unit`, to half units; null when withheld'),
    median: figure.describe('median, in `unit`, to half units'),
    p75: figure.describe('75th percentile, in `unit`, to half units'),
    withheld: z.boolean(),
  })
  .strict();
export type QuantityFigures = z.infer<typeof QuantityFigures>;

export const ModelFigures = z
  .object({
    model: z.enum(COMPENSATION_MODEL_VALUES),
    label: z.string(),
    description: z.string(),
    share_pct: pct.nullable().describe('percent of the reports naming a pay model that name this one (counts perturbed; below 5 counted as 2.5)'),
    conversion_rate: z
      .object({
        n: count.nullable(),
        median: figure.describe("median of the contracts' $/wRVU conversion rates (USD per wRVU; to $1 from 24 reports or fewer, else cents)"),
        withheld: z.boolean(),
      })
      .strict(),
  })
  .strict();

/** A contract term that a report has or not (0 = none), with the median of its size among those who have it. */
export const TermFigures = z
  .object({
    answered: answeredField,
    share_with_pct: shareField,
    n_with: withField,
    withheld: z.boolean(),
  })
  .strict();

export const OfferComponents = z
  .object({
    description: z.string().describe('what the section counts, in a sentence'),
    money: z.array(MoneyComponentFigures).describe('every money component, in a fixed order'),
    pto_weeks: QuantityFigures.describe('weeks of paid time off a year'),
    call_nights_per_month: QuantityFigures.describe('nights of call a month, among reports that take call (above 0)'),
    compensation_models: z
      .object({ answered: answeredField, models: z.array(ModelFigures) })
      .strict(),
    non_compete: TermFigures.extend({
      median_miles: figure.describe('median radius in miles among contracts with a non-compete'),
      median_years: figure.describe('median length in years among contracts with a non-compete'),
    }).strict(),
    partnership_track: TermFigures.extend({
      median_years: figure.describe('median years to partnership among contracts with a partnership track'),
    }).strict(),
  })
  .strict();
export type OfferComponents = z.infer<typeof OfferComponents>;

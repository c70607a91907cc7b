/**
 * evaluate_offer: the offer check (build/compute/offer-check.ts) of a whole job offer against the published
 * documents of its specialty (and state), the same answer as the keyed API's /api/v1/offer-check with
 * `detail: "full"`; by default its summary (offer-summary.ts), under 8 kB however many parts the offer gives.
 */
import { z } from 'zod';
import { evaluateOffer, OfferInputError } from '../../../build/compute/offer-check.ts';
import { OFFER_NUMBER_FIELDS, OfferCheck, offerNumberSchema, type Offer, type OfferNumberField } from '../../../build/contract/offer-check.ts';
import { COMPENSATION_MODEL_VALUES } from '../../../build/contract/offer-terms.ts';
import { DEFAULT_CONTRACT_YEARS } from '../../../build/contract/offer-check.ts';
import { FTE_HOURS } from '../../../build/compute/stats.ts';
import { MIN_ANNUAL_PAY } from '../../../build/contract/annual-pay.ts';
import { offerDocuments } from '../../open-data/offer-documents.ts';
import { resolveEntity, ToolInputError } from '../lookup.ts';
import { offerText } from '../offer-text.ts';
import { offerSummary } from '../offer-summary.ts';
import { toolArgs } from '../schemas.ts';
import { defineTool } from '../tool-definition.ts';
import { feedLinks } from '../resources/links.ts';
import { PAY_CHART_TOOL_META } from '../apps/index.ts';
import { specialtyArg, stateArg } from './get-specialty-pay.ts';
import { detailArg } from '../detail.ts';

/**
 * The tool's short word on each number (tools/list's weight; the keyed API's OpenAPI keeps the long ones):
 * the limits are OFFER_NUMBERS' own, in the schema.
 */
const SHORT: Record<OfferNumberField, string> = {
  base_salary: `USD a year; with bonus and call pay at least ${MIN_ANNUAL_PAY} (420000, not 420 or hourly)`,
  bonus: 'USD a year', call_pay: 'USD a year', cme_allowance: 'USD a year',
  signing_bonus: 'USD once', retention_bonus: 'USD once', relocation: 'USD once', loan_repayment: 'USD in all',
  loan_repayment_years: 'default: contract_years', contract_years: `one-time payments are spread over it (default ${DEFAULT_CONTRACT_YEARS})`,
  hours_per_week: `under ${FTE_HOURS}: pay scaled to ${FTE_HOURS} hours`, wrvus: 'a year: gives pay per wRVU', wrvu_conversion_rate: 'USD per wRVU',
  pto_weeks: 'weeks off a year', call_nights_per_month: '0 = no call', non_compete_miles: '0 = none', non_compete_years: 'years', partnership_track_years: '0 = no track',
};

const numbers = Object.fromEntries(OFFER_NUMBER_FIELDS.map((f) => {
  const t = offerNumberSchema(f).describe(SHORT[f]);
  return [f, f === 'base_salary' ? t : t.optional()];
})) as { base_salary: z.ZodNumber } & Record<Exclude<OfferNumberField, 'base_salary'>, z.ZodOptional<z.ZodNumber>>;

export const evaluateOfferTool = defineTool({
  name: 'evaluate_offer',
  title: 'Check a whole job offer',
  description: 'Check a whole physician job offer against its specialty\'s published figures (the state\'s when published, else national, saying which): where the total (base + bonus + call pay; full-time equivalent with hours_per_week) falls among the percentiles; each money component\'s band and published median (P25/P75 with detail "full"); weeks off, call nights, non-compete and partnership track; first-year and steady-state value (one-time payments over contract_years); pay per wRVU with wrvus; what most offers include that this one lacks. Pools all experience levels.',
  inputSchema: toolArgs('evaluate_offer', {
    specialty: specialtyArg,
    state: stateArg,
    ...numbers,
    compensation_model: z.enum(COMPENSATION_MODEL_VALUES).optional().describe('Pay model'),
    detail: detailArg,
  }),
  outputSchema: OfferCheck,
  listed: { keep: ['specialty', 'scope_used', 'total_compensation', 'position', 'components', 'terms', 'value', 'productivity', 'missing', 'state_source', 'truncated'], see: 'the OfferCheck of /api/v1/openapi.json (the answer of /api/v1/offer-check)' },
  meta: PAY_CHART_TOOL_META,
  work: (args, build, day) => {
    const sp = resolveEntity(build, 'specialty', args.specialty);
    const st = args.state === undefined || args.state.trim() === '' ? null : resolveEntity(build, 'state', args.state);
    const offer = { specialty: sp.slug, base_salary: args.base_salary } as Offer;
    for (const f of OFFER_NUMBER_FIELDS) if (args[f] !== undefined) offer[f] = args[f];
    if (args.compensation_model !== undefined) offer.compensation_model = args.compensation_model;
    if (st) offer.state = st.name;
    let a: OfferCheck;
    try {
      a = evaluateOffer(offer, offerDocuments(build, day, sp, st));
    } catch (err) {
      if (err instanceof OfferInputError) throw new ToolInputError(`${err.message}.`);
      throw err;
    }
    // the full answer links the state's feed too; the summary names it in state_source (its weight: README, "Weight")
    const links = feedLinks(build, a);
    if (args.detail === 'full') return { text: offerText(a, a), structured: a, links: [...links, ...(a.state_source ? feedLinks(build, a.state_source).slice(0, 1) : [])] };
    const { answer, left_out } = offerSummary(a);
    const out = { ...answer, truncated: true as const, page: { left_out, next: { ...args, detail: 'full' } } };
    return { text: offerText(answer, a, { left_out }), structured: out, links };
  },
});

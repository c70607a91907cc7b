/**
 * evaluate_offer: the offer check (build/compute/offer-check.ts) of a whole job offer against the published
 * documents of its specialty (and state), the same answer as the keyed API's /api/v1/offer-check.
 */
import { z } from 'zod';
import { evaluateOffer, OfferInputError } from '../../../build/compute/offer-check.ts';
import { OFFER_NUMBER_FIELDS, OfferCheck, offerNumberSchema, type Offer, type OfferNumberField } from '../../../build/contract/offer-check.ts';
import { COMPENSATION_MODELS, COMPENSATION_MODEL_VALUES } from '../../../build/contract/offer-terms.ts';
import { offerDocuments } from '../../open-data/offer-documents.ts';
import { resolveEntity, ToolInputError } from '../lookup.ts';
import { offerText } from '../offer-text.ts';
import { toolArgs } from '../schemas.ts';
import { defineTool } from '../tool-definition.ts';
import { feedLinks } from '../resources/links.ts';
import { PAY_CHART_TOOL_META } from '../apps/index.ts';
import { specialtyArg, stateArg } from './get-specialty-pay.ts';

const numbers = Object.fromEntries(OFFER_NUMBER_FIELDS.map((f) => [f, f === 'base_salary' ? offerNumberSchema(f) : offerNumberSchema(f).optional()])) as
  { base_salary: z.ZodNumber } & Record<Exclude<OfferNumberField, 'base_salary'>, z.ZodOptional<z.ZodNumber>>;

export const evaluateOfferTool = defineTool({
  name: 'evaluate_offer',
  title: 'Check a whole job offer',
  description: 'Check a whole physician job offer against the published figures of its specialty, nationally or in a state: where the total (base salary + bonus + call pay; the full-time equivalent when hours_per_week is given) falls among the published percentiles (the state\'s when published, else national, saying which); each money component (call pay, sign-on and retention bonus, relocation, loan repayment, CME allowance) against its published P25/median/P75; weeks off, call nights, non-compete and partnership track against theirs; the first-year and steady-state values (one-time payments spread over contract_years, default 3); the implied total pay per wRVU when wrvus are given, against the specialty\'s $/wRVU and the pay model\'s median conversion rate; and what most offers in the specialty include that this one leaves out. Published figures only, never individual reports, pooling all experience levels (no breakdown by years in practice is published). Quote n, as_of and the attribution (and the state figures\' attribution when given).',
  inputSchema: toolArgs('evaluate_offer', {
    specialty: specialtyArg,
    state: stateArg,
    ...numbers,
    compensation_model: z.enum(COMPENSATION_MODEL_VALUES).optional().describe(`Optional pay model: ${COMPENSATION_MODELS.map((m) => `${m.value} (${m.label})`).join(', ')}`),
  }),
  outputSchema: OfferCheck,
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
    return { text: offerText(a), structured: a, links: [...feedLinks(build, a), ...(a.state_source ? feedLinks(build, a.state_source).slice(0, 1) : [])] };
  },
});

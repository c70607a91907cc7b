/**
 * GET /api/v1/offer-check?specialty&base_salary[&state][&bonus][&call_pay]...[&compensation_model]: where each
 * part of a job offer falls among the open data's PUBLISHED figures (build/compute/offer-check.ts), the same
 * answer the tool server's evaluate_offer gives. Every plan; counted like /percentile-rank. The figures are
 * the open documents (specialties/{slug}.json and, with a state, specialties/{slug}/states/{state}.json) as
 * served today, not the keyed cells: the components and their quartiles are published there only.
 */
import type { OfferCheckResponse } from '../../../build/contract/keyed-api.ts';
import { OFFER_NUMBER_FIELDS, OFFER_NUMBERS, type Offer, type OfferNumberField } from '../../../build/contract/offer-check.ts';
import { COMPENSATION_MODEL_VALUES, compensationModelOf } from '../../../build/contract/offer-terms.ts';
import { evaluateOffer, offerIssue } from '../../../build/compute/offer-check.ts';
import { FLOORS } from '../../../build/compute/stats.ts';
import { utcDay } from '../../http/clock.ts';
import { offerDocuments } from '../../open-data/offer-documents.ts';
import { rateLimitMeta, type Answer, type KeyedLocals } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { allowOnly, parseSpecialty, parseState, single, type Query } from '../params.ts';

export const OFFER_CHECK_PARAMS = ['specialty', 'state', ...OFFER_NUMBER_FIELDS, 'compensation_model'] as const;

const fmt = (v: number) => v.toLocaleString('en-US');

/** One number of the offer, or undefined when not given; 400s say what is valid. */
export function parseOfferNumber(query: Query, field: OfferNumberField): number | undefined {
  const raw = single(query, field);
  if (raw === undefined) {
    if (field === 'base_salary') throw badRequest('parameter base_salary is required: the base salary offered, in dollars a year, e.g. 300000');
    return undefined;
  }
  const s = OFFER_NUMBERS[field];
  const like = s.money ? 'a number of dollars such as 25000 or 25000.50' : s.int ? 'a whole number such as 3' : 'a number such as 5 or 2.5';
  if (!/^\d{1,9}(\.\d+)?$/.test(raw)) throw badRequest(`${field} must be ${like}, without commas${s.money ? ' or a currency sign' : ''} (got "${raw.slice(0, 40)}")`);
  if (s.int && raw.includes('.')) throw badRequest(`${field} must be a whole number (got ${raw})`);
  if (s.money && /\.\d{3,}$/.test(raw)) throw badRequest(`${field} is in dollars and cents: at most two decimals (got ${raw})`);
  const v = Number(raw);
  if ((s.above ? v <= s.min : v < s.min) || v > s.max) {
    throw badRequest(`${field} must be ${s.above ? `more than ${fmt(s.min)}` : `at least ${fmt(s.min)}`} and at most ${fmt(s.max)} (got ${raw})`);
  }
  return v;
}

export async function offerCheckRoute(query: Query, l: KeyedLocals): Promise<Answer> {
  const build = l.build!;
  allowOnly(query, OFFER_CHECK_PARAMS);
  const specialty = parseSpecialty(query, build.keyedIndex, build.resolver);
  const st = parseState(query, build.keyedIndex, build.resolver);
  const offer = { specialty: specialty.slug } as Offer;
  for (const f of OFFER_NUMBER_FIELDS) {
    const v = parseOfferNumber(query, f);
    if (v !== undefined) offer[f] = v;
  }
  const model = single(query, 'compensation_model');
  if (model !== undefined) {
    const m = compensationModelOf(model);
    if (!m) throw badRequest(`compensation_model must be one of: ${COMPENSATION_MODEL_VALUES.join(', ')} (got "${model.slice(0, 40)}")`);
    offer.compensation_model = m;
  }
  const issue = offerIssue(offer);
  if (issue !== null) throw badRequest(issue);
  const state = st === null ? null : build.resolver.resolve('state', st.name);
  if (state !== null && !state.found) throw badRequest(`unknown state "${st!.name}"`); // parseState found it in the same index
  if (st) offer.state = st.name;
  const docs = offerDocuments(build, utcDay(l.now!), specialty, state === null ? null : state.entity);
  if (docs.specialty.withheld) {
    throw notFound(`insufficient data: the published figures of ${specialty.name} are withheld (fewer than ${FLOORS.national} approved reports nationally), so there is nothing to compare the offer with`);
  }
  const body: OfferCheckResponse = {
    data: evaluateOffer(offer, docs),
    meta: { request_id: l.requestId, rate_limit: rateLimitMeta(l) },
  };
  return { body, cacheControl: 'private, max-age=3600' };
}

/**
 * The offer check (pure): where each part of a job offer falls among the PUBLISHED figures of its specialty,
 * and what the offer is worth in its first year and in a steady year. Nothing here sees a report: the
 * answer is a function of the offer and of the open documents (specialties/{slug}.json with its components
 * section, and specialties/{slug}/states/{state}.json when the offer names a state), exactly as published.
 *
 * - The total (base salary + bonus + call pay: what a report's total compensation counts) is placed among the
 *   state's published percentiles when the state's document is published and not withheld, else among the
 *   national ones, and the answer says which (scope_used, scope_note). With hours_per_week the placed amount
 *   is the full-time-equivalent total (the published figures are on a full-time basis).
 * - Each money component against its published P25 / median / P75 among reports that have it; weeks off and
 *   call nights against their quartiles; the non-compete and partnership track against their medians.
 * - First-year and steady-state values (DEFAULT_CONTRACT_YEARS, FIRST_YEAR_ONE_TIME in the contract).
 * - The implied total pay per wRVU against the specialty's published $/wRVU and the pay model's median
 *   conversion rate.
 * - What is missing: components most reports in the specialty have (MISSING_SHARE_PCT) that the offer leaves out.
 *
 * Used by the keyed API (/api/v1/offer-check), the tool server (evaluate_offer) and the specialty pages' form
 * (OFFER_CHECK_JS in build/pages/offer-check-form.ts, a port of offerCheckCore tested against it).
 */
import {
  DEFAULT_CONTRACT_YEARS, FIRST_YEAR_ONE_TIME, MISSING_SHARE_PCT, NO_MEDIAN, NO_RANGE, OFFER_NUMBER_FIELDS, OFFER_NUMBERS,
  type Offer, type OfferCheck, type OfferCheckCore, type QuartileBand,
} from '../contract/offer-check.ts';
import type { OfferComponents } from '../contract/offer-figures.ts';
import { annualPayIssue } from '../contract/annual-pay.ts';
import { COMPENSATION_MODEL_VALUES, MONEY_COMPONENTS, NO_OFFER_TERMS, offerTermsIssue, type MoneyComponent, type OfferTerms } from '../contract/offer-terms.ts';
import type { SpecialtyFeed, SpecialtyStateFeed } from '../contract/open-feeds.ts';
import { payPosition, payPositionMethod, standardGrid } from './pay-position.ts';
import { FLOORS, FTE_HOURS, fteNormalize } from './stats.ts';

/** A document's percentile summary (the open feeds' top-level figures). */
export interface HeadlineFigures {
  n: number | null;
  p10: number | null;
  p25: number | null;
  median: number | null;
  p75: number | null;
  p90: number | null;
  rounded: boolean;
  withheld: boolean;
}

/** Everything the core reads: a trimmed view of the published documents (the page embeds the same). */
export interface OfferFigures {
  specialty: { slug: string; name: string };
  national: HeadlineFigures;
  /** the state the offer names, with its figures when a document is published for the pair (null: none) */
  state: { slug: string; name: string; figures: HeadlineFigures | null } | null;
  wrvu: { n: number | null; p10: number | null; p25: number | null; median: number | null; p75: number | null; p90: number | null; withheld: boolean };
  components: OfferComponents;
}

/** The open documents an offer is checked against. */
export interface OfferDocuments {
  specialty: SpecialtyFeed;
  /** when the offer names a state: the state, and its specialty-in-state document when one is published */
  state?: { slug: string; name: string; document: SpecialtyStateFeed | null } | null;
}

/** An offer the check cannot take: a number out of range, or values that contradict each other. */
export class OfferInputError extends Error {}

const round2 = (v: number) => Math.round(v * 100) / 100;
const pctDiff = (v: number, of: number) => Math.round(((v - of) / of) * 1000) / 10;

/** Where `x` falls against a published P25 / median / P75 (NO_RANGE when any of them is withheld). */
export function quartileBand(x: number, p25: number | null, median: number | null, p75: number | null): QuartileBand | typeof NO_RANGE {
  if (p25 === null || median === null || p75 === null) return NO_RANGE;
  if (x < p25) return 'below P25';
  if (x < median) return 'P25-median';
  if (x <= p75) return 'median-P75';
  return 'above P75';
}

/** A size against a published median. */
export function medianSide(x: number, median: number | null): 'below the median' | 'at the median' | 'above the median' | typeof NO_MEDIAN {
  if (median === null) return NO_MEDIAN;
  if (x < median) return 'below the median';
  if (x === median) return 'at the median';
  return 'above the median';
}

/** What a component is called where the offer lacks it ("no CME allowance"). */
export const MISSING_NOUN: Record<MoneyComponent | 'partnership_track', string> = {
  call_pay: 'call pay', signing_bonus: 'sign-on bonus', retention_bonus: 'retention bonus', relocation: 'relocation money',
  loan_repayment: 'loan repayment', cme_allowance: 'CME allowance', partnership_track: 'partnership track',
};

const PART_LABEL: Record<string, string> = { base_salary: 'Base salary', bonus: 'Bonus' };

/**
 * Why the offer cannot be checked (null when it can): a number outside its limits (OFFER_NUMBERS), an unknown
 * pay model, a total (base salary + bonus + call pay) that is not a year's pay (annualPayIssue: 420 for
 * $420k, an hourly rate), or values that contradict each other (the reports' own rule, offerTermsIssue).
 */
export function offerIssue(offer: Offer): string | null {
  for (const f of OFFER_NUMBER_FIELDS) {
    const v = offer[f];
    if (v === undefined) {
      if (f === 'base_salary') return 'base_salary is required';
      continue;
    }
    const s = OFFER_NUMBERS[f];
    if (typeof v !== 'number' || !Number.isFinite(v) || (s.above ? v <= s.min : v < s.min) || v > s.max || (s.int && !Number.isInteger(v))) {
      return `${f} must be ${s.int ? 'a whole number' : 'a number'} ${s.above ? 'above' : 'from'} ${s.min} ${s.above ? 'and at most' : 'to'} ${s.max}`;
    }
  }
  if (offer.compensation_model !== undefined && !COMPENSATION_MODEL_VALUES.includes(offer.compensation_model)) {
    return `compensation_model must be one of: ${COMPENSATION_MODEL_VALUES.join(', ')}`;
  }
  // the total is placed among published annual totals: it must be a year's pay (420 for $420k is not)
  const total = offer.base_salary + (offer.bonus ?? 0) + (offer.call_pay ?? 0);
  const pay = annualPayIssue(total);
  if (pay !== null) return `${offer.bonus === undefined && offer.call_pay === undefined ? `base_salary ${offer.base_salary}` : `base_salary + bonus + call_pay (${round2(total)})`} ${pay}`;
  const terms: OfferTerms = { ...NO_OFFER_TERMS };
  for (const k of Object.keys(terms) as (keyof OfferTerms)[]) {
    const v = offer[k as keyof Offer];
    if (v !== undefined) (terms as unknown as Record<string, unknown>)[k] = v;
  }
  return offerTermsIssue(terms, total);
}

/** The trimmed figures of the documents (what the core reads). */
export function offerFiguresOf(d: OfferDocuments): OfferFigures {
  const head = (x: HeadlineFigures): HeadlineFigures => ({ n: x.n, p10: x.p10, p25: x.p25, median: x.median, p75: x.p75, p90: x.p90, rounded: x.rounded, withheld: x.withheld });
  const s = d.specialty;
  return {
    specialty: { slug: s.specialty.slug, name: s.specialty.name },
    national: head(s),
    state: d.state ? { slug: d.state.slug, name: d.state.name, figures: d.state.document ? head(d.state.document) : null } : null,
    wrvu: { n: s.wrvu.n, p10: s.wrvu.p10, p25: s.wrvu.p25, median: s.wrvu.median, p75: s.wrvu.p75, p90: s.wrvu.p90, withheld: s.wrvu.withheld },
    components: s.components,
  };
}

const gridOf = (h: HeadlineFigures) => standardGrid({ p10: h.p10, p25: h.p25, p50: h.median, p75: h.p75, p90: h.p90 });
const usable = (h: HeadlineFigures | null): h is HeadlineFigures => h !== null && !h.withheld && gridOf(h).length >= 2;

/**
 * The answer from the trimmed figures (pure; the page's script is a port of this function). The offer's
 * numbers must pass offerIssue (evaluateOffer checks).
 */
export function offerCheckCore(offer: Offer, f: OfferFigures): OfferCheckCore {
  const given = (k: (typeof OFFER_NUMBER_FIELDS)[number]): number | null => (offer[k] === undefined ? null : offer[k]!);
  const echo = {} as OfferCheckCore['offer'];
  for (const k of OFFER_NUMBER_FIELDS) (echo as Record<string, number | null>)[k] = given(k);
  echo.base_salary = offer.base_salary;
  echo.compensation_model = offer.compensation_model ?? null;

  const total = round2(echo.base_salary + (echo.bonus ?? 0) + (echo.call_pay ?? 0));
  const fte = echo.hours_per_week === null ? null : round2(fteNormalize(total, echo.hours_per_week)!);

  // The scope: the state's published percentiles, else the national ones (saying why).
  const sp = f.specialty.name;
  let scope: 'state' | 'national' = 'national';
  let used = f.national;
  let stateClause: string | null = null;
  if (f.state !== null) {
    const sf = f.state.figures;
    if (usable(sf)) {
      scope = 'state';
      used = sf;
    } else if (sf === null) stateClause = `no figures are published for ${sp} in ${f.state.name} (no approved reports there)`;
    else stateClause = `the figures for ${sp} in ${f.state.name} are withheld (fewer than ${FLOORS.specialtyInState} reports)`;
  }
  let note: string | null = null;
  let position: OfferCheckCore['position'] = null;
  if (scope === 'national' && !usable(f.national)) {
    note = `${stateClause === null ? 'The' : `${stateClause.charAt(0).toUpperCase()}${stateClause.slice(1)}, and the`} national figures for ${sp} are withheld (fewer than ${FLOORS.national} reports): no position can be given.`;
  } else {
    if (stateClause !== null) note = `${stateClause.charAt(0).toUpperCase()}${stateClause.slice(1)}: the national figures are used.`;
    const grid = gridOf(used);
    const value = fte === null ? total : fte;
    position = {
      scope,
      compared: fte === null ? 'total_compensation' : 'fte_total_compensation',
      value,
      n: used.n,
      rounded: used.rounded,
      ...payPosition(grid, value),
      percentiles: { p10: used.p10, p25: used.p25, median: used.median, p75: used.p75, p90: used.p90 },
      method: payPositionMethod(grid),
    };
  }

  // Each money component against its published quartiles.
  const components = f.components.money.map((c) => {
    const amount = given(c.component as MoneyComponent);
    return {
      component: c.component as MoneyComponent, label: c.label, kind: c.kind, unit: c.unit, amount,
      band: amount === null || amount <= 0 ? null : quartileBand(amount, c.p25, c.median, c.p75),
      share_with_pct: c.share_with_pct, p25: c.p25, median: c.median, p75: c.p75, withheld: c.withheld,
    };
  });

  // Time off, call, non-compete, partnership track.
  const C = f.components;
  const pto = echo.pto_weeks;
  const nights = echo.call_nights_per_month;
  const miles = echo.non_compete_miles;
  const ncYears = echo.non_compete_years;
  const hasNonCompete = miles !== null && miles > 0;
  const track = echo.partnership_track_years;
  const terms: OfferCheckCore['terms'] = {
    pto_weeks: {
      value: pto, band: pto === null ? null : quartileBand(pto, C.pto_weeks.p25, C.pto_weeks.median, C.pto_weeks.p75),
      unit: C.pto_weeks.unit, p25: C.pto_weeks.p25, median: C.pto_weeks.median, p75: C.pto_weeks.p75, withheld: C.pto_weeks.withheld,
    },
    call_nights_per_month: {
      value: nights,
      band: nights === null || nights <= 0 ? null : quartileBand(nights, C.call_nights_per_month.p25, C.call_nights_per_month.median, C.call_nights_per_month.p75),
      unit: C.call_nights_per_month.unit, p25: C.call_nights_per_month.p25, median: C.call_nights_per_month.median, p75: C.call_nights_per_month.p75,
      withheld: C.call_nights_per_month.withheld,
    },
    non_compete: {
      miles, years: ncYears, share_with_pct: C.non_compete.share_with_pct, median_miles: C.non_compete.median_miles, median_years: C.non_compete.median_years,
      miles_vs_median: hasNonCompete ? medianSide(miles, C.non_compete.median_miles) : null,
      years_vs_median: hasNonCompete && ncYears !== null ? medianSide(ncYears, C.non_compete.median_years) : null,
    },
    partnership_track: {
      years: track, share_with_pct: C.partnership_track.share_with_pct, median_years: C.partnership_track.median_years,
      years_vs_median: track !== null && track > 0 ? medianSide(track, C.partnership_track.median_years) : null,
    },
  };

  // The first-year and steady-state values.
  const contractYears = echo.contract_years === null ? DEFAULT_CONTRACT_YEARS : echo.contract_years;
  const loanYears = echo.loan_repayment !== null && echo.loan_repayment > 0 ? (echo.loan_repayment_years === null ? contractYears : echo.loan_repayment_years) : null;
  const parts: OfferCheckCore['value']['parts'] = [{ part: 'base_salary', label: PART_LABEL.base_salary!, kind: 'yearly', amount: echo.base_salary, first_year: echo.base_salary, per_year: echo.base_salary }];
  if (echo.bonus !== null && echo.bonus > 0) parts.push({ part: 'bonus', label: PART_LABEL.bonus!, kind: 'yearly', amount: echo.bonus, first_year: echo.bonus, per_year: echo.bonus });
  for (const c of MONEY_COMPONENTS) {
    const amount = given(c.field);
    if (amount === null || amount <= 0) continue;
    if (c.kind === 'yearly') parts.push({ part: c.field, label: c.label, kind: 'yearly', amount, first_year: amount, per_year: amount });
    else if (c.field === 'loan_repayment') {
      const each = round2(amount / loanYears!);
      parts.push({ part: c.field, label: c.label, kind: 'one_time', amount, first_year: each, per_year: each });
    } else {
      parts.push({ part: c.field, label: c.label, kind: 'one_time', amount, first_year: FIRST_YEAR_ONE_TIME.includes(c.field) ? amount : 0, per_year: round2(amount / contractYears) });
    }
  }
  let yearly = 0;
  let oneTime = 0;
  let firstYear = 0;
  let steady = 0;
  for (const p of parts) {
    if (p.kind === 'yearly') yearly += p.amount;
    else oneTime += p.amount;
    firstYear += p.first_year;
    steady += p.per_year;
  }

  // Pay per wRVU and the pay model.
  const wrvus = echo.wrvus;
  const implied = wrvus === null ? null : round2(total / wrvus);
  const W = f.wrvu;
  const wgrid = standardGrid({ p10: W.p10, p25: W.p25, p50: W.median, p75: W.p75, p90: W.p90 });
  const model = echo.compensation_model === null ? null : C.compensation_models.models.find((m) => m.model === echo.compensation_model) ?? null;
  const rate = model === null ? null : model.conversion_rate.median;
  const conversion = echo.wrvu_conversion_rate;

  // What most offers have and this one leaves out.
  const missing: OfferCheckCore['missing'] = [];
  const lacks = (key: MoneyComponent | 'partnership_track', label: string, amount: number | null, share: number | null) => {
    if ((amount === null || amount <= 0) && share !== null && share >= MISSING_SHARE_PCT) {
      missing.push({ component: key, label, share_with_pct: share, text: `no ${MISSING_NOUN[key]}, which ${share}% of the reports that answered have` });
    }
  };
  for (const c of components) lacks(c.component, c.label, c.amount, c.share_with_pct);
  lacks('partnership_track', 'Partnership track', track, C.partnership_track.share_with_pct);

  return {
    specialty: { slug: f.specialty.slug, name: f.specialty.name },
    state_asked: f.state === null ? null : { slug: f.state.slug, name: f.state.name },
    scope_used: scope,
    scope_note: note,
    offer: echo,
    total_compensation: total,
    fte_total_compensation: fte,
    position,
    components,
    terms,
    value: {
      contract_years: contractYears,
      contract_years_assumed: echo.contract_years === null,
      loan_repayment_years: loanYears,
      yearly: round2(yearly),
      one_time: round2(oneTime),
      first_year: round2(firstYear),
      steady_state_yearly: round2(steady),
      parts,
    },
    productivity: {
      wrvus,
      implied_per_wrvu: implied,
      specialty_per_wrvu: {
        n: W.n,
        percentiles: { p10: W.p10, p25: W.p25, median: W.median, p75: W.p75, p90: W.p90 },
        withheld: W.withheld,
        position: implied !== null && !W.withheld && wgrid.length >= 2 ? payPosition(wgrid, implied) : null,
      },
      compensation_model: model === null ? null : { model: model.model, label: model.label, share_pct: model.share_pct, median_conversion_rate: rate },
      implied_vs_model_median_pct: implied !== null && rate !== null && rate !== undefined ? pctDiff(implied, rate) : null,
      conversion_rate: conversion,
      conversion_rate_vs_model_median_pct: conversion !== null && rate !== null && rate !== undefined ? pctDiff(conversion, rate) : null,
    },
    missing,
    rules: { default_contract_years: DEFAULT_CONTRACT_YEARS, missing_share_pct: MISSING_SHARE_PCT, first_year_one_time: [...FIRST_YEAR_ONE_TIME], fte_hours: FTE_HOURS },
  };
}

/**
 * The offer check of `offer` against the published documents `docs`: the core, with the specialty feed's
 * own fields (n, as_of, attribution, ...: most figures of the answer are that feed's) and, when the state's
 * percentiles placed the total, the state document's citation. Throws OfferInputError on an offer that
 * offerIssue refuses.
 */
export function evaluateOffer(offer: Offer, docs: OfferDocuments): OfferCheck {
  const issue = offerIssue(offer);
  if (issue !== null) throw new OfferInputError(issue);
  const core = offerCheckCore(offer, offerFiguresOf(docs));
  const s = docs.specialty;
  const sd = core.scope_used === 'state' ? docs.state!.document! : null;
  return {
    n: s.n, as_of: s.as_of, citation_url: s.citation_url, methodology_url: s.methodology_url, license: s.license, license_url: s.license_url,
    attribution: s.attribution, ...(s.notice !== undefined ? { notice: s.notice } : {}), title: s.title, publisher: s.publisher, feed_url: s.feed_url,
    synthetic: s.synthetic, release: s.release, modified: s.modified, ...(s.release_url !== undefined ? { release_url: s.release_url } : {}),
    basis: s.basis,
    experience_levels: 'all',
    state_source: sd === null ? null : {
      title: sd.title, feed_url: sd.feed_url, citation_url: sd.citation_url, attribution: sd.attribution, n: sd.n, as_of: sd.as_of, release: sd.release,
      ...(sd.release_url !== undefined ? { release_url: sd.release_url } : {}),
    },
    ...core,
  };
}

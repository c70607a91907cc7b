/**
 * The whole offer's open figures of one cell (pure): for each money component, how many of the reports that
 * answered have it and its quartiles among those who do; weeks off and call nights as quartiles; the share
 * of each pay model and its median $/wRVU conversion rate; the share with a non-compete (median radius and
 * years) and with a partnership track (median years).
 *
 * Every figure follows the open data's rules (README: Disclosure control): a floor on the reports behind it
 * (5), the record factors already applied to money values and conversion rates when the build read them, the
 * cell key method on each figure (its own column of draws), perturbed counts, and shares from perturbed
 * counts where a count below the floor counts as half the floor. The figures themselves come from
 * offer-core.ts, which the keyed API's (keyed-offer.ts) share; this file rounds them the open data's way.
 */
import { COMPENSATION_MODELS, MONEY_COMPONENTS } from '../contract/offer-terms.ts';
import type { OfferComponents, QuantityFigures } from '../contract/offer-figures.ts';
import type { Dataset } from './dataset.ts';
import { half, offerParts, type QuantityParts } from './offer-core.ts';

export { OFFER_SMALL_SPAN, offerQuantileMoveBound, offerQuartiles, SMALL_COUNT_STAND_IN } from './offer-core.ts';
import { FLOORS, ROUNDING_MAX_N, roundMoney, roundPct, roundRate } from './stats.ts';

export const OFFER_DESCRIPTION =
  'The rest of the offer, from the reports that answered each question (the same reports and compensation years as the headline figures; amounts as reported, not scaled to full time). A share is of the reports answering that question; quartiles and medians are among the reports that have the item.';

/** Miles: whole miles from 25 reports, else to 5 miles. */
const roundMiles = (v: number, n: number) => (n <= ROUNDING_MAX_N ? Math.round(v / 5) * 5 : Math.round(v));

const pct = (v: number | null) => (v === null ? null : roundPct(v));

/** Quartiles of a quantity (weeks, nights), to half units. */
function quantityFigures(q: QuantityParts, unit: string): QuantityFigures {
  if (q.grid === null) return { unit, n: null, p25: null, median: null, p75: null, withheld: true };
  return { unit, n: q.n, p25: half(q.grid.p25), median: half(q.grid.p50), p75: half(q.grid.p75), withheld: false };
}

/**
 * The components section of the reports `idx` (a specialty's headline reports nationally). An empty `idx`
 * (a withheld specialty) gives every figure null.
 */
export function offerFigures(ds: Dataset, idx: readonly number[], floor: number = FLOORS.national): OfferComponents {
  const p = offerParts({ src: { offer: ds.reports.offer, keyLo: ds.reports.keyLo, keyHi: ds.reports.keyHi, drawKey: ds.drawKey }, floor, thresholds: [floor, FLOORS.tails, ROUNDING_MAX_N + 1] }, idx);
  const nc = p.non_compete;
  const pt = p.partnership_track;
  return {
    description: OFFER_DESCRIPTION,
    money: MONEY_COMPONENTS.map((c, k) => {
      const m = p.money[k]!;
      const n = m.exactWith;
      const base = {
        component: c.field, label: c.label, unit: c.unit, kind: c.kind,
        answered: m.answered, share_with_pct: pct(m.share_with_pct), n_with: m.n_with,
      };
      if (m.grid === null) return { ...base, p25: null, median: null, p75: null, rounded: false, withheld: true };
      return { ...base, p25: roundMoney(m.grid.p25, n), median: roundMoney(m.grid.p50, n), p75: roundMoney(m.grid.p75, n), rounded: n <= ROUNDING_MAX_N, withheld: false };
    }),
    pto_weeks: quantityFigures(p.pto_weeks, 'weeks a year'),
    call_nights_per_month: quantityFigures(p.call_nights_per_month, 'nights a month'),
    compensation_models: {
      answered: p.compensation_models.answered,
      models: COMPENSATION_MODELS.map((m, k) => {
        const row = p.compensation_models.models[k]!;
        return {
          model: m.value, label: m.label, description: m.description,
          share_pct: pct(row.share_pct),
          conversion_rate: row.rate.p50 === null
            ? { n: null, median: null, withheld: true }
            : { n: row.rate.n, median: roundRate(row.rate.p50, row.rate.exactN), withheld: false },
        };
      }),
    },
    non_compete: {
      answered: nc.answered, share_with_pct: pct(nc.share_with_pct), n_with: nc.n_with,
      withheld: nc.exactWith < floor,
      median_miles: nc.miles.p50 === null ? null : roundMiles(nc.miles.p50, nc.miles.exactN),
      median_years: nc.years.p50 === null ? null : half(nc.years.p50),
    },
    partnership_track: {
      answered: pt.answered, share_with_pct: pct(pt.share_with_pct), n_with: pt.n_with,
      withheld: pt.exactWith < floor,
      median_years: pt.years.p50 === null ? null : half(pt.years.p50),
    },
  };
}

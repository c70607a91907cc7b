/**
 * The whole offer in the keyed API (pure): the figures of a cell's reports from offer-core.ts (the open data's
 * own subsets, draw columns and share rule, so one set of reports gives one figure in both interfaces where
 * their rounding agrees), rounded the keyed API's way (whole dollars, $/wRVU in cents, weeks, nights and years
 * to halves, whole miles; counts in the keyed classes [5, 15] like every keyed count), packed for the
 * artifact (keyed-artifacts.ts: KeyedOfferPacked), and unpacked by the server into `components`.
 */
import { COMPENSATION_MODELS, MONEY_COMPONENTS, OFFER_FIGURE_COLUMNS } from '../contract/offer-terms.ts';
import type { KeyedOfferPacked, KeyedReportsArtifact } from '../contract/keyed-artifacts.ts';
import type { KeyedOfferComponents } from '../contract/keyed-api.ts';
import { answersAny, half, offerParts, type OfferFigureColumns, type OfferSource, type QuantityParts } from './offer-core.ts';
import { roundPct } from './stats.ts';

/** The keyed API's floor and count classes (keyed.ts: MIN_SAMPLE, SUFFICIENT_SAMPLE). */
const FLOOR = 5;
const THRESHOLDS = [5, 15] as const;

const whole = (v: number) => Math.round(v);
const cents = (v: number) => Math.round(v * 100) / 100;
const r = (v: number | null | undefined, round: (v: number) => number) => (v === null || v === undefined ? null : round(v));

/** A group's figures with its trailing nulls left out; null when all are null. */
function trim(xs: (number | null)[]): (number | null)[] | null {
  let end = xs.length;
  while (end > 0 && xs[end - 1] === null) end--;
  return end === 0 ? null : xs.slice(0, end);
}

const quantity = (q: QuantityParts) => trim([q.n, r(q.grid?.p25, half), r(q.grid?.p50, half), r(q.grid?.p75, half)]);

/**
 * The whole-offer figures of the reports `idx` of `src`, rounded and packed; null when every figure is null
 * (fewer than 5 reports answered each question).
 */
export function keyedOfferPacked(src: OfferSource, idx: ArrayLike<number>): KeyedOfferPacked | null {
  // fewer than 5 reports answering anything: every figure is null (no count, no share, no quartile)
  const any = answersAny(src.offer);
  let answering = 0;
  for (let k = 0; k < idx.length && answering < FLOOR; k++) answering += any[idx[k]!]!;
  if (answering < FLOOR) return null;
  const p = offerParts({ src, floor: FLOOR, thresholds: THRESHOLDS }, idx);
  const m = p.compensation_models;
  const nc = p.non_compete;
  const pt = p.partnership_track;
  const packed: KeyedOfferPacked = [
    ...p.money.map((c) => trim([c.answered, r(c.share_with_pct, roundPct), c.n_with, r(c.grid?.p25, whole), r(c.grid?.p50, whole), r(c.grid?.p75, whole)])),
    quantity(p.pto_weeks),
    quantity(p.call_nights_per_month),
    trim([m.answered, ...m.models.flatMap((row) => [r(row.share_pct, roundPct), row.rate.n, r(row.rate.p50, cents)])]),
    trim([nc.answered, r(nc.share_with_pct, roundPct), nc.n_with, r(nc.miles.p50, whole), r(nc.years.p50, half)]),
    trim([pt.answered, r(pt.share_with_pct, roundPct), pt.n_with, r(pt.years.p50, half)]),
  ] as KeyedOfferPacked;
  return packed.every((g) => g === null) ? null : packed;
}

/** The API's whole-offer components from a cell's packed figures (null or absent: every figure null). */
export function unpackKeyedOffer(packed: KeyedOfferPacked | null | undefined): KeyedOfferComponents {
  const at = (g: number, k: number): number | null => packed?.[g]?.[k] ?? null;
  const money = (g: number) => ({ answered: at(g, 0), share_with_pct: at(g, 1), n_with: at(g, 2), p25: at(g, 3), p50: at(g, 4), p75: at(g, 5) });
  const quantity = (g: number) => ({ n: at(g, 0), p25: at(g, 1), p50: at(g, 2), p75: at(g, 3) });
  const [callPay, signing, retention, relocation, loan, cme] = MONEY_COMPONENTS.map((_, g) => money(g));
  return {
    call_pay: callPay!, signing_bonus: signing!, retention_bonus: retention!, relocation: relocation!, loan_repayment: loan!, cme_allowance: cme!,
    pto_weeks: quantity(6),
    call_nights_per_month: quantity(7),
    compensation_models: {
      answered: at(8, 0),
      models: COMPENSATION_MODELS.map((mo, k) => ({ model: mo.value, share_pct: at(8, 1 + 3 * k), conversion_rate: { n: at(8, 2 + 3 * k), p50: at(8, 3 + 3 * k) } })),
    },
    non_compete: { answered: at(9, 0), share_with_pct: at(9, 1), n_with: at(9, 2), median_miles: at(9, 3), median_years: at(9, 4) },
    partnership_track: { answered: at(10, 0), share_with_pct: at(10, 1), n_with: at(10, 2), median_years: at(10, 3) },
  };
}

type OfferArtifact = NonNullable<KeyedReportsArtifact['offer']>;

/**
 * The offer columns as the per-report artifact holds them: only the reports that answer some whole-offer
 * question (`reports`, their positions), each column one value per listed report (null unknown); nothing
 * (no `offer` key) when no report answers any.
 */
export function offerArtifactColumns(o: OfferFigureColumns, count: number): { offer?: OfferArtifact } {
  const reports: number[] = [];
  for (let i = 0; i < count; i++) {
    if (o.compensation_model[i]! >= 0 || OFFER_FIGURE_COLUMNS.some((c) => !Number.isNaN(o[c][i]!))) reports.push(i);
  }
  if (!reports.length) return {};
  const out = { reports, compensation_model: reports.map((i) => o.compensation_model[i]!) } as OfferArtifact;
  for (const c of OFFER_FIGURE_COLUMNS) out[c] = reports.map((i) => (Number.isNaN(o[c][i]!) ? null : o[c][i]!));
  return { offer: out };
}

/** The offer columns of `count` reports from the artifact's (absent: no report answered any question). */
export function offerColumnsFromArtifact(a: OfferArtifact | undefined, count: number): OfferFigureColumns {
  const out = { compensation_model: new Int8Array(count).fill(-1) } as OfferFigureColumns;
  for (const c of OFFER_FIGURE_COLUMNS) out[c] = new Float64Array(count).fill(NaN);
  if (!a) return out;
  a.reports.forEach((i, k) => {
    out.compensation_model[i] = a.compensation_model[k]!;
    for (const c of OFFER_FIGURE_COLUMNS) out[c][i] = a[c][k] ?? NaN;
  });
  return out;
}

/**
 * The text of an evaluate_offer result, so that a model that reads only the text has what the result holds:
 * with `detail: "full"` every figure of the answer (each with its published range, n and as_of) and both
 * citation lines; by default the summary's figures (offer-summary.ts: each part's band, median and share), the
 * specialty's citation line, the state figures' feed and date, and what the summary leaves out.
 */
import { DEFAULT_CONTRACT_YEARS, MISSING_SHARE_PCT, NO_RANGE, type OfferCheck } from '../../build/contract/offer-check.ts';
import { FLOORS, FTE_HOURS } from '../../build/compute/stats.ts';
import { ALL_EXPERIENCE_TEXT } from '../../build/contract/experience.ts';
import { ordinal } from './text.ts';
import type { OfferAnswer, SummaryComponent, SummaryPerWrvu, SummaryQuantity } from './offer-summary.ts';
import { MONEY_COMPONENTS } from '../../build/contract/offer-terms.ts';

const dollars = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const usd = (v: number | null) => (v === null ? 'withheld' : `$${dollars.format(v)}`);
const num = (v: number | null) => (v === null ? 'withheld' : dollars.format(v));
const plural = (v: number, one: string, many: string) => `${num(v)} ${v === 1 ? one : many}`;
/** The share of the reports answering that have a part: "27.9% have it" */
const shareText = (s: number | null, what = 'it') => (s === null ? `share with ${what} withheld (under ${FLOORS.national} answered)` : `${s}% have ${what}`);
const basisYears = (b: OfferCheck['basis']) => (b.compensation_years.from === b.compensation_years.to ? `compensation year ${b.compensation_years.from}` : `compensation years ${b.compensation_years.from}-${b.compensation_years.to}`);

/** "P25 $17,000, median $23,000, P75 $26,000" */
const quartiles = (q: { p25: number | null; median: number | null; p75: number | null }, f: (v: number | null) => string) =>
  `P25 ${f(q.p25)}, median ${f(q.median)}, P75 ${f(q.p75)}`;

function positionText(p: NonNullable<OfferAnswer['position']>, where: string, method: boolean): string {
  const what = p.compared === 'fte_total_compensation' ? `the full-time-equivalent total of ${usd(p.value)}` : `the total of ${usd(p.value)}`;
  const at = p.percentile !== null
    ? `is at about the ${ordinal(p.percentile)} percentile (band ${p.band}, ${usd(p.band_lower_value)} to ${usd(p.band_upper_value)})`
    : p.band_upper_value !== null
      ? `is ${p.band} (${usd(p.band_upper_value)}, the lowest published percentile): only the band can be given`
      : `is ${p.band} (${usd(p.band_lower_value)}, the highest published percentile): only the band can be given`;
  const pc = p.percentiles;
  const figs = pc.p10 !== null && pc.p90 !== null
    ? `P10 ${usd(pc.p10)}, P25 ${usd(pc.p25)}, median ${usd(pc.median)}, P75 ${usd(pc.p75)}, P90 ${usd(pc.p90)}`
    : `P25 ${usd(pc.p25)}, median ${usd(pc.median)}, P75 ${usd(pc.p75)}; P10, P90 withheld under ${FLOORS.tails} reports`;
  return `Against the published percentiles of ${where} (${figs}; n=${p.n}${p.rounded ? ', rounded to $1,000' : ''}): ${what} ${at}.${method ? ' (Interpolated between published percentiles, never from reports.)' : ''}`;
}

/** What evaluate_offer's summary leaves out (offer-summary.ts): named in the text's last line before the citation. */
export interface OfferCut { left_out: string[] }

/** The published figures of a part: its quartiles, or its median alone in the summary (offer-summary.ts). */
const figures = (q: { p25?: number | null; median: number | null; p75?: number | null }, f: (v: number | null) => string) =>
  (q.p25 === undefined || q.p75 === undefined ? `median ${f(q.median)}` : quartiles({ p25: q.p25, median: q.median, p75: q.p75 }, f));

/** "above P75 (P25 $1, median $2, P75 $3)", or no published range */
const rangeText = (c: SummaryComponent) =>
  (c.band === NO_RANGE ? `no published range (under ${FLOORS.national} reports)` : `${c.band} (${figures(c, usd)})`);
/** "a year", "once", "in all" (the unit without its currency: every amount is in USD) */
const unitOf = (c: SummaryComponent) => (c.unit ?? MONEY_COMPONENTS.find((m) => m.field === c.component)!.unit).replace(/^USD,? /, '');
const withheld = (q: { withheld?: boolean; median: number | null }) => q.withheld ?? q.median === null;

/**
 * The answer in words, the full one or the summary (`cut` names what the summary leaves out); `full` gives the
 * offer as checked and the basis, which the summary leaves to the call's arguments and to the text.
 */
export function offerText(a: OfferAnswer, full: Pick<OfferCheck, 'offer' | 'basis'>, cut: OfferCut | null = null): string {
  const o = full.offer;
  const sp = a.specialty.name;
  const where = a.scope_used === 'state' && a.state_asked ? `${sp} in ${a.state_asked.name}` : `${sp} (United States)`;
  const out: string[] = [];
  out.push(`Offer check for ${sp}${a.state_asked ? ` in ${a.state_asked.name}` : ''}, against published figures from approved self-reported salary reports.`);
  const totalParts = [`base salary ${usd(o.base_salary)}`];
  if (o.bonus !== null) totalParts.push(`bonus ${usd(o.bonus)}`);
  if (o.call_pay !== null) totalParts.push(`call pay ${usd(o.call_pay)}`);
  out.push(`Total compensation ${usd(a.total_compensation)} a year (${totalParts.join(' + ')})${a.fte_total_compensation !== null ? `; full-time equivalent ${usd(a.fte_total_compensation)} (${num(o.hours_per_week)} hours a week on a ${FTE_HOURS}-hour basis)` : ''}.`);
  if (a.scope_note) out.push(a.scope_note);
  if (a.position) out.push(positionText(a.position, where, cut === null));

  const parts = a.components.filter((c) => c.amount !== null && c.amount > 0)
    .map((c) => `${c.label} ${usd(c.amount)} ${unitOf(c)}: ${rangeText(c)}; ${shareText(c.share_with_pct)}.`);
  const absent = a.components.filter((c) => c.amount === null || c.amount <= 0)
    .map((c) => `${c.label}${c.amount === 0 ? ' (none)' : ''}: ${withheld(c) ? 'range withheld' : figures(c, usd)}, ${shareText(c.share_with_pct)}`);
  out.push(`Each part against the reports that have it (shares: of reports answering): ${parts.length ? parts.join(' ') : 'no other money component.'}${absent.length ? ` Not in the offer: ${absent.join('; ')}.` : ''}`);

  const t = a.terms;
  const qty = (label: string, q: SummaryQuantity, none: string, among = '') => {
    const figs = withheld(q) ? `quartiles withheld${among}` : `${figures(q, num)} ${q.unit}${among}`;
    if (q.value === null) return `${label}: not given (published ${figs}).`;
    if (q.band === null) return `${label}: ${none} (published ${figs}).`;
    return `${label} ${num(q.value)}: ${q.band} (${figs}).`;
  };
  if (t.pto_weeks) out.push(qty('Weeks off', t.pto_weeks, 'none'));
  if (t.call_nights_per_month) out.push(qty('Call nights a month', t.call_nights_per_month, 'no call', ', among reports with call'));
  const years = (v: number | null) => (v === null ? 'withheld' : plural(v, 'year', 'years'));
  const nc = t.non_compete;
  if (nc) {
    const ncShare = shareText(nc.share_with_pct, 'a non-compete');
    const medians = `median ${num(nc.median_miles)} miles, ${years(nc.median_years)}`;
    if (nc.miles === null) out.push(`Non-compete: not given; ${ncShare} (${medians}).`);
    else if (nc.miles === 0) out.push(`Non-compete: none; ${ncShare} (${medians}).`);
    else out.push(`Non-compete ${plural(nc.miles, 'mile', 'miles')}${nc.years !== null ? `, ${plural(nc.years, 'year', 'years')}` : ''}: radius ${nc.miles_vs_median} (${num(nc.median_miles)} miles)${nc.years_vs_median ? `, length ${nc.years_vs_median} (${years(nc.median_years)})` : ''}; ${ncShare}.`);
  }
  const pt = t.partnership_track;
  if (pt) {
    const ptShare = shareText(pt.share_with_pct, 'a partnership track');
    out.push(pt.years === null || pt.years <= 0
      ? `Partnership track: ${pt.years === 0 ? 'none' : 'not given'}; ${ptShare} (median ${years(pt.median_years)} to partnership).`
      : `Partnership track in ${plural(pt.years, 'year', 'years')}: ${pt.years_vs_median} (${years(pt.median_years)}); ${ptShare}.`);
  }

  const v = a.value;
  const first = (v.parts ?? []).filter((p) => p.kind === 'one_time').map((p) => (p.first_year === p.amount ? `${p.label.toLowerCase()} ${usd(p.amount)}` : p.first_year === 0 ? `${p.label.toLowerCase()} not counted (paid for staying)` : `${p.label.toLowerCase()} ${usd(p.first_year)} (its first year of ${usd(p.amount)} over ${plural(v.loan_repayment_years!, 'year', 'years')})`));
  out.push(`Value: yearly pay ${usd(v.yearly)}${cut ? '' : ' (base, bonus, call pay, CME allowance)'}; one-time payments ${usd(v.one_time)} in all. First-year value ${usd(v.first_year)}${first.length ? ` (yearly pay + ${first.join(' + ')})` : ''}. Steady-state yearly value ${usd(v.steady_state_yearly)}, one-time payments spread over a ${num(v.contract_years)}-year contract${v.contract_years_assumed ? ` (assumed, default ${DEFAULT_CONTRACT_YEARS})` : ''}${v.loan_repayment_years !== null ? `, loan repayment over ${plural(v.loan_repayment_years, 'year', 'years')}` : ''}.`);

  const pr = a.productivity;
  const w = pr.specialty_per_wrvu;
  const m = pr.compensation_model;
  const vs = (pct: number | null) => (pct === null ? '' : ` ${Math.abs(pct)}% ${pct >= 0 ? 'above' : 'below'}`);
  const modelText = m ? ` Pay model ${m.label} (${m.share_pct === null ? 'share withheld' : `${m.share_pct}% of reports naming one`}): median conversion rate ${m.median_conversion_rate === null ? 'withheld' : `${usd(m.median_conversion_rate)} per wRVU`}.` : '';
  const conv = pr.conversion_rate !== null ? ` The offer's rate ${usd(pr.conversion_rate)} per wRVU${pr.conversion_rate_vs_model_median_pct !== null ? ` is${vs(pr.conversion_rate_vs_model_median_pct)} the model's median` : ''}.` : '';
  if (pr.wrvus === null) {
    out.push(`Productivity: no wRVUs given.${modelText}${conv}`);
  } else {
    const pos = w.position;
    const place = w.withheld || pos === null
      ? 'the specialty\'s total compensation per wRVU is withheld'
      : `${pos.percentile !== null ? `at about the ${ordinal(pos.percentile)} percentile (band ${pos.band})` : `${pos.band}`} of the specialty's published pay per wRVU (${w.percentiles ? figures(w.percentiles, usd) : `median ${usd((w as SummaryPerWrvu).median)}`}; n=${w.n})`;
    const vsModel = pr.implied_vs_model_median_pct !== null ? ` The implied rate is${vs(pr.implied_vs_model_median_pct)} the model's median.` : '';
    out.push(`Productivity: ${num(pr.wrvus)} wRVUs a year imply ${usd(pr.implied_per_wrvu)} of total pay per wRVU, ${place}.${modelText}${vsModel}${conv}`);
  }

  out.push(a.missing.length
    ? `Missing from the offer (at least ${MISSING_SHARE_PCT}% of reports have it): ${a.missing.map((x) => x.text).join('; ')}.`
    : `Missing from the offer: nothing that ${MISSING_SHARE_PCT}% or more of the reports have.`);
  const basis = cut ? `Totals: ${basisYears(full.basis)}, full-time basis (part-time pay scaled to ${FTE_HOURS} hours); component amounts as reported.` : `${full.basis.description} Component amounts are as reported (not scaled to full time).`;
  out.push(`${basis} ${ALL_EXPERIENCE_TEXT} Data as of ${a.as_of}${a.state_source ? ` (${a.state_source.as_of} for the state's figures)` : ''}.${a.notice ? ` ${a.notice}` : ''}${a.synthetic ? ' NOTE: synthetic demo data, not real reports.' : ''}`);
  if (cut) out.push(`Truncated: left out here: ${cut.left_out.join('; ')}. Everything: the same call with "detail": "full".`);
  // the summary's state citation: its feed and date (the whole line is state_source.attribution, and the text's with "detail": "full")
  const stateCite = (s: NonNullable<OfferAnswer['state_source']>) => (cut ? `PhysPay, ${s.feed_url} (data as of ${s.as_of}).` : s.attribution);
  out.push(`Cite: ${a.attribution}${a.state_source ? ` State figures: ${stateCite(a.state_source)}` : ''}`);
  return out.join('\n');
}

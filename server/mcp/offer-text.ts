/**
 * The text of an evaluate_offer result: the whole answer in words, so that a model that reads only the text
 * has every figure of it (each with its published range, n and as_of) and the citation lines.
 */
import type { OfferCheck } from '../../build/contract/offer-check.ts';
import { FLOORS } from '../../build/compute/stats.ts';
import { ALL_EXPERIENCE_TEXT } from '../../build/contract/experience.ts';
import { ordinal } from './text.ts';

const dollars = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const usd = (v: number | null) => (v === null ? 'withheld' : `$${dollars.format(v)}`);
const num = (v: number | null) => (v === null ? 'withheld' : dollars.format(v));
const plural = (v: number, one: string, many: string) => `${num(v)} ${v === 1 ? one : many}`;
const shareText = (s: number | null, what: string) => (s === null ? `how many reports have ${what} is withheld (fewer than ${FLOORS.national} answered)` : `${s}% of reports answering have ${what}`);

/** "P25 $17,000, median $23,000, P75 $26,000" */
const quartiles = (q: { p25: number | null; median: number | null; p75: number | null }, f: (v: number | null) => string) =>
  `P25 ${f(q.p25)}, median ${f(q.median)}, P75 ${f(q.p75)}`;

function positionText(p: NonNullable<OfferCheck['position']>, where: string): string {
  const what = p.compared === 'fte_total_compensation' ? `the full-time-equivalent total of ${usd(p.value)}` : `the total of ${usd(p.value)}`;
  const at = p.percentile !== null
    ? `is at about the ${ordinal(p.percentile)} percentile (band ${p.band}, ${usd(p.band_lower_value)} to ${usd(p.band_upper_value)})`
    : p.band_upper_value !== null
      ? `is ${p.band} (${usd(p.band_upper_value)}, the lowest published percentile), so only the band can be given`
      : `is ${p.band} (${usd(p.band_lower_value)}, the highest published percentile), so only the band can be given`;
  const pc = p.percentiles;
  const figs = pc.p10 !== null && pc.p90 !== null
    ? `P10 ${usd(pc.p10)}, P25 ${usd(pc.p25)}, median ${usd(pc.median)}, P75 ${usd(pc.p75)}, P90 ${usd(pc.p90)}`
    : `P25 ${usd(pc.p25)}, median ${usd(pc.median)}, P75 ${usd(pc.p75)}; P10 and P90 withheld (fewer than ${FLOORS.tails} reports)`;
  return `Where it falls among the published percentiles of ${where} (${figs}; n=${p.n} approved self-reported reports${p.rounded ? ', figures rounded to $1,000' : ''}): ${what} ${at}. (The percentile is interpolated between published percentiles, never from individual reports.)`;
}

/** What evaluate_offer's summary leaves out (detail.ts's DetailCut): named in the text's last line before the citation. */
export interface OfferCut { left_out: string[] }

/** The answer as the summary gives it: `terms` may lack the terms the offer does not give. */
export type OfferAnswer = Omit<OfferCheck, 'terms'> & { terms: Partial<OfferCheck['terms']> };

export function offerText(a: OfferAnswer, cut: OfferCut | null = null): string {
  const sp = a.specialty.name;
  const where = a.scope_used === 'state' && a.state_asked ? `${sp} in ${a.state_asked.name}` : `${sp} (United States)`;
  const o = a.offer;
  const out: string[] = [];
  out.push(`Offer check for ${sp}${a.state_asked ? ` in ${a.state_asked.name}` : ''}, against published figures from approved self-reported salary reports.`);
  const totalParts = [`base salary ${usd(o.base_salary)}`];
  if (o.bonus !== null) totalParts.push(`bonus ${usd(o.bonus)}`);
  if (o.call_pay !== null) totalParts.push(`call pay ${usd(o.call_pay)}`);
  out.push(`Total compensation ${usd(a.total_compensation)} a year (${totalParts.join(' + ')}).${a.fte_total_compensation !== null ? ` At ${num(o.hours_per_week)} hours a week, the full-time equivalent (${a.rules.fte_hours}-hour basis) is ${usd(a.fte_total_compensation)}.` : ''}`);
  if (a.scope_note) out.push(a.scope_note);
  if (a.position) out.push(positionText(a.position, where));

  const parts = a.components.map((c) => {
    if (c.amount === null || c.amount <= 0) return null;
    const range = c.band === 'no published range'
      ? `no published range (fewer than ${FLOORS.national} reports have it)`
      : `${c.band} (${quartiles(c, usd)})`;
    return `${c.label} ${usd(c.amount)} (${c.unit}): ${range}; ${shareText(c.share_with_pct, 'it')}.`;
  }).filter((s): s is string => s !== null);
  const absent = a.components.filter((c) => c.amount === null || c.amount <= 0).map((c) => `${c.label}${c.amount === 0 ? ' (none)' : ''}: ${c.withheld ? 'range withheld' : quartiles(c, usd)}, ${shareText(c.share_with_pct, 'it')}`);
  out.push(`Each part against its published range (among reports with it): ${parts.length ? parts.join(' ') : 'the offer gives no other money component.'}${absent.length ? ` Not in the offer: ${absent.join('; ')}.` : ''}`);

  const t = a.terms;
  const qty = (label: string, q: OfferCheck['terms']['pto_weeks'], none: string, among = '') => {
    const figs = q.withheld ? `quartiles withheld${among}` : `${quartiles(q, num)} ${q.unit}${among}`;
    if (q.value === null) return `${label}: not given (published ${figs}).`;
    if (q.band === null) return `${label}: ${none} (published ${figs}).`;
    return `${label} ${num(q.value)}: ${q.band} (${figs}).`;
  };
  if (t.pto_weeks) out.push(qty('Weeks off', t.pto_weeks, 'none'));
  if (t.call_nights_per_month) out.push(qty('Call nights a month', t.call_nights_per_month, 'no call', ', among reports that take call'));
  const nc = t.non_compete;
  if (nc) {
  const ncShare = shareText(nc.share_with_pct, 'a non-compete');
  if (nc.miles === null) out.push(`Non-compete: not given; ${ncShare} (median ${num(nc.median_miles)} miles, ${nc.median_years === null ? 'withheld' : plural(nc.median_years, 'year', 'years')}).`);
  else if (nc.miles === 0) out.push(`Non-compete: none; ${ncShare} (median ${num(nc.median_miles)} miles, ${nc.median_years === null ? 'withheld' : plural(nc.median_years, 'year', 'years')}).`);
  else out.push(`Non-compete ${plural(nc.miles, 'mile', 'miles')}${nc.years !== null ? `, ${plural(nc.years, 'year', 'years')}` : ''}: radius ${nc.miles_vs_median} (${num(nc.median_miles)} miles)${nc.years_vs_median ? `, length ${nc.years_vs_median} (${nc.median_years === null ? 'withheld' : plural(nc.median_years, 'year', 'years')})` : ''}; ${ncShare}.`);
  }
  const pt = t.partnership_track;
  if (pt) {
  const ptShare = shareText(pt.share_with_pct, 'a partnership track');
  out.push(pt.years === null || pt.years <= 0
    ? `Partnership track: ${pt.years === 0 ? 'none' : 'not given'}; ${ptShare} (median ${pt.median_years === null ? 'withheld' : plural(pt.median_years, 'year', 'years')} to partnership).`
    : `Partnership track in ${plural(pt.years, 'year', 'years')}: ${pt.years_vs_median} (${pt.median_years === null ? 'withheld' : plural(pt.median_years, 'year', 'years')}); ${ptShare}.`);
  }

  const v = a.value;
  const first = v.parts.filter((p) => p.kind === 'one_time').map((p) => (p.first_year === p.amount ? `${p.label.toLowerCase()} ${usd(p.amount)}` : p.first_year === 0 ? `${p.label.toLowerCase()} not counted (paid for staying)` : `${p.label.toLowerCase()} ${usd(p.first_year)} (its first year of ${usd(p.amount)} over ${plural(v.loan_repayment_years!, 'year', 'years')})`));
  out.push(`Value: yearly pay ${usd(v.yearly)} (base, bonus, call pay, CME allowance); one-time payments ${usd(v.one_time)} in all. First-year value ${usd(v.first_year)}${first.length ? ` (yearly pay + ${first.join(' + ')})` : ''}. Steady-state yearly value ${usd(v.steady_state_yearly)}, with one-time payments spread over a ${num(v.contract_years)}-year contract${v.contract_years_assumed ? ` (assumed: the offer gives no contract length; default ${a.rules.default_contract_years})` : ''}${v.loan_repayment_years !== null ? ` and loan repayment over ${plural(v.loan_repayment_years, 'year', 'years')}` : ''}.`);

  const pr = a.productivity;
  const w = pr.specialty_per_wrvu;
  const m = pr.compensation_model;
  const modelText = m ? ` Pay model ${m.label} (${m.share_pct === null ? 'share withheld' : `${m.share_pct}% of the reports naming a model`}); its median conversion rate ${m.median_conversion_rate === null ? 'is withheld' : `is ${usd(m.median_conversion_rate)} per wRVU`}.` : '';
  if (pr.wrvus === null) {
    out.push(`Productivity: no wRVUs given.${modelText}${pr.conversion_rate !== null ? ` The offer's conversion rate ${usd(pr.conversion_rate)} per wRVU${pr.conversion_rate_vs_model_median_pct !== null ? ` is ${Math.abs(pr.conversion_rate_vs_model_median_pct)}% ${pr.conversion_rate_vs_model_median_pct >= 0 ? 'above' : 'below'} that median` : ''}.` : ''}`);
  } else {
    const pos = w.position;
    const place = w.withheld || pos === null
      ? 'the specialty\'s total compensation per wRVU is withheld'
      : `${pos.percentile !== null ? `at about the ${ordinal(pos.percentile)} percentile (band ${pos.band})` : `${pos.band}`} of the specialty's published total compensation per wRVU (P25 ${usd(w.percentiles.p25)}, median ${usd(w.percentiles.median)}, P75 ${usd(w.percentiles.p75)}; n=${w.n})`;
    const vsModel = pr.implied_vs_model_median_pct !== null ? ` The implied rate is ${Math.abs(pr.implied_vs_model_median_pct)}% ${pr.implied_vs_model_median_pct >= 0 ? 'above' : 'below'} the pay model's median conversion rate.` : '';
    const conv = pr.conversion_rate !== null ? ` The offer's conversion rate ${usd(pr.conversion_rate)} per wRVU${pr.conversion_rate_vs_model_median_pct !== null ? ` is ${Math.abs(pr.conversion_rate_vs_model_median_pct)}% ${pr.conversion_rate_vs_model_median_pct >= 0 ? 'above' : 'below'} that median` : ''}.` : '';
    out.push(`Productivity: ${num(pr.wrvus)} wRVUs a year imply ${usd(pr.implied_per_wrvu)} of total compensation per wRVU, ${place}.${modelText}${vsModel}${conv}`);
  }

  out.push(a.missing.length
    ? `Missing from the offer (at least ${a.rules.missing_share_pct}% of reports have it): ${a.missing.map((x) => x.text).join('; ')}.`
    : `Missing from the offer: nothing that at least ${a.rules.missing_share_pct}% of the reports in ${sp} have.`);
  out.push(`Amounts of the components are as reported (not scaled to full time). ${a.basis.description} ${ALL_EXPERIENCE_TEXT} Data as of ${a.as_of}${a.state_source ? ` (${a.state_source.as_of} for the state's figures)` : ''}.${a.notice ? ` ${a.notice}` : ''}${a.synthetic ? ' NOTE: synthetic demo data, not real reports.' : ''}`);
  if (cut) out.push(`Truncated: left out here: ${cut.left_out.join('; ')}. Everything: the same call with "detail": "full".`);
  out.push(`Cite: ${a.attribution}${a.state_source ? ` State figures: ${a.state_source.attribution}` : ''}`);
  return out.join('\n');
}

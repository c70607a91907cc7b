/**
 * Blocks shared by several page kinds (pure): the percentile chart with its table fallback, the lead
 * sentence, the withheld notice and the small-cell note (rounded, and moved by the disclosure method).
 */
import type { HeadlineBasis, OpenSummary } from '../contract/open-feeds.ts';
import { yearsText } from '../compute/headline.ts';
import { ROUNDING_MAX_N } from '../compute/stats.ts';
import { percentileBarSvg, type PercentileFigures } from './chart.ts';
import { attrs, esc, fmtCount, fmtMoney, fmtRate } from './html.ts';
import { SUMMARY_ROWS, fig, floorOf, textFig, type Unit } from './figures.ts';
import { figure, link, table, type SiteContext } from './layout.ts';
import { quantileMoveBound } from '../compute/disclosure.ts';

export type Summary = Pick<OpenSummary, 'n' | 'median' | 'mean' | 'p10' | 'p25' | 'p75' | 'p90' | 'rounded' | 'withheld'>;

/** Plain-language description of a distribution (the chart's <desc>). */
export function distributionDesc(s: Summary, unit: 'usd' | 'rate'): string {
  const m = (v: number) => (unit === 'rate' ? fmtRate(v) : fmtMoney(v));
  if (s.median === null) return 'Figures withheld: too few reports.';
  const parts = [`Median ${m(s.median)}.`];
  if (s.p25 !== null && s.p75 !== null) parts.push(`Middle half of reports (P25 to P75): ${m(s.p25)} to ${m(s.p75)}.`);
  if (s.p10 !== null && s.p90 !== null) parts.push(`P10 to P90: ${m(s.p10)} to ${m(s.p90)}.`);
  else parts.push('P10 and P90 withheld (fewer than 15 reports).');
  if (s.n !== null) parts.push(`Based on ${fmtCount(s.n)} reports.`);
  return parts.join(' ');
}

/**
 * Percentile bar plus the same figures as a table. `prefix` is the figures' path in their feed ("" at
 * the root); `id` makes the chart's ids unique on the page.
 */
export function distributionBlock(
  s: Summary,
  o: { id: string; title: string; caption: string; prefix?: string; unit?: 'usd' | 'rate'; floor: number; reference?: { value: number | null; label: string; field: string } },
): string {
  const unit: Unit = o.unit ?? 'usd';
  const prefix = o.prefix ?? '';
  const p: PercentileFigures = { p10: s.p10, p25: s.p25, median: s.median, p75: s.p75, p90: s.p90 };
  const ref = o.reference && o.reference.value !== null ? { value: o.reference.value, label: o.reference.label, field: o.reference.field } : null;
  const svg = percentileBarSvg({ id: o.id, title: o.title, desc: distributionDesc(s, unit === 'rate' ? 'rate' : 'usd') }, p, { fieldPrefix: prefix, cents: unit === 'rate', reference: ref });
  const rows = SUMMARY_ROWS.map(
    (r) => `<tr><th scope="row">${esc(r.label)}</th>${fig(`${prefix}${r.key}`, s[r.key], unit, { tag: 'td', className: 'num', floor: floorOf(s, r.key, o.floor) })}</tr>`,
  );
  rows.push(`<tr><th scope="row">Reports used (n)</th>${fig(`${prefix}n`, s.n, 'count', { tag: 'td', className: 'num', floor: o.floor })}</tr>`);
  const chart = svg
    ? figure(svg, `${o.caption} Box: P25 to P75; line: P10 to P90; dark marker: median${ref ? `; dashed line: ${ref.label}` : ''}.`)
    : `<p class="withheld">No chart: the figures are withheld (fewer than ${o.floor} reports).</p>`;
  return `${chart}\n${table(`${o.title}: figures`, ['Figure', unit === 'rate' ? 'USD per wRVU' : 'Total compensation'], rows)}`;
}

/** "Median ...: $X" as the page's lead sentence. */
export function lead(text: string, s: Summary & { basis?: HeadlineBasis }, floor: number, unit: Unit = 'usd'): string {
  const when = s.basis ? `, ${yearsText({ firstYear: s.basis.compensation_years.from, lastYear: s.basis.compensation_years.to })}, full-time basis` : '';
  return `<p class="lead">${esc(text + when)}: <strong>${fig('median', s.median, unit, { floor })}</strong></p>`;
}

/** The feed's withheld notice, when there is one. */
export function noticeBlock(notice: string | undefined, field = 'notice'): string {
  return notice ? `<p${attrs({ class: 'notice', role: 'note' })}>${textFig(field, notice)}</p>` : '';
}

export function roundedNote(site: Pick<SiteContext, 'baseUrl'>, s: Summary): string {
  const bound = (n: number) => `${((Math.exp(quantileMoveBound(n)) - 1) * 100).toFixed(1)}%`;
  return s.rounded
    ? `<p class="meta" data-note="small-cell">Figures from ${ROUNDING_MAX_N} or fewer reports are rounded: dollar amounts to the nearest $1,000, $/wRVU to the nearest dollar. Before that, the disclosure method that protects individual reports has moved each of them by a secret amount, more the fewer the reports (a median or percentile by up to ${bound(5)} at 5 reports, ${bound(25)} at 25), so read them as approximate: ${link(site, `${site.baseUrl}/methodology#disclosure`, 'how figures are moved and why')}.</p>`
    : '';
}

/**
 * The way into the intake from a specialty's page (and, with `state`, a specialty-in-state page): where its
 * figures are withheld, why and what helps; where they are published, a quieter invitation. The form opens
 * with the specialty (and the state) filled in.
 */
export function contributeLine(site: { baseUrl: string }, name: string, slug: string, withheld: boolean, state?: { slug: string; name: string }): string {
  const href = contributeHref(site, { specialty: slug, state: state?.slug });
  const where = state ? ` in ${state.name}` : '';
  return withheld
    ? `<p class="contribute"><strong>Not enough ${esc(name)} reports${esc(where)} are published yet.</strong> If you practise ${esc(name)}${esc(where)}, <a href="${esc(href)}">report your pay</a>: it is anonymous, moderated, and published only as aggregates once enough reports arrive.</p>`
    : `<p class="contribute">Practise ${esc(name)}${esc(where)}? <a href="${esc(href)}">Report your pay</a> (anonymous; published only as aggregates).</p>`;
}

/** /contribute with the form's specialty and state filled in (their slugs; the server checks them against its lists). */
export function contributeHref(site: { baseUrl: string }, prefill: { specialty?: string; state?: string }): string {
  const q = new URLSearchParams();
  if (prefill.specialty) q.set('specialty', prefill.specialty);
  if (prefill.state) q.set('state', prefill.state);
  const query = q.toString();
  return `${site.baseUrl.replace(/^https?:\/\/[^/]+/, '')}/contribute${query ? `?${query}` : ''}`;
}

/** A state page's way into the intake: the form opens with the state filled in. */
export function stateContributeLine(site: { baseUrl: string }, state: { slug: string; name: string }): string {
  return `<p class="contribute">Practise in ${esc(state.name)}? <a href="${esc(contributeHref(site, { state: state.slug }))}">Report your pay</a> (anonymous; published only as aggregates).</p>`;
}

/**
 * "The rest of the offer" on a specialty's page (pure): the `components` section of specialties/{slug}.json
 * (build/compute/offer-figures.ts) as tables a reader can scan: each money component (how common, and its
 * quartiles among those who have it), weeks off and call nights, the pay models (share, median $/wRVU) and
 * the contract terms (non-compete, partnership track). Every figure is a figure element of the specialty feed
 * (data-field "components...."), so the page tests and the build's audit read it back like every other one;
 * an item below the floor says so in its row instead of showing figures.
 */
import type { SpecialtyFeed } from '../contract/open-feeds.ts';
import type { OfferComponents } from '../contract/offer-figures.ts';
import { FLOORS, ROUNDING_MAX_N } from '../compute/stats.ts';
import { attrs, esc, fmtCount, withheldText } from './html.ts';
import { fig } from './figures.ts';
import { link, type SiteContext } from './layout.ts';

const FLOOR = FLOORS.national;
const P = 'components';

/**
 * A short table in a wrapper that scrolls sideways when it must (like layout.ts's table), without sort
 * buttons: a handful of rows in a fixed order, and a phone keeps every column in view.
 */
function table(caption: string, head: string[], rows: string[], id: string): string {
  const th = head.map((h, k) => `<th${attrs({ scope: 'col', class: k >= 1 ? 'num' : undefined })}>${esc(h)}</th>`).join('');
  return `<div${attrs({ class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': caption })}><table${attrs({ id })}><caption>${esc(caption)}</caption><thead><tr>${th}</tr></thead><tbody>
${rows.join('\n')}
</tbody></table></div>`;
}

/** A number without a unit of its own (weeks, nights, miles, years): as published, e.g. "4.5". */
const plain = (v: number) => (Number.isInteger(v) ? fmtCount(v) : String(v));

/** One figure element whose text is a plain number or a share ("32.5%"): the conventions of fig(). */
function numFig(field: string, value: number | null, kind: 'plain' | 'share', o: { tag?: string; className?: string } = {}): string {
  if (value === null) return fig(field, null, 'count', { ...o, floor: FLOOR });
  const tag = o.tag ?? 'span';
  const text = kind === 'share' ? `${value.toFixed(1)}%` : plain(value);
  return `<${tag}${attrs({ class: o.className, 'data-field': field, 'data-value': value })}>${esc(text)}</${tag}>`;
}

/**
 * The cells of a row whose figures are withheld: one cell across `span` columns (its count and its figures)
 * saying why; the figure it stands for is the count behind them (`countField`: null, so withheld).
 */
function withheldCells(countField: string, span: number): string {
  return `<td${attrs({ colspan: span > 1 ? span : undefined, class: 'withheld', 'data-field': countField, 'data-value': 'withheld' })}>${esc(withheldText(FLOOR))}</td>`;
}

/** "32.5% of 48": a share with the count it is a share of (both figures); a share not published reads why. */
function shareCell(shareField: string, share: number | null, answeredField: string, answered: number | null): string {
  if (share === null) return `<td class="num">${fig(shareField, null, 'count', { floor: FLOOR })}</td>`;
  const of = answered === null ? '' : ` <span class="meta">of ${numFig(answeredField, answered, 'plain')}</span>`;
  return `<td class="num">${numFig(shareField, share, 'share')}${of}</td>`;
}

/** A row header: the item's name, and under it its unit and the count behind its figures (when published). */
function rowHead(label: string, unit: string, count?: { field: string; value: number | null; what: string }): string {
  const n = count && count.value !== null ? ` · ${numFig(count.field, count.value, 'plain')} ${esc(count.what)}` : '';
  return `<th scope="row">${esc(label)}<br><span class="meta unit">${esc(unit)}${n}</span></th>`;
}

function moneyTable(name: string, c: OfferComponents): string {
  const rows = c.money.map((m, k) => {
    const at = `${P}.money[${k}]`;
    const unit = m.unit === 'USD in all' ? 'USD over the contract' : m.unit;
    const share = shareCell(`${at}.share_with_pct`, m.share_with_pct, `${at}.answered`, m.answered);
    if (m.withheld) return `<tr>${rowHead(m.label, unit)}${share}${withheldCells(`${at}.n_with`, 3)}</tr>`;
    const cells = (['p25', 'median', 'p75'] as const).map((q) => fig(`${at}.${q}`, m[q], 'usd', { tag: 'td', className: 'num', floor: FLOOR }));
    return `<tr>${rowHead(m.label, unit, { field: `${at}.n_with`, value: m.n_with, what: 'have it' })}${share}${cells.join('')}</tr>`;
  });
  return table(`${name}: money beyond pay`, ['Item', 'Have it', 'P25', 'Median', 'P75'], rows, 'offer-money');
}

function timeTable(name: string, c: OfferComponents): string {
  const items = [
    { key: 'pto_weeks', label: 'Weeks off', unit: 'weeks a year', what: 'reports', q: c.pto_weeks },
    { key: 'call_nights_per_month', label: 'Call nights', unit: 'nights a month', what: 'take call', q: c.call_nights_per_month },
  ] as const;
  const rows = items.map(({ key, label, unit, what, q }) => {
    const at = `${P}.${key}`;
    if (q.withheld) return `<tr>${rowHead(label, unit)}${withheldCells(`${at}.n`, 3)}</tr>`;
    const cells = (['p25', 'median', 'p75'] as const).map((f) => numFig(`${at}.${f}`, q[f], 'plain', { tag: 'td', className: 'num' }));
    return `<tr>${rowHead(label, unit, { field: `${at}.n`, value: q.n, what })}${cells.join('')}</tr>`;
  });
  return table(`${name}: time off and call`, ['Item', 'P25', 'Median', 'P75'], rows, 'offer-time');
}

function modelsTable(name: string, c: OfferComponents): string {
  const at = `${P}.compensation_models`;
  const rows = c.compensation_models.models.map((m, k) => {
    const r = m.conversion_rate;
    const mk = `${at}.models[${k}]`;
    const share = m.share_pct === null ? `<td class="num">${fig(`${mk}.share_pct`, null, 'count', { floor: FLOOR })}</td>` : `<td class="num">${numFig(`${mk}.share_pct`, m.share_pct, 'share')}</td>`;
    const rate = r.withheld
      ? withheldCells(`${mk}.conversion_rate.n`, 1)
      : `<td class="num">${fig(`${mk}.conversion_rate.median`, r.median, 'rate', { floor: FLOOR })}<br><span class="meta">${numFig(`${mk}.conversion_rate.n`, r.n, 'plain')} contracts</span></td>`;
    return `<tr><th scope="row">${esc(m.label)}</th>${share}${rate}</tr>`;
  });
  return table(`${name}: pay models`, ['Pay model', 'Share', 'Median $/wRVU'], rows, 'offer-models');
}

function termsTable(name: string, c: OfferComponents): string {
  const nc = c.non_compete;
  const pt = c.partnership_track;
  const ncAt = `${P}.non_compete`;
  const ptAt = `${P}.partnership_track`;
  const years = (field: string, v: number | null) => (v === null ? `length: ${fig(field, null, 'count', { floor: FLOOR })}` : `${numFig(field, v, 'plain')} ${v === 1 ? 'year' : 'years'}`);
  const ncShare = shareCell(`${ncAt}.share_with_pct`, nc.share_with_pct, `${ncAt}.answered`, nc.answered);
  const ncRow = nc.withheld
    ? `<tr>${rowHead('Non-compete', 'radius and length')}${ncShare}${withheldCells(`${ncAt}.n_with`, 1)}</tr>`
    : `<tr>${rowHead('Non-compete', 'radius and length', { field: `${ncAt}.n_with`, value: nc.n_with, what: 'have one' })}${ncShare}<td class="num">${numFig(`${ncAt}.median_miles`, nc.median_miles, 'plain')} miles<br>${years(`${ncAt}.median_years`, nc.median_years)}</td></tr>`;
  const ptShare = shareCell(`${ptAt}.share_with_pct`, pt.share_with_pct, `${ptAt}.answered`, pt.answered);
  const ptRow = pt.withheld
    ? `<tr>${rowHead('Partnership track', 'years to partner')}${ptShare}${withheldCells(`${ptAt}.n_with`, 1)}</tr>`
    : `<tr>${rowHead('Partnership track', 'years to partner', { field: `${ptAt}.n_with`, value: pt.n_with, what: 'have one' })}${ptShare}<td class="num">${years(`${ptAt}.median_years`, pt.median_years)}</td></tr>`;
  return table(`${name}: contract terms`, ['Term', 'Have one', 'Median'], [ncRow, ptRow], 'offer-terms');
}

/** The section, for a specialty whose national figures are published. */
export function offerSection(site: SiteContext, f: SpecialtyFeed): string {
  const c = f.components;
  const name = f.specialty.name;
  const anything = c.money.some((m) => m.answered !== null) || !c.pto_weeks.withheld || !c.call_nights_per_month.withheld
    || c.compensation_models.answered !== null || c.non_compete.answered !== null || c.partnership_track.answered !== null;
  const csv = `${site.baseUrl}/data/api/v1/specialty-offer-components.csv`;
  const head = `<section${attrs({ 'data-feed': f.feed_url, 'aria-labelledby': 'offer-h', id: 'offer', class: 'offer' })}>
<h2 id="offer-h">The rest of the offer</h2>`;
  if (!anything) {
    return `${head}
<p>Fewer than ${FLOOR} of the ${esc(name)} reports behind these figures have answered the questions about the rest of the offer (call pay, bonuses, time off, pay model, non-compete) yet, so nothing of it is published.</p>
</section>`;
  }
  return `${head}
<p>Beyond salary, from the same ${esc(name)} reports as the figures above. <strong>A share is the percent of the reports that answered the question that have the item</strong> (an answer of &ldquo;none&rdquo; counts, a blank does not); P25, median and P75 are among the reports that have it. Amounts are in US dollars as reported, not scaled to full time.</p>
${moneyTable(name, c)}
${timeTable(name, c)}
${modelsTable(name, c)}
<details class="models"><summary>What the pay models mean</summary>
<dl class="definitions">${c.compensation_models.models.map((m) => `<dt>${esc(m.label)}</dt><dd>${esc(m.description)}</dd>`).join('')}</dl>
</details>
${termsTable(name, c)}
<p class="meta">An item fewer than ${FLOOR} reports have is withheld; its share is still shown. In a share, a count below ${FLOOR} is counted as ${FLOOR / 2}, so a share never tells how many of 0 to 4 reports have an item or lack one. Each count is perturbed by up to 2, so a share can differ a little from the counts beside it. From ${ROUNDING_MAX_N} reports or fewer, dollar amounts are rounded to the nearest $1,000, $/wRVU to the nearest dollar and miles to 5; weeks, nights and years are shown to the half. A figure of a few reports is approximate by design: read it as a range (${link(site, `${site.baseUrl}/methodology#offer`, 'how these figures are made')}). All of it as a table: ${link(site, csv, 'specialty-offer-components.csv', { type: 'text/csv' })}.</p>
</section>`;
}

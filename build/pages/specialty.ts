/**
 * /salaries/{slug}: one specialty nationally (specialties/{slug}.json), its compensation per wRVU
 * (wrvu/{slug}.json, whose citation_url is this page too), and every state (specialties/{slug}/states/*.json),
 * with the "Where does my pay fall?" box over the national percentiles (pay-check.ts).
 */
import type { SpecialtyFeed, SpecialtyStateFeed, WrvuFeed } from '../contract/open-feeds.ts';
import { specialtyDatasetJsonLd } from './jsonld.ts';
import { FLOORS } from '../compute/stats.ts';
import { rankedBarsSvg } from './chart.ts';
import { attrs, esc, fmtCount } from './html.ts';
import { fig } from './figures.ts';
import { contributeLine, distributionBlock, lead, noticeBlock, roundedNote } from './blocks.ts';
import { payCheckBlock } from './pay-check.ts';
import { offerCheckForm } from './offer-check-form.ts';
import { specialtyMapBlock } from './map-blocks.ts';
import { trendBlock } from './trend-block.ts';
import { offerSection } from './offer-section.ts';
import { citeBlock, figure, link, metaLine, page, selfReportedCaveat, table, type SiteContext } from './layout.ts';

export interface SpecialtyPageInput {
  feed: SpecialtyFeed;
  wrvu: WrvuFeed;
  /** every state's cell for this specialty, in the order to list them */
  states: SpecialtyStateFeed[];
}

/**
 * A specialty below the national floor: every figure of it is withheld, nationally, by state, by year and per
 * wRVU, so the page says so once, with what would publish it, instead of a page of withheld cells. The count
 * itself stays hidden (1 to 4 reports could point at the people who reported), so the page names the floor:
 * at most that many more approved reports publish it.
 */
function withheldSpecialtyPage(site: SiteContext, f: SpecialtyFeed): string {
  const name = f.specialty.name;
  const floor = FLOORS.national;
  const body = `<article${attrs({ 'data-feed': f.feed_url })}>
<h1>${esc(name)} salary</h1>
<p class="notice" id="not-yet"><strong>Not published yet.</strong> ${esc(name)} has fewer than ${floor} approved reports nationally. Its figures are published from ${floor} reports, so at most ${floor} more approved reports would publish them, nationally and then state by state (${FLOORS.specialtyInState} reports in a state). The exact count is not shown: a count of 1 to 4 could point at the people who reported.</p>
${contributeLine(site, name, f.specialty.slug, false)}
${selfReportedCaveat(site)}
<p>The figures of ${esc(name)} will appear here, in the ${link(site, f.feed_url.replace(/^.*\/data\/api\/v1\//, `${site.baseUrl}/data/api/v1/`), 'JSON feed')} and in the CSV downloads once published. Meanwhile, ${link(site, `${site.baseUrl}/salaries`, 'the specialties with published figures')}.</p>
${citeBlock(site, f, 'attr')}
</article>`;
  return page(site, {
    title: `${name} salary`,
    description: `${name} salary data: not published yet (fewer than ${floor} approved reports).`,
    canonical: f.citation_url,
    feeds: [f.feed_url],
    body,
    noindex: true,
  });
}

/** Rows of a "by state" / "by specialty" table: one row per cell feed, each row naming its feed. */
export function cellRows(site: SiteContext, cells: SpecialtyStateFeed[], label: (c: SpecialtyStateFeed) => string): string[] {
  return cells.map((c) => {
    const floor = FLOORS.specialtyInState;
    return `<tr${attrs({ 'data-feed': c.feed_url })}><th scope="row">${link(site, c.citation_url, label(c))}</th>`
      + `${fig('n', c.n, 'count', { tag: 'td', className: 'num', floor })}`
      + `${fig('median', c.median, 'usd', { tag: 'td', className: 'num', floor })}`
      + `${fig('difference_from_national_pct', c.difference_from_national_pct, 'pct', { tag: 'td', className: 'num' })}</tr>`;
  });
}

export function renderSpecialtyPage(site: SiteContext, input: SpecialtyPageInput): string {
  const { feed: f, wrvu: w } = input;
  const name = f.specialty.name;
  const floor = FLOORS.national;
  const top = f.top_states;
  const topChart = rankedBarsSvg(
    { id: 'top-states', title: `Top paying states for ${name}`, desc: top.map((t) => `${t.rank}. ${t.state.name} (n=${t.n})`).join(', ') },
    top.map((t, k) => ({ label: `${t.state.name} (n=${t.n})`, value: t.median, field: `top_states[${k}].median`, rank: t.rank })),
  );
  const topTable = table(
    `Top paying states for ${name}: median total compensation`,
    ['Rank', 'State', 'Reports (n)', 'Median'],
    top.map((t, k) => `<tr>${fig(`top_states[${k}].rank`, t.rank, 'rank', { tag: 'td', className: 'num' })}<th scope="row">${link(site, t.citation_url, t.state.name)}</th>${fig(`top_states[${k}].n`, t.n, 'count', { tag: 'td', className: 'num' })}${fig(`top_states[${k}].median`, t.median, 'usd', { tag: 'td', className: 'num' })}</tr>`),
    { numericFrom: 2 },
  );
  const settings = table(
    `${name}: total compensation by practice setting`,
    ['Practice setting', 'Reports (n)', 'P10', 'P25', 'Median', 'P75', 'P90', 'Mean'],
    f.practice_settings.map((ps, k) => {
      const cells = (['n', 'p10', 'p25', 'median', 'p75', 'p90', 'mean'] as const).map((key) =>
        fig(`practice_settings[${k}].${key}`, ps[key], key === 'n' ? 'count' : 'usd', { tag: 'td', className: 'num', floor: key === 'p10' || key === 'p90' ? (ps.n !== null ? FLOORS.tails : floor) : floor }),
      );
      return `<tr><th scope="row">${esc(ps.practice_setting)}</th>${cells.join('')}</tr>`;
    }),
  );
  const payCheck = payCheckBlock(f, { scope: `${name}, national`, floor });
  const wrvuSection = `<section${attrs({ 'data-feed': w.feed_url, 'aria-labelledby': 'wrvu-h' })}>
<h2 id="wrvu-h">Compensation per wRVU</h2>
<p>Total compensation divided by annual work relative value units, for reports that give their wRVUs.</p>
${noticeBlock(w.notice)}
${metaLine(w, floor)}
${roundedNote(site, w)}
${distributionBlock(w, { id: 'wrvu-dist', title: `${name}: compensation per wRVU`, caption: 'Total compensation per wRVU (US dollars).', unit: 'rate', floor })}
${citeBlock(site, w, 'attr-wrvu', { heading: 'Cite the wRVU figures' })}
</section>`;

  if (f.withheld) return withheldSpecialtyPage(site, f);
  const body = `<article${attrs({ 'data-feed': f.feed_url })}>
<h1>${esc(name)} salary</h1>
${lead(`US median total compensation in ${name}`, f, floor)}
${noticeBlock(f.notice)}
${metaLine(f, floor)}
${roundedNote(site, f)}
${selfReportedCaveat(site)}
<h2>Pay distribution</h2>
${distributionBlock(f, { id: 'dist', title: `${name}: national total compensation`, caption: `${name}, national, annual total compensation.`, floor })}
${payCheck.html}
${offerCheckForm(f, input.states)}
${contributeLine(site, name, f.specialty.slug, f.median === null)}
${trendBlock(f)}
<h2>Top paying states</h2>
${top.length ? `${figure(topChart, `States ranked by median total compensation (states with at least ${FLOORS.specialtyInState} reports).`)}\n${topTable}` : `<p>No state has published figures for ${esc(name)} yet (each needs at least ${FLOORS.specialtyInState} reports).</p>`}
<p>States with published figures: ${fig('states_with_data', f.states_with_data, 'count')}.</p>
<h2>By practice setting</h2>
${settings}
${offerSection(site, f)}
<h2 id="states-h">${esc(name)} salary by state</h2>
${specialtyMapBlock(site, name, input.states)}
${table(`${name}: median total compensation in every state`, ['State', 'Reports (n)', 'Median', 'vs national median'], cellRows(site, input.states, (c) => c.state.name))}
${wrvuSection}
${citeBlock(site, f, 'attr')}
</article>`;
  return page(site, {
    title: `${name} salary`,
    description: f.median !== null ? `${name} salary in the US: median total compensation from ${fmtCount(f.n ?? 0)} self-reported reports (data as of ${f.as_of}).` : `${name} salary data (figures withheld: too few reports).`,
    canonical: f.citation_url,
    feeds: [f.feed_url, w.feed_url],
    body,
    payCheck: payCheck.script,
    noindex: f.median === null,
    jsonLd: specialtyDatasetJsonLd(site, f),
  });
}

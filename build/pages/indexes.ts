/**
 * Index pages: /salaries (specialties.json), /states (states.json), /residency (residency/institutions.json).
 * Figures keep their path in the feed's list (specialties[i], states[i], institutions[i]) whatever order
 * a chart or table shows them in.
 */
import type { InstitutionsFeed, SpecialtiesFeed, StatesFeed } from '../contract/open-feeds.ts';
import { FLOORS } from '../compute/stats.ts';
import { rankedBarsSvg } from './chart.ts';
import { rankHighestFirst } from '../compute/ranking.ts';
import { RANKING_MIN_N } from '../contract/open-feeds.ts';
import { attrs, esc } from './html.ts';
import { fig } from './figures.ts';
import { noticeBlock } from './blocks.ts';
import { statesMapBlock } from './map-blocks.ts';
import { levelNav } from './residency-levels.ts';
import { citeBlock, figure, href, link, metaLine, page, residencyCaveat, selfReportedCaveat, table, type SiteContext } from './layout.ts';

const csvOf = (feedUrl: string) => feedUrl.replace(/\.json$/, '.csv');
/** Code-point order of displayed names (locale-independent, so builds are byte-identical everywhere). */
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function renderSpecialtiesIndex(site: SiteContext, f: SpecialtiesFeed): string {
  const floor = FLOORS.national;
  const ranked = rankHighestFirst(
    f.specialties.map((e, i) => ({ e, i })).filter((x) => x.e.median !== null && x.e.n! >= RANKING_MIN_N),
    (x) => x.e.median!,
    (a, b) => byName(a.e.name, b.e.name),
  );
  const chart = rankedBarsSvg(
    { id: 'ranked', title: 'Specialties ranked by national median total compensation', desc: ranked.map(({ rank, item: x }) => `${rank}. ${x.e.name} (n=${x.e.n})`).join(', ') },
    ranked.map(({ rank, item: { e, i } }) => ({ label: `${e.name} (n=${e.n})`, value: e.median!, field: `specialties[${i}].median`, rank })),
  );
  // Listed by name as displayed (the feed lists by slug), keeping each figure's path in the feed.
  const rows = f.specialties.map((e, i) => ({ e, i })).sort((a, b) => byName(a.e.name, b.e.name)).map(({ e, i }) => `<tr><th scope="row">${link(site, e.citation_url, e.name)}</th>`
    + (['n', 'p25', 'median', 'p75'] as const).map((k) => fig(`specialties[${i}].${k}`, e[k], k === 'n' ? 'count' : 'usd', { tag: 'td', className: 'num', floor })).join('')
    + '</tr>');
  const body = `<article${attrs({ 'data-feed': f.feed_url })}>
<h1>Physician salaries by specialty</h1>
<p class="lead">National total compensation of ${esc(f.count)} physician specialties in the US.</p>
${noticeBlock(f.notice)}
${metaLine(f, floor)}
${selfReportedCaveat(site)}
<h2>Ranked by median</h2>
${figure(chart, `Specialties with at least ${RANKING_MIN_N} reports nationally, by median total compensation (equal medians share a rank).`)}
<h2>Every specialty</h2>
${table('National total compensation by specialty', ['Specialty', 'Reports (n)', 'P25', 'Median', 'P75'], rows)}
${citeBlock(site, f, 'attr', { csv: csvOf(f.feed_url) })}
</article>`;
  return page(site, { title: 'Physician salaries by specialty', description: `Median physician total compensation for ${f.count} specialties, from self-reported reports (data as of ${f.as_of}).`, canonical: f.citation_url, feeds: [f.feed_url], body });
}

export function renderStatesIndex(site: SiteContext, f: StatesFeed, specialties?: SpecialtiesFeed): string {
  const floor = FLOORS.state;
  const ranked = rankHighestFirst(
    f.states.map((e, i) => ({ e, i })).filter((x) => x.e.median !== null && x.e.n! >= RANKING_MIN_N),
    (x) => x.e.median!,
    (a, b) => byName(a.e.state.name, b.e.state.name),
  );
  const chart = rankedBarsSvg(
    { id: 'ranked', title: 'States ranked by median physician total compensation', desc: ranked.map(({ rank, item: x }) => `${rank}. ${x.e.state.name} (n=${x.e.n})`).join(', ') },
    ranked.map(({ rank, item: { e, i } }) => ({ label: `${e.state.name} (n=${e.n})`, value: e.median!, field: `states[${i}].median`, rank })),
  );
  // Listed by state name (the feed lists by code: AK before AL).
  const rows = f.states.map((e, i) => ({ e, i })).sort((a, b) => byName(a.e.state.name, b.e.state.name)).map(({ e, i }) => `<tr><th scope="row">${link(site, e.citation_url, e.state.name)}</th><td>${esc(e.state.region)}</td>`
    + fig(`states[${i}].n`, e.n, 'count', { tag: 'td', className: 'num', floor })
    + fig(`states[${i}].median`, e.median, 'usd', { tag: 'td', className: 'num', floor })
    + fig(`states[${i}].cost_of_living_index`, e.cost_of_living_index, 'index', { tag: 'td', className: 'num' })
    + '</tr>');
  const body = `<article${attrs({ 'data-feed': f.feed_url })}>
<h1>Physician salaries by state</h1>
<p class="lead">Median total compensation of physicians (all specialties) in every state and the District of Columbia (${esc(f.count)} in all).</p>
${noticeBlock(f.notice)}
${metaLine(f, floor)}
${selfReportedCaveat(site)}
<h2 id="map-h">Map</h2>
${statesMapBlock(site, f)}
<h2>States ranked by median</h2>
${mixNote(site, specialties)}
${figure(chart, `States with at least ${RANKING_MIN_N} reports, by median total compensation, all specialties (equal medians share a rank).`)}
<h2>Every state</h2>
${table('Median physician total compensation by state', ['State', 'Region', 'Reports (n)', 'Median', 'Cost-of-living index'], rows, { numericFrom: 2 })}
${citeBlock(site, f, 'attr', { csv: csvOf(f.feed_url) })}
</article>`;
  return page(site, { title: 'Physician salaries by state', description: `Median physician total compensation in every US state, from self-reported reports (data as of ${f.as_of}).`, canonical: f.citation_url, feeds: [f.feed_url], body });
}

/**
 * What a state's all-specialty median is, said plainly, with the way to compare like with like: each
 * specialty's page lists that specialty's median in every state.
 */
function mixNote(site: SiteContext, sp: SpecialtiesFeed | undefined): string {
  const links = sp
    ? `<details class="by-specialty"><summary>Pay by state for one specialty</summary><ul class="columns">${[...sp.specialties].sort((a, b) => byName(a.name, b.name))
      .map((e) => `<li><a${attrs({ href: `${href(e.citation_url, site.baseUrl)}#states-h` })}>${esc(e.name)}</a></li>`).join('')}</ul></details>`
    : '';
  return `<p class="note"><strong>These medians mix specialties.</strong> A state's median depends on which specialties report there: a state where more reports come from higher-paid specialties ranks higher even if each specialty pays the same as elsewhere. To compare states for one specialty, use that specialty's table of states.</p>${links}`;
}

export const TOP_INSTITUTIONS = 15;

export function renderInstitutionsIndex(site: SiteContext, f: InstitutionsFeed): string {
  // Ranks compare scales of one academic year: newest year first, then by rank within the year.
  const order = f.institutions.map((e, i) => ({ e, i }))
    .sort((a, b) => b.e.academic_year.localeCompare(a.e.academic_year) || (a.e.rank ?? Infinity) - (b.e.rank ?? Infinity) || a.e.institution.slug.localeCompare(b.e.institution.slug));
  const newestYear = order[0]?.e.academic_year ?? '';
  const top = order.filter((x) => x.e.pgy1_col_adjusted !== null && x.e.academic_year === newestYear).slice(0, TOP_INSTITUTIONS);
  const chart = rankedBarsSvg(
    { id: 'ranked', title: `Top ${top.length} teaching hospitals by cost-of-living-adjusted PGY-1 salary, ${newestYear} scales`, desc: top.map((x) => `${x.e.rank}. ${x.e.institution.name}`).join(', ') },
    top.map(({ e, i }) => ({ label: e.institution.name, value: e.pgy1_col_adjusted!, field: `institutions[${i}].pgy1_col_adjusted`, rank: e.rank })),
  );
  const rows = order.map(({ e, i }) => `<tr>${fig(`institutions[${i}].rank`, e.rank, 'rank', { tag: 'td', className: 'num' })}<th scope="row">${link(site, e.citation_url, e.institution.name)}</th><td>${esc(`${e.institution.city}, ${e.institution.state.code}`)}</td><td>${esc(e.academic_year)}</td>`
    + fig(`institutions[${i}].pgy1_salary`, e.pgy1_salary, 'usd', { tag: 'td', className: 'num' })
    + fig(`institutions[${i}].pgy1_col_adjusted`, e.pgy1_col_adjusted, 'usd', { tag: 'td', className: 'num' })
    + '</tr>');
  const body = `<article${attrs({ 'data-feed': f.feed_url })}>
<h1>Resident salaries by teaching hospital</h1>
${levelNav(site, 1, Math.max(1, ...f.institutions.map((e) => e.levels)))}
<p class="lead">Published resident pay scales of ${esc(f.count)} teaching hospitals, ranked by PGY-1 salary adjusted for the state's cost of living. Scales are ranked only against scales of the same academic year.</p>
${metaLine(f, null)}
${residencyCaveat(site)}
<h2>Highest adjusted PGY-1 pay, ${esc(newestYear)}</h2>
${figure(chart, `PGY-1 salary divided by the state cost-of-living index / 100, among ${newestYear} scales.`)}
<h2>Every teaching hospital</h2>
${table('Teaching hospitals by cost-of-living-adjusted PGY-1 salary', ['Rank', 'Teaching hospital', 'City', 'Academic year', 'PGY-1 salary', 'PGY-1 adjusted'], rows, { numericFrom: 4 })}
${citeBlock(site, f, 'attr', { csv: csvOf(f.feed_url) })}
</article>`;
  return page(site, { title: 'Resident salaries by teaching hospital', description: `Resident (PGY) pay scales of ${f.count} US teaching hospitals, ranked by cost-of-living-adjusted PGY-1 salary.`, canonical: f.citation_url, feeds: [f.feed_url], body });
}

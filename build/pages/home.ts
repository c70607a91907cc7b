/**
 * The home page (/), a pure function of the feeds it is given: the headline national figures (published
 * specialties, the reports behind them, the data date), the site search, the published specialties ranked
 * by national median with n, a US map of the all-specialty state medians (coloured only from 15 reports),
 * the by-year trend of the specialty with the most reports, an honest line on how many specialties can be
 * published (with the way to contribute), and the ways into every page kind.
 *
 * Every figure is a figure element of its feed (data-feed / data-field / data-value), so the build's audit
 * checks the home page like any other. The only counts shown are ones the feeds publish: specialties.json's
 * n (the sum of the published specialties' n; never a withheld cell's count) and each entry's own n; "N of
 * 44" counts the entries of specialties.json that are not withheld.
 */
import { dataYears, homeDatasetJsonLd } from './jsonld.ts';
import { RANKING_MIN_N, type InstitutionsFeed, type SpecialtiesFeed, type SpecialtyFeed, type StatesFeed } from '../contract/open-feeds.ts';
import { FLOORS } from '../compute/stats.ts';
import { rankHighestFirst } from '../compute/ranking.ts';
import { attrs, esc, fmtCount } from './html.ts';
import { fig, textFig } from './figures.ts';
import { searchBox } from './enhance.ts';
import { homeMapBlock } from './map-blocks.ts';
import { trendBlock } from './trend-block.ts';
import { link, page, searchIndexHref, selfReportedCaveat, table, type SiteContext } from './layout.ts';

/** Code-point order of displayed names (locale-independent, so builds are byte-identical everywhere). */
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The specialty whose by-year trend the home page draws: the published specialty with the most reports
 * nationally (ties: by name). Undefined when none is published or its feed is not given.
 */
export function headlineSpecialty(sp: SpecialtiesFeed, feeds: ReadonlyMap<string, SpecialtyFeed>): SpecialtyFeed | undefined {
  const top = sp.specialties.filter((e) => !e.withheld && e.n !== null).sort((a, b) => b.n! - a.n! || byName(a.name, b.name))[0];
  return top ? feeds.get(top.slug) : undefined;
}

/** The published specialties, highest national median first (ties by name), each with its rank when n >= 15. */
export function homeRanking(sp: SpecialtiesFeed): { i: number; rank: number | null }[] {
  const published = sp.specialties.map((e, i) => ({ e, i })).filter((x) => !x.e.withheld && x.e.median !== null && x.e.n !== null);
  const tie = (a: { e: { name: string } }, b: { e: { name: string } }) => byName(a.e.name, b.e.name);
  const ranks = new Map(rankHighestFirst(published.filter((x) => x.e.n! >= RANKING_MIN_N), (x) => x.e.median!, tie).map(({ rank, item }) => [item.i, rank]));
  return rankHighestFirst(published, (x) => x.e.median!, tie).map(({ item }) => ({ i: item.i, rank: ranks.get(item.i) ?? null }));
}

/** "N of 44 specialties have enough reports to publish; help by contributing." (prominent when most are withheld) */
function honestLine(site: SiteContext, published: number, count: number): string {
  const most = published * 2 < count;
  const contribute = link(site, `${site.baseUrl}/contribute`, 'report your pay');
  const what = published === count
    ? `All ${esc(count)} specialties have enough reports to publish; every report makes the figures firmer: ${contribute} (anonymous, moderated, published only as aggregates).`
    : `${esc(published)} of ${esc(count)} specialties have enough reports to publish; help by contributing: ${contribute} (anonymous, moderated, published only as aggregates).`;
  return `<p${attrs({ class: most ? 'notice' : 'note', id: 'contribute-line' })}>${what}</p>`;
}

export function renderHomePage(site: SiteContext, sp: SpecialtiesFeed, st: StatesFeed, inst: InstitutionsFeed, specialtyFeeds: ReadonlyMap<string, SpecialtyFeed> = new Map()): string {
  const u = (p: string) => `${site.baseUrl}${p}`;
  const floor = FLOORS.national;
  const published = sp.specialties.filter((e) => !e.withheld);
  const withheld = sp.specialties.filter((e) => e.withheld).sort((a, b) => byName(a.name, b.name));

  // ---- headline figures (specialties.json)
  const headline = `<section${attrs({ 'data-feed': sp.feed_url, 'aria-label': 'National figures' })}>
<dl class="stats">
<div><dt>Specialties published</dt><dd><span id="published-count">${esc(published.length)}</span> <span class="of">of ${esc(sp.count)}</span></dd></div>
<div><dt>Reports used (n)</dt><dd>${fig('n', sp.n, 'count', { floor })}</dd></div>
<div><dt>Data as of</dt><dd>${textFig('as_of', sp.as_of, 'time', { datetime: sp.as_of })}</dd></div>
</dl>
<p class="meta">Reports used: approved salary reports behind the national figures of the ${esc(published.length)} published specialties, in the compensation years and on the full-time basis of those figures, outliers excluded (the n of the specialties feed, and each release's reports used). Data as of: the newest report&rsquo;s submission date.</p>
${honestLine(site, published.length, sp.count)}
</section>`;

  // ---- specialties ranked by national median (published only; the withheld in one line)
  const order = homeRanking(sp);
  const cells = (i: number) => fig(`specialties[${i}].n`, sp.specialties[i]!.n, 'count', { tag: 'td', className: 'num', floor })
    + fig(`specialties[${i}].median`, sp.specialties[i]!.median, 'usd', { tag: 'td', className: 'num', floor });
  const name = (i: number) => `<th scope="row">${link(site, sp.specialties[i]!.citation_url, sp.specialties[i]!.name)}</th>`;
  const ranked = order.filter((x) => x.rank !== null).map(({ i, rank }) => `<tr><td${attrs({ class: 'num', 'data-value': rank })}>${esc(rank!)}</td>${name(i)}${cells(i)}</tr>`);
  const unranked = order.filter((x) => x.rank === null).map(({ i }) => `<tr>${name(i)}${cells(i)}</tr>`);
  const withheldLine = withheld.length
    ? `<p id="withheld-line">Not published yet, fewer than ${floor} reports nationally (${esc(withheld.length)} ${withheld.length === 1 ? 'specialty' : 'specialties'}): ${withheld.map((e) => link(site, e.citation_url, e.name)).join(', ')}.</p>`
    : '';
  const ranking = `<section${attrs({ 'data-feed': sp.feed_url, 'aria-labelledby': 'ranked-h' })}>
<h2 id="ranked-h">Specialties ranked by national median</h2>
${ranked.length
    ? table(`Ranked: the ${ranked.length} specialties with ${RANKING_MIN_N} or more reports`, ['Rank', 'Specialty', 'n', 'Median'], ranked, { id: 'ranked', numericFrom: 2 })
    : `<p>No specialty has ${RANKING_MIN_N} or more reports yet, so none is ranked.</p>`}
${unranked.length ? table(`Published, not ranked: ${unranked.length} specialties with ${floor} to ${RANKING_MIN_N - 1} reports, by median`, ['Specialty', 'n', 'Median'], unranked, { id: 'unranked' }) : ''}
${order.length ? `<p class="meta">n: approved reports nationally. Highest national median first; equal medians share a rank. Only specialties with ${RANKING_MIN_N} or more reports are ranked. ${link(site, sp.citation_url, 'Every specialty with its P25 and P75')}.</p>` : '<p>No specialty has enough reports to publish yet.</p>'}
${withheldLine}
</section>`;

  // ---- the US map (states.json), with its figures as a table
  const onMap = st.states.map((e, i) => ({ e, i })).filter((x) => x.e.median !== null && x.e.n !== null && x.e.n >= RANKING_MIN_N).sort((a, b) => byName(a.e.state.name, b.e.state.name));
  const thin = st.states.filter((e) => !(e.median !== null && e.n !== null && e.n >= RANKING_MIN_N)).map((e) => e.state.name).sort(byName);
  const mapRows = onMap.map(({ e, i }) => `<tr><th scope="row">${link(site, e.citation_url, e.state.name)}</th>`
    + fig(`states[${i}].n`, e.n, 'count', { tag: 'td', className: 'num', floor: FLOORS.state })
    + fig(`states[${i}].median`, e.median, 'usd', { tag: 'td', className: 'num', floor: FLOORS.state })
    + '</tr>');
  const mapTable = `<details class="figures"><summary>The map as a table (${esc(onMap.length)} states)</summary>
${mapRows.length ? table(`States with ${RANKING_MIN_N} or more reports: median total compensation, all specialties`, ['State', 'Reports (n)', 'Median'], mapRows, { id: 'map-table' }) : ''}
${thin.length ? `<p>Not enough reports for the map (fewer than ${RANKING_MIN_N}): ${esc(thin.join(', '))}.</p>` : ''}
</details>`;
  const map = `<section${attrs({ 'data-feed': st.feed_url, 'aria-labelledby': 'map-h' })}>
<h2 id="map-h">Median pay by state</h2>
${homeMapBlock(site, st)}
${mapTable}
<p>${link(site, st.citation_url, 'Every state, ranked')}: a state&rsquo;s median mixes specialties, so compare states for one specialty on that specialty&rsquo;s page.</p>
</section>`;

  // ---- the trend of the specialty with the most reports
  const head = headlineSpecialty(sp, specialtyFeeds);
  const trend = head
    ? `<section${attrs({ 'data-feed': head.feed_url, 'aria-labelledby': 'years-h' })}>
${trendBlock(head, {
    heading: `Pay over time: ${head.specialty.name}`,
    intro: `<p>${link(site, head.citation_url, head.specialty.name)} has the most reports nationally (n = ${fig('n', head.n, 'count', { floor })})${
      head.by_year.filter((r) => r.median !== null).length >= 2 ? '; its national median and middle half by compensation year:' : '.'}</p>`,
    tableInDetails: true,
  })}
</section>`
    : '';

  const body = `<article class="home">
<h1>Physician compensation benchmarks</h1>
<p class="lead">Median pay and percentiles of US physicians by specialty and state, from moderated self-reported salary reports, and published resident pay scales of teaching hospitals.</p>
${searchBox(searchIndexHref(site), { prominent: true })}
${headline}
${selfReportedCaveat(site)}
<div class="home-grid">
<div>
${ranking}
</div>
<div>
${map}
${trend}
</div>
</div>
<h2 id="browse-h">Browse</h2>
<ul class="links">
<li>${link(site, sp.citation_url, `Salaries by specialty (${sp.count} specialties)`)}</li>
<li>${link(site, st.citation_url, `Salaries by state (every state and DC)`)}</li>
<li>${link(site, inst.citation_url, `Resident salaries by teaching hospital (${inst.count} hospitals)`)}</li>
<li>${link(site, u('/methodology'), 'Methodology')} &middot; ${link(site, u('/license'), 'Licence and citation')}</li>
<li>${link(site, u('/contribute'), 'Report your pay')}: anonymous, moderated, published only as aggregates</li>
</ul>
<h2>Open data</h2>
<p>Every page has a JSON feed with the same figures under ${link(site, u('/data/api/v1/'), '/data/api/v1')}, free to use under ${esc(site.license)} with attribution; lists are also available as CSV. Everything at once: ${link(site, u('/data/api/v1/physpay-open-data.tar.gz'), 'one archive')} with a ${link(site, u('/data/api/v1/datapackage.json'), 'Data Package')}. The ${link(site, u('/changelog'), 'changelog')} lists each release, what it changed and how to cite it.</p>
</article>`;
  const reports = sp.n !== null ? `, from ${fmtCount(sp.n)} self-reported reports (data as of ${sp.as_of})` : '';
  return page(site, {
    title: 'Physician compensation benchmarks',
    description: `Physician salary data: median pay in ${published.length} of ${sp.count} specialties and by state${reports}, and resident pay scales; free under CC BY 4.0.`,
    canonical: u('/'),
    feeds: [sp.feed_url, st.feed_url],
    body,
    searchInBody: true,
    jsonLd: homeDatasetJsonLd(site, sp, st, dataYears(specialtyFeeds.values())),
  });
}

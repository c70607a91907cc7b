/**
 * Resident pay at each postgraduate year across teaching hospitals:
 *   /residency/pgy/{n}          every hospital whose scale has PGY-n, nationally (residency/pgy/{n}.json, n >= 2)
 *   /residency/levels/{state}   every hospital of one state at every level, one column per level (PGY-1 from
 *                               residency/institutions.json, each later level from its own feed)
 * Static pages linked from a level menu (PGY-1 is /residency) and a list of states, so every view is a plain
 * link: no query string, no script. Figures keep their path in their feed (institutions[i]) whatever order a
 * table shows them in; a cell of another feed than its page's names that feed itself (data-feed).
 */
import { pagePaths, type InstitutionsFeed, type ResidencyLevelFeed } from '../contract/open-feeds.ts';
import { csvPaths } from '../compute/open-csv.ts';
import { rankedBarsSvg } from './chart.ts';
import { attrs, esc } from './html.ts';
import { fig } from './figures.ts';
import { citeBlock, figure, href, link, metaLine, page, residencyCaveat, table, type SiteContext } from './layout.ts';

type Row = ResidencyLevelFeed['institutions'][number];
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const TOP = 15;

/** The levels' CSV (every hospital at every level). */
export const levelsCsvUrl = (site: Pick<SiteContext, 'baseUrl'>) => `${site.baseUrl}/${csvPaths.residencyLevels()}`;

/** The menu of levels: PGY-1 (/residency) to `max`, each a link, the current one (if any) marked aria-current. */
export function levelNav(site: SiteContext, current: number, max: number): string {
  if (max < 2) return '';
  const items: string[] = [];
  for (let pgy = 1; pgy <= max; pgy++) {
    items.push(`<li>${link(site, `${site.baseUrl}${pagePaths.residencyLevel(pgy)}`, `PGY-${pgy}`, pgy === current ? { 'aria-current': 'page' } : {})}</li>`);
  }
  return `<nav class="levels" aria-label="Postgraduate year"><ul>${items.join('')}</ul></nav>`;
}

/** Newest academic year first, then by national rank, then by slug (as /residency lists PGY-1). */
function ordered(f: ResidencyLevelFeed): { e: Row; i: number }[] {
  return f.institutions.map((e, i) => ({ e, i }))
    .sort((a, b) => b.e.academic_year.localeCompare(a.e.academic_year) || (a.e.rank_position ?? Infinity) - (b.e.rank_position ?? Infinity) || byName(a.e.institution.slug, b.e.institution.slug));
}

/** The national list: rank, hospital, state (its code: a narrow column), year, salary, adjusted, state rank. */
function rows(site: SiteContext, list: { e: Row; i: number }[]): string[] {
  return list.map(({ e, i }) => `<tr>${fig(`institutions[${i}].rank_position`, e.rank_position, 'rank', { tag: 'td', className: 'num' })}`
    + `<th scope="row">${link(site, e.citation_url, e.institution.name)}</th><td>${esc(e.institution.state.code)}</td><td>${esc(e.academic_year)}</td>`
    + fig(`institutions[${i}].salary`, e.salary, 'usd', { tag: 'td', className: 'num' })
    + fig(`institutions[${i}].col_adjusted`, e.col_adjusted, 'usd', { tag: 'td', className: 'num' })
    // without "of N": the list stays light (about 300 rows)
    + `${fig(`institutions[${i}].state_rank`, e.state_rank, 'rank', { tag: 'td', className: 'num' })}</tr>`);
}

/** The states with hospitals at this level: slug -> name and count, by name. */
function statesOf(f: ResidencyLevelFeed): { slug: string; name: string; count: number }[] {
  const m = new Map<string, { slug: string; name: string; count: number }>();
  for (const e of f.institutions) {
    const s = m.get(e.institution.state.slug) ?? { slug: e.institution.state.slug, name: e.institution.state.name, count: 0 };
    s.count += 1;
    m.set(s.slug, s);
  }
  return [...m.values()].sort((a, b) => byName(a.name, b.name));
}

const adjustNote = (pgy: number) => `Adjusted: PGY-${pgy} salary divided by the state cost-of-living index / 100, as for PGY-1. Scales are ranked only against scales of the same academic year (Year).`;

export function renderResidencyLevelPage(site: SiteContext, f: ResidencyLevelFeed): string {
  const n = f.pgy;
  const order = ordered(f);
  const newestYear = order[0]?.e.academic_year ?? '';
  const top = order.filter((x) => x.e.col_adjusted !== null && x.e.academic_year === newestYear).slice(0, TOP);
  const chart = rankedBarsSvg(
    { id: 'ranked', title: `Top ${top.length} teaching hospitals by cost-of-living-adjusted PGY-${n} salary, ${newestYear} scales`, desc: top.map((x) => `${x.e.rank_position}. ${x.e.institution.name}`).join(', ') },
    top.map(({ e, i }) => ({ label: e.institution.name, value: e.col_adjusted!, field: `institutions[${i}].col_adjusted`, rank: e.rank_position })),
  );
  const states = statesOf(f);
  const without = f.without_level
    ? ` ${esc(f.without_level)} hospital${f.without_level === 1 ? '\'s scale ends' : 's\' scales end'} before PGY-${n}: not listed (no PGY-${n} salary is published for ${f.without_level === 1 ? 'it' : 'them'}).`
    : '';
  const body = `<article${attrs({ 'data-feed': f.feed_url })}>
<h1>PGY-${n} resident salaries by teaching hospital</h1>
${levelNav(site, n, f.max_pgy)}
<p class="lead">Published PGY-${n} (postgraduate year ${n}) salaries of ${esc(f.count)} teaching hospitals, ranked by salary adjusted for the state's cost of living.${without}</p>
${metaLine(f, null)}
${residencyCaveat(site)}
<h2>Highest adjusted PGY-${n} pay, ${esc(newestYear)}</h2>
${figure(chart, `${adjustNote(n)} Among ${newestYear} scales.`)}
<h2>Every teaching hospital with a PGY-${n} salary</h2>
${table(`Teaching hospitals by cost-of-living-adjusted PGY-${n} salary`, ['Rank', 'Teaching hospital', 'State', 'Year', `PGY-${n} salary`, `PGY-${n} adjusted`, 'State rank'], rows(site, order), { numericFrom: 4 })}
<p class="meta">${esc(adjustNote(n))}</p>
<h2 id="states-h">By state</h2>
<p>Each state's hospitals at every PGY level side by side (in brackets: how many have a PGY-${n} salary).</p>
<ul class="columns">${states.map((s) => `<li>${link(site, `${site.baseUrl}${pagePaths.residencyLevelsState(s.slug)}`, s.name)} (${esc(s.count)})</li>`).join('')}</ul>
${citeBlock(site, f, 'attr', { csv: levelsCsvUrl(site) })}
</article>`;
  return page(site, {
    title: `PGY-${n} resident salaries by teaching hospital`,
    description: `PGY-${n} resident salaries of ${f.count} US teaching hospitals, ranked by cost-of-living-adjusted pay.`,
    canonical: `${site.baseUrl}${pagePaths.residencyLevel(n)}`,
    feeds: [f.feed_url],
    body,
  });
}

/**
 * One state's teaching hospitals at every level: a row per hospital, a column per PGY level (adjusted for the
 * state's cost of living, as nationally). `levels` holds the feeds of PGY-2 and up.
 */
export function renderResidencyLevelsStatePage(site: SiteContext, list: InstitutionsFeed, levels: ResidencyLevelFeed[], stateSlug: string): string {
  const inState = list.institutions.map((e, i) => ({ e, i })).filter((x) => x.e.institution.state.slug === stateSlug)
    .sort((a, b) => b.e.academic_year.localeCompare(a.e.academic_year) || (b.e.pgy1_col_adjusted ?? -Infinity) - (a.e.pgy1_col_adjusted ?? -Infinity) || byName(a.e.institution.slug, b.e.institution.slug));
  const st = inState[0]!.e.institution.state;
  const top = Math.max(1, ...inState.map((x) => x.e.levels));
  const byLevel = [...levels].filter((f) => f.pgy <= top).sort((a, b) => a.pgy - b.pgy);
  const at = byLevel.map((f) => new Map(f.institutions.map((e, j) => [e.institution.slug, { e, j }] as const)));
  const rows = inState.map(({ e, i }) => {
    const cells = byLevel.map((f, k) => {
      const hit = at[k]!.get(e.institution.slug);
      return hit
        ? `<td${attrs({ class: 'num', 'data-feed': f.feed_url })}>${fig(`institutions[${hit.j}].col_adjusted`, hit.e.col_adjusted, 'usd')}</td>`
        : '<td class="num na" data-value="">none</td>';
    });
    return `<tr><th scope="row">${link(site, e.citation_url, e.institution.name)}</th><td>${esc(e.institution.city)}</td><td>${esc(e.academic_year)}</td>`
      + fig(`institutions[${i}].pgy1_col_adjusted`, e.pgy1_col_adjusted, 'usd', { tag: 'td', className: 'num' })
      + `${cells.join('')}</tr>`;
  });
  const head = ['Teaching hospital', 'City', 'Year', ...Array.from({ length: byLevel.length + 1 }, (_, k) => `PGY-${k + 1}`)];
  const index = inState[0]!.e.cost_of_living_index;
  const body = `<article${attrs({ 'data-feed': list.feed_url })}>
<h1>Resident salaries by PGY level in ${esc(st.name)}</h1>
<p class="lead">Published salaries of ${esc(inState.length)} teaching hospital${inState.length === 1 ? '' : 's'} in ${esc(st.name)} at each postgraduate year, adjusted for the cost of living like the national lists.</p>
${metaLine(list, null)}
${residencyCaveat(site)}
${table(`Teaching hospitals in ${st.name}: cost-of-living-adjusted salary by postgraduate year`, head, rows, { numericFrom: 3 })}
<p class="meta">Each salary divided by the ${esc(st.name)} cost-of-living index${index !== null ? ` (${esc(index)})` : ''} / 100, as nationally; every hospital here has the same index, so the order is that of the published salaries. "none": the hospital's scale ends before that year (nothing published, not $0). Each hospital's page has its published scale.</p>
<h2>Every state</h2>
${levelNav(site, 0, top)}
${citeBlock(site, list, 'attr', { csv: levelsCsvUrl(site) })}
<ul class="links">${byLevel.map((f) => `<li>PGY-${f.pgy} feed: ${link(site, f.feed_url, href(f.feed_url, site.baseUrl), { type: 'application/json' })}</li>`).join('')}</ul>
</article>`;
  return page(site, {
    title: `Resident salaries by PGY level in ${st.name}`,
    description: `Resident salaries of ${inState.length} teaching hospital${inState.length === 1 ? '' : 's'} in ${st.name} at each postgraduate year (PGY), adjusted for cost of living.`,
    canonical: `${site.baseUrl}${pagePaths.residencyLevelsState(stateSlug)}`,
    feeds: [list.feed_url, ...byLevel.map((f) => f.feed_url)],
    body,
  });
}

/** Every level page and every state's levels page: URL path -> HTML. */
export function renderResidencyLevelPages(site: SiteContext, list: InstitutionsFeed, levels: ResidencyLevelFeed[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of levels) out.set(pagePaths.residencyLevel(f.pgy), renderResidencyLevelPage(site, f));
  if (levels.length === 0) return out; // every scale is one year long: /residency and the state pages say it all
  const states = [...new Set(list.institutions.map((e) => e.institution.state.slug))].sort();
  for (const slug of states) out.set(pagePaths.residencyLevelsState(slug), renderResidencyLevelsStatePage(site, list, levels, slug));
  return out;
}

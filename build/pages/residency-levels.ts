/**
 * Resident pay at one postgraduate year across teaching hospitals (residency/pgy/{n}.json, n >= 2):
 *   /residency/pgy/{n}          every hospital whose scale has PGY-n, nationally
 *   /residency/pgy/{n}/{state}  the same hospitals of one state
 * Static pages, one per level and per level and state, linked from a level menu (PGY-1 is /residency, and in
 * a state the state page's residency section), so every view is a plain link: no query string, no script.
 * Figures keep their path in the level feed (institutions[i]) whatever order a table shows them in.
 */
import { pagePaths, type ResidencyLevelFeed } from '../contract/open-feeds.ts';
import { rankedBarsSvg } from './chart.ts';
import { attrs, esc } from './html.ts';
import { fig } from './figures.ts';
import { citeBlock, figure, href, link, metaLine, page, residencyCaveat, table, type SiteContext } from './layout.ts';

type Row = ResidencyLevelFeed['institutions'][number];
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const TOP = 15;

/** A link to one of our URLs that may carry a #fragment (layout's href keeps path and query only). */
function linkTo(site: SiteContext, url: string, text: string, extra: Record<string, string> = {}): string {
  const [u, frag] = url.split('#');
  return `<a${attrs({ href: `${href(u!, site.baseUrl)}${frag ? `#${frag}` : ''}`, ...extra })}>${esc(text)}</a>`;
}

/** The levels' CSV (every hospital at every level). */
export const levelsCsvUrl = (site: Pick<SiteContext, 'baseUrl'>) => `${site.baseUrl}/data/api/v1/residency/pgy-levels.csv`;

/**
 * The menu of levels: PGY-1 to `max`, each a link (the current one marked aria-current). `target` gives a
 * level's page, or null when there is none (then the level is left out).
 */
export function levelNav(site: SiteContext, current: number, max: number, target: (pgy: number) => string | null = (p) => `${site.baseUrl}${pagePaths.residencyLevel(p)}`): string {
  if (max < 2) return '';
  const items: string[] = [];
  for (let pgy = 1; pgy <= max; pgy++) {
    const url = target(pgy);
    if (url === null) continue;
    items.push(`<li>${linkTo(site, url, `PGY-${pgy}`, pgy === current ? { 'aria-current': 'page' } : {})}</li>`);
  }
  return `<nav class="levels" aria-label="Postgraduate year"><ul>${items.join('')}</ul></nav>`;
}

/** Newest academic year first, then by national rank, then by slug (as /residency lists PGY-1). */
function ordered(f: ResidencyLevelFeed, keep: (r: Row) => boolean = () => true): { e: Row; i: number }[] {
  return f.institutions.map((e, i) => ({ e, i })).filter((x) => keep(x.e))
    .sort((a, b) => b.e.academic_year.localeCompare(a.e.academic_year) || (a.e.rank_position ?? Infinity) - (b.e.rank_position ?? Infinity) || byName(a.e.institution.slug, b.e.institution.slug));
}

const rankOf = (i: number, pos: number | null, of: number | null, field: 'rank' | 'state_rank') =>
  `<td class="num">${fig(`institutions[${i}].${field === 'rank' ? 'rank_position' : 'state_rank'}`, pos, 'rank')}${pos !== null && of !== null ? ` of ${fig(`institutions[${i}].${field === 'rank' ? 'rank_of' : 'state_rank_of'}`, of, 'rank')}` : ''}</td>`;

function rows(site: SiteContext, f: ResidencyLevelFeed, list: { e: Row; i: number }[], inState: boolean): string[] {
  return list.map(({ e, i }) => {
    const first = inState ? rankOf(i, e.state_rank, e.state_rank_of, 'state_rank') : fig(`institutions[${i}].rank_position`, e.rank_position, 'rank', { tag: 'td', className: 'num' });
    // the national list stays light (about 300 rows): its state rank without "of N" (the state's own page has it)
    const last = inState ? rankOf(i, e.rank_position, e.rank_of, 'rank') : fig(`institutions[${i}].state_rank`, e.state_rank, 'rank', { tag: 'td', className: 'num' });
    // the national list names the state (its code: a narrow column), a state's list the city
    const where = inState ? e.institution.city : e.institution.state.code;
    return `<tr>${first}<th scope="row">${link(site, e.citation_url, e.institution.name)}</th><td>${esc(where)}</td><td>${esc(e.academic_year)}</td>`
      + fig(`institutions[${i}].salary`, e.salary, 'usd', { tag: 'td', className: 'num' })
      + fig(`institutions[${i}].col_adjusted`, e.col_adjusted, 'usd', { tag: 'td', className: 'num' })
      + `${last}</tr>`;
  });
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
${table(`Teaching hospitals by cost-of-living-adjusted PGY-${n} salary`, ['Rank', 'Teaching hospital', 'State', 'Year', `PGY-${n} salary`, `PGY-${n} adjusted`, 'State rank'], rows(site, f, order, false), { numericFrom: 4 })}
<p class="meta">${esc(adjustNote(n))}</p>
<h2 id="states-h">PGY-${n} by state</h2>
<ul class="columns">${states.map((s) => `<li>${link(site, `${site.baseUrl}${pagePaths.residencyLevelState(n, s.slug)}`, s.name)} (${esc(s.count)})</li>`).join('')}</ul>
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
 * One state's hospitals at one level. `levelsIn(pgy)`: whether the state has a page at that level (PGY-1's
 * is the state page's residency section).
 */
export function renderResidencyLevelStatePage(site: SiteContext, f: ResidencyLevelFeed, stateSlug: string, levelsIn: (pgy: number) => boolean): string {
  const n = f.pgy;
  const list = ordered(f, (e) => e.institution.state.slug === stateSlug)
    .sort((a, b) => b.e.academic_year.localeCompare(a.e.academic_year) || (a.e.state_rank ?? Infinity) - (b.e.state_rank ?? Infinity) || byName(a.e.institution.slug, b.e.institution.slug));
  const st = list[0]!.e.institution.state;
  const nav = levelNav(site, n, f.max_pgy, (p) => (p === 1 ? `${site.baseUrl}${pagePaths.state(stateSlug)}#residency` : levelsIn(p) ? `${site.baseUrl}${pagePaths.residencyLevelState(p, stateSlug)}` : null));
  const body = `<article${attrs({ 'data-feed': f.feed_url })}>
<h1>PGY-${n} resident salaries in ${esc(st.name)}</h1>
${nav}
<p class="lead">Published PGY-${n} salaries of ${esc(list.length)} teaching hospital${list.length === 1 ? '' : 's'} in ${esc(st.name)}, ranked within the state by salary adjusted for the cost of living, with each hospital's national rank.</p>
${metaLine(f, null)}
${residencyCaveat(site)}
${table(`Teaching hospitals in ${st.name} by cost-of-living-adjusted PGY-${n} salary`, ['State rank', 'Teaching hospital', 'City', 'Year', `PGY-${n} salary`, `PGY-${n} adjusted`, 'National rank'], rows(site, f, list, true), { numericFrom: 4 })}
<p class="meta">${esc(adjustNote(n))}</p>
<p>${link(site, `${site.baseUrl}${pagePaths.residencyLevel(n)}`, `PGY-${n} in every state`)} · ${linkTo(site, `${site.baseUrl}${pagePaths.state(stateSlug)}#residency`, `Every teaching hospital in ${st.name}`)}</p>
${citeBlock(site, f, 'attr', { heading: `Cite the PGY-${n} data`, csv: levelsCsvUrl(site) })}
</article>`;
  return page(site, {
    title: `PGY-${n} resident salaries in ${st.name}`,
    description: `PGY-${n} resident salaries of ${list.length} teaching hospital${list.length === 1 ? '' : 's'} in ${st.name}, adjusted for cost of living.`,
    canonical: `${site.baseUrl}${pagePaths.residencyLevelState(n, stateSlug)}`,
    feeds: [f.feed_url],
    body,
  });
}

/** Every level page and level-in-state page: URL path -> HTML. */
export function renderResidencyLevelPages(site: SiteContext, levels: ResidencyLevelFeed[]): Map<string, string> {
  const out = new Map<string, string>();
  const has = new Set(levels.flatMap((f) => f.institutions.map((e) => `${f.pgy}/${e.institution.state.slug}`)));
  for (const f of levels) {
    out.set(pagePaths.residencyLevel(f.pgy), renderResidencyLevelPage(site, f));
    for (const s of statesOf(f)) out.set(pagePaths.residencyLevelState(f.pgy, s.slug), renderResidencyLevelStatePage(site, f, s.slug, (p) => has.has(`${p}/${s.slug}`)));
  }
  return out;
}

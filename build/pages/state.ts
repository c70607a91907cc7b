/**
 * /states/{state-slug}: all specialties in one state (states/{state}.json), its top specialties against
 * their national medians, and every specialty's cell in the state (specialties/{slug}/states/{state}.json).
 */
import type { SpecialtyStateFeed, StateFeed, StateInstitutionsFeed } from '../contract/open-feeds.ts';
import { stateDatasetJsonLd } from './jsonld.ts';
import { FLOORS } from '../compute/stats.ts';
import { rankedBarsSvg } from './chart.ts';
import { attrs, esc, fmtCount } from './html.ts';
import { fig } from './figures.ts';
import { distributionBlock, lead, noticeBlock, roundedNote, stateContributeLine } from './blocks.ts';
import { RANKING_MIN_N } from '../contract/open-feeds.ts';
import { citeBlock, figure, link, metaLine, page, selfReportedCaveat, table, type SiteContext } from './layout.ts';
import { cellRows } from './specialty.ts';

/** The state's teaching hospitals (residency/states/{state}.json, whose citation_url is this page). */
function residencySection(site: SiteContext, r: StateInstitutionsFeed | undefined, st: string, levelsUrl?: string): string {
  if (!r) return '';
  const rows = r.institutions.map((e, k) => `<tr>${fig(`institutions[${k}].state_rank`, e.state_rank, 'rank', { tag: 'td', className: 'num' })}<th scope="row">${link(site, e.citation_url, e.institution.name)}</th><td>${esc(e.academic_year)}</td>`
    + fig(`institutions[${k}].pgy1_salary`, e.pgy1_salary, 'usd', { tag: 'td', className: 'num' })
    + fig(`institutions[${k}].pgy1_col_adjusted`, e.pgy1_col_adjusted, 'usd', { tag: 'td', className: 'num' })
    + '</tr>');
  return `<section${attrs({ 'data-feed': r.feed_url, 'aria-labelledby': 'residency-h', id: 'residency' })}>
<h2 id="residency-h">Resident pay at teaching hospitals in ${esc(st)}</h2>
<p>Published PGY-1 pay scales, newest academic year first; within a year, ranked by PGY-1 pay adjusted for the state's cost of living. These are scales the hospitals publish, not self-reported salaries.</p>
${metaLine(r, null)}
${table(`Teaching hospitals in ${st}: PGY-1 pay`, ['Rank in state', 'Teaching hospital', 'Academic year', 'PGY-1 salary', 'Adjusted for cost of living'], rows, { numericFrom: 3 })}
${levelsUrl ? `<p>${link(site, levelsUrl, `Pay at every postgraduate year (PGY-1 and up) at these hospitals`)}</p>
` : ''}${citeBlock(site, r, 'residency-attr', { heading: `Cite the resident pay list for ${st}` })}
</section>`;
}

/**
 * Why no specialty is ranked: the ranking takes specialties with RANKING_MIN_N reports in the state, more than
 * the floor at which a specialty's figures are published, so a state can have published figures and no ranking.
 */
function noTopText(st: string, withData: number): string {
  const count = fig('specialties_with_data', withData, 'count');
  return withData > 0
    ? `<p id="no-ranking">No specialty has the ${RANKING_MIN_N} reports in ${esc(st)} needed to be ranked; ${count} ${withData === 1 ? 'has' : 'have'} published figures (from ${FLOORS.specialtyInState} reports), listed below.</p>`
    : `<p id="no-ranking">No specialty has published figures in ${esc(st)} yet (each needs at least ${FLOORS.specialtyInState} reports; ${RANKING_MIN_N} to be ranked here). Specialties with published figures in ${esc(st)}: ${count}.</p>`;
}

export function renderStatePage(site: SiteContext, f: StateFeed, cells: SpecialtyStateFeed[], residency?: StateInstitutionsFeed, levelsUrl?: string): string {
  const st = f.state.name;
  const floor = FLOORS.state;
  const top = f.top_specialties;
  const col = f.cost_of_living;
  const chart = rankedBarsSvg(
    { id: 'top-specialties', title: `Top paying specialties in ${st}`, desc: top.map((t) => `${t.rank}. ${t.specialty.name} (n=${t.n})`).join(', ') },
    top.map((t, k) => ({
      label: `${t.specialty.name} (n=${t.n})`,
      rank: t.rank,
      value: t.median,
      field: `top_specialties[${k}].median`,
      reference: t.national_median !== null ? { value: t.national_median, field: `top_specialties[${k}].national_median` } : null,
    })),
  );
  const topTable = table(
    `Top paying specialties in ${st}: median total compensation against the US median`,
    ['Rank', 'Specialty', 'Reports (n)', 'Median', 'US median', 'Difference'],
    top.map((t, k) => `<tr>${fig(`top_specialties[${k}].rank`, t.rank, 'rank', { tag: 'td', className: 'num' })}<th scope="row">${link(site, t.citation_url, t.specialty.name)}</th>`
      + fig(`top_specialties[${k}].n`, t.n, 'count', { tag: 'td', className: 'num' })
      + fig(`top_specialties[${k}].median`, t.median, 'usd', { tag: 'td', className: 'num' })
      + fig(`top_specialties[${k}].national_median`, t.national_median, 'usd', { tag: 'td', className: 'num', floor: FLOORS.national })
      + fig(`top_specialties[${k}].difference_from_national_pct`, t.difference_from_national_pct, 'pct', { tag: 'td', className: 'num' })
      + '</tr>'),
    { numericFrom: 2 },
  );
  const colRows = [
    `<tr><th scope="row">Cost-of-living index (US = 100)</th>${fig('cost_of_living.index', col.index, 'index', { tag: 'td', className: 'num' })}</tr>`,
    `<tr><th scope="row">Median adjusted for cost of living</th>${fig('col_adjusted_median', f.col_adjusted_median, 'usd', { tag: 'td', className: 'num', floor })}</tr>`,
  ];
  const body = `<article${attrs({ 'data-feed': f.feed_url })}>
<h1>Physician salaries in ${esc(st)}</h1>
${lead(`Median total compensation of physicians in ${st}, all specialties`, f, floor)}
${noticeBlock(f.notice)}
${metaLine(f, floor)}
${roundedNote(site, f)}
${selfReportedCaveat(site)}
<h2>Pay distribution</h2>
${distributionBlock(f, { id: 'dist', title: `${st}: total compensation, all specialties`, caption: `${st}, all specialties, annual total compensation.`, floor })}
<h2>Cost of living</h2>
${table(`${st}: cost of living`, ['Measure', 'Value'], colRows)}
<p class="meta">Source: ${esc(col.source ?? 'not available')}${col.year !== null ? `, ${esc(col.year)}` : ''} (${esc(col.basis)}). The adjusted median is the median divided by the index / 100.</p>
<h2>Top paying specialties</h2>
${top.length ? `${figure(chart, `Specialties ranked by median total compensation in ${st}; dashed marker: the specialty's US median.`)}\n${topTable}` : noTopText(st, f.specialties_with_data)}
${top.length ? `<p>Specialties with published figures in ${esc(st)}: ${fig('specialties_with_data', f.specialties_with_data, 'count')}.</p>` : ''}
${stateContributeLine(site, f.state)}
<h2>Every specialty in ${esc(st)}</h2>
${table(`Median total compensation of each specialty in ${st}`, ['Specialty', 'Reports (n)', 'Median', 'vs US median'], cellRows(site, cells, (c) => c.specialty.name))}
${residencySection(site, residency, st, levelsUrl)}
${citeBlock(site, f, 'attr')}
</article>`;
  return page(site, {
    title: `Physician salaries in ${st}`,
    description: f.median !== null ? `Physician salaries in ${st}: median total compensation from ${fmtCount(f.n ?? 0)} self-reported reports (data as of ${f.as_of}), top specialties and cost of living.` : `Physician salaries in ${st} (figures withheld: too few reports).`,
    canonical: f.citation_url,
    feeds: [f.feed_url],
    body,
    noindex: f.median === null,
    jsonLd: stateDatasetJsonLd(site, f),
  });
}

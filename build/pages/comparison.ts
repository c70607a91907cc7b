/**
 * /compare/{a}/{b}[/{state}]: two specialties side by side (compare/{a}/{b}[/states/{state}].json, which
 * names this page as its citation). Rendered by the server on request from the comparison document, like
 * the document itself; pure.
 */
import type { ComparisonFeed, SpecialtyPayDocument } from '../contract/open-feeds.ts';
import { FLOORS } from '../compute/stats.ts';
import { attrs, esc } from './html.ts';
import { fig } from './figures.ts';
import { noticeBlock } from './blocks.ts';
import { citeBlock, link, metaLine, page, selfReportedCaveat, table, type SiteContext } from './layout.ts';

export function renderComparisonPage(site: SiteContext, d: ComparisonFeed): string {
  const a = d.specialty_a;
  const b = d.specialty_b;
  const where = d.state ? ` in ${d.state.name}` : ' in the United States';
  const floor = d.state ? FLOORS.specialtyInState : FLOORS.national;
  const row = (key: 'specialty_a' | 'specialty_b', s: SpecialtyPayDocument) => {
    const cells = (['n', 'p25', 'median', 'p75', 'mean'] as const).map((k) => fig(`${key}.${k}`, s[k], k === 'n' ? 'count' : 'usd', { tag: 'td', className: 'num', floor }));
    return `<tr><th scope="row">${link(site, s.citation_url, s.specialty.name)}</th>${cells.join('')}</tr>`;
  };
  const c = d.comparison;
  const verdict = c.median_difference === null
    ? '<p>No difference is given: at least one median is withheld.</p>'
    : `<p>The median of ${esc(a.specialty.name)} is ${fig('comparison.median_difference', c.median_difference, 'usd')} `
      + `(${fig('comparison.median_difference_pct', c.median_difference_pct, 'pct')}) compared with ${esc(b.specialty.name)}${esc(where)}.</p>`;
  const body = `<article${attrs({ 'data-feed': d.feed_url })}>
<h1>${esc(a.specialty.name)} vs ${esc(b.specialty.name)}: salaries${esc(where)}</h1>
${noticeBlock(d.notice)}
${metaLine(d, floor)}
${selfReportedCaveat(site)}
${table(`${a.specialty.name} and ${b.specialty.name}${where}: total compensation`, ['Specialty', 'Reports (n)', 'P25', 'Median', 'P75', 'Mean'], [row('specialty_a', a), row('specialty_b', b)])}
${verdict}
${citeBlock(site, d, 'attr')}
</article>`;
  return page(site, {
    title: `${a.specialty.name} vs ${b.specialty.name} salaries${where}`,
    description: `Median total compensation of ${a.specialty.name} and ${b.specialty.name}${where}, side by side, from self-reported reports (data as of ${d.as_of}).`,
    canonical: d.citation_url,
    feeds: [d.feed_url],
    body,
  });
}

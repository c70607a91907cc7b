/**
 * /salaries/{slug}/{state-slug}: one specialty in one state (specialties/{slug}/states/{state}.json),
 * drawn against the national median, with the "Where does my pay fall?" box (pay-check.ts).
 */
import type { SpecialtyStateFeed } from '../contract/open-feeds.ts';
import { FLOORS } from '../compute/stats.ts';
import { attrs, esc, fmtCount } from './html.ts';
import { fig } from './figures.ts';
import { contributeLine, distributionBlock, lead, noticeBlock, roundedNote } from './blocks.ts';
import { payCheckBlock } from './pay-check.ts';
import { citeBlock, link, metaLine, page, selfReportedCaveat, type SiteContext } from './layout.ts';

export function renderSpecialtyStatePage(site: SiteContext, f: SpecialtyStateFeed): string {
  const sp = f.specialty.name;
  const st = f.state.name;
  const floor = FLOORS.specialtyInState;
  const payCheck = payCheckBlock(f, { scope: `${sp} in ${st}`, floor });
  const body = `<article${attrs({ 'data-feed': f.feed_url })}>
<h1>${esc(sp)} salary in ${esc(st)}</h1>
${lead(`Median total compensation in ${sp}, ${st}`, f, floor)}
${noticeBlock(f.notice)}
${metaLine(f, floor)}
${roundedNote(site, f)}
${selfReportedCaveat(site)}
<p>US median for ${esc(sp)}: ${fig('national_median', f.national_median, 'usd', { floor: FLOORS.national })}; difference from the US median: ${fig('difference_from_national_pct', f.difference_from_national_pct, 'pct')}.</p>
<h2>Pay distribution</h2>
${distributionBlock(f, { id: 'dist', title: `${sp} in ${st}: total compensation`, caption: `${sp} in ${st}, annual total compensation.`, floor, reference: { value: f.national_median, label: 'US median', field: 'national_median' } })}
${payCheck.html}
${contributeLine(site, sp, f.specialty.slug, f.median === null, f.state)}
<h2>More</h2>
<ul class="links"><li>${link(site, `${site.baseUrl}/salaries/${f.specialty.slug}`, `${sp} salary nationally and in every state`)}</li><li>${link(site, `${site.baseUrl}/states/${f.state.slug}`, `Physician salaries in ${st}`)}</li></ul>
${citeBlock(site, f, 'attr')}
</article>`;
  return page(site, {
    title: `${sp} salary in ${st}`,
    description: f.median !== null ? `${sp} salary in ${st}: median total compensation from ${fmtCount(f.n ?? 0)} self-reported reports (data as of ${f.as_of}).` : `${sp} salary in ${st} (figures withheld: too few reports).`,
    canonical: f.citation_url,
    feeds: [f.feed_url],
    body,
    payCheck: payCheck.script,
    noindex: f.median === null,
  });
}

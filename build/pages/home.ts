/** The home page (/): what the site is, and the way in to every page kind. */
import type { InstitutionsFeed, SpecialtiesFeed, StatesFeed } from '../contract/open-feeds.ts';
import { esc } from './html.ts';
import { link, page, selfReportedCaveat, type SiteContext } from './layout.ts';

export function renderHomePage(site: SiteContext, sp: SpecialtiesFeed, st: StatesFeed, inst: InstitutionsFeed): string {
  const u = (p: string) => `${site.baseUrl}${p}`;
  const body = `<article>
<h1>Physician compensation benchmarks</h1>
<p class="lead">Median pay and percentiles of US physicians by specialty and state, from moderated self-reported salary reports, and published resident pay scales of teaching hospitals.</p>
${selfReportedCaveat(site)}
<ul class="links">
<li>${link(site, sp.citation_url, `Salaries by specialty (${sp.count} specialties)`)}</li>
<li>${link(site, st.citation_url, `Salaries by state (every state and DC)`)}</li>
<li>${link(site, inst.citation_url, `Resident salaries by teaching hospital (${inst.count} hospitals)`)}</li>
<li>${link(site, u('/methodology'), 'Methodology')} &middot; ${link(site, u('/license'), 'Licence and citation')}</li>
<li>${link(site, u('/contribute'), 'Report your pay')}: anonymous, moderated, published only as aggregates</li>
</ul>
<h2>Open data</h2>
<p>Every page has a JSON feed with the same figures under ${link(site, u('/data/api/v1/'), '/data/api/v1')}, free to use under ${esc(site.license)} with attribution; lists are also available as CSV.</p>
</article>`;
  return page(site, { title: 'Physician compensation benchmarks', description: 'Physician salary data by specialty and state, and resident pay scales, free under CC BY 4.0.', canonical: u('/'), body });
}

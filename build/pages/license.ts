/** /license: the CC BY 4.0 terms in short and how to cite, with a ready-made attribution line to copy. */
import type { SpecialtiesFeed } from '../contract/open-feeds.ts';
import { attrs, esc } from './html.ts';
import { citeBlock, link, page, type SiteContext } from './layout.ts';

export function renderLicensePage(site: SiteContext, example: SpecialtiesFeed): string {
  const u = (p: string) => `${site.baseUrl}${p}`;
  const body = `<article${attrs({ 'data-feed': example.feed_url })}>
<h1>Licence and citation</h1>
<p class="lead">The aggregate data (medians, percentiles, means and report counts) is licensed under ${link(site, site.licenseUrl, `Creative Commons Attribution 4.0 International (${site.license})`)}.</p>
<h2>What you may do</h2>
<p>Share and adapt the figures for any purpose, including commercially, as long as you:</p>
<ul>
<li>credit ${esc(site.publisher)};</li>
<li>link the source page of the figures (each feed&rsquo;s <code>citation_url</code>) and the licence;</li>
<li>say whether you changed the data (for example, re-rounded or combined it).</li>
</ul>
<h2>How to cite a figure</h2>
<p>Link its <code>citation_url</code>, give <code>n</code> (the number of reports) and <code>as_of</code> (the data date), and say the data is self-reported (for resident pay: that the figures are the teaching hospitals&rsquo; published pay scales). Every page and JSON feed carries a ready-made line in this shape:</p>
<p class="attribution">${esc(site.publisher)}, &quot;&lt;Specialty&gt; Salary Data,&quot; &lt;citation_url&gt; (data as of &lt;as_of&gt;; accessed &lt;access date&gt;). Licensed under ${esc(site.license)}.</p>
<p>The access date is the day you retrieved the data (the server fills in the day it serves the page or feed).</p>
<p>To cite the data as a whole, or many figures at once, name the release you used (each feed&rsquo;s <code>release</code> field): the ${link(site, u('/changelog#cite'), 'changelog')} gives the reference of the latest release, what each release changed, and each release&rsquo;s archive checksum; ${link(site, u('/CITATION.cff'), 'CITATION.cff')} gives it to reference managers.</p>
${citeBlock(site, example, 'attr', { heading: 'Example: cite the specialty overview', csv: example.feed_url.replace(/\.json$/, '.csv') })}
<h2>Downloads</h2>
<ul class="links">
<li>JSON feeds: ${link(site, u('/data/api/v1/specialties.json'), 'specialties')}, ${link(site, u('/data/api/v1/states.json'), 'states')}, ${link(site, u('/data/api/v1/residency/institutions.json'), 'teaching hospitals')} (and one feed per specialty, state and hospital, linked from each page).</li>
<li>CSV (RFC 4180, UTF-8, header row; every row repeats its licence, licence URL, citation URL and as-of date): ${link(site, u('/data/api/v1/specialties.csv'), 'specialties.csv')}, ${link(site, u('/data/api/v1/specialty-states.csv'), 'specialty-states.csv')}, ${link(site, u('/data/api/v1/states.csv'), 'states.csv')}, ${link(site, u('/data/api/v1/specialty-offer-components.csv'), 'specialty-offer-components.csv')} (the rest of the offer), ${link(site, u('/data/api/v1/residency/institutions.csv'), 'institutions.csv')}.</li>
</ul>
<p>How the figures are made: ${link(site, u('/methodology'), 'methodology')}.</p>
</article>`;
  return page(site, { title: 'Licence and citation', description: `The ${site.publisher} aggregate data is licensed ${site.license}: how to credit and cite it.`, canonical: u('/license'), body });
}

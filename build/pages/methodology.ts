/** /methodology: how the figures are collected, moderated, excluded, floored, rounded and compared. */
import { FLOORS, ROUNDING_MAX_N } from '../compute/stats.ts';
import { MIN_SAMPLE, SUFFICIENT_SAMPLE, methodology } from '../compute/keyed.ts';
import { EXPERIENCE_BANDS } from '../compute/stats.ts';
import { esc, fmtMoney } from './html.ts';
import { offerQuantileMoveBound } from '../compute/offer-figures.ts';
import { DISCLOSURE_METHOD_VERSION, NOISE_SPAN, QUANTILE_DECAY, QUANTILE_SPAN, RECORD_NOISE, SD_MIN_N, SQUARE_SPAN, quantileMoveBound } from '../compute/disclosure.ts';

const pctText = (logMove: number) => `${((Math.exp(logMove) - 1) * 100).toFixed(1)}%`;
import { TAILS_MIN_N } from '../compute/published.ts';
import type { AccuracyRow } from '../compute/disclosure-accuracy.ts';
import { RANKING_MIN_N, type HeadlineBasis } from '../contract/open-feeds.ts';
import { DEFINITIONS_PATH, FIGURE_DEFINITIONS } from '../contract/definitions.ts';
import type { KeyedOpenRow } from '../compute/compare.ts';
import { link, page, table, type SiteContext } from './layout.ts';

function keyedVsOpenTable(rows: KeyedOpenRow[]): string {
  if (rows.length === 0) return '';
  const cell = (v: number | null) => (v === null ? '<td class="num">withheld</td>' : `<td class="num">${esc(fmtMoney(v))}</td>`);
  const withDiff = (v: number | null, d: number | null) =>
    v === null ? '<td class="num">withheld</td>' : `<td class="num">${esc(fmtMoney(v))}<br>(${d === null ? '&ndash;' : `${d > 0 ? '+' : ''}${d.toFixed(1)}%`})</td>`;
  const abs = (xs: (number | null)[]) => xs.filter((x): x is number => x !== null).map(Math.abs);
  const medians = abs(rows.map((r) => r.median_diff_pct));
  const means = abs(rows.map((r) => r.mean_diff_pct));
  const largest = (xs: number[]) => (xs.length ? Math.max(...xs).toFixed(1) : '0.0');
  const typical = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!.toFixed(1) : '0.0');
  return `<p>Across specialties nationally, the keyed API&rsquo;s median differs from the open data&rsquo;s by ${typical(medians)}% for the typical specialty (at most ${largest(medians)}%), and its mean by ${typical(means)}% (at most ${largest(means)}%): winsorizing keeps the high and low reports the open data leaves out, which moves the mean more than the median. &ldquo;Outliers&rdquo; counts the reports the open data leaves out of the keyed API&rsquo;s n; a keyed figure&rsquo;s difference from the open one is in brackets. Computed by this build:</p>
${table('Keyed API and open data, national figures by specialty', ['Specialty', 'Outliers', 'Open median', 'Keyed median', 'Open mean', 'Keyed mean'], rows.map((r) =>
    `<tr><th scope="row">${esc(r.name)}</th><td class="num">${(r.keyed.n - r.open.n).toLocaleString('en-US')} of ${r.keyed.n.toLocaleString('en-US')}</td>${cell(r.open.median)}${withDiff(r.keyed.median, r.median_diff_pct)}${cell(r.open.mean)}${withDiff(r.keyed.mean, r.mean_diff_pct)}</tr>`,
  ), { numericFrom: 1, id: 'keyed-vs-open-table' })}`;
}

/** How the whole offer's figures (a specialty's `components`) are made. */
function offerMethod(): string {
  const move = (n: number) => `${((1 - Math.exp(-offerQuantileMoveBound(n))) * 100).toFixed(0)}% down to ${((Math.exp(offerQuantileMoveBound(n)) - 1) * 100).toFixed(0)}% up`;
  return `<h2 id="offer">The rest of the offer</h2>
<p>Reports may also say what else the contract holds: call pay, a sign-on or retention bonus, relocation, loan repayment, a CME allowance, weeks of paid time off, call nights a month, the pay model and its $/wRVU conversion rate, a non-compete (radius and length) and a partnership track. Each specialty page shows them nationally (&ldquo;The rest of the offer&rdquo;), from the same reports as its headline figures (the same compensation years and outlier rule), in the specialty&rsquo;s feed (<code>components</code>) and in <code>specialty-offer-components.csv</code>.</p>
<ul>
<li><strong>Who counts.</strong> A question counts the reports that answered it; &ldquo;none&rdquo; (0) is an answer, a blank is not. A <strong>share</strong> is the percent of the reports answering that have the item (for a pay model, of the reports naming one); the quartiles and medians are among the reports that have it (call nights: among those who take call).</li>
<li><strong>As reported.</strong> Amounts, weeks and nights are what the contract says, not scaled to full time.</li>
<li><strong>Floors.</strong> An item is published from ${FLOORS.national} reports that have it (its count and figures; otherwise &ldquo;withheld (fewer than ${FLOORS.national} reports)&rdquo;), a share from ${FLOORS.national} answers. Counts are perturbed by up to 2 like every count. In a share, a count below ${FLOORS.national} counts as ${FLOORS.national / 2}, whatever it is, so a share never tells whether 0 or 4 reports lack (or have) an item: 300 answers with 0 to 4 without give the same share, never 100%.</li>
<li><strong>Rounding.</strong> From ${ROUNDING_MAX_N} reports or fewer, dollar amounts to the nearest $1,000, $/wRVU to the nearest dollar and miles to the nearest 5; from 25, whole dollars, cents and whole miles. Weeks, nights and years are given to the half at any size; shares to one decimal.</li>
<li><strong>Protection.</strong> Money amounts and $/wRVU rates carry each report&rsquo;s permanent factor, like pay, and every figure its own draw. These groups are small (a few reports of a specialty have a retention bonus), so for an amount from ${ROUNDING_MAX_N} reports or fewer no quartile is one physician&rsquo;s amount: each is the Harrell&ndash;Davis estimate (a weighted average of every amount of the group, weights from the Beta distribution), and its draw is twice as wide as a headline percentile&rsquo;s: at most ${move(5)} for 5 reports, ${move(10)} for 10, ${move(24)} for 24. From 25 reports, and for weeks, nights, miles and years (coarse values many reports share), the percentiles are those of every other figure (type 7, the draws above). Read a figure of a few reports as a range.</li>
</ul>`;
}

const pct = (x: number | null) => (x === null ? '&ndash;' : `${(x * 100).toFixed(0)}%`);

/** The build's table of how far percentiles moved, by cell size (compute/disclosure-accuracy.ts). */
function accuracyTable(rows: AccuracyRow[]): string {
  if (rows.length === 0) return '';
  return `${table('What the protection costs: how far this build&rsquo;s percentiles are from the exact ones (keyed API, whole dollars)', [
    'Reports', 'Bound', 'Bound / interval', 'Figures', 'Largest move', 'Its share', 'Typical share',
  ], rows.map((r) =>
    `<tr><th scope="row">${r.n.toLocaleString('en-US')}</th><td class="num">${esc(fmtMoney(r.bound))}</td><td class="num">${pct(r.bound_share_of_ci)}</td><td class="num">${r.cells.toLocaleString('en-US')}</td><td class="num">${r.largest_move === null ? '&ndash;' : esc(fmtMoney(r.largest_move))}</td><td class="num">${pct(r.largest_move_share_of_ci)}</td><td class="num">${pct(r.median_share_of_ci)}</td></tr>`,
  ), { numericFrom: 1, id: 'disclosure-accuracy-table' })}
<p>&ldquo;Reports&rdquo;: the number of reports behind a figure. &ldquo;Bound&rdquo;: the largest move of the second step above (the drawn factor) for a median of a typical specialty in this build; &ldquo;bound / interval&rdquo;: its share of the 95% interval of the median that such a figure has anyway. &ldquo;Figures&rdquo;: the national, regional, state and single-year figures of the keyed API with about that many reports (0.8 to 1.25 times). &ldquo;Largest move&rdquo;: the largest distance between one of their published percentiles (P10 to P90) and the exact percentile of the undistorted pay, both steps together. &ldquo;Its share&rdquo;: that figure&rsquo;s largest move against the width of the 95% interval the same percentile has anyway; &ldquo;typical share&rdquo;: the median of that share over all the figures measured. Only these summaries are published, never the move of a particular figure.</p>`;
}

/** What every figure means (definitions.ts), as definitions.json says it: one entry per figure. */
function definitionsSection(site: SiteContext): string {
  const items = FIGURE_DEFINITIONS.map((d) => `<dt id="def-${esc(d.figure)}"><code>${esc(d.figure)}</code>: ${esc(d.title)}</dt>
<dd><ul><li><strong>Counts:</strong> ${esc(d.population)}.</li><li><strong>n:</strong> ${esc(d.n)}.</li><li><strong>Rounding:</strong> ${esc(d.rounding)}.</li><li><strong>Disclosure noise:</strong> ${esc(d.noise)}.</li><li><strong>Unit:</strong> ${esc(d.unit)}.</li></ul></dd>`);
  return `<h2 id="definitions">What every figure means</h2>
<p>The same definitions, word for word, are served as ${link(site, `${site.baseUrl}/${DEFINITIONS_PATH}`, 'definitions.json')}, in the ${link(site, `${site.baseUrl}/data/api/v1/datapackage.json`, 'Data Package')}&rsquo;s field descriptions and in the open data API&rsquo;s OpenAPI and JSON Schemas.</p>
<dl class="definitions">
${items.join('\n')}
</dl>`;
}

/** The methodology's "which reports" section: the headline basis, with this build's years when known. */
function basisSection(basis: HeadlineBasis | undefined): string {
  const years = basis ? ` In this release they are <strong>${basis.compensation_years.from}&ndash;${basis.compensation_years.to}</strong>.` : '';
  return `<h2 id="basis">Which reports the figures count</h2>
<p>Every open figure (the feeds, pages, CSV downloads and the tool server) is <strong>full-time pay of the most recent complete compensation years</strong>, and says so in its <code>basis</code> field and beside its headline:</p>
<ul>
<li><strong>Years.</strong> The three most recent complete compensation years (the operator can set how many). The year of the newest submission is still being reported and is left out: its reports are the early ones, and a year is complete only once it is over and reported on.${years} Pay rises from year to year, so mixing eight years would understate what a physician is paid today.</li>
<li><strong>Full-time basis.</strong> Part-time pay (10 to 39 hours a week) is scaled to 40 hours: total &times; 40 / hours. 40 to 100 hours a week is one full-time physician and counts as reported (a long week is not scaled down). A report without hours counts as reported, as full-time, unless its employment type is Part-Time (W-2): that pay cannot be scaled and is left out. A report with hours outside 10 to 100 is left out. Base, bonus and wRVUs are scaled with the total, so a report&rsquo;s pay per wRVU is what it reported.</li>
<li><strong>By year.</strong> A specialty&rsquo;s rows by compensation year keep every year, on the same full-time basis; the current year is marked partial.</li>
<li><strong>The pay check</strong> on each page places a pay among these published percentiles, so it should be given a full-time annual total; the form&rsquo;s thank-you page scales a part-time report&rsquo;s pay to 40 hours before placing it, and says so.</li>
</ul>
<p>The keyed benchmark API keeps the meaning of its specification: every compensation year unless <code>year_start</code>/<code>year_end</code> ask for a range, and pay as reported, with full-time pay in its own <code>fte_normalized</code> figures (which leave out reports without hours). So its national median is not the open data&rsquo;s headline (the table below shows by how much).</p>`;
}

export function renderMethodologyPage(site: SiteContext, keyedVsOpen: KeyedOpenRow[] = [], accuracy: AccuracyRow[] = [], basis?: HeadlineBasis): string {
  const m = methodology({ winsorLower: site.winsorLower, winsorUpper: site.winsorUpper });
  const u = (p: string) => `${site.baseUrl}${p}`;
  const floors = table('Publication floors (open data, pages and tool server)', ['Figure', 'Minimum reports'], [
    `<tr><th scope="row">National figure, or figure for a whole state</th><td class="num">${FLOORS.national}</td></tr>`,
    `<tr><th scope="row">One specialty within one state</th><td class="num">${FLOORS.specialtyInState}</td></tr>`,
    `<tr><th scope="row">10th and 90th percentiles (P10, P90)</th><td class="num">${FLOORS.tails}</td></tr>`,
  ]);
  const body = `<article>
<h1>Methodology</h1>
<p class="lead">How ${esc(site.publisher)} collects, moderates and publishes physician compensation figures.</p>
<nav aria-label="On this page"><ul class="links">
<li><a href="#collection">Collection and moderation</a></li><li><a href="#basis">Which reports the figures count</a></li><li><a href="#definitions">What every figure means</a></li><li><a href="#outliers">Outlier exclusion</a></li><li><a href="#floors">Publication floors</a></li>
<li><a href="#rounding">Rounding</a></li><li><a href="#disclosure">Protecting individual reports</a></li><li><a href="#statistics">Statistics</a></li><li><a href="#years">Years and dates</a></li><li><a href="#rankings">Rankings</a></li><li><a href="#wrvu">Compensation per wRVU</a></li><li><a href="#offer">The rest of the offer</a></li>
<li><a href="#residency">Resident pay scales</a></li><li><a href="#keyed">Keyed benchmark API</a></li><li><a href="#bls">BLS comparison</a></li><li><a href="#fte">FTE normalization</a></li><li><a href="#updates">Updates and versions</a></li>
</ul></nav>
${site.synthetic ? '<p class="notice">This build publishes a synthetic demonstration dataset generated by a seeded program. The method below is the one real reports go through.</p>' : ''}
<h2 id="collection">Collection and moderation</h2>
<p>Figures are <strong>self-reported</strong>: physicians submit their own annual total compensation (base salary, bonus and incentives), with specialty, state, year, hours per week, years in practice, practice setting, employment type and, optionally, annual work RVUs. Every report is moderated before publication (pending, then approved or rejected); only approved reports are ever used. Reports are not verified against a provider registry number or tax records.</p>
<p>Each figure carries <code>n</code>, the number of approved reports behind it after outlier exclusion, and <code>as_of</code>, the submission date of the newest report included. Withheld figures are never dated by their own reports, so a date cannot tell when (or whether) a withheld report arrived: a withheld specialty in a state, or a withheld compensation per wRVU, carries the <code>as_of</code> of its specialty&rsquo;s national figures when those are published (the national median it shows), and anything else withheld carries the fixed date 1970-01-01.</p>
${basisSection(basis)}
${definitionsSection(site)}
<h2 id="outliers">Outlier exclusion (Tukey fences)</h2>
<p>A report is an outlier when its full-time pay lies outside the Tukey fences [Q1 &minus; 1.5 &times; IQR, Q3 + 1.5 &times; IQR] of <strong>its own specialty&rsquo;s national distribution</strong> (Q1 and Q3 are the quartiles of the full-time pay of every report of that specialty the open data counts, every compensation year). The decision is made once per report and holds in every figure that would contain it: a neurosurgeon paid $900,000 is an ordinary neurosurgeon, and is not dropped from a state&rsquo;s all-specialty figures because family physicians are the majority there. For compensation per wRVU the fences are those of the specialty&rsquo;s $/wRVU values. The median, mean and percentiles are computed from the reports that are not outliers, and n counts them.</p>
<h2 id="floors">Publication floors</h2>
${floors}
<p>Below its floor a figure is <strong>withheld</strong>: the feeds give <code>null</code> (and <code>n</code> is null when the whole cell is withheld, with a <code>notice</code> saying why), and the pages say &ldquo;withheld (fewer than N reports)&rdquo;. A withheld figure is never estimated, borrowed from a wider area or shown as zero.</p>
<h2 id="rounding">Rounding</h2>
<p>Figures from ${ROUNDING_MAX_N} or fewer reports are rounded: dollar amounts to the nearest $1,000 and compensation per wRVU to the nearest dollar. Figures from 25 or more reports are whole dollars, and per-wRVU figures are given to the cent. Percent differences have one decimal. Each summary has a <code>rounded</code> flag.</p>
<h2 id="disclosure">Protecting individual reports (why figures are not exact)</h2>
<p>A floor would mean little if one physician&rsquo;s pay could be worked out from the figures around it. It could, if the figures were exact: the median of 5 reports <em>is</em> the third physician&rsquo;s pay; the 25th and 75th percentiles of a small group are other physicians&rsquo; pay; and comparing two overlapping groups (a range of years and the same range one year longer, a state and its region, yesterday&rsquo;s figures and today&rsquo;s) shows what the one extra report did to them. A mean times its report count is a sum, and sums subtract. Someone who planted reports of their own, or colleagues who pooled theirs, would know every report of a small group but one. So no published figure is exact (disclosure method version ${DISCLOSURE_METHOD_VERSION}):</p>
<ul>
<li><strong>Every report&rsquo;s pay is distorted first.</strong> Each report carries a permanent secret factor that moves its pay (total, base and bonus alike) up or down by ${pctText(RECORD_NOISE.min)} to ${pctText(RECORD_NOISE.max)}; every figure is computed from the distorted values, the way the US Census Bureau protects establishments in its Quarterly Workforce Indicators. The factor never changes and every group, year range, filter, interface and nightly build sees the same distorted value, so however many figures are compared or averaged, the closest anyone can get to one physician&rsquo;s pay is that physician&rsquo;s distorted pay: never within 5%. Up and down are equally likely, so a large group&rsquo;s median is unchanged on average; means are divided by the factors&rsquo; average, and the quartiles&rsquo; spread is corrected for what the factors add.</li>
<li><strong>Then every figure moves by a small, fixed amount.</strong> Each report also has a secret key. A figure&rsquo;s move is drawn, with a secret cipher key, from the keys of exactly the reports behind it and from which figure it is (the median and the 75th percentile of the same reports move independently). The same reports always give the same figure, whichever page, feed, tool, query or nightly build shows them, and nothing outside a group changes its figures. Without the secret no move can be computed, even by someone who knows every report.</li>
<li><strong>Medians, percentiles and the interval of the median</strong> move by a factor of at most exp(${QUANTILE_SPAN} / n<sup>${QUANTILE_DECAY}</sup>): up to ${pctText(quantileMoveBound(5))} for 5 reports, ${pctText(quantileMoveBound(25))} for 25, ${pctText(quantileMoveBound(100))} for 100 and ${pctText(quantileMoveBound(1_000))} for 1,000; then they are kept in order (P10 &le; P25 &le; median &le; P75 &le; P90) and rounded as above. Being factors, they never turn a positive figure negative.</li>
<li><strong>Means</strong> (and, in the keyed API, standard deviations): the sum behind a mean moves by at most ±${NOISE_SPAN / 2} &times; its own mean, so a mean of n reports moves by at most ${NOISE_SPAN / 2} / n of itself (${Math.round((NOISE_SPAN / 2) * 100 / 5)}% for 5 reports, ${((NOISE_SPAN / 2) * 100 / 100).toFixed(2)}% for 100, ${((NOISE_SPAN / 2) * 100 / 2000).toFixed(3)}% for 2,000). In the keyed API the sum of squared deviations moves by at most ±${SQUARE_SPAN / 2} &times; the mean squared, so the standard deviation is given only from ${SD_MIN_N} reports.</li>
<li><strong>Honest intervals.</strong> The keyed API&rsquo;s 95% interval of the median covers the sampling error and the disclosure noise together: from 9 reports it is the distribution-free interval of the (distorted) values, whose median is the pay&rsquo;s median, with each end moved <em>outward</em> by up to the largest move of a percentile; below 9 it is built from the published quartiles plus the median&rsquo;s largest move, and says so (<code>method: "approximate"</code>). It is never the lowest and highest report.</li>
<li><strong>The 10th and 90th percentiles need ${TAILS_MIN_N} reports</strong> everywhere (the open data, the pages, the tool server and the keyed API).</li>
<li><strong>Counts move too, and none below a floor is given.</strong> Where a figure is withheld, its report count is not given either (<code>null</code>): in the open data below its floor, in the keyed API below ${MIN_SAMPLE} reports (scopes, year and breakdown rows, availability). Every count that is given is moved by up to 2 by its own draw (the same reports always give the same count), never across a threshold that decides what is shown (the floor, 15 and 25), so subtracting counts (a region minus its states, a specialty minus its practice settings, a range of years minus a shorter one) never gives the count of a withheld group.</li>
<li>&ldquo;Where does my pay fall?&rdquo; answers (the pages, the keyed API&rsquo;s percentile rank, the tool server) are worked out from the published percentiles only, never from the reports.</li>
</ul>
<p>The secret lives only in the reports database: it is in no published file, page or log, and the exact pay never leaves the build. A change of this method is a new method version with a new secret, announced in the <a href="${esc(u('/changelog'))}">changelog</a> and in <code>releases.json</code> (<code>disclosure_method</code>).</p>
${accuracyTable(accuracy)}
<p>What this does not do: the figures of small groups are approximate by design, so read a figure of 5 reports as a range, not a number. Counts are within 2 of the true number, so read them as sizes, not tallies. Someone who knows every other report of a group and also knows how large the factors are can narrow one physician&rsquo;s pay to two bands either side of its distorted value; our own attack test measures how often that lands within 5% (about as often as guessing the group&rsquo;s median does).</p>
<h2 id="statistics">Statistics</h2>
<p>Percentiles use linear interpolation between order statistics (Hyndman and Fan type 7; the same as numpy&rsquo;s default, PostgreSQL <code>percentile_cont</code> and Excel <code>PERCENTILE.INC</code>), then move as described above. The mean is the arithmetic mean of the reports kept, perturbed as described above. Standard deviations are sample standard deviations (n &minus; 1).</p>
<h2 id="years">Years and dates</h2>
<p>&ldquo;Year&rdquo; is always the <strong>compensation year</strong>, the year the pay was earned: the keyed API&rsquo;s <code>year_start</code>/<code>year_end</code> and its trending rows use it. Dates are submission dates: <code>as_of</code> is the submission date of the newest report included, and the keyed API&rsquo;s <code>methodology.data_date_range</code> gives the first and last submission dates (its <code>basis</code> says so). The current compensation year is still being reported, so its trending row is marked <code>partial: true</code> and should not be read as a full year.</p>
<h2 id="rankings">Rankings</h2>
<p>&ldquo;Top states&rdquo;, &ldquo;top specialties&rdquo; and every chart ranked by pay use only figures from at least ${RANKING_MIN_N} reports: a state with 3 reports can publish its median, but it does not top a ranking on them. Each ranked row shows its n, and equal medians share a rank (1, 2, 2, 4). Resident pay scales are ranked only against scales of the same academic year, which each rank names.</p>
<p>State figures &ldquo;adjusted for cost of living&rdquo; divide a figure by the state&rsquo;s cost-of-living index / 100 (US average = 100; the source and year are named on each state page).</p>
<h2 id="wrvu">Compensation per wRVU</h2>
<p>For reports that give annual work relative value units, compensation per wRVU is total compensation divided by wRVUs. It goes through the same outlier exclusion, floors and rounding as the dollar figures.</p>
${offerMethod()}
<h2 id="residency">Resident pay scales</h2>
<p>Resident (PGY) salaries come from the pay scales teaching hospitals publish themselves, not from reports: they carry no <code>n</code>, no floor applies, and <code>as_of</code> is the date the scale was checked against its source. Hospitals are ranked by PGY-1 salary divided by their state&rsquo;s cost-of-living index / 100, among the scales of the same academic year only.</p>
<h2 id="keyed">Keyed benchmark API</h2>
<p>The paid benchmark API (${link(site, u('/api/v1/openapi.json'), '/api/v1')}) counts other reports and treats outliers differently, so its figures differ from the open data: it counts every compensation year (unless a range is asked) at the pay reported, while the open data counts the recent complete years on a full-time basis (${'<a href="#basis">above</a>'}). ${esc(m.outlier_handling)} A scope is publishable with at least ${MIN_SAMPLE} reports and sufficient with at least ${SUFFICIENT_SAMPLE}. Figures are whole dollars.</p>
<p>Confidence interval: ${esc(m.confidence_interval_method)} The interval takes the largest k with P(Bin(n, 1/2) &le; k &minus; 1) &le; 0.025, and each response gives the interval&rsquo;s <code>coverage</code> and <code>method</code>.</p>
<p>Breakdowns by experience use the bands ${esc(EXPERIENCE_BANDS.join(', '))}.</p>
<h3 id="keyed-vs-open">How far the keyed API and the open data differ</h3>
${keyedVsOpenTable(keyedVsOpen)}
<h2 id="bls">BLS comparison and top-coding</h2>
<p>The keyed API compares each median with the U.S. Bureau of Labor Statistics Occupational Employment and Wage Statistics (OEWS) national median annual wage of the specialty&rsquo;s SOC occupation: variance_pct = (service median &minus; BLS median) / BLS median &times; 100, to one decimal. OEWS counts wage-and-salary workers (not the self-employed) and reports wages, while this service reports total compensation, so a positive variance is expected.</p>
<p>OEWS top-codes high wages: where it publishes &ldquo;#&rdquo; the median is only known to be at least ${esc(fmtMoney(site.blsTopCode))}. That top-code value is then used as the BLS median, <code>top_coded</code> is true, and the note says the true variance is smaller than shown. A specialty without a SOC mapping has no comparison (<code>available: false</code>).</p>
<h2 id="fte">FTE normalization</h2>
<p>${esc(m.fte_basis)} A full-time week is not scaled down: a physician working 55 hours is one FTE, and counts at the pay reported.</p>
<h2 id="updates">Updates and versions</h2>
<p>A nightly build recomputes every figure from the approved reports, validates every file against its schema and these floors, and publishes the new version atomically; the same reports always give byte-identical files. The open data API is versioned in its path (${link(site, u('/data/api/v1/specialties.json'), '/data/api/v1')}); within v1 fields may be added, never renamed or removed. CSV downloads (${link(site, u('/data/api/v1/specialties.csv'), 'specialties')}, ${link(site, u('/data/api/v1/states.csv'), 'states')}, ${link(site, u('/data/api/v1/specialty-offer-components.csv'), 'the rest of the offer')}, ${link(site, u('/data/api/v1/residency/institutions.csv'), 'teaching hospitals')}) carry the same figures as the JSON feeds.</p>
<p>Each published build is a release, named by its date. Every feed names in its <code>release</code> field the release in which it last changed, and a feed whose figures did not change keeps its release. The ${link(site, u('/changelog'), 'changelog')} (and ${link(site, u('/data/api/v1/releases.json'), 'releases.json')}) lists the releases with what each changed: cells newly published or withheld, figures that moved by more than their rounding ($1,000 for rounded figures, otherwise $1), and reports added. It is computed from the published feeds of the two releases only. The whole open data of the latest release is one ${link(site, u('/data/api/v1/physpay-open-data.tar.gz'), 'archive')} with its SHA-256 and a ${link(site, u('/data/api/v1/datapackage.json'), 'Data Package')}. Every release the publisher keeps is served whole at <code>/data/api/v1/releases/&lt;release&gt;/</code>, byte for byte as it was published, and every document names its own such URL (<code>release_url</code>) and the date its figures last changed (<code>modified</code>); each attribution line names both, so a cited figure resolves to the same number for as long as that release is kept.</p>
<p>See also: ${link(site, u('/license'), 'licence and citation')}.</p>
</article>`;
  return page(site, { title: 'Methodology', description: `How ${site.publisher} collects, moderates, excludes outliers from, floors and rounds physician compensation figures.`, canonical: u('/methodology'), body });
}

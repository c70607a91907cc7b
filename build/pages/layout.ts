/**
 * The page shell and the blocks every page shares (pure): head with viewport and inline CSS (no external
 * assets), navigation, the synthetic-data banner, the self-reported caveat, the "n and as of" line, the
 * attribution line with its copy button (a small inline script: navigator.clipboard, with a textarea +
 * execCommand fallback), links to the JSON feed, and the footer. Pages with the "Where does my pay fall?" box
 * (PageSpec.payCheck) inline its script (pay-check.ts) after that one.
 */
import { attrs, esc } from './html.ts';
import { fig, textFig } from './figures.ts';
import { PAY_CHECK_SCRIPT } from './pay-check.ts';
import { SEARCH_INDEX_FILE, SEARCH_SCRIPT, SORT_SCRIPT, searchBox } from './enhance.ts';
import { NOINDEX_META } from './sitemap.ts';
import { jsonLdScript } from './jsonld.ts';

export interface SiteContext {
  /** base URL the build was made for, no trailing slash */
  baseUrl: string;
  publisher: string;
  synthetic: boolean;
  /** the licence deed (feeds' license_url) */
  licenseUrl: string;
  license: string;
  /** keyed-API winsorization bounds, named on the methodology page */
  winsorLower: number;
  winsorUpper: number;
  /** the wage an OEWS "#" (top-coded) median stands for */
  blsTopCode: number;
}

/**
 * Link target of a URL: our own URLs (under the base URL) become their path, so links work on any host
 * serving the tree (the server in tests, a CDN, localhost), fragment kept; other URLs stay absolute.
 */
export function href(url: string, baseUrl: string): string {
  if (url !== baseUrl && !url.startsWith(`${baseUrl}/`)) return url;
  const u = new URL(url);
  return u.pathname + u.search + u.hash;
}

export function link(site: Pick<SiteContext, 'baseUrl'>, url: string, text: string, extra: Record<string, string> = {}): string {
  return `<a${attrs({ href: href(url, site.baseUrl), ...extra })}>${esc(text)}</a>`;
}

export const CSS = `:root{--fg:#1b1f24;--muted:#57606a;--accent:#1f5fae;--bar:#3b6fb6;--box:#a9c4ea;--ref:#b3261e;--bg:#fff;--line:#d0d7de;--warn:#fff4ce}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:var(--fg);background:var(--bg)}
header,main,footer{max-width:60rem;margin:0 auto;padding:0 1rem}
header nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:.75rem 0;border-bottom:1px solid var(--line)}
header nav a:first-child{font-weight:700;text-decoration:none}
a{color:var(--accent)}
h1{font-size:1.6rem;line-height:1.25;margin:1rem 0 .5rem}
h2{font-size:1.2rem;margin:1.75rem 0 .5rem}
.lead{font-size:1.15rem}
.meta,.caveat{color:var(--muted)}
.meta time,.meta [data-field="release"]{white-space:nowrap}
.definitions dt{font-weight:600;margin-top:.75rem}.definitions dd{margin-left:0}.definitions dd ul{padding-left:1.25rem;margin:.25rem 0}
.notice,.synthetic{background:var(--warn);border-left:4px solid #bf8700;padding:.5rem .75rem}
.withheld,.na{color:var(--muted);font-style:italic}
figure{margin:1rem 0}
figcaption{color:var(--muted);font-size:.9rem}
svg.chart{width:100%;height:auto;max-width:30rem;display:block}
.chart text{font-size:13px;fill:var(--fg)}
.chart .tick,.chart .small{font-size:11px}
.chart .tick{fill:var(--muted)}
.chart .strong{font-weight:600}
.chart .grid line{stroke:#eaeef2}
.chart .whisker{stroke:#24292f;stroke-width:2}
.chart .box{fill:var(--box);stroke:var(--bar)}
.chart .median{stroke:#111;stroke-width:4}
.chart .bar{fill:var(--bar)}
.chart .reference{stroke:var(--ref);stroke-width:2;stroke-dasharray:4 3}
.chart .ref{fill:var(--ref)}
.chart .axis{stroke:#8c959f}
.trend .band{fill:var(--box);opacity:.7}.trend .band.partial{opacity:.35}
.trend .band-line{stroke:var(--box);stroke-width:6}.trend .band-line.partial{opacity:.5}
.trend .trend-line{fill:none;stroke:var(--bar);stroke-width:2.5}.trend .trend-line.partial{stroke-dasharray:5 4}
.trend .dot{fill:var(--bar)}.trend .dot.partial{fill:#fff;stroke:var(--bar);stroke-width:2}.trend .tick.gap{fill:#afb8c1}
.usmap svg.map{width:100%;height:auto;display:block;max-width:48rem}
.usmap .st path{stroke:#fff;stroke-width:.75}.usmap .st.withheld path,.usmap .st.none path,.usmap .st.thin path{stroke:#afb8c1}
.usmap a.st:hover path,.usmap a.st:focus path{stroke:#111;stroke-width:2.5}
.map-legend{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;margin:.5rem 0;font-size:.9rem}
.map-legend svg{vertical-align:-1px;margin-right:.35rem}
.table-wrap{overflow-x:auto;-webkit-overflow-scrolling:touch}
/* Wide tables scroll inside their wrapper, the first column (the row's name) stays in view. */
tr>:first-child{position:sticky;left:0;z-index:1;background:var(--bg);box-shadow:inset -1px 0 0 var(--line)}
table{border-collapse:collapse;min-width:100%;font-variant-numeric:tabular-nums}
caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{padding:.35rem .6rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
.num{text-align:right;white-space:nowrap}
.num.withheld,.num.na{white-space:normal;min-width:7rem}.num.compact{min-width:0}
.num .meta{white-space:normal}
.offer .table-wrap{margin:.5rem 0 1.25rem}th .unit{font-weight:400;font-size:.85rem}@media (max-width:30rem){.offer th,.offer td{padding:.3rem .25rem}}
.cite{border:1px solid var(--line);border-radius:6px;padding:.75rem 1rem;margin:1.5rem 0}
.cite h2{margin-top:.25rem}
.cite a{overflow-wrap:anywhere}
code.hash{overflow-wrap:anywhere;word-break:break-all}
.attribution{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9rem;overflow-wrap:anywhere}
button.copy{font:inherit;padding:.4rem .9rem;border:1px solid var(--accent);background:var(--accent);color:#fff;border-radius:4px;cursor:pointer}
.copy-status{margin-left:.5rem;color:var(--muted)}
ul.links{padding-left:1.2rem}
.paycheck{border:1px solid var(--line);border-radius:6px;padding:.75rem 1rem;margin:1.5rem 0}
.paycheck h2{margin-top:.25rem}
.paycheck label{display:block;font-weight:600;margin:.5rem 0 .25rem}
.paycheck input{font:inherit;width:100%;max-width:16rem;padding:.4rem .5rem;border:1px solid #8c959f;border-radius:4px}
.paycheck input[aria-invalid="true"]{border-color:var(--ref)}
.pay-result{font-weight:600;min-height:1.5em}
.pay-result[data-state="invalid"],.pay-result[data-state="negative"]{color:var(--ref)}
.paycheck tr.hit th,.paycheck tr.hit td{background:var(--warn);font-weight:700}
/* "Check a whole offer" (offer-check-form.ts): fieldsets side by side where they fit */
.offercheck{border:1px solid var(--line);border-radius:6px;padding:.75rem 1rem;margin:1.5rem 0}
.offercheck h2{margin-top:.25rem}
.offer-fields{display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:0 1.25rem;margin:.5rem 0 1rem}
.offercheck fieldset{border:0;border-top:1px solid var(--line);margin:.75rem 0 0;padding:.25rem 0 0;min-width:0}
.offercheck legend{font-weight:700;padding:0 .4rem 0 0}
.offercheck label{display:block;font-weight:600;margin:.6rem 0 .2rem}
.offercheck input,.offercheck select{font:inherit;width:100%;max-width:16rem;padding:.4rem .5rem;border:1px solid #8c959f;border-radius:4px;background:var(--bg);color:var(--fg)}
.offercheck [aria-invalid="true"]{border-color:var(--ref)}
.offercheck #offer-state{max-width:24rem}
.offercheck .hint{font-size:.85rem;margin:.2rem 0 0}
.offercheck .field-error{color:var(--ref);font-size:.9rem;font-weight:600;margin:.2rem 0 0}
.offer-summary{font-weight:600;min-height:1.5em}
.offer-summary[data-state="invalid"]{color:var(--ref)}
.offer-values{padding-left:1.2rem}
.offercheck .band{display:block;font-weight:600}
.offercheck .q{display:block;white-space:nowrap}
.offer-missing{border-left:4px solid #bf8700;padding-left:.6rem}
/* Site search (shown by its script) and sortable column headers */
.site-search{position:relative;padding:.5rem 0;max-width:26rem}
.site-search label{display:block;font-size:.9rem;color:var(--muted)}
.site-search input{font:inherit;width:100%;padding:.4rem .5rem;border:1px solid #8c959f;border-radius:4px}
.site-search ul{position:absolute;left:0;right:0;z-index:3;margin:0;padding:0;list-style:none;background:var(--bg);border:1px solid var(--line);border-radius:4px;box-shadow:0 4px 12px rgba(0,0,0,.12)}
.site-search [role=option]{display:flex;justify-content:space-between;gap:.5rem;padding:.45rem .6rem;cursor:pointer;color:var(--accent)}
.site-search [role=option][aria-selected="true"],.site-search [role=option]:hover{background:#eaf1fb}
.site-search .search-none{position:absolute;left:0;right:0;z-index:3;padding:.5rem .6rem;background:var(--bg);border:1px solid var(--line);border-radius:4px;box-shadow:0 4px 12px rgba(0,0,0,.12)}
.site-search .search-none p{margin:0}.site-search .search-none ul{position:static;border:0;box-shadow:none;margin:.25rem 0 0;padding:0 0 0 1.1rem;list-style:disc}
.site-search .kind{color:var(--muted);font-size:.85rem;white-space:nowrap}
.site-search.prominent{max-width:36rem;padding:.5rem 0 1rem}
.site-search.prominent label{font-size:1.05rem;font-weight:600;color:var(--fg)}
.site-search.prominent input{font-size:1.1rem;padding:.6rem .75rem;border:2px solid var(--accent)}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
th button.sort{font:inherit;font-weight:700;color:inherit;background:none;border:0;padding:0;cursor:pointer;text-align:inherit}
th button.sort::after{content:" \\2195";color:var(--muted);font-weight:400}
th[aria-sort="ascending"] button.sort::after{content:" \\2191";color:var(--fg)}
th[aria-sort="descending"] button.sort::after{content:" \\2193";color:var(--fg)}
.note{border-left:4px solid var(--accent);background:#f3f7fc;padding:.5rem .75rem}
ul.columns{columns:14rem;padding-left:1.2rem}
nav.levels ul{display:flex;flex-wrap:wrap;gap:.35rem 1rem;list-style:none;padding:0;margin:.5rem 0 1rem}nav.levels a{display:inline-block;padding:.35rem 0}nav.levels [aria-current]{font-weight:700;color:var(--fg)}
/* Home page: headline figures, two columns on wide screens */
dl.stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(9.5rem,1fr));gap:.75rem;margin:1rem 0}
dl.stats>div{border:1px solid var(--line);border-radius:6px;padding:.5rem .8rem}
dl.stats dt{color:var(--muted);font-size:.9rem}
dl.stats dd{margin:0;font-size:1.5rem;font-weight:700;line-height:1.3;white-space:nowrap}
dl.stats .of{font-size:1rem;font-weight:400;color:var(--muted)}
.home-grid{display:grid;grid-template-columns:minmax(0,1fr);gap:0 2rem}
@media (min-width:56rem){.home-grid{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}}
.home ul.links li{margin:.45rem 0}.home .table-wrap+.table-wrap{margin-top:1.25rem}.home th button.sort{white-space:nowrap}details.figures{margin:.5rem 0 1rem}details.figures summary{cursor:pointer;color:var(--accent)}
footer{border-top:1px solid var(--line);margin-top:2rem;padding:1rem;color:var(--muted);font-size:.9rem}
@media (max-width:40rem){body{font-size:15px}h1{font-size:1.35rem}dl.stats dd{font-size:1.3rem}th,td{padding:.3rem .4rem}table{font-size:14px}#by-year th,#by-year td{padding:.3rem .2rem}}
/* Phones: chart text scales with the chart's width (viewBox 400), so it is set larger to render at 12 px or more. */
@media (max-width:30rem){.chart text,.chart .tick,.chart .small{font-size:15px}}`;

/** Copies the text of the element named by a button's data-copy; works without the async clipboard. */
const SCRIPT = `(function(){function say(s,ok){if(s)s.textContent=ok?'Copied to the clipboard.':'Copy failed: select the line and copy it by hand.'}
document.addEventListener('click',function(e){var b=e.target&&e.target.closest?e.target.closest('button[data-copy]'):null;if(!b)return;
var id=b.getAttribute('data-copy'),el=document.getElementById(id),s=document.getElementById(id+'-status'),text=el?el.textContent:'';
function fallback(){var t=document.createElement('textarea');t.value=text;t.setAttribute('readonly','');t.style.position='fixed';t.style.top='0';t.style.opacity='0';document.body.appendChild(t);t.select();var ok=false;try{ok=document.execCommand('copy')}catch(x){}document.body.removeChild(t);say(s,ok)}
if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(text).then(function(){say(s,true)},fallback)}else{fallback()}});})();`;

export interface PageSpec {
  title: string;
  description: string;
  /** absolute URL of this page */
  canonical: string;
  /** JSON feed(s) behind the page, for <link rel="alternate"> */
  feeds?: string[];
  body: string;
  /** the body holds the "Where does my pay fall?" box (pay-check.ts): inline its script too */
  payCheck?: boolean;
  /** keep the page out of search indexes and the sitemap (its headline figure is withheld) */
  noindex?: boolean;
  /** the body carries the site search box itself (the home page, prominently): leave it out of the header */
  searchInBody?: boolean;
  /** schema.org metadata of the page's dataset (jsonld.ts), written into <head> */
  jsonLd?: Record<string, unknown> | null;
}

/** The search index's link target (the header's search box, or the home page's). */
export function searchIndexHref(site: Pick<SiteContext, 'baseUrl'>): string {
  return href(`${site.baseUrl}/${SEARCH_INDEX_FILE}`, site.baseUrl);
}

/**
 * The site's one navigation bar, on every page: the built pages and the pages physpay serve renders itself
 * (/contribute, /account, the API reference), so a visitor never meets another. Kept to six links (one or
 * two lines on a phone); the served pages are linked from the footer (siteFooter).
 */
/** A link to a path of the site (`baseUrl` '': the pages physpay serve renders without a build, root-relative). */
const siteLink = (site: Pick<SiteContext, 'baseUrl'>, path: string, text: string) =>
  (site.baseUrl ? link(site, `${site.baseUrl}${path}`, text) : `<a${attrs({ href: path })}>${esc(text)}</a>`);

export function siteNav(site: Pick<SiteContext, 'baseUrl' | 'publisher'>): string {
  const links = [
    ['/', site.publisher],
    ['/salaries', 'Specialties'],
    ['/states', 'States'],
    ['/residency', 'Residency'],
    ['/methodology', 'Methodology'],
    ['/license', 'License'],
  ]
    .map(([path, text]) => siteLink(site, path!, text!))
    .join('');
  return `<nav aria-label="Site">${links}</nav>`;
}

/** The footer of every page: licence, open data, and the served pages (report your pay, the API and its account page). */
export function siteFooter(site: Pick<SiteContext, 'baseUrl' | 'license' | 'licenseUrl'>): string {
  const l = (path: string, text: string) => siteLink(site, path, text);
  return `<footer><p>Aggregate data licensed ${link(site, site.licenseUrl, site.license)}; see ${l('/license', 'licence and citation')} and ${l('/methodology', 'methodology')}. Open data API: ${l('/data/api/v1/', '/data/api/v1')}; releases and how to cite them: ${l('/changelog', 'changelog')}.</p>
<p>${l('/contribute', 'Report your pay')} · ${l('/docs/api/', 'API reference')} · ${l('/account', 'API account and keys')}</p></footer>`;
}

export function page(site: SiteContext, p: PageSpec): string {
  const nav = siteNav(site);
  const alternates = (p.feeds ?? []).map((f) => `<link${attrs({ rel: 'alternate', type: 'application/json', href: href(f, site.baseUrl) })}>`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(p.title)} | ${esc(site.publisher)}</title>
<meta${attrs({ name: 'description', content: p.description })}>
<link${attrs({ rel: 'canonical', href: p.canonical })}>
<link${attrs({ rel: 'icon', type: 'image/svg+xml', href: href(`${site.baseUrl}/favicon.svg`, site.baseUrl) })}>
${p.noindex ? `${NOINDEX_META}\n` : ''}${alternates ? `${alternates}\n` : ''}${p.jsonLd ? `${jsonLdScript(p.jsonLd)}\n` : ''}<style>${CSS}</style>
</head>
<body>
<header>${nav}
${p.searchInBody ? '' : searchBox(searchIndexHref(site))}</header>
<main>
${site.synthetic ? '<p class="synthetic"><strong>Synthetic demo data.</strong> The figures on this site are generated for demonstration; they are not real salary reports.</p>\n' : ''}${p.body}
</main>
${siteFooter(site)}
<script>${SCRIPT}
${SEARCH_SCRIPT}
${SORT_SCRIPT}${p.payCheck ? `\n${PAY_CHECK_SCRIPT}` : ''}</script>
</body>
</html>
`;
}

/** The caveat every attending-pay page carries. */
export function selfReportedCaveat(site: SiteContext): string {
  return `<p class="caveat">Self-reported data: figures are total annual compensation (base, bonus and incentives) from salary reports that physicians submit themselves. Reports are moderated before publication but not verified against a provider registry; outliers beyond 1.5 times the interquartile range are excluded. ${link(site, `${site.baseUrl}/methodology`, 'How the figures are made')}.</p>`;
}

export function residencyCaveat(site: SiteContext): string {
  return `<p class="caveat">Resident pay comes from the pay scales that teaching hospitals publish themselves (not from salary reports); each scale links its source and the date it was checked. ${link(site, `${site.baseUrl}/methodology`, 'Methodology')}.</p>`;
}

/** "Based on N reports · data as of YYYY-MM-DD", with both as checkable figures. */
export function metaLine(doc: { n: number | null; as_of: string; basis?: { description: string }; modified?: string; release?: string }, floor: number | null): string {
  const n = doc.n === null && floor === null ? 'not applicable (published pay scales, not reports)' : null;
  // when the figures last changed (the feed's release and its date): what a citation names
  const changed = doc.modified && doc.release ? ` · figures last changed ${textFig('modified', doc.modified, 'time', { datetime: doc.modified })}, release ${textFig('release', doc.release)}` : '';
  const line = `<p class="meta">Reports used (n): ${n !== null ? `<span data-field="n" data-value="null">${esc(n)}</span>` : fig('n', doc.n, 'count', { floor })} · data as of ${textFig('as_of', doc.as_of, 'time', { datetime: doc.as_of })}${changed}</p>`;
  // the headline basis (compensation years, full-time basis) in words, as the feed's basis.description
  return doc.basis ? `${line}\n<p class="meta basis">${textFig('basis.description', doc.basis.description)}</p>` : line;
}

export interface CitableDoc {
  attribution: string;
  citation_url: string;
  feed_url: string;
  license: string;
  license_url: string;
}

/** How to quote a figure: reported pay needs n and "self-reported"; resident pay is a published pay scale. */
export function citeAdvice(feedUrl: string): string {
  return /\/residency\//.test(feedUrl)
    ? 'give the academic year and the as-of (checked) date, and say the figures are published pay scales of the teaching hospitals.'
    : 'give n and the as-of date, and say the data is self-reported.';
}

/**
 * The attribution line with a copy button, and links to the JSON feed (and CSV download when given).
 * `id` must be unique on the page.
 */
export function citeBlock(site: SiteContext, doc: CitableDoc, id: string, o: { heading?: string; csv?: string } = {}): string {
  const heading = o.heading ?? 'Cite this data';
  return `<section class="cite"${attrs({ 'aria-labelledby': `${id}-h` })}>
<h2${attrs({ id: `${id}-h` })}>${esc(heading)}</h2>
<p class="attribution">${textFig('attribution', doc.attribution, 'span', { id })}</p>
<p><button${attrs({ type: 'button', class: 'copy', 'data-copy': id })}>Copy attribution</button><span${attrs({ id: `${id}-status`, class: 'copy-status', role: 'status', 'aria-live': 'polite' })}></span></p>
<p>Licensed ${link(site, doc.license_url, doc.license)}. When you quote a figure, link ${link(site, doc.citation_url, doc.citation_url)}, ${citeAdvice(doc.feed_url)}</p>
<ul class="links"><li>JSON feed: ${link(site, doc.feed_url, href(doc.feed_url, site.baseUrl), { type: 'application/json' })}</li>${o.csv ? `<li>CSV download: ${link(site, o.csv, href(o.csv, site.baseUrl), { type: 'text/csv' })}</li>` : ''}</ul>
</section>`;
}

/** A table in a horizontally scrolling wrapper (wide tables stay readable on a phone). */
export function table(caption: string, head: string[], rows: string[], o: { numericFrom?: number; id?: string } = {}): string {
  const from = o.numericFrom ?? 1;
  const th = head.map((h, k) => `<th${attrs({ scope: 'col', class: k >= from ? 'num' : undefined })}>${esc(h)}</th>`).join('');
  // Lists (three or more columns, five or more rows) sort by any column with JavaScript (enhance.ts).
  const sortable = head.length >= 3 && rows.length >= 5;
  // A table wider than the screen scrolls inside its wrapper; without sort buttons nothing in it takes the
  // keyboard focus, so the wrapper itself does (a named region), and keyboard users can scroll it.
  const wrap = sortable ? '<div class="table-wrap">' : `<div class="table-wrap"${attrs({ tabindex: '0', role: 'region', 'aria-label': caption })}>`;
  return `${wrap}<table${attrs({ id: o.id, 'data-sortable': sortable ? '' : undefined })}><caption>${esc(caption)}</caption><thead><tr>${th}</tr></thead><tbody>
${rows.join('\n')}
</tbody></table></div>`;
}

/** A chart with its caption. */
export function figure(svg: string, caption: string): string {
  if (!svg) return '';
  return `<figure>${svg}<figcaption>${esc(caption)}</figcaption></figure>`;
}

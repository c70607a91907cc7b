/**
 * /changelog: the releases of releases.json, newest first, with what each changed, and how to cite a
 * release (pure: rendered from the releases document only).
 */
import type { Release, ReleasesFeed } from '../contract/releases.ts';
import { esc, fmtCount, fmtMoney } from './html.ts';
import { link, page, table, type SiteContext } from './layout.ts';

export const CHANGELOG_PATH = '/changelog';
export const CITATION_CFF_PATH = 'CITATION.cff';

/** The reference to a release, as the "How to cite" block and CITATION.cff give it: its own files' URL when it has one. */
export function releaseReference(publisher: string, r: Pick<Release, 'release' | 'date' | 'urls'>, citationUrl: string): string {
  return `${publisher} (${r.date.slice(0, 4)}). Physician compensation benchmarks, open data release ${r.release} [Data set]. ${r.urls?.files ?? citationUrl}`;
}

const signed = (n: number) => (n > 0 ? `+${fmtCount(n)}` : n < 0 ? `\u2212${fmtCount(-n)}` : '0');
const pctText = (p: number) => `${p > 0 ? '+' : p < 0 ? '\u2212' : ''}${Math.abs(p).toFixed(1)}%`;

function cellList(site: SiteContext, what: string, l: { count: number; cells: { name: string; citation_url: string }[] }): string {
  if (l.count === 0) return '';
  const more = l.count - l.cells.length;
  const items = l.cells.map((c) => `<li>${link(site, c.citation_url, c.name)}</li>`).join('');
  return `<p>${esc(what)}: ${fmtCount(l.count)}${more > 0 ? ` (the first ${l.cells.length} by name)` : ''}</p>${items ? `<ul class="columns">${items}</ul>` : ''}`;
}

/** What a release whose headline years differ from the one before it says (every figure moved for that reason too). */
function basisNote(r: Release, before: Release | undefined): string {
  if (!r.basis || !before) return '';
  const years = (b: NonNullable<Release['basis']>) => (b.from === b.to ? String(b.from) : `${b.from}\u2013${b.to}`);
  if (!before.basis) return `<p class="notice"><strong>New headline basis.</strong> From this release the headline figures count the most recent complete compensation years (${esc(years(r.basis))}) on a full-time basis; before, they counted every year at the pay reported. Every figure moved for that reason.</p>`;
  if (before.basis.from === r.basis.from && before.basis.to === r.basis.to) return '';
  return `<p class="notice"><strong>Headline years moved</strong> from ${esc(years(before.basis))} to ${esc(years(r.basis))}: every headline figure moved for that reason too.</p>`;
}

/** What a release whose disclosure method differs from the one before it says first. */
function methodNote(site: SiteContext, r: Release, before: Release | undefined): string {
  if (!before || before.disclosure_method === r.disclosure_method) return '';
  return `<p class="notice"><strong>New disclosure method (version ${r.disclosure_method}, was ${before.disclosure_method}).</strong> Every published figure moved once because of the method, not because of the data: compare figures of this release with those of ${esc(before.release)} and earlier with care. See ${link(site, `${site.baseUrl}/methodology#disclosure`, 'Protecting individual reports')}.</p>`;
}

function releaseSection(site: SiteContext, r: Release, latest: boolean, kept: readonly string[] | undefined, before?: Release): string {
  const id = `r-${r.release}`;
  const c = r.changes;
  const served = !r.urls ? '' : kept && !kept.includes(r.release)
    ? '<li>Its files are no longer kept here: check an archived copy against the SHA-256 below</li>'
    : `<li>Its files, as published: ${link(site, r.urls.files, `releases/${r.release}/`)} (${link(site, r.urls.archive, 'archive')}, ${link(site, r.urls.datapackage, 'datapackage.json')}, ${link(site, r.urls.citation_cff, 'CITATION.cff')})</li>`;
  const facts = `<ul>
${served}
<li>Data as of <time datetime="${esc(r.data_as_of)}">${esc(r.data_as_of)}</time></li>${r.basis ? `\n<li>Headline years: ${r.basis.from === r.basis.to ? r.basis.from : `${r.basis.from}&ndash;${r.basis.to}`}, full-time basis</li>` : ''}
<li>Reports used in the published national figures: ${fmtCount(r.reports_used)}${c ? ` (${signed(c.reports_added)} since ${esc(c.previous)})` : ''}</li>
<li>Specialties published: ${fmtCount(r.specialties_published)} of ${fmtCount(r.specialties)}</li>
<li>Archive SHA-256: <code class="hash">${esc(r.archive_sha256)}</code></li>
<li>Disclosure method: version ${r.disclosure_method}</li>
</ul>${basisNote(r, before)}${methodNote(site, r, before)}`;
  let changes: string;
  if (!c) changes = '<p>The first release listed: nothing to compare with.</p>';
  else {
    const nothing = c.newly_published.count === 0 && c.newly_withheld.count === 0 && c.figures_moved === 0 && c.reports_added === 0;
    const moves = c.largest_moves.map((m) => `<tr><th scope="row">${link(site, m.cell.citation_url, m.cell.name)}</th><td class="num">${esc(fmtMoney(m.from))}</td><td class="num">${esc(fmtMoney(m.to))}</td><td class="num">${esc(pctText(m.change_pct))}</td></tr>`);
    changes = nothing ? '<p>No published figure changed.</p>' : [
      cellList(site, 'Newly published', c.newly_published),
      cellList(site, 'Newly withheld (below a publication floor)', c.newly_withheld),
      `<p>Published cells with a figure that moved by more than its rounding: ${fmtCount(c.figures_moved)}.</p>`,
      moves.length ? table(`Largest median moves in release ${r.release}`, ['Cell', 'Before', 'After', 'Change'], moves) : '',
    ].filter(Boolean).join('\n');
  }
  return `<section aria-labelledby="${esc(id)}"><h2 id="${esc(id)}">Release ${esc(r.release)}${latest ? ' (latest)' : ''}</h2>
${facts}
${changes}
</section>`;
}

export function renderChangelogPage(site: SiteContext, doc: ReleasesFeed): string {
  const u = (p: string) => `${site.baseUrl}${p}`;
  const latest = doc.releases[0]!;
  const reference = releaseReference(site.publisher, latest, doc.citation_url);
  const body = `<article>
<h1>Changelog: open data releases</h1>
<p class="lead">Every published build of the open data is a release, named by its date. Each JSON feed says in its <code>release</code> field the release in which it last changed; a feed whose figures did not change keeps its release.</p>
<p>Machine-readable: ${link(site, doc.feed_url, 'releases.json', { type: 'application/json' })}. Download the latest release whole: ${link(site, u('/data/api/v1/physpay-open-data.tar.gz'), 'physpay-open-data.tar.gz')} (${link(site, u('/data/api/v1/physpay-open-data.tar.gz.sha256'), 'SHA-256')}).</p>
<section class="cite" aria-labelledby="cite-h" id="cite">
<h2 id="cite-h">How to cite</h2>
<p>Cite the release you used, so a reader can find the same figures:</p>
<p class="attribution"><span id="release-ref">${esc(reference)}</span></p>
<p><button type="button" class="copy" data-copy="release-ref">Copy reference</button><span id="release-ref-status" class="copy-status" role="status" aria-live="polite"></span></p>
<p>Licensed ${link(site, doc.license_url, doc.license)}. For one figure, quote its page&rsquo;s attribution line too (n, data date, the release and its URL, which keeps serving that figure). Reference managers read ${link(site, u(`/${CITATION_CFF_PATH}`), 'CITATION.cff')}.</p>
<p>${esc(doc.retention)}</p>
</section>
${doc.releases.map((r, k) => releaseSection(site, r, k === 0, doc.kept, doc.releases[k + 1])).join('\n')}
</article>`;
  return page(site, {
    title: 'Changelog: open data releases',
    description: `The ${site.publisher} open data releases: what each changed (figures moved, cells newly published or withheld, reports added) and how to cite a release.`,
    canonical: u(CHANGELOG_PATH),
    feeds: [doc.feed_url],
    body,
  });
}

/**
 * CITATION.cff (Citation File Format 1.2.0) of one release: its identifier is that release's own archive
 * (data/api/v1/releases/<release>/physpay-open-data.tar.gz), which keeps its bytes while the release is kept.
 */
export function citationCff(o: { publisher: string; baseUrl: string; latest: Release; licenseSpdx: string; changelogUrl: string }): string {
  const q = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  return [
    'cff-version: 1.2.0',
    `message: ${q(`If you use this data, cite the release you used. ${o.changelogUrl} lists the releases.`)}`,
    'type: dataset',
    `title: ${q('Physician compensation benchmarks: open data')}`,
    `version: ${q(o.latest.release)}`,
    `date-released: ${q(o.latest.date)}`,
    'authors:',
    `  - name: ${q(o.publisher)}`,
    `license: ${o.licenseSpdx}`,
    `url: ${q(`${o.baseUrl}/`)}`,
    `repository: ${q(o.latest.urls?.files ?? `${o.baseUrl}/data/api/v1/`)}`,
    `abstract: ${q('Median pay and percentiles of US physicians by specialty and state, from moderated self-reported salary reports, and published resident pay scales of teaching hospitals. Aggregates only; figures below publication floors are withheld.')}`,
    'keywords:',
    '  - physician compensation',
    '  - salary',
    '  - open data',
    'identifiers:',
    '  - type: url',
    `    value: ${q(o.latest.urls?.archive ?? `${o.baseUrl}/data/api/v1/physpay-open-data.tar.gz`)}`,
    `    description: ${q(`The archive of release ${o.latest.release} (SHA-256 ${o.latest.archive_sha256})`)}`,
    '',
  ].join('\n');
}

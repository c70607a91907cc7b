/**
 * The open data API's index at /data/api/v1/ (and /data/api/v1): every feed of FEED_INDEX with what it
 * holds (the OpenAPI summaries), its format, its JSON Schema and an example URL, and links to the OpenAPI
 * document, the API reference, the schemas and the licence. JSON by default; an HTML page in the site's
 * look for clients that accept text/html (browsers). Both are derived once per build (LoadedBuild.derived),
 * so they carry a strong ETag and revalidate like any file. Like the contract documents they are not
 * rate-limited: they hold no figures, only the map of the API.
 */
import type { LoadedBuild, ServedFile } from '../builds/loaded-build.ts';
import { openDataOpenApi } from '../../build/contract/openapi.ts';
import { ARCHIVE_PATH, ARCHIVE_SHA256_PATH, DATA_PACKAGE_PATH } from '../../build/compute/data-package.ts';
import { FEED_SCHEMAS, LICENSE, LICENSE_URL, feedPaths, type FeedKind, type InstitutionsFeed, type SpecialtiesFeed, type SpecialtyFeed, type StatesFeed } from '../../build/contract/open-feeds.ts';
import { RELEASES_PATH } from '../../build/contract/releases.ts';
import { CHANGELOG_PATH, CITATION_CFF_PATH } from '../../build/pages/changelog.ts';
import { dataYears, homeDatasetJsonLd } from '../../build/pages/jsonld.ts';
import { canonicalJson } from '../../build/emit/json.ts';
import { attrs, esc, fmtCount } from '../../build/pages/html.ts';
import { link, page, type SiteContext } from '../../build/pages/layout.ts';
import { siteContextOf } from '../pages/site-context.ts';
import type { IpLimits } from '../store/types.ts';
import { FEED_INDEX } from './routes.ts';

/** /data/api/v1 and /data/api/v1/ in any letter case (on the decoded path). */
export const API_INDEX_PATH = /^\/data\/api\/v1\/?$/i;
const V1 = '/data/api/v1';

export interface ApiIndexFeed {
  path: string;
  format: 'json' | 'csv';
  description: string;
  /** absolute URL template ({slug}, {state}, ... as in the OpenAPI document) */
  url: string;
  /** an absolute URL of one real file of the build, or null for a list feed (then `url` is one) */
  example_url: string | null;
  schema_url: string | null;
}

export interface ApiIndexDocument {
  name: string;
  version: 'v1';
  description: string;
  openapi_url: string;
  documentation_url: string;
  schemas: { feed: FeedKind; url: string }[];
  license: string;
  license_url: string;
  terms_url: string;
  rate_limits: { per_minute: number; per_day: number; per: 'ip address' };
  feeds: ApiIndexFeed[];
  /** the whole open data at once: every feed and CSV in one archive, its SHA-256, and the Data Package (v2) describing the CSVs */
  downloads: { archive_url: string; sha256_url: string; datapackage_url: string; bytes: number | null };
  /** the published releases (what each changed) and the page showing them with how to cite a release */
  releases: { releases_url: string; changelog_url: string; citation_cff_url: string };
  /** schema.org Dataset metadata of the whole open data (the home page's), for search engines; null without feeds */
  dataset: Record<string, unknown> | null;
}

/** The feed kind of an OpenAPI schema reference (#/components/schemas/SpecialtyStateFeed -> specialtyState). */
function kindOfRef(ref: string | undefined): FeedKind | null {
  const name = ref?.split('/').pop();
  return (Object.keys(FEED_SCHEMAS) as FeedKind[]).find((k) => `${k[0]!.toUpperCase()}${k.slice(1)}Feed` === name) ?? null;
}

function readJson<T>(build: LoadedBuild, path: string): T | null {
  const file = build.files.get(path);
  return file ? (JSON.parse(build.render(file, build.manifest.build_date).body.toString('utf8')) as T) : null;
}

export function apiIndexDocument(build: LoadedBuild, limits: IpLimits): ApiIndexDocument {
  const base = build.baseUrl;
  const api = openDataOpenApi() as { paths: Record<string, { get?: { summary?: string; responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> } }> };
  const sp = build.keyedIndex.specialties;
  const institution = readJson<InstitutionsFeed>(build, `/${feedPaths.institutions()}`)?.institutions[0]?.institution.slug;
  const fill: Record<string, string | undefined> = {
    slug: sp[0]?.slug,
    other: sp[1]?.slug,
    pgy: '2',
    state: build.keyedIndex.states.find((s) => s.slug === 'texas')?.slug ?? build.keyedIndex.states[0]?.slug,
  };
  const feeds = FEED_INDEX.map((path): ApiIndexFeed => {
    const op = api.paths[path.slice(V1.length)]?.get;
    const content = op?.responses?.['200']?.content ?? {};
    const kind = kindOfRef(content['application/json']?.schema?.$ref);
    const vars: Record<string, string | undefined> = { ...fill, slug: path.startsWith(`${V1}/residency/institutions/`) ? institution : fill.slug };
    const example = path.replace(/\{(\w+)\}/g, (_, v: string) => vars[v] ?? `{${v}}`);
    return {
      path,
      format: path.endsWith('.csv') ? 'csv' : 'json',
      description: op?.summary ?? '',
      url: `${base}${path}`,
      example_url: path.includes('{') && !example.includes('{') ? `${base}${example}` : null,
      schema_url: kind ? `${base}${V1}/schemas/${kind}.schema.json` : null,
    };
  });
  return {
    name: 'Open data API',
    version: 'v1',
    description: 'Aggregate physician compensation by specialty and state, and resident pay scales: the figures of every public page as JSON feeds and CSV downloads. No key needed.',
    openapi_url: `${base}${V1}/openapi.json`,
    documentation_url: `${base}/docs/api/`,
    schemas: (Object.keys(FEED_SCHEMAS) as FeedKind[]).map((feed) => ({ feed, url: `${base}${V1}/schemas/${feed}.schema.json` })),
    license: LICENSE,
    license_url: LICENSE_URL,
    terms_url: `${base}/license`,
    rate_limits: { per_minute: limits.perMinute, per_day: limits.perDay, per: 'ip address' },
    feeds,
    downloads: {
      archive_url: `${base}/${ARCHIVE_PATH}`,
      sha256_url: `${base}/${ARCHIVE_SHA256_PATH}`,
      datapackage_url: `${base}/${DATA_PACKAGE_PATH}`,
      bytes: build.manifest.files[`public/${ARCHIVE_PATH}`]?.bytes ?? null,
    },
    releases: { releases_url: `${base}/${RELEASES_PATH}`, changelog_url: `${base}${CHANGELOG_PATH}`, citation_cff_url: `${base}/${CITATION_CFF_PATH}` },
    dataset: datasetOf(build),
  };
}

/** The home page's Dataset metadata, from the build's specialties.json, states.json and specialty feeds. */
function datasetOf(build: LoadedBuild): Record<string, unknown> | null {
  const sp = readJson<SpecialtiesFeed>(build, `/${feedPaths.specialties()}`);
  const st = readJson<StatesFeed>(build, `/${feedPaths.states()}`);
  if (!sp || !st) return null;
  const feeds = sp.specialties.map((e) => readJson<SpecialtyFeed>(build, `/${feedPaths.specialty(e.slug)}`)).filter((f): f is SpecialtyFeed => f !== null);
  return homeDatasetJsonLd(siteContextOf(build), sp, st, dataYears(feeds));
}

export function apiIndexHtml(site: SiteContext, d: ApiIndexDocument): string {
  const u = (p: string) => `${site.baseUrl}${p}`;
  /** a path that may break after its slashes (long templates fit a phone) */
  const code = (s: string) => `<code>${esc(s).replace(/\//g, '/<wbr>')}</code>`;
  const items = d.feeds.map((f) => `<li><p><strong>${f.example_url ? code(f.path.slice(V1.length)) : link(site, f.url, f.path.slice(V1.length))}</strong>${f.example_url ? ` <span class="meta">(${link(site, f.example_url, 'example', { title: f.example_url.slice(site.baseUrl.length) })})</span>` : ''}<br>${esc(f.description)}. <span class="meta">${f.format.toUpperCase()}${f.schema_url ? ` &middot; ${link(site, f.schema_url, 'JSON Schema')}` : ''}</span></p></li>`);
  const body = `<article>
<h1>Open data API</h1>
<p class="lead">${esc(d.description)}</p>
<p>Free to use under ${link(site, d.license_url, d.license)} with attribution: every document carries its attribution line, citation URL and licence (${link(site, d.terms_url, 'licence and citation')}). Read-only (<code>GET</code>, <code>HEAD</code>), open CORS, strong <code>ETag</code>s; feeds are limited to ${fmtCount(d.rate_limits.per_minute)} requests a minute and ${fmtCount(d.rate_limits.per_day)} a day per IP address (the <code>RateLimit</code> headers say how many are left). This index is also served as JSON to clients that do not ask for HTML.</p>
<ul class="links">
<li>API reference: ${link(site, d.documentation_url, d.documentation_url.slice(site.baseUrl.length))}</li>
<li>OpenAPI 3.1 document: ${link(site, d.openapi_url, d.openapi_url.slice(site.baseUrl.length), { type: 'application/json' })}</li>
<li>JSON Schemas: ${d.schemas.map((s) => link(site, s.url, s.feed, { type: 'application/schema+json' })).join(', ')}</li>
</ul>
<h2>Download everything</h2>
<p>${link(site, d.downloads.archive_url, 'physpay-open-data.tar.gz')}${d.downloads.bytes !== null ? ` (${fmtCount(Math.ceil(d.downloads.bytes / 1024))} kB)` : ''}: every feed and CSV below in one archive, with its ${link(site, d.downloads.sha256_url, 'SHA-256')} (<code>sha256sum -c</code>) and a ${link(site, d.downloads.datapackage_url, 'Data Package', { type: 'application/json' })} (Frictionless v2) describing each CSV: fields, types, units, primary keys, licence and sources. Files in the archive carry the data date as their access date.</p>
<h2>Releases</h2>
<p>Every published build is a release; each feed names the release it last changed in. ${link(site, d.releases.releases_url, 'releases.json', { type: 'application/json' })} lists them with what each changed, and the ${link(site, d.releases.changelog_url, 'changelog')} shows them with how to cite a release (also as ${link(site, d.releases.citation_cff_url, 'CITATION.cff')}).</p>
<h2>Feeds</h2>
<p>Every path below is under ${code(`${site.baseUrl}${V1}`)}.</p>
<ul${attrs({ class: 'links', 'aria-label': 'Every feed and download of the open data API' })}>
${items.join('\n')}
</ul>
<p${attrs({ class: 'meta' })}>Slugs accept common spellings, two-letter state codes and any letter case (${code(`${V1}/states/tx.json`)}); the answer names the canonical URL in a <code>Link</code> header. Comparisons (${code(`${V1}/compare/...`)}) are derived from the two published documents on request.</p>
<p>${link(site, u('/methodology'), 'How the figures are made')}</p>
</article>`;
  return page(site, { title: 'Open data API', description: 'Index of the open data API: every JSON feed and CSV download, the OpenAPI document, JSON Schemas and licence.', canonical: u(`${V1}/`), body, jsonLd: d.dataset });
}

/** The index as a file of the build, in the representation the client asked for. */
export function apiIndexFile(build: LoadedBuild, limits: IpLimits, html: boolean): ServedFile {
  return html
    ? build.derived(`${V1}/index.html`, 'text/html; charset=utf-8', () => apiIndexHtml(siteContextOf(build), apiIndexDocument(build, limits)))
    : build.derived(`${V1}/index.json`, 'application/json; charset=utf-8', () => canonicalJson(apiIndexDocument(build, limits)));
}

/** Does the client ask for HTML (a browser)? */
export function wantsHtml(accept: string | string[] | undefined): boolean {
  return /\btext\/html\b/i.test(Array.isArray(accept) ? accept.join(',') : accept ?? '');
}

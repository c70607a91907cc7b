/**
 * robots.txt and sitemap.xml of the public tree (pure), from the rendered pages: every page whose <head>
 * does not say `noindex` (pages whose headline figure is withheld do), by its canonical URL (absolute, with
 * the build's base URL), with `lastmod` = the `modified` date of the page's feed (when its figures last
 * changed) where the page shows one, else its `as_of`; plus the pages `physpay serve` makes itself (SERVER_PAGES),
 * without lastmod.
 */
import { esc } from './html.ts';

export interface SitemapEntry {
  loc: string;
  lastmod: string | null;
}

export const NOINDEX_META = '<meta name="robots" content="noindex">';

/** Does a page ask not to be indexed? */
export function isNoindex(html: string): boolean {
  return html.includes(NOINDEX_META);
}

/** The sitemap entry of one page (null when it is noindex or names no canonical URL). */
export function sitemapEntry(html: string): SitemapEntry | null {
  const headEnd = html.indexOf('</head>');
  const head = headEnd >= 0 ? html.slice(0, headEnd) : html;
  if (isNoindex(head)) return null;
  const canonical = /<link rel="canonical" href="([^"]+)">/.exec(head)?.[1];
  if (!canonical) return null;
  const modified = /<time datetime="(\d{4}-\d{2}-\d{2})" data-field="modified">/.exec(html)?.[1];
  const asOf = /<time datetime="(\d{4}-\d{2}-\d{2})" data-field="as_of">/.exec(html)?.[1] ?? null;
  return { loc: canonical.replace(/&amp;/g, '&'), lastmod: modified ?? asOf };
}

/** sitemap.xml from the entries, sorted by URL (deterministic). */
export function sitemapXml(entries: SitemapEntry[]): string {
  const urls = [...entries]
    .sort((a, b) => (a.loc < b.loc ? -1 : a.loc > b.loc ? 1 : 0))
    .map((e) => `<url><loc>${esc(e.loc)}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ''}</url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/**
 * Public pages the server makes rather than the build: the report form, the open data API's index and the API
 * reference. A static export cannot serve them (README, Static export); the sitemap still lists them, since the
 * site they belong to is the one `physpay serve` answers for.
 */
export const SERVER_PAGES = ['/contribute', '/data/api/v1/', '/docs/api'] as const;

export function robotsTxt(baseUrl: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${baseUrl}/sitemap.xml\n`;
}

/**
 * The files beside the pages: public-tree path -> bytes. `pages` maps public-tree paths to HTML
 * (renderSite's output).
 */
export function siteFiles(pages: Map<string, string>, baseUrl: string, favicon: { svg: string; ico: Buffer }): Map<string, string | Buffer> {
  const entries: SitemapEntry[] = [];
  for (const html of pages.values()) {
    const e = sitemapEntry(html);
    if (e) entries.push(e);
  }
  for (const path of SERVER_PAGES) entries.push({ loc: `${baseUrl}${path}`, lastmod: null });
  return new Map<string, string | Buffer>([
    ['robots.txt', robotsTxt(baseUrl)],
    ['sitemap.xml', sitemapXml(entries)],
    ['favicon.svg', favicon.svg],
    ['favicon.ico', favicon.ico],
  ]);
}

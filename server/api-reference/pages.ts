/**
 * The HTML of the API reference (pure): an index at /docs/api/ and one Swagger UI page per OpenAPI
 * document. The pages hold no inline script or style (their Content-Security-Policy allows only this
 * server's files): reference.js reads the document URL from data attributes and renders it.
 */
import { esc, attrs } from '../../build/pages/html.ts';
import { siteFooter, siteNav } from '../../build/pages/layout.ts';
import { LICENSE, LICENSE_URL } from '../../build/contract/open-feeds.ts';
import { SAMPLE_ORIGIN } from '../../build/contract/code-samples.ts';
import { assetUrl } from './assets.ts';

export interface ReferenceDoc {
  /** URL segment under /docs/api/ */
  slug: string;
  title: string;
  /** where the server publishes the OpenAPI document */
  specUrl: string;
  summary: string;
}

export const REFERENCE_DOCS: ReferenceDoc[] = [
  {
    slug: 'keyed',
    title: 'Keyed benchmark API (/api/v1)',
    specUrl: '/api/v1/openapi.json',
    summary: 'For subscribers: benchmarks at state, regional and national scope. Every request needs an X-API-Key header and counts against your plan\'s quota (except /me/usage).',
  },
  {
    slug: 'open-data',
    title: 'Open data API (/data/api/v1)',
    specUrl: '/data/api/v1/openapi.json',
    summary: 'Public feeds and CSV downloads under CC BY 4.0: no key, per-IP limits of 60 requests a minute and 2,000 a day.',
  },
];

/** The public pages' navigation bar and footer (root-relative links: the reference is served without a build). */
const SITE = { baseUrl: '', publisher: 'PhysPay', license: LICENSE, licenseUrl: LICENSE_URL };

/** The reference's own links (its index and both documents), under the site's navigation bar. */
const refLinks = () => `<nav class="ref-links" aria-label="API reference"><a href="/docs/api/">API reference</a>${REFERENCE_DOCS.map((d) => `<a href="/docs/api/${d.slug}">${esc(d.title.replace(/ \(.*/, ''))}</a>`).join('')}</nav>`;

function shell(title: string, body: string, scripts: string[]): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} | PhysPay</title>
<link rel="icon" type="image/png" href="${assetUrl('favicon-32x32.png')}">
${scripts.length ? `<link rel="stylesheet" href="${assetUrl('swagger-ui.css')}">\n` : ''}<link rel="stylesheet" href="${assetUrl('reference.css')}">
</head>
<body>
<header class="ref-header">${siteNav(SITE)}
${refLinks()}</header>
${body}
${siteFooter(SITE)}
${scripts.map((s) => `<script src="${s}"></script>`).join('\n')}
</body>
</html>
`;
}

export function indexPage(): string {
  const items = REFERENCE_DOCS.map(
    (d) => `<li><h2><a href="/docs/api/${d.slug}">${esc(d.title)}</a></h2><p>${esc(d.summary)}</p><p class="meta">OpenAPI 3.1: <a href="${d.specUrl}">${d.specUrl}</a></p></li>`,
  ).join('\n');
  return shell(
    'API reference',
    `<main class="ref-index">
<h1>API reference</h1>
<p>Every endpoint of both APIs with its parameters, responses and errors, a copyable curl example, and a form to try it from this page. The pages are served by this server with no outside assets, so they work offline.</p>
<ul class="ref-apis">
${items}
</ul>
</main>`,
    [],
  );
}

export function referencePage(doc: ReferenceDoc): string {
  return shell(
    doc.title,
    `<main class="ref-page">
<p class="ref-lead">${esc(doc.summary)}</p>
<noscript><p>This page needs JavaScript to render the document; the document itself is at <a href="${doc.specUrl}">${doc.specUrl}</a>.</p></noscript>
<div${attrs({ id: 'swagger-ui', 'data-spec': doc.specUrl, 'data-sample-origin': SAMPLE_ORIGIN })}></div>
</main>`,
    [assetUrl('swagger-ui-bundle.js'), assetUrl('reference.js')],
  );
}

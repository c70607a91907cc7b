/**
 * GET/HEAD of the API reference: /docs/api/ (index), /docs/api/keyed, /docs/api/open-data and their
 * assets under /docs/api/assets/. Public, keyless, not rate-limited, and served without a build (the
 * OpenAPI documents they render are too). Headers as the public pages' (strong ETag and 304, one-hour
 * caching, nosniff) plus a Content-Security-Policy that lets the pages load and call only this origin.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { etagMatches, requestIdHeader } from '../http/send.ts';
import { ASSET_PREFIX, asset, makeAsset, type Asset } from './assets.ts';
import { REFERENCE_DOCS, indexPage, referencePage } from './pages.ts';

export const API_REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const HTML = 'text/html; charset=utf-8';

/** The pages, by canonical route (lower case, no trailing slash). Rendered once. */
function pages(): Map<string, Asset> {
  const out = new Map<string, Asset>([['/docs/api', makeAsset(Buffer.from(indexPage()), HTML)]]);
  for (const d of REFERENCE_DOCS) out.set(`/docs/api/${d.slug}`, makeAsset(Buffer.from(referencePage(d)), HTML));
  return out;
}

export function createApiReferenceHandler(): (req: IncomingMessage, res: ServerResponse, route: string) => boolean {
  let rendered: Map<string, Asset> | null = null;
  /** `route` is the canonical lower-case path (server/http/canonical-path.ts). */
  return (req, res, route) => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') return false;
    const file = route.startsWith(ASSET_PREFIX)
      ? asset(route.slice(ASSET_PREFIX.length))
      : (rendered ??= pages()).get(route.length > 1 && route.endsWith('/') ? route.slice(0, -1) : route);
    if (!file) return false;
    const gzip = file.gzip !== null && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const etag = gzip ? file.etag.replace(/"$/, '-gz"') : file.etag; // each encoding its own strong tag
    const headers: Record<string, string | number> = {
      etag,
      'cache-control': 'public, max-age=3600',
      'content-security-policy': API_REFERENCE_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      ...(file.gzip ? { vary: 'Accept-Encoding' } : {}),
      ...requestIdHeader(res),
    };
    if (etagMatches(req.headers['if-none-match'], etag)) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    const body = gzip ? file.gzip! : file.body;
    res.writeHead(200, { ...headers, 'content-type': file.contentType, 'content-length': body.length, ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
    res.end(method === 'HEAD' ? undefined : body);
    return true;
  };
}

/**
 * The last answer for a GET/HEAD of a page path nothing else served (the Express app's final handler):
 *
 *  - no build published yet: 503 with Retry-After (a small HTML page for browsers, JSON otherwise);
 *  - a client that accepts text/html: the site's 404 page (noindex) with close matches (not-found.ts);
 *  - anything else: not handled here (the JSON 404 of every unknown path).
 *
 * Paths of the APIs (/api, /mcp, /.well-known, /metrics) keep their JSON errors.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BuildRegistry } from '../builds/registry.ts';
import { CORS_HEADERS } from '../http/cors.ts';
import { canonicalTarget, under } from '../http/canonical-path.ts';
import { wantsHtml } from '../open-data/index-page.ts';
import { lookupPage, notFoundHtml, notReadyHtml } from './not-found.ts';
import { siteContextOf } from './site-context.ts';
import { securityHeadersFor } from '../http/page-security.ts';

const API_PREFIXES = ['/api', '/mcp', '/.well-known', '/metrics', '/data', '/docs/api'];

export function createPageFallback(deps: { registry: BuildRegistry }): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') return false;
    const target = canonicalTarget(req.url ?? '/');
    if (!target || API_PREFIXES.some((p) => under(target.route, p))) return false;
    const html = wantsHtml(req.headers.accept);
    const build = deps.registry.current;
    const send = (status: number, body: Buffer, type: string, extra: Record<string, string | number> = {}) => {
      res.writeHead(status, { 'content-type': type, 'content-length': body.length, 'cache-control': 'no-store', ...CORS_HEADERS, 'x-content-type-options': 'nosniff', ...securityHeadersFor(type, body), ...extra });
      res.end(method === 'HEAD' ? undefined : body);
    };
    if (!build) {
      if (html) send(503, Buffer.from(notReadyHtml()), 'text/html; charset=utf-8', { 'retry-after': 5 });
      else send(503, Buffer.from(`${JSON.stringify({ error: 'no published build is loaded yet; retry shortly' })}\n`), 'application/json; charset=utf-8', { 'retry-after': 5 });
      return true;
    }
    if (!html) return false;
    const found = lookupPage({ has: (p) => build.files.has(p), resolve: (k, raw) => build.resolver.resolve(k, raw) }, target.path);
    const suggestions = found.redirect === null ? found.suggestions : [{ path: found.redirect, text: found.redirect }];
    send(404, Buffer.from(notFoundHtml(siteContextOf(build), target.path, suggestions)), 'text/html; charset=utf-8', { 'x-physpay-build': build.id });
    return true;
  };
}

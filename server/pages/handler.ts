/**
 * Public pages and other static files of the build (everything in public/ outside /data/api/v1): served
 * from memory like the feeds (strong ETag, 304, one-hour caching, the day's access date filled into the
 * attribution line). Pages are the citation targets; they are not rate-limited.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BuildRegistry } from '../builds/registry.ts';
import type { LoadedBuild } from '../builds/loaded-build.ts';
import { utcDay, type Clock } from '../http/clock.ts';
import { CORS_HEADERS } from '../http/cors.ts';
import { PUBLIC_CACHE_CONTROL, etagMatches, requestIdHeader } from '../http/send.ts';
import { under } from '../http/canonical-path.ts';
import { securityHeadersFor } from '../http/page-security.ts';
import { chooseRepresentation, withBody } from '../http/representation.ts';
import { lookupPage } from './not-found.ts';
import { COMPARISON_PAGE_PATH, comparisonPageFile, lookupComparison } from '../open-data/comparison.ts';

export function createPagesHandler(deps: { registry: BuildRegistry; clock: Clock }): (req: IncomingMessage, res: ServerResponse, path: string) => boolean {
  /**
   * `path` is the canonical path the router decoded (server/http/canonical-path.ts). Files under /data/
   * (feeds, CSV downloads) are never served here: only the open-data handler serves them, with its limits.
   */
  return (req, res, path) => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') return false;
    const build = deps.registry.current;
    if (!build) return false;
    if (path.length > 1024 || under(path.toLowerCase(), '/data')) return false;
    let file = build.files.get(path) ?? (path.length > 1 && path.endsWith('/') ? build.files.get(path.slice(0, -1)) : undefined);
    if (!file) {
      // /compare/{a}/{b}[/{state}]: derived from the build's documents, like its feed
      const m = COMPARISON_PAGE_PATH.exec(path);
      const found = m ? lookupComparison(build, m) : null;
      if (!found?.ok) return m ? false : redirectAlias(res, build, path, method === 'HEAD');
      file = comparisonPageFile(build, found.a, found.b, found.state);
    }
    const day = utcDay(deps.clock());
    const chosen = chooseRepresentation(build, file, day, req);
    const headers: Record<string, string | number> = {
      etag: chosen.etag,
      'cache-control': PUBLIC_CACHE_CONTROL,
      ...CORS_HEADERS,
      'x-content-type-options': 'nosniff',
      'x-physpay-build': build.id,
      ...requestIdHeader(res),
    };
    if (chosen.headers.vary) headers.vary = chosen.headers.vary;
    if (etagMatches(req.headers['if-none-match'], chosen.etag)) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    const served = file;
    const identity = build.render(file, day).body; // the page's CSP hashes its inline scripts as written
    withBody(build, file, day, chosen.coding, (body) => {
      res.writeHead(200, { ...headers, ...chosen.headers, 'content-type': served.contentType, 'content-length': body.length, ...securityHeadersFor(served.contentType, identity) });
      res.end(method === 'HEAD' ? undefined : body);
    }, (err) => {
      process.emitWarning(`pages: compressing ${served.urlPath} failed: ${err.message}`);
      const body = Buffer.from('Service temporarily unavailable; retry shortly.\n');
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'content-length': body.length, 'retry-after': '2', 'cache-control': 'no-store', ...requestIdHeader(res) });
      res.end(method === 'HEAD' ? undefined : body);
    });
    return true;
  };
}

/**
 * A known alias, code or letter case of a page (`/states/TX`, `/salaries/ob-gyn`): a permanent redirect to
 * the canonical page, without the query string. Anything else is left to the site's 404 (fallback.ts).
 */
function redirectAlias(res: ServerResponse, build: LoadedBuild, path: string, head: boolean): boolean {
  const found = lookupPage({ has: (p) => build.files.has(p), resolve: (k, raw) => build.resolver.resolve(k, raw) }, path);
  if (found.redirect === null) return false;
  const body = Buffer.from(`Moved permanently to ${found.redirect}\n`);
  res.writeHead(301, {
    location: found.redirect,
    'content-type': 'text/plain; charset=utf-8',
    'content-length': body.length,
    'cache-control': PUBLIC_CACHE_CONTROL,
    ...CORS_HEADERS,
    'x-content-type-options': 'nosniff',
    ...requestIdHeader(res),
  });
  res.end(head ? undefined : body);
  return true;
}

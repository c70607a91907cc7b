/**
 * The open data API's hot path, on bare node:http (no Express routing: the quality bars in README: Benchmarks).
 *
 *  1. one build is captured for the whole request (hot swaps never mix versions);
 *  2. the path is looked up as is; only on a miss is it decoded and resolved (aliases, codes, case);
 *  3. a matching If-None-Match is answered 304 before anything is counted;
 *  4. the per-IP limit is checked and counted in one atomic step of the service store (a 404 is counted too);
 *  5. the day's rendering (access date filled in) is sent with its strong ETag.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BuildRegistry } from '../builds/registry.ts';
import type { LoadedBuild, ServedFile } from '../builds/loaded-build.ts';
import { utcDay, type Clock } from '../http/clock.ts';
import { CORS_HEADERS, preflightHeaders } from '../http/cors.ts';
import { PUBLIC_CACHE_CONTROL, etagMatches, requestIdHeader, sendJson } from '../http/send.ts';
import { IpLimiter, type IpVerdict } from '../limits/ip-limiter.ts';
import { StoreUnavailableError } from '../store/types.ts';
import { FEED_INDEX, matchFeed } from './routes.ts';
import type { EntityKind } from './resolve.ts';
import { API_INDEX_PATH, apiIndexFile, wantsHtml } from './index-page.ts';
import { COMPARISON_FEED_PATH, comparisonFeedFile, lookupComparison } from './comparison.ts';
import { feedPaths } from '../../build/contract/open-feeds.ts';
import { CONTRACT_CONTENT_TYPE, contractDocuments } from './contract-documents.ts';
import { securityHeadersFor } from '../http/page-security.ts';
import { chooseRepresentation, withBody, type Chosen } from '../http/representation.ts';
import { redactSecrets } from '../http/redact.ts';
import { MALFORMED_PATH, canonicalTarget } from '../http/canonical-path.ts';
import { ReleaseShelf, type ReleaseFile } from '../builds/releases.ts';
import { RELEASE_ID, releaseDate } from '../../build/contract/release-id.ts';

export interface OpenDataDeps {
  registry: BuildRegistry;
  /** every kept release (data/api/v1/releases/<release>/...); default: one over `registry` */
  shelf?: ReleaseShelf;
  limiter: IpLimiter;
  clientIp: (req: IncomingMessage) => string;
  clock: Clock;
  /** called once per answered request (metrics, logs) */
  onResponse?: (status: number) => void;
}

export const MAX_PATH_LENGTH = 1024;
const CACHE_CONTROL = PUBLIC_CACHE_CONTROL;
/** a release's files never change: cached for a year, never revalidated */
const RELEASE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** /data/api/v1/releases/<release>/<path> */
const RELEASE_FILE_PATH = /^\/data\/api\/v1\/releases\/([^/]+)\/(.*)$/;
const ERROR_CACHE = 'no-store';

/** Decode a URL path; null when it is not a clean path (bad escapes, NUL, backslashes, dot segments). */
export function createOpenDataHandler(deps: OpenDataDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const policy = deps.limiter.policyHeader();
  const contract = contractDocuments();
  const done = deps.onResponse ?? (() => {});
  const shelf = deps.shelf ?? new ReleaseShelf(deps.registry);

  const json = (res: ServerResponse, status: number, body: { error: string; [field: string]: unknown }, head: boolean, headers: Record<string, string | number> = {}) => {
    // error messages quote what the caller sent: never a key-shaped value
    sendJson(res, status, { ...body, error: redactSecrets(body.error) }, { ...CORS_HEADERS, 'cache-control': ERROR_CACHE, ...headers }, head);
    done(status);
  };

  const sendFile = (res: ServerResponse, build: LoadedBuild, file: ServedFile, day: string, chosen: Chosen, head: boolean, link: string | null, verdict: IpVerdict | null) => {
    withBody(build, file, day, chosen.coding, (body) => {
      const headers: Record<string, string | number> = {
        'content-type': file.contentType,
        'content-length': body.length,
        etag: chosen.etag,
        ...chosen.headers,
        'cache-control': CACHE_CONTROL,
        ...CORS_HEADERS,
        'x-content-type-options': 'nosniff',
        'x-physpay-build': build.id,
        'ratelimit-policy': policy,
        ...requestIdHeader(res),
      };
      if (verdict) headers.ratelimit = IpLimiter.rateLimitHeader(verdict);
      if (link) headers.link = `<${link}>; rel="canonical"`;
      res.writeHead(200, headers);
      res.end(head ? undefined : body);
      done(200);
    }, (err) => failCoding(res, err, head));
  };

  return (req, res) => {
    const method = req.method ?? 'GET';
    const head = method === 'HEAD';
    if (method === 'OPTIONS') {
      res.writeHead(204, { ...preflightHeaders(req.headers['access-control-request-headers'] as string | undefined), ...requestIdHeader(res) });
      res.end();
      done(204);
      return;
    }
    if (method !== 'GET' && !head) {
      json(res, 405, { error: `method ${method} not allowed: the open data API is read-only (GET, HEAD)` }, false, { allow: 'GET, HEAD, OPTIONS' });
      return;
    }
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const rawPath = q >= 0 ? url.slice(0, q) : url;
    if (API_INDEX_PATH.test(canonicalTarget(rawPath)?.path ?? '')) {
      serveIndex(req, res, head);
      return;
    }
    const doc = contract.get(rawPath);
    if (doc) {
      const h: Record<string, string | number> = { etag: doc.etag, 'cache-control': CACHE_CONTROL, ...CORS_HEADERS, ...requestIdHeader(res) };
      if (etagMatches(req.headers['if-none-match'] as string | undefined, doc.etag)) {
        res.writeHead(304, h);
        res.end();
        done(304);
        return;
      }
      res.writeHead(200, { 'content-type': CONTRACT_CONTENT_TYPE, 'content-length': doc.body.length, 'x-content-type-options': 'nosniff', ...h });
      res.end(head ? undefined : doc.body);
      done(200);
      return;
    }
    const build = deps.registry.current;
    if (!build) {
      json(res, 503, { error: 'no published build is loaded yet; retry shortly' }, head, { 'retry-after': 5 });
      return;
    }
    if (rawPath.length > MAX_PATH_LENGTH) {
      json(res, 400, { error: `path longer than ${MAX_PATH_LENGTH} characters` }, head);
      return;
    }
    const rel = RELEASE_FILE_PATH.exec(rawPath);
    if (rel) {
      void serveRelease(req, res, head, rel[1]!, `/data/api/v1/${rel[2]!}`);
      return;
    }

    let file = build.files.get(rawPath);
    let link: string | null = null;
    if (!file) {
      // the canonical spelling (server/http/canonical-path.ts): decoded, runs of slashes collapsed; every
      // feed path is lower case, so any letter case of one finds it (with a Link to the canonical URL)
      const target = canonicalTarget(rawPath);
      if (target === null) {
        json(res, 400, { error: MALFORMED_PATH }, head);
        return;
      }
      const path = target.path;
      const cmp = COMPARISON_FEED_PATH.exec(rawPath);
      if (cmp) {
        // two specialties side by side: derived from the build's own documents, then served like a feed
        const found = lookupComparison(build, cmp);
        if (!found.ok) {
          const body = found.kind === null
            ? { error: found.message ?? `no feed at ${rawPath.slice(0, 200)}` }
            : { error: `unknown ${found.kind} "${found.raw!.slice(0, 100)}"`, did_you_mean: found.suggestions.map((e) => ({ slug: e.slug, name: e.name, url: `${build.baseUrl}/${found.kind === 'state' ? feedPaths.state(e.slug) : feedPaths.specialty(e.slug)}` })) };
          limited(req, res, head, (v) => json(res, 404, body, head, rateFields(v)));
          return;
        }
        file = comparisonFeedFile(build, found.a, found.b, found.state);
        if (found.aliased || file.urlPath !== rawPath) link = `${build.baseUrl}${file.urlPath}`;
      }
      if (!file) file = build.files.get(path) ?? build.files.get(target.route);
      if (!file) {
        const resolve = (kind: EntityKind, raw: string) => build.resolver.resolve(kind, raw);
        // segments decoded one by one first (a slug may hold an encoded slash: ob%2Fgyn), then the decoded path
        let m = matchFeed(rawPath, resolve, decodeURIComponent);
        if (!m.ok && m.kind === null) m = matchFeed(path, resolve);
        if (!m.ok) {
          // An unknown path or slug is counted like any request (else 404s would be an unlimited probe).
          if (m.kind === null) {
            limited(req, res, head, (v) => json(res, 404, { error: `no feed at ${path.slice(0, 200)}`, feeds: FEED_INDEX }, head, rateFields(v)));
          } else {
            const feedOf = (slug: string) => `${build.baseUrl}${m.kind === 'state' ? `/data/api/v1/states/${slug}.json` : m.kind === 'institution' ? `/data/api/v1/residency/institutions/${slug}.json` : `/data/api/v1/specialties/${slug}.json`}`;
            const body = {
              error: `unknown ${m.kind} "${m.raw!.slice(0, 100)}"`,
              did_you_mean: m.suggestions.map((e) => ({ slug: e.slug, name: e.name, url: feedOf(e.slug) })),
            };
            limited(req, res, head, (v) => json(res, 404, body, head, rateFields(v)));
          }
          return;
        }
        file = build.files.get(m.canonicalPath);
        if (!file) {
          limited(req, res, head, (v) => json(res, 404, { error: `no feed at ${path.slice(0, 200)}`, feeds: FEED_INDEX }, head, rateFields(v)));
          return;
        }
        link = `${build.baseUrl}${m.canonicalPath}`;
      } else if (file.urlPath !== rawPath && !cmp) {
        link = `${build.baseUrl}${file.urlPath}`;
      }
    }

    // Revalidation first: a 304 is not counted against the client's limits.
    const day = utcDay(deps.clock());
    const chosen = chooseRepresentation(build, file, day, req);
    const inm = req.headers['if-none-match'];
    if (inm && etagMatches(inm, chosen.etag)) {
      const h: Record<string, string> = { etag: chosen.etag, ...chosen.headers, 'cache-control': CACHE_CONTROL, ...CORS_HEADERS, 'x-physpay-build': build.id, ...requestIdHeader(res) };
      delete h['content-encoding'];
      if (link) h.link = `<${link}>; rel="canonical"`;
      res.writeHead(304, h);
      res.end();
      done(304);
      return;
    }
    const found = file;
    limited(req, res, head, (v) => sendFile(res, build, found, day, chosen, head, link, v));
  };

  /**
   * A file as release `release` published it (server/builds/releases.ts): the same bytes for as long as the
   * release is kept (the access date in its attribution is the release's date), long-cached, immutable.
   * Paths are exact (no aliases: a citation names the canonical URL); 304s are not counted, like feeds.
   */
  async function serveRelease(req: IncomingMessage, res: ServerResponse, head: boolean, release: string, path: string): Promise<void> {
    let found: ReleaseFile | null;
    try {
      found = await shelf.file(release, path);
    } catch (err) {
      json(res, 503, { error: `release ${release.slice(0, 40)} could not be read (${(err as Error).message.slice(0, 200)}); retry shortly` }, head, { 'retry-after': 5 });
      return;
    }
    if (!found) {
      const kept = await shelf.kept();
      const known = RELEASE_ID.test(release) && kept.includes(release);
      const error = known
        ? `release ${release} has no file at ${path.slice(0, 200)}`
        : `release ${release.slice(0, 40)} is not kept here: the publisher keeps its last releases (data/api/v1/releases.json lists every release and its archive's SHA-256)`;
      limited(req, res, head, (v) => json(res, 404, { error, kept }, head, rateFields(v)));
      return;
    }
    const { build: from, file } = found;
    const day = releaseDate(release);
    const chosen = chooseRepresentation(from, file, day, req);
    const h: Record<string, string | number> = { etag: chosen.etag, vary: chosen.headers.vary ?? '', 'cache-control': RELEASE_CACHE_CONTROL, ...CORS_HEADERS, 'x-physpay-build': from.id, 'x-physpay-release': release, ...requestIdHeader(res) };
    if (!h.vary) delete h.vary;
    if (etagMatches(req.headers['if-none-match'] as string | undefined, chosen.etag)) {
      res.writeHead(304, h);
      res.end();
      done(304);
      return;
    }
    limited(req, res, head, (v) => withBody(from, file, day, chosen.coding, (body) => {
      res.writeHead(200, { 'content-type': file.contentType, 'content-length': body.length, 'x-content-type-options': 'nosniff', ...h, ...chosen.headers, ...rateFields(v) });
      res.end(head ? undefined : body);
      done(200);
    }, (err) => failCoding(res, err, head)));
  }

  /** The API's index (index-page.ts): HTML for browsers, JSON otherwise; not counted, like the contract documents. */
  function serveIndex(req: IncomingMessage, res: ServerResponse, head: boolean): void {
    const build = deps.registry.current;
    if (!build) {
      json(res, 503, { error: 'no published build is loaded yet; retry shortly' }, head, { 'retry-after': 5 });
      return;
    }
    const file = apiIndexFile(build, deps.limiter.limits, wantsHtml(req.headers.accept));
    const day = utcDay(deps.clock());
    const chosen = chooseRepresentation(build, file, day, req, ['Accept']);
    const h: Record<string, string | number> = { etag: chosen.etag, 'cache-control': CACHE_CONTROL, vary: chosen.headers.vary!, ...CORS_HEADERS, 'x-physpay-build': build.id, ...requestIdHeader(res) };
    if (etagMatches(req.headers['if-none-match'], chosen.etag)) {
      res.writeHead(304, h);
      res.end();
      done(304);
      return;
    }
    const identity = build.render(file, day).body;
    withBody(build, file, day, chosen.coding, (body) => {
      res.writeHead(200, { 'content-type': file.contentType, 'content-length': body.length, 'x-content-type-options': 'nosniff', ...h, ...chosen.headers, ...securityHeadersFor(file.contentType, identity) });
      res.end(head ? undefined : body);
      done(200);
    }, (err) => failCoding(res, err, head));
  }

  /** The day's brotli of a file could not be made (zlib failed): a 503 the client may retry, never a half answer. */
  function failCoding(res: ServerResponse, err: Error, head: boolean): void {
    process.emitWarning(`open data: compressing a file failed: ${err.message}`);
    json(res, 503, { error: 'service temporarily unavailable; retry shortly' }, head, { 'retry-after': 2 });
  }

  function rateFields(v: IpVerdict): Record<string, string> {
    return { 'ratelimit-policy': policy, ratelimit: IpLimiter.rateLimitHeader(v) };
  }

  /** Check and count the client's per-IP limit in one store step; answer 429 or go on with `serve`. */
  function limited(req: IncomingMessage, res: ServerResponse, head: boolean, serve: (v: IpVerdict) => void): void {
    let verdict;
    try {
      verdict = deps.limiter.check(deps.clientIp(req));
    } catch (err) {
      failStore(res, err, head);
      return;
    }
    const finish = (v: IpVerdict) => {
      if (!v.allowed) {
        const retry = IpLimiter.retryAfter(v);
        const which = v.limitedBy === 'day' ? `${v.limits.perDay} requests per day` : `${v.limits.perMinute} requests per minute`;
        json(res, 429, { error: `rate limit exceeded: ${which} per IP address; retry in ${retry} s`, retry_after: retry }, head, { 'retry-after': retry, ...rateFields(v) });
        return;
      }
      serve(v);
    };
    if (verdict instanceof Promise) verdict.then(finish, (err) => failStore(res, err, head));
    else finish(verdict);
  }

  function failStore(res: ServerResponse, err: unknown, head: boolean) {
    if (err instanceof StoreUnavailableError || (err as { code?: string }).code === 'SQLITE_BUSY') {
      json(res, 503, { error: 'service temporarily unavailable; retry shortly' }, head, { 'retry-after': 2 });
    } else {
      json(res, 500, { error: 'internal error' }, head);
      process.emitWarning(`open data: ${(err as Error).stack ?? String(err)}`);
    }
  }
}

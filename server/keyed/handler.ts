/**
 * The keyed benchmark API (A) at /api/v1, on bare node:http like the open feeds. Per request:
 *   key (401) -> [subscription (403) -> build (503) -> quota check-and-count (429)] -> route
 * /me/usage, /me/usage/history, /me/assistants and the POSTs /me/key/rotate and /me/assistants/disconnect skip the bracket (never counted; any key that is not
 * revoked, whatever its subscription status, so a subscriber whose card failed can still look, rotate and disconnect). `fail` below is the one place that turns errors into
 * `{"error": "..."}` answers with their status; every answer to an identified key carries its rate-limit
 * headers, every answer `Vary: X-API-Key` and the request id.
 *
 * Not Express: at 1,000 requests/s a minimal Express 5 route allocated about 40 kB per request, of which
 * about 8 kB outlived a young-generation collection, and its GC pauses alone took the p99 past 5 ms on this
 * machine (bench/ANALYSIS.md). Routing here keeps Express's rules: paths match case-insensitively with an
 * optional trailing slash, HEAD is GET without the body, and the query string is parsed by node:querystring
 * (Express 5's "simple" parser).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { keyedOpenApi } from '../../build/contract/openapi.ts';
import { requestIdHeader, sendJson } from '../http/send.ts';
import { StoreUnavailableError } from '../store/types.ts';
import type { Answer, KeyedLocals } from './context.ts';
import { KeyedError } from './errors.ts';
import { authenticate, authenticateAndCount, rateHeaders, readUsage, type KeyedDeps } from './middleware.ts';
import type { Query } from './params.ts';
import { availableDataRoute } from './routes/available-data.ts';
import { benchmarksRoute } from './routes/benchmarks.ts';
import { specialtiesRoute } from './routes/specialties.ts';
import { usageRoute } from './routes/usage.ts';
import { usageHistoryRoute } from './routes/usage-history.ts';
import { keyRotateRoute } from './routes/key-rotate.ts';
import { assistantsRoute, disconnectAssistantRoute } from './routes/assistants.ts';
import { percentileRankRoute } from './routes/percentile-rank.ts';
import { offerCheckRoute } from './routes/offer-check.ts';
import { redactSecrets } from '../http/redact.ts';

type Route = (query: Query, l: KeyedLocals, deps: KeyedDeps) => Answer | Promise<Answer>;

/** GET routes answer HEAD too; the POST routes are self-service: key rotation and disconnecting an assistant. */
const ROUTES: Record<string, { method: 'GET' | 'POST'; counted: boolean; route: Route }> = {
  '/specialties': { method: 'GET', counted: true, route: specialtiesRoute },
  '/available-data': { method: 'GET', counted: true, route: availableDataRoute },
  '/benchmarks': { method: 'GET', counted: true, route: benchmarksRoute },
  '/percentile-rank': { method: 'GET', counted: true, route: percentileRankRoute },
  '/offer-check': { method: 'GET', counted: true, route: offerCheckRoute },
  '/me/usage': { method: 'GET', counted: false, route: usageRoute },
  '/me/usage/history': { method: 'GET', counted: false, route: usageHistoryRoute },
  '/me/key/rotate': { method: 'POST', counted: false, route: keyRotateRoute },
  '/me/assistants': { method: 'GET', counted: false, route: assistantsRoute },
  '/me/assistants/disconnect': { method: 'POST', counted: false, route: disconnectAssistantRoute },
};

/** Does this request target belong to the keyed API? (`/api/v1`, `/api/v1/...`, any letter case) */
export const isKeyedTarget = (url: string): boolean => /^\/api\/v1(?:[/?]|$)/i.test(url);

export function createKeyedHandler(deps: KeyedDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const openapi = keyedOpenApi();

  function send(res: ServerResponse, l: KeyedLocals, head: boolean, status: number, body: unknown, headers: Record<string, string | number>): void {
    sendJson(res, status, body, { 'x-request-id': l.requestId, vary: 'X-API-Key', ...rateHeaders(l), ...headers }, head);
  }

  function fail(res: ServerResponse, l: KeyedLocals, head: boolean, err: unknown): void {
    let e: KeyedError;
    if (err instanceof KeyedError) e = err;
    else if (err instanceof StoreUnavailableError || (err as { code?: string }).code === 'SQLITE_BUSY') e = new KeyedError('unavailable', 'service temporarily unavailable; retry after a brief delay', { 'Retry-After': 2 });
    else {
      e = new KeyedError('internal', 'internal error');
      process.emitWarning(`keyed API (request ${l.requestId}): ${(err as Error).stack ?? String(err)}`);
    }
    // A counted request that ends in a 5xx is given back.
    if (e.status >= 500 && l.counted) void Promise.resolve(deps.store.refundQuota(l.key!.id, l.windows!)).catch(() => {});
    if (res.headersSent) return;
    send(res, l, head, e.status, { error: redactSecrets(e.message) }, { ...e.headers, 'cache-control': 'no-store' });
  }

  /**
   * For answers that are not about the key (405, unknown path): look the key up so that an identified key
   * gets its X-RateLimit headers, without counting and without turning the answer into a 401.
   */
  async function identifyQuietly(req: IncomingMessage, l: KeyedLocals): Promise<void> {
    try {
      await authenticate(deps, req, l);
      await readUsage(deps, l);
    } catch {
      // no valid key (or the store is down): the answer goes out without rate-limit headers
      delete l.key;
      delete l.plan;
      delete l.used;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse, l: KeyedLocals, head: boolean): Promise<void> {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const rest = (q >= 0 ? url.slice(0, q) : url).slice('/api/v1'.length) || '/';
    let path = rest.toLowerCase();
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const r = Object.hasOwn(ROUTES, path) ? ROUTES[path]! : undefined;
    const method = head ? 'GET' : req.method;
    const allowed = r?.method ?? 'GET';
    if (method !== allowed) {
      // 405 with Allow. An identified key still gets its X-RateLimit headers (nothing counted).
      await identifyQuietly(req, l);
      const allow = allowed === 'GET' ? 'GET, HEAD' : 'POST';
      const why = allowed === 'GET' ? 'this endpoint is read-only' : 'this endpoint changes your key';
      throw new KeyedError('method_not_allowed', `method ${req.method} not allowed: ${why} (${allow})`, { Allow: allow });
    }
    if (path === '/openapi.json') {
      send(res, l, head, 200, openapi, { 'cache-control': 'public, max-age=3600', 'access-control-allow-origin': '*' });
      return;
    }
    if (!r) {
      await identifyQuietly(req, l);
      throw new KeyedError('not_found', `no such endpoint: ${rest.slice(0, 100)}`);
    }
    if (r.counted) await authenticateAndCount(deps, req, l);
    else {
      await authenticate(deps, req, l);
      await readUsage(deps, l);
    }
    const query = parseQuery(q >= 0 ? url.slice(q + 1) : '') as Query;
    const answer = await r.route(query, l, deps);
    send(res, l, head, 200, answer.body, { 'cache-control': answer.cacheControl });
  }

  return (req, res) => {
    const l: KeyedLocals = { requestId: requestIdHeader(res)['x-request-id'] ?? randomUUID() };
    const head = req.method === 'HEAD';
    handle(req, res, l, head).catch((err: unknown) => fail(res, l, head, err));
  };
}

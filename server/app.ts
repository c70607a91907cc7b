/**
 * createApp(deps): the whole HTTP surface as one request listener. Nothing listens here (see main.ts).
 *
 *   /data/api/v1/*   open data feeds: bare node:http hot path (open-data/handler.ts)
 *   /api/v1/*        keyed API: bare node:http too (keyed/handler.ts)
 *   /healthz /readyz process and build health, bare too (cheap for probes; the benchmarks' reference)
 *   /docs/api/*      API reference pages and their assets, bare (api-reference/handler.ts)
 *   /billing/stripe/webhook  Stripe's events, bare: the raw body is verified before anything parses it
 *   /account/welcome         Checkout's success page: the new API key, shown once (server/billing/welcome.ts)
 *   /contribute              physicians submit their pay into the moderation queue (server/intake/handler.ts)
 *   /account                 the subscriber's page: plan, use, history chart, key rotation (server/billing/account.ts)
 *   /oauth/*, /.well-known/oauth-*  OAuth for assistants (server/oauth/), in the Express app
 *   everything else  the Express app (tool server, discovery, metrics, health) or the pages
 */
import { redactSecrets } from './http/redact.ts';
import { guardHtml } from './http/page-security.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import type { BuildRegistry } from './builds/registry.ts';
import { ReleaseShelf } from './builds/releases.ts';
import { systemClock, type Clock } from './http/clock.ts';
import { clientIpResolver, type TrustProxy } from './http/client-ip.ts';
import { sendJson, setRequestId } from './http/send.ts';
import { canonicalTarget, under, MALFORMED_PATH } from './http/canonical-path.ts';
import { CORS_HEADERS } from './http/cors.ts';
import { IpLimiter } from './limits/ip-limiter.ts';
import { createOpenDataHandler } from './open-data/handler.ts';
import type { IpLimits, ServiceStore } from './store/types.ts';
import { createKeyedHandler, isKeyedTarget } from './keyed/handler.ts';
import { createMcpRouter } from './mcp/route.ts';
import { apiKeyBearer, type BearerResolver } from './mcp/auth.ts';
import { hashKey } from './keyed/keys.ts';
import { discoveryDocument } from './mcp/discovery.ts';
import { registryServerJson, SERVER_JSON_PATH } from './mcp/registry.ts';
import { createPagesHandler } from './pages/handler.ts';
import { createPageFallback } from './pages/fallback.ts';
import { createApiReferenceHandler } from './api-reference/handler.ts';
import { randomUUID } from 'node:crypto';
import { interfaceOf, type Metrics } from './observability/metrics.ts';
import type { Logger } from './observability/logger.ts';
import { createWebhookHandler, isWebhookTarget, type BillingConfig } from './billing/webhook.ts';
import { createWelcomeHandler, isWelcomeTarget } from './billing/welcome.ts';
import { createAccountHandler, isAccountTarget } from './billing/account.ts';
import { createIntakeHandler, isContributeTarget } from './intake/handler.ts';
import { createOAuth, type OAuth } from './oauth/index.ts';

export interface AppDeps {
  registry: BuildRegistry;
  store: ServiceStore;
  clock?: Clock;
  ipLimits?: IpLimits;
  trustProxy?: TrustProxy;
  mcpAllowedHosts?: string[];
  mcpAllowedOrigins?: string[];
  /** answer plain tool calls without an SDK server per request (default on) */
  mcpDirectCalls?: boolean;
  /** the name in /.well-known/mcp/server.json (official MCP registry); default: from the build's base URL */
  mcpRegistryName?: string;
  metrics?: Metrics;
  logger?: Logger;
  /** true once shutdown began: answers carry Connection: close */
  closing?: () => boolean;
  /** Stripe billing (the webhook's signing secret and the price mapping); without it the webhook answers 404 */
  billing?: BillingConfig;
  /** /contribute: submissions a client may make per UTC day (default 5) */
  intakePerDay?: number;
  /** /contribute: reports without a proof of work (no JavaScript) the whole site takes per UTC day (default 20) */
  intakeWithoutJsPerDay?: number;
  /** the billing provider's customer portal, linked from /account for card and plan changes (default: not linked) */
  billingPortalUrl?: string;
  /** where people buy an API key, linked from /account (default: not linked) */
  signupUrl?: string;
  /** whom to ask for a key (an email address or a URL), named on /account (default: none) */
  contact?: string;
  /** /mcp: maps a bearer token to the API key it stands for (default: the token is the API key) */
  mcpResolveBearer?: BearerResolver;
  /** why the service store cannot serve now (null when it can): /readyz answers 503 */
  storeFault?: () => string | null;
}

export const DEFAULT_IP_LIMITS: IpLimits = { perMinute: 60, perDay: 2000 };

export interface App {
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  limiter: IpLimiter;
  /** OAuth for assistants: its resolver of Bearer tokens and the 401 challenge, for /mcp */
  oauth: OAuth;
}

/** GET or HEAD of /healthz or /readyz (any letter case, optional trailing slash, any query), else null. */
function healthTarget(req: IncomingMessage): 'healthz' | 'readyz' | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const m = /^\/(healthz|readyz)\/?(?:\?|$)/i.exec(req.url ?? '');
  return m ? (m[1]!.toLowerCase() as 'healthz' | 'readyz') : null;
}

/** /mcp's bearer tokens: a physpay API key as it is, else an OAuth access token's key (server/oauth/). */
const keyOrAccessToken = (oauth: OAuth): BearerResolver => async (token) => {
  const key = await apiKeyBearer(token);
  if (key) return key;
  const granted = await oauth.resolveBearer(token);
  return granted ? { keyHash: hashKey(granted.apiKey) } : null;
};

export function createApp(deps: AppDeps): App {
  const clock = deps.clock ?? systemClock;
  const clientIp = clientIpResolver(deps.trustProxy ?? false);
  const limiter = new IpLimiter(deps.store, deps.ipLimits ?? DEFAULT_IP_LIMITS, clock);
  const shelf = new ReleaseShelf(deps.registry); // every kept release: its files (open data) and tool calls naming it
  const openData = createOpenDataHandler({ registry: deps.registry, shelf, limiter, clientIp, clock });

  const web = express();
  web.disable('x-powered-by');
  web.set('etag', false);
  if (deps.trustProxy !== undefined && deps.trustProxy !== false) web.set('trust proxy', deps.trustProxy);
  // OAuth for assistants (server/oauth/): discovery documents, client registration, the approval page, tokens;
  // oauth.resolveBearer gives an access token's API key, oauth.challenge the WWW-Authenticate of a 401 on /mcp
  const oauth = createOAuth({ registry: deps.registry, store: deps.store, clock, limiter, clientIp });
  const mcp = createMcpRouter({ registry: deps.registry, shelf, limiter, clientIp, clock, allowedHosts: deps.mcpAllowedHosts, allowedOrigins: deps.mcpAllowedOrigins,
    directCalls: deps.mcpDirectCalls, onRefused: (calls) => deps.metrics?.quotaRefused('mcp', calls),
    keyed: { registry: deps.registry, store: deps.store, clock }, resolveBearer: deps.mcpResolveBearer ?? keyOrAccessToken(oauth),
    invalidTokenChallenge: () => oauth.challenge(true) });
  web.use('/mcp', mcp.router);
  web.use(oauth.router);
  web.get('/.well-known/mcp.json', async (_req, res, next) => {
    try {
      // The endpoint it names comes from the build's base URL, never from the request's Host header.
      const build = deps.registry.current;
      if (!build) {
        res.status(503).set({ 'cache-control': 'no-store', 'retry-after': '5', 'access-control-allow-origin': '*' }).json({ error: 'no published build is loaded yet; retry shortly' });
        return;
      }
      res.set({ 'cache-control': 'public, max-age=3600', 'access-control-allow-origin': '*' }).json(await discoveryDocument(build.baseUrl));
    } catch (err) {
      next(err);
    }
  });
  web.get(SERVER_JSON_PATH, (_req, res) => {
    // server.json for the official MCP registry: its remote URL, like the discovery document's endpoint,
    // comes from the build's base URL, never from the request's Host header.
    const build = deps.registry.current;
    if (!build) {
      res.status(503).set({ 'cache-control': 'no-store', 'retry-after': '5', 'access-control-allow-origin': '*' }).json({ error: 'no published build is loaded yet; retry shortly' });
      return;
    }
    res.set({ 'cache-control': 'public, max-age=3600', 'access-control-allow-origin': '*' }).json(registryServerJson(build.baseUrl, deps.mcpRegistryName));
  });
  web.get('/metrics', async (_req, res, next) => {
    if (!deps.metrics) {
      next();
      return;
    }
    try {
      const m = await deps.metrics.render();
      res.set({ 'content-type': m.contentType, 'cache-control': 'no-store' }).send(m.body);
    } catch (err) {
      next(err);
    }
  });
  const pageFallback = createPageFallback({ registry: deps.registry });
  web.use((req, res) => {
    if (pageFallback(req, res)) return; // 503 before the first build; the HTML 404 page for browsers
    res.status(404).set('cache-control', 'no-store').json({ error: `no such endpoint: ${req.method} ${req.path.slice(0, 200)}` });
  });
  web.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const status = (err as { status?: number }).status ?? 500;
    res.status(status >= 400 && status < 600 ? status : 500).json({ error: status >= 500 ? 'internal error' : err.message });
  });

  const pages = createPagesHandler({ registry: deps.registry, clock });
  const apiReference = createApiReferenceHandler();
  const keyed = createKeyedHandler({ registry: deps.registry, store: deps.store, clock });
  const { metrics, logger } = deps;
  const webhook = createWebhookHandler({ store: deps.store, billing: deps.billing, clock, logger });
  const welcome = createWelcomeHandler({ store: deps.store, billing: deps.billing, registry: deps.registry, logger });
  const account = createAccountHandler({ registry: deps.registry, billingPortalUrl: deps.billingPortalUrl, signupUrl: deps.signupUrl, contact: deps.contact });
  const intake = createIntakeHandler({ registry: deps.registry, store: deps.store, clock, clientIp, perDay: deps.intakePerDay, withoutJsPerDay: deps.intakeWithoutJsPerDay });
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const started = process.hrtime.bigint();
    const requestId = randomUUID();
    setRequestId(res, requestId); // the bare paths put it into their one writeHead (fast header path)
    if (deps.closing?.()) res.setHeader('Connection', 'close');
    if (metrics || logger) {
      res.once('finish', () => {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const iface = interfaceOf(url);
        metrics?.observe(iface, res.statusCode, seconds);
        if (logger?.isLevelEnabled('info')) {
          const q = url.indexOf('?');
          logger.info({ req_id: requestId, interface: iface, method: req.method, route: redactSecrets((q >= 0 ? url.slice(0, q) : url).slice(0, 300)), status: res.statusCode, ms: Math.round(seconds * 1e5) / 100 }, 'request');
        }
      });
    }
    // Route on the canonical form of the target (decoded once, slashes collapsed, any letter case): every
    // spelling of a feed or CSV path goes to the open-data handler and its limits, or is refused.
    // A target that is not a clean path is refused here, except under /api/v1 and /mcp, whose handlers never
    // decode paths and answer with their own error shapes (and, for a valid key, the X-RateLimit headers).
    const canonical = url.startsWith('/') ? canonicalTarget(url) : null;
    if (canonical === null && url.startsWith('/') && !isKeyedTarget(url) && !/^\/mcp(?:[/?]|$)/i.test(url)) {
      sendJson(res, 400, { error: MALFORMED_PATH }, { 'cache-control': 'no-store', ...CORS_HEADERS }, req.method === 'HEAD');
      return;
    }
    const target = canonical ?? { path: url, route: url };
    // every HTML answer carries the page protections (the open data sets its own on its hot path)
    if (!under(target.route, '/data')) guardHtml(res);
    if (isWebhookTarget(url)) {
      webhook(req, res).catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: 'internal error' }, { 'cache-control': 'no-store' });
        process.emitWarning(`billing webhook: ${(err as Error).stack}`);
      });
      return;
    }
    if (isWelcomeTarget(target.route)) {
      welcome(req, res).catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: 'internal error' }, { 'cache-control': 'no-store' });
        process.emitWarning(`account welcome: ${(err as Error).stack}`);
      });
      return;
    }
    if (isContributeTarget(target.route)) {
      intake(req, res).catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: 'internal error' }, { 'cache-control': 'no-store' });
        process.emitWarning(`contribute: ${(err as Error).stack}`);
      });
      return;
    }
    if (isAccountTarget(target.route)) {
      account(req, res);
      return;
    }
    if (under(target.route, '/data')) {
      try {
        openData(req, res);
      } catch (err) {
        if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
        process.emitWarning(`open data: ${(err as Error).stack}`);
      }
      return;
    }
    const health = healthTarget(req);
    if (health) {
      const b = deps.registry.current;
      const head = req.method === 'HEAD';
      if (health === 'healthz') sendJson(res, 200, { status: 'ok' }, { 'cache-control': 'no-store' }, head);
      else if (!b) {
        const loading = deps.registry.loading;
        // while `physpay serve` starts (it listens first) or a build that failed is tried again: name it
        sendJson(res, 503, loading ? { status: 'not ready', error: `loading build ${loading}`, loading } : { status: 'not ready', error: 'no valid build loaded yet' },
          { 'cache-control': 'no-store', 'retry-after': 5 }, head);
      }
      else if (deps.storeFault?.()) sendJson(res, 503, { status: 'not ready', error: 'service store unavailable' }, { 'cache-control': 'no-store', 'retry-after': 5 }, head);
      else sendJson(res, 200, { status: 'ready', build_id: b.id, build_date: b.manifest.build_date, data_as_of: b.keyedIndex.data_as_of }, { 'cache-control': 'no-store' }, head);
      return;
    }
    if (under(target.route, '/api/v1') || isKeyedTarget(url)) {
      keyed(req, res);
      return;
    }
    if (under(target.route, '/docs/api') && apiReference(req, res, target.route)) return;
    if (!under(target.route, '/api') && !under(target.route, '/mcp') && pages(req, res, target.path)) return;
    res.setHeader('X-Request-Id', requestId);
    // /mcp?signin (server/oauth/signin.ts): 401 with the OAuth challenge without a token, else on as /mcp
    if (oauth.signinGate(req, res)) return;
    // POST /mcp with a JSON body of a declared length (every MCP client's request) skips Express
    if (mcp.serveFast(req, res)) return;
    // Express skips every route for a request target it cannot parse (`POST http://[/mcp`) and would end
    // with its HTML 404: answer those with the JSON 404 of every other unknown path instead.
    web(req as express.Request, res as express.Response, (err?: unknown) => {
      if (res.headersSent) return;
      if (err) process.emitWarning(`express: ${(err as Error)?.stack ?? String(err)}`);
      sendJson(res, 404, { error: `no such endpoint: ${req.method} ${url.slice(0, 200)}` }, { 'cache-control': 'no-store' });
    });
  };
  return { listener, limiter, oauth };
}

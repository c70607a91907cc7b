/**
 * The OAuth routes (Express), mounted by createApp:
 *
 *   GET  /.well-known/oauth-protected-resource[/mcp]  RFC 9728 metadata of /mcp
 *   GET  /.well-known/oauth-authorization-server       RFC 8414 metadata
 *   POST /oauth/register    RFC 7591 dynamic client registration (public clients)
 *   GET  /oauth/authorize   the approval page; POST: the subscriber's answer
 *   POST /oauth/token       authorization_code (PKCE S256) and refresh_token grants
 *   POST /oauth/revoke      RFC 7009: a client ends its own grant (200 whether or not the token was its own)
 *
 * URLs come from the build's base URL (503 before a build is loaded). Metadata, registration and token
 * answers are open to any origin (browser-based clients), never cached where they hold secrets. Errors of the
 * registration and token endpoints have OAuth's shape `{error, error_description}`; the approval page says its
 * errors in words. Registration, revocation and the approval POST count toward the per-IP limits of the open API.
 */
import { createHmac } from 'node:crypto';
import express from 'express';
import type { BuildRegistry } from '../builds/registry.ts';
import type { Clock } from '../http/clock.ts';
import { IpLimiter } from '../limits/ip-limiter.ts';
import { siteContextOf } from '../pages/site-context.ts';
import { StoreUnavailableError, type ServiceStore } from '../store/types.ts';
import { cookieValue, CSRF_COOKIE, CSRF_MAX_SECONDS, csrfValid, issueCsrf } from './csrf.ts';
import { AUTHORIZATION_SERVER_PATH, AUTHORIZE_PATH, authorizationServerMetadata, PROTECTED_RESOURCE_PATH, protectedResourceMetadata, REGISTER_PATH, REVOKE_PATH, TOKEN_PATH } from './metadata.ts';
import { approvalCsp, approvalPage, errorPage } from './page.ts';
import { approve, checkAuthorizeRequest, deny, issuerOf, registerClient, revoke, token, type AuthorizeRequest, type Issuer, type OAuthDeps, type OAuthFailure } from './service.ts';

export interface OAuthRouteDeps {
  registry: BuildRegistry;
  store: ServiceStore;
  clock: Clock;
  limiter: IpLimiter;
  clientIp: (req: express.Request) => string;
}

const OPEN = { 'access-control-allow-origin': '*' };
const PREFLIGHT = { ...OPEN, 'access-control-allow-methods': 'GET, POST, OPTIONS', 'access-control-allow-headers': 'content-type, authorization, mcp-protocol-version', 'access-control-max-age': '86400' };

const signed = (r: AuthorizeRequest) => ({ client_id: r.client.client_id, redirect_uri: r.redirect_uri, code_challenge: r.code_challenge });

const isFailure = (x: object): x is OAuthFailure => 'error' in x && 'status' in x;

export function createOAuthRouter(deps: OAuthRouteDeps): express.Router {
  const router = express.Router();
  const core: OAuthDeps = { store: deps.store, clock: deps.clock };
  let csrfSecret: Buffer | undefined;
  const secret = async () => (csrfSecret ??= createHmac('sha256', await deps.store.intakeSecret()).update('physpay oauth csrf').digest());
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 40 });

  /** The issuer of the loaded build, or a 503 answered. */
  const issuerFor = (res: express.Response): Issuer | null => {
    const build = deps.registry.current;
    if (build) return issuerOf(build.baseUrl);
    res.status(503).set({ 'cache-control': 'no-store', 'retry-after': '5', ...OPEN }).json({ error: 'temporarily_unavailable', error_description: 'no published build is loaded yet; retry shortly' });
    return null;
  };
  const publisher = () => (deps.registry.current ? siteContextOf(deps.registry.current).publisher : 'physpay');

  /** Count the request against the caller's per-IP limits; a refusal is answered (429) and false returned. */
  const withinLimits = async (req: express.Request, res: express.Response): Promise<boolean> => {
    const v = await deps.limiter.check(deps.clientIp(req));
    if (v.allowed) return true;
    res.status(429).set({ 'retry-after': String(IpLimiter.retryAfter(v)), 'cache-control': 'no-store', ...OPEN }).json({ error: 'slow_down', error_description: 'too many requests from this address; retry after the time in Retry-After' });
    return false;
  };

  const wrap = (fn: (req: express.Request, res: express.Response) => Promise<void>): express.RequestHandler => (req, res, next) => {
    fn(req, res).catch(next);
  };

  for (const path of [PROTECTED_RESOURCE_PATH, `${PROTECTED_RESOURCE_PATH}/mcp`]) {
    router.options(path, (_req, res) => void res.status(204).set(PREFLIGHT).end());
    router.get(path, (_req, res) => {
      const is = issuerFor(res);
      if (is) res.set({ 'cache-control': 'public, max-age=3600', ...OPEN }).json(protectedResourceMetadata(is));
    });
  }
  router.options(AUTHORIZATION_SERVER_PATH, (_req, res) => void res.status(204).set(PREFLIGHT).end());
  router.get(AUTHORIZATION_SERVER_PATH, (_req, res) => {
    const is = issuerFor(res);
    if (is) res.set({ 'cache-control': 'public, max-age=3600', ...OPEN }).json(authorizationServerMetadata(is));
  });

  router.options([REGISTER_PATH, TOKEN_PATH, REVOKE_PATH], (_req, res) => void res.status(204).set(PREFLIGHT).end());
  router.post(REGISTER_PATH, express.json({ limit: '16kb' }), wrap(async (req, res) => {
    if (!issuerFor(res) || !(await withinLimits(req, res))) return;
    const out = await registerClient(core, req.body ?? {});
    if (isFailure(out)) res.status(out.status).set({ 'cache-control': 'no-store', ...OPEN }).json({ error: out.error, error_description: out.error_description });
    else res.status(201).set({ 'cache-control': 'no-store', ...OPEN }).json(out.client);
  }));

  router.post(TOKEN_PATH, form, wrap(async (req, res) => {
    const is = issuerFor(res);
    if (!is) return;
    const out = await token(core, (req.body ?? {}) as Record<string, unknown>, is);
    res.set({ 'cache-control': 'no-store', pragma: 'no-cache', ...OPEN });
    if (isFailure(out)) res.status(out.status).json({ error: out.error, error_description: out.error_description });
    else res.json(out);
  }));

  router.post(REVOKE_PATH, form, wrap(async (req, res) => {
    if (!issuerFor(res) || !(await withinLimits(req, res))) return;
    const out = await revoke(core, (req.body ?? {}) as Record<string, unknown>);
    res.set({ 'cache-control': 'no-store', ...OPEN });
    if (isFailure(out)) res.status(out.status).json({ error: out.error, error_description: out.error_description });
    else res.status(200).end();
  }));

  /** The approval page for `r` (a new CSRF nonce each time it is shown). */
  const showPage = async (res: express.Response, r: AuthorizeRequest, problem: string | null, status = 200) => {
    const { nonce, token: csrf } = issueCsrf(await secret(), signed(r), deps.clock());
    const html = approvalPage(publisher(), r, csrf, problem);
    const secure = r.resource.startsWith('https:') ? '; Secure' : '';
    res.status(status).set({
      'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff',
      'content-security-policy': approvalCsp(html, r.redirect_uri),
      'set-cookie': `${CSRF_COOKIE}=${nonce}; Path=${AUTHORIZE_PATH}; Max-Age=${CSRF_MAX_SECONDS}; HttpOnly; SameSite=Strict${secure}`,
    }).send(html);
  };
  const showError = (res: express.Response, status: number, message: string) => {
    const html = errorPage(publisher(), message);
    res.status(status).set({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'content-security-policy': approvalCsp(html, null) }).send(html);
  };

  // the approval page is for browsers on this site: no CORS, but a plain 204 rather than Express's text answer
  router.options(AUTHORIZE_PATH, (_req, res) => void res.status(204).set({ allow: 'GET, HEAD, POST', 'cache-control': 'no-store' }).end());
  router.get(AUTHORIZE_PATH, wrap(async (req, res) => {
    const is = issuerFor(res);
    if (!is) return;
    const check = await checkAuthorizeRequest(core, req.query as Record<string, unknown>, is);
    if (check.kind === 'page-error') showError(res, 400, check.message);
    else if (check.kind === 'redirect') res.redirect(303, check.location);
    else await showPage(res, check.request, null);
  }));

  router.post(AUTHORIZE_PATH, form, wrap(async (req, res) => {
    const is = issuerFor(res);
    if (!is || !(await withinLimits(req, res))) return;
    if (req.get('sec-fetch-site') === 'cross-site') {
      showError(res, 403, 'This approval was sent from another site. Open the link from your assistant again and approve on this page.');
      return;
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    const check = await checkAuthorizeRequest(core, body, is);
    if (check.kind === 'page-error') return showError(res, 400, check.message);
    if (check.kind === 'redirect') return void res.redirect(303, check.location);
    const r = check.request;
    const csrf = typeof body.csrf === 'string' ? body.csrf : undefined;
    if (!csrfValid(await secret(), csrf, cookieValue(req.get('cookie'), CSRF_COOKIE), signed(r), deps.clock())) {
      await showPage(res, r, 'This page was open too long, or was not sent from this browser. Paste your key again and approve.', 403);
      return;
    }
    if (body.decision === 'deny') return void res.redirect(303, deny(r, is));
    const out = await approve(core, r, typeof body.api_key === 'string' ? body.api_key : '', is);
    if ('problem' in out) await showPage(res, r, out.problem, 400);
    else res.redirect(303, out.location);
  }));

  // a body the parsers refuse (malformed JSON, too large): OAuth's error shape, not the site's; the service
  // store unavailable: 503 with Retry-After, as the keyed API answers it
  router.use((err: Error & { status?: number; type?: string }, req: express.Request, res: express.Response, next: express.NextFunction) => {
    if (res.headersSent) return next(err);
    if (err instanceof StoreUnavailableError) {
      res.status(503).set({ 'cache-control': 'no-store', 'retry-after': '5', ...OPEN }).json({ error: 'temporarily_unavailable', error_description: 'service unavailable; retry after a brief delay' });
      return;
    }
    // any 4xx of the body parsers (bad JSON or form, too large, a Content-Encoding that does not inflate), on
    // any spelling of the paths Express routes here (letter case, a final slash)
    const status = err.status ?? (err as { statusCode?: number }).statusCode;
    const path = req.path.toLowerCase().replace(/\/$/, '');
    if (typeof status !== 'number' || status < 400 || status > 499 || ![REGISTER_PATH, TOKEN_PATH, REVOKE_PATH, AUTHORIZE_PATH].includes(path)) return next(err);
    const description = status === 413 ? 'the request body is too large' : status === 415 ? 'the request body\'s Content-Encoding or charset is not supported' : 'the request body could not be parsed';
    res.status(status === 413 || status === 415 ? status : 400).set({ 'cache-control': 'no-store', ...OPEN }).json({ error: 'invalid_request', error_description: description });
  });

  return router;
}

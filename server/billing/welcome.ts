/**
 * GET /account/welcome?session_id=cs_...: Stripe Checkout's success page, where the buyer gets the API key
 * made for the checkout, once (server/billing/reveal.ts). No call to Stripe: the webhook has already made the
 * key and sealed it under the session id.
 *
 *  - a key waiting under the session: taken (deleted as it is read) and shown with its plan and how to use it;
 *  - the session's checkout was recorded but nothing waits: the key was already shown; how to get a new one;
 *  - anything else (no or malformed session id, unknown session, billing not set up): a neutral 404 page
 *    (the webhook may not have arrived yet: the page says to reload in a few seconds).
 *
 * A self-contained page: the site's CSS inline (allowed by its hash), no script, nothing from elsewhere;
 * Cache-Control: no-store, Referrer-Policy: no-referrer, a strict CSP. GET only: HEAD would have to either
 * take the key without showing it or answer without looking, so it gets 405 like any other method.
 * The key is never logged (the request log keeps the path without its query string).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { esc } from '../../build/pages/html.ts';
import { CSS } from '../../build/pages/layout.ts';
import type { BuildRegistry } from '../builds/registry.ts';
import { siteContextOf } from '../pages/site-context.ts';
import { requestIdHeader } from '../http/send.ts';
import { pageCsp } from '../http/page-security.ts';
import { hashKey } from '../keyed/keys.ts';
import type { Logger } from '../observability/logger.ts';
import { StoreUnavailableError, type ServiceStore } from '../store/types.ts';
import { openSealedKey } from './reveal.ts';
import type { BillingConfig } from './webhook.ts';

export const WELCOME_PATH = '/account/welcome';

/** Stripe's checkout session ids: cs_test_... / cs_live_... */
const SESSION_ID = /^cs_[A-Za-z0-9_]{1,250}$/;

export interface WelcomeDeps {
  store: ServiceStore;
  billing: BillingConfig | undefined;
  registry: BuildRegistry;
  logger?: Pick<Logger, 'warn'>;
}

/** The canonical route (lower case, no query) is this page. */
export function isWelcomeTarget(route: string): boolean {
  return route === WELCOME_PATH || route === `${WELCOME_PATH}/`;
}

/** The session_id of the request target (null: none, several, or not a checkout session id). */
export function sessionIdOf(url: string): string | null {
  const q = url.indexOf('?');
  if (q < 0) return null;
  const all = new URLSearchParams(url.slice(q + 1)).getAll('session_id');
  return all.length === 1 && SESSION_ID.test(all[0]!) ? all[0]! : null;
}

/** The head of a page that holds or handles an API key (welcome, account): not indexed, no referrer, the site's CSS plus `css`. */
export function privatePageHead(title: string, publisher: string, css: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${esc(title)} | ${esc(publisher)}</title>
<style>${CSS}${css}</style>
</head>`;
}

function document(title: string, body: string, publisher: string): string {
  return `${privatePageHead(title, publisher, `
/* the key and the curl line wrap on a phone instead of scrolling sideways */
#api-key { overflow-wrap: anywhere; word-break: break-all; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; }`)}
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function send(res: ServerResponse, status: number, html: string, extra: Record<string, string> = {}): void {
  const bytes = Buffer.from(html, 'utf8');
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': bytes.length,
    'cache-control': 'no-store',
    'content-security-policy': pageCsp(html),
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    ...requestIdHeader(res),
    ...extra,
  });
  res.end(bytes);
}

function keyPage(publisher: string, baseUrl: string, key: string, plan: string, status: string): string {
  const curl = `curl -H 'X-API-Key: ${key}' ${baseUrl}/api/v1/specialties`;
  const served = status === 'active'
    ? ''
    : `<p class="synthetic">The key is not served yet (status: ${esc(status)}): it starts working as soon as the payment is confirmed.</p>\n`;
  return document('Your API key', `<h1>Your API key</h1>
<p><strong>This key is shown once.</strong> Copy it now and keep it somewhere safe: this page will not show it again, and it is not stored in readable form.</p>
<p><code id="api-key">${esc(key)}</code></p>
<p>Plan: <strong>${esc(plan)}</strong></p>
${served}<h2>Using it</h2>
<p>Send the key in the <code>X-API-Key</code> header of every request to the API:</p>
<pre><code>${esc(curl)}</code></pre>
<p>The API reference: <a href="/docs/api">${esc(baseUrl)}/docs/api</a>.</p>
<p>Your plan, your use and a new key whenever you want one: <a href="/account">your account page</a> (with this key).</p>
<p>Lost the key? Ask the operator of this service for a new one (it replaces this one).</p>`, publisher);
}

function shownPage(publisher: string): string {
  return document('Key already shown', `<h1>This key was already shown</h1>
<p>The API key of this purchase is shown only once, and it has been. It cannot be shown again.</p>
<p>If you did not keep it, ask the operator of this service for a new key: the operator rotates it (<code>physpay keys rotate</code>), which makes a new key for the same subscription and revokes the old one.</p>`, publisher);
}

function notFoundPage(publisher: string): string {
  return document('Nothing to show', `<h1>Nothing to show here</h1>
<p>There is no key to show for this link.</p>
<p>If you have just paid, your key may take a few seconds to arrive: reload this page shortly. If it still does not appear, contact the operator of this service.</p>`, publisher);
}

export function createWelcomeHandler(deps: WelcomeDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const build = deps.registry.current;
    const publisher = build ? siteContextOf(build).publisher : 'physpay';
    if (req.method !== 'GET') {
      send(res, 405, document('Method not allowed', '<h1>Method not allowed</h1>\n<p>Open this page in a browser.</p>', publisher), { allow: 'GET' });
      return;
    }
    const session = sessionIdOf(req.url ?? '');
    if (!deps.billing || session === null) {
      send(res, 404, notFoundPage(publisher));
      return;
    }
    if (!build) {
      // the base URL (the curl line) comes from the loaded build: do not take the key before there is one
      send(res, 503, document('Starting', '<h1>Starting</h1>\n<p>The service is starting: reload this page in a few seconds.</p>', publisher), { 'retry-after': '5' });
      return;
    }
    try {
      const reveal = await deps.store.takeKeyReveal(session);
      if (reveal === null) {
        if (await deps.store.hasCheckoutSession(session)) send(res, 410, shownPage(publisher));
        else send(res, 404, notFoundPage(publisher));
        return;
      }
      let key: string;
      try {
        key = openSealedKey(reveal.sealed, deps.billing.webhookSecret);
      } catch {
        deps.logger?.warn({ key_id: reveal.key_id }, 'billing: a key waiting for its reveal could not be unsealed (was the webhook signing secret changed?)');
        send(res, 500, document('Key unavailable', `<h1>Your key cannot be shown</h1>
<p>Your key was made but cannot be shown here. Ask the operator of this service for a new one: the operator rotates it (<code>physpay keys rotate</code>).</p>`, publisher));
        return;
      }
      const rec = await deps.store.findKeyByHash(hashKey(key));
      send(res, 200, keyPage(publisher, build.baseUrl, key, rec?.plan_tier ?? 'unknown', rec?.subscription_status ?? 'unknown'));
    } catch (err) {
      if (err instanceof StoreUnavailableError) {
        send(res, 503, document('Unavailable', '<h1>Temporarily unavailable</h1>\n<p>Reload this page in a few seconds.</p>', publisher), { 'retry-after': '5' });
        return;
      }
      throw err;
    }
  };
}

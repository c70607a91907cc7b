/**
 * GET /account: the subscriber's page. The subscriber types their API key; the page's script
 * (browser/account.js) keeps it in this browser and asks the keyed API's self-service endpoints with it:
 * plan, status, today's and this month's use, the last 90 days as a chart (and a table), when the quotas
 * reset, a button that rotates the key (the new key shown once), and the assistants connected with the key (OAuth),
 * each with a button that disconnects it. The page itself knows no key: it is the
 * same for everyone, so the server never sees a key except in the X-API-Key header of those API requests.
 * A billing portal URL, when configured, is linked for card and plan changes. A visitor without a key reads
 * the plans and where to get one: the sign-up page (signupUrl, e.g. a Stripe Payment Link) when configured,
 * else the operator's contact (contact), else how the operator issues keys. The site's navigation bar and
 * footer (build/pages/layout.ts) are the public pages' own.
 *
 * Cache-Control: no-store (never cached at the edge, like every self-service answer), no referrer, a strict
 * CSP that allows exactly the inline script and style by hash, same-origin fetches only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { esc, fmtCount } from '../../build/pages/html.ts';
import { siteFooter, siteNav } from '../../build/pages/layout.ts';
import { LICENSE, LICENSE_URL } from '../../build/contract/open-feeds.ts';
import { PLANS } from '../keyed/plans.ts';
import type { BuildRegistry } from '../builds/registry.ts';
import { siteContextOf } from '../pages/site-context.ts';
import { requestIdHeader } from '../http/send.ts';
import { pageCsp } from '../http/page-security.ts';
import { privatePageHead } from './welcome.ts';

export const ACCOUNT_PATH = '/account';

/** The canonical route (lower case, no query) is this page. */
export function isAccountTarget(route: string): boolean {
  return route === ACCOUNT_PATH || route === `${ACCOUNT_PATH}/`;
}

export interface AccountDeps {
  registry: BuildRegistry;
  /** the billing provider's customer portal (card and plan changes); not linked when absent */
  billingPortalUrl?: string;
  /** where people buy a key (a Stripe Payment Link, a pricing page); not linked when absent */
  signupUrl?: string;
  /** whom to ask for a key: an email address or a URL; none when absent */
  contact?: string;
}

/** Where a visitor gets a key and whom to ask (all optional). */
export interface AccountLinks {
  billingPortalUrl?: string;
  signupUrl?: string;
  contact?: string;
}

/** The contact as a link: mailto: for an email address. */
function contactLink(contact: string): string {
  const isMail = !/^https?:/i.test(contact);
  return `<a href="${esc(isMail ? `mailto:${contact}` : contact)}"${isMail ? '' : ' rel="noopener noreferrer"'}>${esc(contact)}</a>`;
}

/** "No key yet?": the plans (their quotas and what each adds), and how to get a key here. */
export function getKeySection(links: AccountLinks): string {
  const p = PLANS;
  const plans = `<ul class="plans">
<li><strong>${p.starter.label}</strong>: ${fmtCount(p.starter.daily)} requests a day, ${fmtCount(p.starter.monthly)} a month; the benchmarks at state, regional and national scope.</li>
<li><strong>${p.professional.label}</strong>: ${fmtCount(p.professional.daily)} a day, ${fmtCount(p.professional.monthly)} a month; adds full-time-normalized figures, trends, breakdowns and pay components.</li>
<li><strong>${p.enterprise.label}</strong>: ${fmtCount(p.enterprise.daily)} a day, ${fmtCount(p.enterprise.monthly)} a month; adds custom date ranges.</li>
</ul>`;
  const ask = links.contact ? ` Questions, or a plan not offered there: ${contactLink(links.contact)}.` : '';
  const how = links.signupUrl
    ? `<p><a id="signup" href="${esc(links.signupUrl)}" rel="noopener noreferrer">Choose a plan and pay</a> (the payment page of our billing provider). Your key is shown once on the page you come back to after paying; then type it above.${ask}</p>`
    : links.contact
      ? `<p>Keys are issued by the operator of this service: ask ${contactLink(links.contact)} for one, naming the plan you want.</p>`
      : '<p>Keys are not sold on this site: the operator of this service issues them (with the <code>physpay keys create</code> command) and gives each subscriber their key. Ask whoever runs this site, or gave you its address, for one.</p>';
  return `<section id="get-key" aria-labelledby="get-key-h">
<h2 id="get-key-h">No key yet?</h2>
<p>A key opens the keyed benchmark API (see the <a href="/docs/api/keyed">API reference</a>). The plans:</p>
${plans}
${how}
</section>`;
}

let script: string | undefined;
const accountScript = () => (script ??= readFileSync(join(import.meta.dirname, 'browser', 'account.js'), 'utf8'));

const PAGE_CSS = `
#key-input{width:100%;max-width:32rem;font:inherit;padding:.4rem}
.usage-chart{width:100%;height:auto;max-width:45rem}
dl.account{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
dl.account dt{font-weight:600}
dl.account dd{margin:0}
#new-key-value{overflow-wrap:anywhere;word-break:break-all;font-size:1.05rem}
.new-key{border:2px solid var(--accent);padding:.5rem .75rem}
button{font:inherit;padding:.35rem .8rem;margin:.25rem .5rem .25rem 0}
.history{max-height:20rem;overflow:auto}
ul.assistants{padding-left:1.2rem}ul.assistants li{margin-bottom:.5rem}
@media (max-width:30rem){dl.account{grid-template-columns:1fr}dl.account dd{margin-bottom:.5rem}}`;

/** The page (pure): the same HTML for every visitor. */
export function accountPage(publisher: string, baseUrl: string, links: AccountLinks): string {
  const portal = links.billingPortalUrl
    ? `<p><a href="${esc(links.billingPortalUrl)}" rel="noopener noreferrer">Manage your card and plan</a> (opens the billing provider's customer portal).</p>`
    : `<p>To change your card or plan, contact the operator of this service${links.contact ? `: ${contactLink(links.contact)}` : ''}.</p>`;
  const site = { baseUrl: '', publisher, license: LICENSE, licenseUrl: LICENSE_URL };
  return `${privatePageHead('Your account', publisher, PAGE_CSS)}
<body>
<header>${siteNav(site)}</header>
<main>
<h1>Your account</h1>
<p id="no-script">This page reads your account with your API key from this browser, so it needs JavaScript. Without it, ask the API directly:
<code>curl -H 'X-API-Key: YOUR_KEY' ${esc(baseUrl)}/api/v1/me/usage</code> (and <code>/api/v1/me/usage/history</code>).</p>
<p id="message" role="status" aria-live="polite" hidden></p>
<form id="key-form" hidden>
<p>Your key stays in this browser: it is sent only in the <code>X-API-Key</code> header of this site's API requests, never in an address, and this page does not store it on the server.</p>
<p><label for="key-input">API key</label><br>
<input id="key-input" name="key" type="password" autocomplete="off" spellcheck="false" required placeholder="pcb_live_..."></p>
<p><input id="key-remember" type="checkbox"> <label for="key-remember">Remember the key on this device (otherwise it is forgotten when this tab closes)</label></p>
<p><button type="submit">Show my account</button></p>
</form>
<section id="account" hidden aria-labelledby="account-heading">
<h2 id="account-heading">Plan and use</h2>
<section id="new-key" class="new-key" hidden aria-labelledby="new-key-heading">
<h3 id="new-key-heading">Your new key: shown once</h3>
<p>Copy it now: it is not shown again. The previous key no longer works.</p>
<p><code id="new-key-value" tabindex="-1"></code></p>
<p><button type="button" id="copy-key">Copy the key</button></p>
</section>
<dl class="account">
<dt>Plan</dt><dd id="plan"></dd>
<dt>Subscription</dt><dd id="status"></dd>
<dt>Key</dt><dd id="key-prefix"></dd>
<dt>Today (UTC)</dt><dd id="today"></dd>
<dt>This month (UTC)</dt><dd id="month"></dd>
<dt>Daily quota resets</dt><dd id="daily-reset"></dd>
<dt>Monthly quota resets</dt><dd id="monthly-reset"></dd>
</dl>
<h2>Requests per day, last 90 days</h2>
<div id="chart"></div>
<p id="history-total"></p>
<details><summary>The daily numbers</summary>
<div class="history" tabindex="0" role="region" aria-label="Requests per day"><table><thead><tr><th scope="col">Day (UTC)</th><th scope="col">Requests</th></tr></thead><tbody id="history-rows"></tbody></table></div>
</details>
<h2>Your key</h2>
<p>Replacing the key makes a new one for the same subscription and stops the current one at once. Do it if the key may have been seen by someone else.</p>
<p><button type="button" id="rotate">Replace my key</button> <button type="button" id="forget">Forget the key in this browser</button></p>
<h2>Connected assistants</h2>
<p>Assistants you approved on the sign-in page act with this key: their calls count toward your plan's quotas. Disconnecting one ends its access at once; replacing the key ends them all.</p>
<p id="assistants-none">No assistant is connected with this key.</p>
<ul id="assistants" class="assistants"></ul>
<h2>Billing</h2>
${portal}
</section>
${getKeySection(links)}
</main>
${siteFooter(site)}
<script>${accountScript()}</script>
</body>
</html>
`;
}

export function createAccountHandler(deps: AccountDeps): (req: IncomingMessage, res: ServerResponse) => void {
  // one page per loaded build (its publisher and base URL), with its CSP computed once
  const NO_BUILD = {};
  const pages = new WeakMap<object, { bytes: Buffer; csp: string }>();
  return (req, res) => {
    const head = req.method === 'HEAD';
    if (req.method !== 'GET' && !head) {
      const body = Buffer.from('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Method not allowed</title></head><body><h1>Method not allowed</h1><p>Open this page in a browser.</p></body></html>');
      res.writeHead(405, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length, allow: 'GET, HEAD', 'cache-control': 'no-store', ...requestIdHeader(res) });
      res.end(body);
      return;
    }
    const build = deps.registry.current;
    let page = pages.get(build ?? NO_BUILD);
    if (!page) {
      const html = accountPage(build ? siteContextOf(build).publisher : 'physpay', build?.baseUrl ?? '', deps);
      page = { bytes: Buffer.from(html, 'utf8'), csp: pageCsp(html) };
      pages.set(build ?? NO_BUILD, page);
    }
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': page.bytes.length,
      'cache-control': 'no-store',
      'content-security-policy': page.csp,
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      ...requestIdHeader(res),
    });
    res.end(head ? undefined : page.bytes);
  };
}

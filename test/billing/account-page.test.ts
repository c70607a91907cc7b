/**
 * The subscriber's /account page, in Debian Chromium against a real server (injected clock): a key claimed on
 * Checkout's welcome page is typed into /account, which shows the plan, status, today's and this month's use
 * and the 90-day chart with the days' real counts; the key is rotated from the page (the old key refused at
 * once, the new one shown once and kept in this browser); no request leaves the origin and the key is never
 * in an address; the page works under its own CSP; axe finds nothing at 390 and 1280 px; without JavaScript
 * it says how to use the API instead. Screenshots: test-output/account/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import axe from 'axe-core';
import type { AxeResults } from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { haveBrowser, launchChromium, outputDir } from '../helpers/browser.ts';
import { request } from '../helpers/http.ts';
import { closeAfterAll, startTestServer } from '../helpers/server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import type { RunningServer } from '../../server/main.ts';
import { parsePriceMap } from '../../server/billing/prices.ts';
import { WEBHOOK_PATH } from '../../server/billing/webhook.ts';
import { hashKey } from '../../server/keyed/keys.ts';
import { checkoutEvent, PRICES, SECRET, signed, subscriptionEvent, type Event } from './events.ts';

const later = closeAfterAll();
const tmp = useTempDir('account-page');
const PORTAL = 'https://billing.stripe.com/p/login/test_portal';
let now = new Date('2026-12-10T09:00:00Z');
let server: RunningServer;
let bare: RunningServer;

async function deliver(e: Event): Promise<void> {
  const { body, signature } = signed(e, { at: Math.floor(now.getTime() / 1000) });
  const r = await request(server.url, WEBHOOK_PATH, { method: 'POST', body, headers: { 'content-type': 'application/json', 'stripe-signature': signature } });
  expect(r.status, r.text).toBe(200);
}

const api = (path: string, key: string, method = 'GET') => request(server.url, `/api/v1${path}`, { method, headers: { 'x-api-key': key } });

beforeAll(async () => {
  const { dist } = goldenBuildIn(tmp.path, join(tmp.path, 'dist'));
  server = later(await startTestServer(dist, join(tmp.path, 'service.db'), {
    clock: () => now, billing: { webhookSecret: SECRET, prices: parsePriceMap(PRICES).map }, billingPortalUrl: PORTAL,
  }));
  bare = later(await startTestServer(dist, join(tmp.path, 'bare.db')));
}, 60_000);

describe('GET /account over HTTP', () => {
  it('one page for everyone: no-store, no referrer, a CSP allowing its own script by hash and nothing from elsewhere', async () => {
    const r = await request(server.url, '/account', { headers: { accept: 'text/html' } });
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['referrer-policy']).toBe('no-referrer');
    const csp = String(r.headers['content-security-policy']);
    expect(csp).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; style-src 'sha256-[A-Za-z0-9+/=]+'; /);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|\*/);
    expect(r.text).not.toMatch(/<script[^>]+src=|<link|<img/i);
    expect(r.text).toContain(`href="${PORTAL}"`);
    // without a portal configured, no link; the same page at /account/ and /ACCOUNT; HEAD without a body
    const b = await request(bare.url, '/ACCOUNT/');
    expect(b.status).toBe(200);
    expect(b.text).not.toContain('billing.stripe.com');
    expect(b.text).toContain('contact the operator');
    // a visitor without a key learns the plans and how keys are issued here (nothing configured: by the operator)
    for (const page of [r.text, b.text]) {
      expect(page).toContain('<h2 id="get-key-h">No key yet?</h2>');
      expect(page).toMatch(/Starter<\/strong>: 100 requests a day, 3,000 a month/);
    }
    expect(b.text).toContain('the operator of this service issues them (with the <code>physpay keys create</code> command)');
    const head = await request(server.url, '/account', { method: 'HEAD' });
    expect([head.status, head.body.length]).toEqual([200, 0]);
    const post = await request(server.url, '/account', { method: 'POST' });
    expect([post.status, post.headers.allow, post.headers['cache-control']]).toEqual([405, 'GET, HEAD', 'no-store']);
  });
});

describe.skipIf(!haveBrowser)('/account in Chromium', () => {
  let browser: Browser;
  const shots = outputDir('account');
  const outside: string[] = [];
  const keyInUrl: string[] = [];
  let key = '';

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(width: number, opts: { js?: boolean; bypassCSP?: boolean } = {}): Promise<Page> {
    const ctx = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: opts.js ?? true, bypassCSP: opts.bypassCSP ?? false });
    const page = await ctx.newPage();
    page.on('request', (r) => {
      if (!r.url().startsWith(server.url)) outside.push(r.url());
      if (key && r.url().includes(key)) keyInUrl.push(r.url());
    });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of (401|410)/.test(m.text())) errors.push(m.text()); // the wrong key's 401 and the second welcome visit's 410 are expected
    });
    (page as Page & { errors?: string[] }).errors = errors;
    return page;
  }

  it('claims a key once on the welcome page, sees its use and the 90-day chart on /account, rotates it', async () => {
    // a checkout: the subscription and the session, signed as Stripe signs them
    const t = Math.floor(now.getTime() / 1000);
    await deliver(subscriptionEvent('customer.subscription.created', { id: 'evt_acct_1', created: t - 5, sub: 'sub_acct', price: 'price_pro_m', status: 'active' }));
    await deliver(checkoutEvent({ id: 'evt_acct_2', created: t - 4, session: 'cs_test_acct', sub: 'sub_acct' }));
    const page = await open(1280);
    expect((await page.goto(`${server.url}/account/welcome?session_id=cs_test_acct`))?.status()).toBe(200);
    key = (await page.locator('#api-key').textContent())!.trim();
    expect(key).toMatch(/^pcb_live_/);
    expect((await page.goto(`${server.url}/account/welcome?session_id=cs_test_acct`))?.status()).toBe(410);

    // use on three days: 3 requests on Dec 1, none on Dec 2..9, 5 today (Dec 10)
    now = new Date('2026-12-01T15:00:00Z');
    for (let i = 0; i < 3; i++) expect((await api('/specialties', key)).status).toBe(200);
    now = new Date('2026-12-10T10:00:00Z');
    for (let i = 0; i < 5; i++) expect((await api('/specialties', key)).status).toBe(200);

    expect((await page.goto(`${server.url}/account`))?.status()).toBe(200);
    await expect(page.locator('#key-form').isVisible()).resolves.toBe(true);
    await page.fill('#key-input', key);
    await page.click('#key-form button[type=submit]');
    await page.locator('#account').waitFor({ state: 'visible' });
    expect(await page.locator('#plan').textContent()).toBe('Professional');
    expect(await page.locator('#status').textContent()).toMatch(/^active/);
    expect(await page.locator('#today').textContent()).toBe('5 of 500 (495 left)');
    expect(await page.locator('#month').textContent()).toBe('8 of 15,000 (14,992 left)');
    expect(await page.locator('#daily-reset').textContent()).toContain('2026-12-11 00:00 UTC');
    expect(await page.locator('#monthly-reset').textContent()).toContain('2027-01-01 00:00 UTC');
    // the chart: 90 bars, oldest first, with the days' counts
    const bars = await page.locator('#chart svg rect').evaluateAll((els) => els.map((e) => [e.getAttribute('data-date'), Number(e.getAttribute('data-requests')), Number(e.getAttribute('height'))] as const));
    expect(bars).toHaveLength(90);
    expect(bars[0]![0]).toBe('2026-09-12');
    expect(bars.at(-1)).toEqual(['2026-12-10', 5, expect.any(Number)]);
    expect(bars.filter((b) => b[1] > 0).map((b) => [b[0], b[1]])).toEqual([['2026-12-01', 3], ['2026-12-10', 5]]);
    expect(bars.at(-1)![2]).toBeGreaterThan(bars.find((b) => b[0] === '2026-12-01')![2]);
    expect(await page.locator('#chart svg title').first().textContent()).toMatch(/8 in all; busiest day 2026-12-10 with 5/);
    expect(await page.locator('#history-total').textContent()).toBe('8 requests in the last 90 days (daily quota 500).');
    expect(await page.locator('a', { hasText: 'Manage your card and plan' }).getAttribute('href')).toBe(PORTAL);
    expect(await page.locator('#get-key').isVisible()).toBe(false); // "No key yet?" is not shown to a key holder
    await page.screenshot({ path: join(shots, 'account-1280.png'), fullPage: true });

    // rotate: confirm, the new key shown once, the old key refused at once, the new one kept in this tab
    page.once('dialog', (d) => void d.accept());
    await page.click('#rotate');
    await page.locator('#new-key').waitFor({ state: 'visible' });
    const fresh = (await page.locator('#new-key-value').textContent())!.trim();
    await page.screenshot({ path: join(shots, 'account-rotated-1280.png') });
    expect(fresh).toMatch(/^pcb_live_/);
    expect(fresh).not.toBe(key);
    expect((await api('/specialties', key)).status).toBe(401);
    expect((await api('/me/usage', fresh)).status).toBe(200);
    expect(await page.locator('#today').textContent()).toBe('5 of 500 (495 left)');
    await page.reload();
    await page.locator('#account').waitFor({ state: 'visible' });
    expect(await page.locator('#new-key').isVisible()).toBe(false); // shown once
    expect(await page.locator('#plan').textContent()).toBe('Professional');
    // forget: the key leaves this browser
    await page.click('#forget');
    await page.reload();
    expect(await page.locator('#key-form').isVisible()).toBe(true);
    expect(await page.evaluate<number[]>('[sessionStorage.length, localStorage.length]')).toEqual([0, 0]); // browser-side expression (no DOM types here)
    // a wrong key: a clear message, nothing shown
    await page.fill('#key-input', 'pcb_live_0000000000000000000000000000');
    await page.click('#key-form button[type=submit]');
    await page.locator('#message', { hasText: 'not valid' }).waitFor();
    expect(await page.locator('#account').isVisible()).toBe(false);
    key = fresh;
    expect((page as Page & { errors?: string[] }).errors).toEqual([]);
    expect(outside).toEqual([]);
    expect(keyInUrl).toEqual([]);
  });

  it('lists the assistants connected with the key and disconnects one from the page', async () => {
    const record = (await server.store.findKeyByHash(hashKey(key)))!;
    const expires = new Date(now.getTime() + 30 * 86_400_000 - 3_600_000).toISOString();
    for (const [n, name, redirect] of [[1, 'Claude <b>desktop</b>', 'http://127.0.0.1:33418/callback'], [2, 'Research helper', 'https://assistant.example/oauth/cb']] as const) {
      await server.store.registerOAuthClient({ client_id: `client-${n}`, client_name: name, redirect_uris: [redirect], created_at: now.toISOString() });
      await server.store.saveOAuthTokens([{ token_hash: `hash-${n}`, kind: 'refresh', grant_id: `grant-${n}`, client_id: `client-${n}`, key_id: record.id, resource: `${server.url}/mcp`, sealed: 'x', expires_at: n === 1 ? expires : new Date(Date.parse(expires) - 60_000).toISOString() }]);
    }
    const page = await open(1280);
    await page.goto(`${server.url}/account`);
    await page.fill('#key-input', key);
    await page.click('#key-form button[type=submit]');
    await page.locator('#assistants li').first().waitFor();
    const items = await page.locator('#assistants li').allTextContents();
    expect(items).toHaveLength(2);
    expect(items[0]).toMatch(/^Claude <b>desktop<\/b> \(returns to 127\.0\.0\.1:33418\): last signed in .+; its access ends .+ unless it signs in again\. Disconnect$/); // the name is text, never markup
    expect(items[1]).toContain('Research helper (returns to assistant.example)');
    expect(await page.locator('#assistants-none').isVisible()).toBe(false);
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Disconnect Research helper' }).click();
    await page.locator('#message', { hasText: 'Research helper was disconnected.' }).waitFor();
    expect(await page.locator('#assistants li').count()).toBe(1);
    expect((await server.store.listOAuthGrants(record.id, now.toISOString())).map((g) => g.grant_id)).toEqual(['grant-1']);
    await page.screenshot({ path: join(shots, 'account-assistants-1280.png'), fullPage: true });
    expect((page as Page & { errors?: string[] }).errors).toEqual([]);
    await page.context().close();
  });

  it('at 390 px: usable, nothing wider than the screen; axe finds no violation (phone and desktop)', async () => {
    for (const width of [390, 1280]) {
      const page = await open(width, { bypassCSP: true }); // axe is injected as a script
      await page.goto(`${server.url}/account`);
      await page.fill('#key-input', key);
      await page.click('#key-form button[type=submit]');
      await page.locator('#account').waitFor({ state: 'visible' });
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
      if (width === 390) await page.screenshot({ path: join(shots, 'account-390.png'), fullPage: true });
      await page.addScriptTag({ content: axe.source });
      const r = await page.evaluate<AxeResults>('axe.run(document, { resultTypes: ["violations"] })');
      expect(r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `${width} px`).toEqual([]);
      await page.context().close();
    }
  });

  it('without JavaScript: the form stays hidden and the page says how to ask the API instead', async () => {
    const page = await open(390, { js: false });
    await page.goto(`${server.url}/account`);
    expect(await page.locator('#no-script').isVisible()).toBe(true);
    expect(await page.locator('#no-script').textContent()).toContain('/api/v1/me/usage');
    expect(await page.locator('#key-form').isVisible()).toBe(false);
    await page.screenshot({ path: join(shots, 'account-nojs-390.png') });
    await page.context().close();
  });
});

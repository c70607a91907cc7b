/**
 * The billing settings: the webhook secret and the price mapping from flags, PHYSPAY_* variables and the
 * config file (an object there), checked at start with one sentence (line) per problem and the secret
 * never printed; and `physpay billing events` listing what each event did.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCliText } from '../helpers/cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { ConfigError, readConfigFile, readSettings } from '../../build/cli/settings.ts';
import { billingSettings } from '../../build/cli/commands/serve.ts';
import { SqliteServiceStore } from '../../server/store/sqlite.ts';
import { request, waitFor } from '../helpers/http.ts';
import { spawnServe } from '../server/serve-process.ts';
import { WEBHOOK_PATH } from '../../server/billing/webhook.ts';
import { checkoutEvent, SECRET, signed, subscriptionEvent } from './events.ts';

const tmp = useTempDir('billing-settings');

describe('billing settings', () => {
  it('both or neither; every problem of the mapping on its own line; the secret never printed', async () => {
    expect(await billingSettings(undefined, undefined)).toBeUndefined();
    const ok = await billingSettings(SECRET, 'starter=price_a;enterprise=price_b,price_c');
    expect(ok!.prices.get('price_c')).toBe('enterprise');
    await expect(billingSettings(SECRET, undefined)).rejects.toThrow(/--stripe-webhook-secret \(PHYSPAY_STRIPE_WEBHOOK_SECRET\) is set but --stripe-prices/);
    await expect(billingSettings(undefined, 'starter=price_a')).rejects.toThrow(/--stripe-prices \(PHYSPAY_STRIPE_PRICES\) is set but --stripe-webhook-secret/);
    const r = await runCliText(['serve', '--data', join(tmp.path, 'none'), '--service-db', join(tmp.path, 'service.db'), '--port', '0',
      '--stripe-webhook-secret', SECRET, '--stripe-prices', 'gold=price_a;starter=prod_b']);
    expect(r.code).toBe(2);
    const lines = r.err.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^physpay: --stripe-prices \(PHYSPAY_STRIPE_PRICES\): "gold" is not a plan/);
    expect(lines[1]).toMatch(/^physpay: --stripe-prices \(PHYSPAY_STRIPE_PRICES\): "prod_b" \(plan starter\) is not a Stripe price id/);
    expect(r.err + r.out).not.toContain(SECRET);
  });

  it('a malformed secret is refused without being echoed (flag or variable)', async () => {
    const secret = 'sk_live_this_is_not_a_webhook_secret';
    const r = await runCliText(['serve', '--service-db', join(tmp.path, 'service.db'), '--stripe-webhook-secret', secret, '--stripe-prices', 'starter=price_a']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--stripe-webhook-secret \(PHYSPAY_STRIPE_WEBHOOK_SECRET\) must be the signing secret Stripe shows for the webhook endpoint/);
    expect(r.err).toContain('not shown');
    expect(r.err).not.toContain(secret);
  });

  it('a billing portal URL must be https (http only on this machine); one sentence naming the setting', async () => {
    for (const url of ['http://billing.example.com/portal', 'javascript:alert(1)', 'not a url']) {
      const r = await runCliText(['serve', '--service-db', join(tmp.path, 'service.db'), '--billing-portal-url', url]);
      expect(r.code, url).toBe(2);
      expect(r.err).toMatch(/--billing-portal-url \(PHYSPAY_BILLING_PORTAL_URL\).*an https:\/\/ URL \(http:\/\/ only for localhost\)/);
    }
  });

  it('the config file takes the mapping as an object, one or more prices per plan', () => {
    const file = join(tmp.path, 'physpay.config.json');
    writeFileSync(file, JSON.stringify({ stripeWebhookSecret: SECRET, stripePrices: { starter: ['price_s1', 'price_s2'], enterprise: 'price_e1,price_e2' } }));
    expect(readConfigFile(file)).toEqual({ stripeWebhookSecret: SECRET, stripePrices: 'starter=price_s1,price_s2;enterprise=price_e1,price_e2' });
    writeFileSync(file, JSON.stringify({ 'stripe-webhook-secret': 'nope' }));
    expect(() => readConfigFile(file)).toThrow(/bad value for "stripe-webhook-secret" in config file .*not shown/);
  });
});

describe('the /account links', () => {
  it('the sign-up page is an https URL; the contact an email address or an https URL', () => {
    expect(readSettings({ signupUrl: 'https://buy.stripe.com/x', contact: 'https://example.org/contact' }, ['signupUrl', 'contact'])).toEqual({ signupUrl: 'https://buy.stripe.com/x', contact: 'https://example.org/contact' });
    expect(readSettings({ contact: ' keys@example.org ' }, ['contact'])).toEqual({ contact: 'keys@example.org' });
    expect(() => readSettings({ contact: 'call Bob' }, ['contact'])).toThrow(ConfigError);
    expect(() => readSettings({ contact: 'javascript:alert(1)' }, ['contact'])).toThrow(/an email address .* or an https:\/\/ URL/);
    expect(() => readSettings({ signupUrl: 'http://buy.example' }, ['signupUrl'])).toThrow(ConfigError);
  });
});

describe('physpay serve with billing from the config file', () => {
  it('answers the webhook, logs an unknown price as a warning, never the secret', async () => {
    const dir = join(tmp.path, 'serve');
    mkdirSync(dir);
    const config = join(dir, 'physpay.config.json');
    writeFileSync(config, JSON.stringify({ stripeWebhookSecret: SECRET, stripePrices: { starter: ['price_starter_m'], professional: 'price_pro_m' }, billingPortalUrl: 'https://billing.stripe.com/p/login/test_cfg', signupUrl: 'https://buy.stripe.com/test_signup', contact: 'keys@example.org' }));
    const serve = await spawnServe(['--config', config, '--data', join(dir, 'dist'), '--service-db', join(dir, 'service.db'), '--port', '0'], 30_000, { until: 'listening' });
    try {
      const { body, signature } = signed(subscriptionEvent('customer.subscription.created', { id: 'evt_serve_1', created: Math.floor(Date.now() / 1000), sub: 'sub_serve', price: 'price_elsewhere', status: 'active' }));
      const r = await request(serve.url, WEBHOOK_PATH, { method: 'POST', body, headers: { 'stripe-signature': signature, 'content-type': 'application/json' } });
      expect(r.status).toBe(200);
      await waitFor('the warning', () => serve.stderr().includes('unknown price price_elsewhere'), 5_000);
      const line = serve.stderr().split('\n').find((l) => l.includes('unknown price price_elsewhere'))!;
      expect(JSON.parse(line)).toMatchObject({ level: 40, event_id: 'evt_serve_1', subscription_id: 'sub_serve' });
      expect(serve.stderr()).not.toContain(SECRET);
      // a checkout of a known price: its key belongs to the customer and the subscription (keys list)
      const t = Math.floor(Date.now() / 1000);
      for (const e of [
        subscriptionEvent('customer.subscription.created', { id: 'evt_serve_2', created: t, sub: 'sub_paid', customer: 'cus_paid', price: 'price_pro_m', status: 'active' }),
        checkoutEvent({ id: 'evt_serve_3', created: t + 1, session: 'cs_test_serve', sub: 'sub_paid', customer: 'cus_paid' }),
      ]) {
        const d = signed(e);
        expect((await request(serve.url, WEBHOOK_PATH, { method: 'POST', body: d.body, headers: { 'stripe-signature': d.signature, 'content-type': 'application/json' } })).status).toBe(200);
      }
      // the portal link from the config file is on /account
      const account = (await request(serve.url, '/account')).text;
      expect(account).toContain('href="https://billing.stripe.com/p/login/test_cfg"');
      // and, for visitors without a key, the sign-up link and the contact
      expect(account).toContain('<a id="signup" href="https://buy.stripe.com/test_signup"');
      expect(account).toContain('href="mailto:keys@example.org"');
    } finally {
      await serve.stop();
    }
    const listed = await runCliText(['billing', 'events', '--service-db', join(dir, 'service.db')]);
    expect(listed.out).toContain('evt_serve_1\tcustomer.subscription.created\tsub_serve\tunknown price price_elsewhere: plan unchanged');
    const keys = JSON.parse((await runCliText(['keys', 'list', '--json', '--service-db', join(dir, 'service.db')])).out).keys;
    expect(keys).toEqual([expect.objectContaining({ plan_tier: 'professional', state: 'active', customer_id: 'cus_paid', subscription_id: 'sub_paid' })]);
    const table = (await runCliText(['keys', 'list', '--service-db', join(dir, 'service.db')])).out.split('\n');
    expect(table[0]).toContain('\tcustomer\tsubscription\tlabel');
    expect(table[1]).toContain('\tcus_paid\tsub_paid\t');
  }, 40_000);
});

describe('physpay billing events', () => {
  it('lists each event once, newest first, with its outcome', async () => {
    const db = join(tmp.path, 'events.db');
    const store = new SqliteServiceStore(db);
    store.applyBillingEvent({ event: { id: 'evt_1', type: 'customer.created', receivedAt: '2026-11-20T10:00:00.000Z', subscriptionId: null }, outcome: 'ignored: customer.created is not acted on' });
    store.applyBillingEvent({
      event: { id: 'evt_2', type: 'customer.subscription.updated', receivedAt: '2026-11-20T10:00:05.000Z', subscriptionId: 'sub_1' },
      decide: () => ({ next: null, outcome: 'unknown price price_x: no change (add it to the price mapping)', createKey: false }),
    });
    expect(store.applyBillingEvent({ event: { id: 'evt_1', type: 'customer.created', receivedAt: '2026-11-20T10:00:09.000Z', subscriptionId: null } }))
      .toEqual({ duplicate: true, outcome: 'ignored: customer.created is not acted on' });
    store.close();
    const text = await runCliText(['billing', 'events', '--service-db', db]);
    expect(text.code).toBe(0);
    expect(text.out.split('\n')).toEqual([
      'received_at\tevent_id\ttype\tsubscription_id\toutcome',
      '2026-11-20T10:00:05Z\tevt_2\tcustomer.subscription.updated\tsub_1\tunknown price price_x: no change (add it to the price mapping)',
      '2026-11-20T10:00:00Z\tevt_1\tcustomer.created\t-\tignored: customer.created is not acted on',
    ]);
    const json = JSON.parse((await runCliText(['billing', 'events', '--service-db', db, '--json', '--limit', '1'])).out);
    expect(json.events).toEqual([{ event_id: 'evt_2', type: 'customer.subscription.updated', subscription_id: 'sub_1', received_at: '2026-11-20T10:00:05Z', outcome: 'unknown price price_x: no change (add it to the price mapping)' }]);
  });
});

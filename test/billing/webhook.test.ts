/**
 * POST /billing/stripe/webhook over real HTTP, on the SQLite store and on PostgreSQL: signed payloads
 * (the official stripe package's generateTestHeaderString), the lifecycle of a subscription seen through
 * the keyed API, duplicates, shuffled delivery, bad and stale signatures, unknown prices.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { request, type HttpResponse } from '../helpers/http.ts';
import { pgSkipReason, PG_URL } from '../helpers/pg.ts';
import { closeAfterAll, listen, startTestServer } from '../helpers/server.ts';
import { createApp } from '../../server/app.ts';
import { BuildRegistry } from '../../server/builds/registry.ts';
import { PostgresServiceStore } from '../../server/store/postgres.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import type { RunningServer } from '../../server/main.ts';
import { parsePriceMap } from '../../server/billing/prices.ts';
import { openSealedKey } from '../../server/billing/reveal.ts';
import { WEBHOOK_PATH } from '../../server/billing/webhook.ts';
import { generateKey, hashKey, keyPrefixOf } from '../../server/keyed/keys.ts';
import { checkoutEvent, invoiceEvent, lifecycle, PRICES, SECRET, signed, subscriptionEvent, type Event } from './events.ts';

const later = closeAfterAll();
const tmp = useTempDir('billing');

function post(url: string, body: string, headers: Record<string, string>): Promise<HttpResponse> {
  return request(url, WEBHOOK_PATH, { method: 'POST', body, headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)', ...headers } });
}

async function deliver(url: string, e: Event, opts: { secret?: string; at?: number } = {}): Promise<HttpResponse> {
  const { body, signature } = signed(e, opts);
  return post(url, body, { 'stripe-signature': signature });
}

const pgSkip = await pgSkipReason('billing webhook on PostgreSQL');

for (const kind of ['sqlite', 'postgres'] as const) {
  describe.skipIf(kind === 'postgres' && pgSkip !== null)(`billing webhook on ${kind}`, () => {
    let server: RunningServer;
    const served = async (key: string) => (await request(server.url, '/api/v1/specialties', { headers: { 'x-api-key': key } })).status;
    const keysOf = async (sub: string) => {
      // the keys of a subscription: those created by its checkout (label "stripe cus_<sub>")
      const all = await server.store.listKeys();
      return all.filter((k) => k.label === `stripe cus_${sub}`);
    };
    const eventIds = async () => new Set((await server.store.listBillingEvents(10_000)).map((e) => e.event_id));

    beforeAll(async () => {
      const work = join(tmp.path, kind);
      mkdirSync(work);
      const { dist } = goldenBuildIn(work, join(work, 'dist'));
      const serviceDb = kind === 'sqlite' ? join(work, 'service.db') : PG_URL;
      server = later(await startTestServer(dist, serviceDb, { billing: { webhookSecret: SECRET, prices: parsePriceMap(PRICES).map } }));
    }, 60_000);

    it('lifecycle: checkout -> key -> payment failed (403 past_due) -> paid (served) -> upgraded -> canceled (403)', async () => {
      const { sub, session, events } = lifecycle(`life_${kind}`, Math.floor(Date.now() / 1000) - 1000);
      const send = async (i: number) => {
        const r = await deliver(server.url, events[i]!);
        expect(r.status, r.text).toBe(200);
        expect(r.json()).toEqual({ received: true });
        expect(r.headers['cache-control']).toBe('no-store');
      };
      await send(0);
      await send(1);
      // the key is kept sealed under the checkout session, for its one reveal
      const reveal = await server.store.takeKeyReveal(session);
      expect(reveal).not.toBeNull();
      expect(await server.store.takeKeyReveal(session)).toBeNull(); // shown once
      const key = openSealedKey(reveal!.sealed, SECRET);
      expect(key).toMatch(/^pcb_live_[0-9A-Za-z]{32}$/);
      const [rec] = await keysOf(sub);
      expect(rec).toMatchObject({ id: reveal!.key_id, plan_tier: 'starter', subscription_status: 'active' });
      expect(await served(key)).toBe(200);
      await send(2);
      await send(3);
      await send(4); // invoice.payment_failed
      const refused = await request(server.url, '/api/v1/specialties', { headers: { 'x-api-key': key } });
      expect(refused.status).toBe(403);
      expect(refused.json().error).toMatch(/subscription is past_due/);
      await send(5);
      await send(6); // invoice.paid
      expect(await served(key)).toBe(200);
      await send(7);
      await send(8); // upgraded to professional
      expect((await keysOf(sub))[0]).toMatchObject({ plan_tier: 'professional', subscription_status: 'active' });
      expect(await served(key)).toBe(200);
      await send(9); // deleted
      const canceled = await request(server.url, '/api/v1/specialties', { headers: { 'x-api-key': key } });
      expect(canceled.status).toBe(403);
      expect(canceled.json().error).toMatch(/subscription is canceled/);
      expect(await server.store.getSubscription(sub)).toMatchObject({ plan_tier: 'professional', status: 'canceled', stripe_status: 'canceled', checkout_session_id: session });
      expect(await keysOf(sub)).toHaveLength(1);
      const outcomes = (await server.store.listBillingEvents(100)).filter((e) => e.subscription_id === sub);
      expect(outcomes).toHaveLength(10);
      expect(outcomes.find((e) => e.event_id === events[1]!.id)!.outcome).toMatch(/key created \(starter, active\)/);
    });

    it('a re-delivered event is acknowledged and does nothing', async () => {
      const t = Math.floor(Date.now() / 1000) - 500;
      const sub = `sub_dup_${kind}`;
      const first = checkoutEvent({ id: `evt_dup_${kind}_1`, created: t, session: `cs_dup_${kind}`, sub });
      const r1 = await deliver(server.url, first);
      expect(r1.json()).toEqual({ received: true });
      // the same event again, freshly signed (Stripe's retry), and several at once
      const again = await Promise.all([1, 2, 3].map(() => deliver(server.url, first)));
      for (const r of again) expect(r.json()).toEqual({ received: true, duplicate: true });
      expect(await keysOf(sub)).toHaveLength(1);
      // an older status change after a newer one: recorded, no change
      await deliver(server.url, subscriptionEvent('customer.subscription.updated', { id: `evt_dup_${kind}_3`, created: t + 10, sub, price: 'price_ent_acme', status: 'active' }));
      const old = await deliver(server.url, subscriptionEvent('customer.subscription.updated', { id: `evt_dup_${kind}_2`, created: t + 5, sub, price: 'price_starter_m', status: 'past_due' }));
      expect(old.status).toBe(200);
      expect((await keysOf(sub))[0]).toMatchObject({ plan_tier: 'enterprise', subscription_status: 'active' });
      const ev = (await server.store.listBillingEvents(1000)).find((e) => e.event_id === `evt_dup_${kind}_2`)!;
      expect(ev.outcome).toBe('no change (older than the stored state)');
    });

    it('a rotated key stays on its subscription; the revoked one stays revoked', async () => {
      const t = Math.floor(Date.now() / 1000) - 300;
      const sub = `sub_rot_${kind}`;
      await deliver(server.url, subscriptionEvent('customer.subscription.created', { id: `evt_rot_${kind}_1`, created: t, sub, price: 'price_pro_m', status: 'active' }));
      await deliver(server.url, checkoutEvent({ id: `evt_rot_${kind}_2`, created: t + 1, session: `cs_rot_${kind}`, sub }));
      const [old] = await keysOf(sub);
      const next = generateKey();
      const { key } = await server.store.rotateKey(String(old!.id), { keyHash: hashKey(next), keyPrefix: keyPrefixOf(next), createdAt: new Date().toISOString() }, new Date().toISOString());
      await deliver(server.url, invoiceEvent('invoice.payment_failed', { id: `evt_rot_${kind}_3`, created: t + 2, sub }));
      const after = await keysOf(sub);
      expect(after.map((k) => [k.id, k.subscription_status, k.revoked_at !== null])).toEqual([[old!.id, 'active', true], [key.id, 'past_due', false]]);
      expect(await served(next)).toBe(403);
    });

    it('shuffled delivery (with repeats) gives the same final state as in order', async () => {
      let run = 0;
      const t0 = Math.floor(Date.now() / 1000) - 2000;
      await fc.assert(
        fc.asyncProperty(fc.shuffledSubarray([...Array(10).keys()], { minLength: 10, maxLength: 10 }), fc.array(fc.nat(9), { maxLength: 3 }), async (order, repeats) => {
          const { sub, events } = lifecycle(`shuf_${kind}_${run++}`, t0);
          const delivered = [...order.map((i) => events[i]!), ...repeats.map((i) => events[i]!)];
          // some concurrently, as Stripe may deliver
          await Promise.all(delivered.slice(0, 3).map((e) => deliver(server.url, e)));
          for (const e of delivered.slice(3)) expect((await deliver(server.url, e)).status).toBe(200);
          expect(await server.store.getSubscription(sub)).toMatchObject({ plan_tier: 'professional', status: 'canceled', stripe_status: 'canceled', plan_version: `0.${String(t0 + 400).padStart(12, '0')}.evt_${sub.slice(4)}_10`, status_version: `1.${String(t0 + 400).padStart(12, '0')}.evt_${sub.slice(4)}_10` });
          const keys = await keysOf(sub);
          expect(keys).toHaveLength(1);
          expect(keys[0]).toMatchObject({ plan_tier: 'professional', subscription_status: 'canceled' });
        }),
        { numRuns: 8 },
      );
    }, 60_000);

    it('bad, stale or missing signatures: 400, nothing recorded or changed', async () => {
      const sub = `sub_sig_${kind}`;
      const e = checkoutEvent({ id: `evt_sig_${kind}`, created: Math.floor(Date.now() / 1000), session: `cs_sig_${kind}`, sub });
      const before = await eventIds();
      const wrongSecret = await deliver(server.url, e, { secret: 'whsec_not_the_endpoint_secret' });
      expect(wrongSecret.status).toBe(400);
      expect(wrongSecret.json()).toEqual({ error: 'bad Stripe-Signature: it does not match the body and the endpoint secret' });
      const stale = await deliver(server.url, e, { at: Math.floor(Date.now() / 1000) - 301 });
      expect(stale.status).toBe(400);
      expect(stale.json().error).toMatch(/^stale Stripe-Signature/);
      // dated in the future beyond the tolerance: refused alike (Stripe's library checks only the past)
      const future = await deliver(server.url, e, { at: Math.floor(Date.now() / 1000) + 400 });
      expect(future.status).toBe(400);
      expect(future.json().error).toMatch(/^stale Stripe-Signature/);
      const nextYear = await deliver(server.url, e, { at: Math.floor(Date.now() / 1000) + 365 * 86_400 });
      expect(nextYear.status).toBe(400);
      const { body, signature } = signed(e);
      const tampered = await post(server.url, body.replace('"paid"', '"unpaid"'), { 'stripe-signature': signature });
      expect(tampered.status).toBe(400);
      const reformatted = await post(server.url, JSON.stringify(JSON.parse(body)), { 'stripe-signature': signature });
      expect(reformatted.status).toBe(400); // the raw bytes are verified, not a re-serialisation
      const missing = await post(server.url, body, {});
      expect(missing.status).toBe(400);
      expect(missing.json()).toEqual({ error: 'missing Stripe-Signature header' });
      for (const r of [wrongSecret, stale, future, nextYear, tampered, missing]) {
        expect(r.headers['cache-control']).toBe('no-store');
        expect(r.text).not.toContain(SECRET);
      }
      expect(await eventIds()).toEqual(before);
      expect(await keysOf(sub)).toHaveLength(0);
      expect(await server.store.getSubscription(sub)).toBeNull();
      // the same event, rightly signed, is then acted on
      expect((await deliver(server.url, e)).status).toBe(200);
      expect(await keysOf(sub)).toHaveLength(1);
    });

    it('unknown price: 200, the plan unchanged but the status applied (a retired price cannot keep a key alive), the event recorded with its outcome', async () => {
      const t = Math.floor(Date.now() / 1000) - 100;
      const sub = `sub_unk_${kind}`;
      await deliver(server.url, subscriptionEvent('customer.subscription.created', { id: `evt_unk_${kind}_1`, created: t, sub, price: 'price_starter_y', status: 'active' }));
      const before = await server.store.getSubscription(sub);
      const r = await deliver(server.url, subscriptionEvent('customer.subscription.updated', { id: `evt_unk_${kind}_2`, created: t + 1, sub, price: 'price_1NotInTheMapping', status: 'past_due' }));
      expect(r.status).toBe(200);
      expect(r.json()).toEqual({ received: true });
      const after = (await server.store.getSubscription(sub))!;
      expect(after.plan_tier).toBe(before!.plan_tier);
      expect(after.status).toBe('past_due');
      const ev = (await server.store.listBillingEvents(1000)).find((x) => x.event_id === `evt_unk_${kind}_2`)!;
      expect(ev).toMatchObject({ type: 'customer.subscription.updated', subscription_id: sub, outcome: 'unknown price price_1NotInTheMapping: plan unchanged (add it to the price mapping); status active -> past_due' });
      // a cancellation with a retired price cancels (Stripe does not retry a 200)
      const c = await deliver(server.url, subscriptionEvent('customer.subscription.deleted', { id: `evt_unk_${kind}_3`, created: t + 2, sub, price: 'price_retired', status: 'canceled' }));
      expect(c.status).toBe(200);
      expect((await server.store.getSubscription(sub))!.status).toBe('canceled');
    });

    it('other event types: 200, recorded as ignored; malformed, oversized and non-POST requests refused', async () => {
      const ignored = await deliver(server.url, { id: `evt_other_${kind}`, object: 'event', type: 'customer.created', created: 1_795_000_000, data: { object: { id: 'cus_1', object: 'customer' } } });
      expect(ignored.json()).toEqual({ received: true });
      expect((await server.store.listBillingEvents(1000)).find((x) => x.event_id === `evt_other_${kind}`)!.outcome).toBe('ignored: customer.created is not acted on');
      const malformed = await deliver(server.url, { id: `evt_bad_${kind}`, object: 'event', type: 'invoice.paid', data: {} } as unknown as Event);
      expect(malformed.status).toBe(400);
      expect(malformed.json().error).toMatch(/^malformed event/);
      const big = 'x'.repeat(300 * 1024);
      const huge = await post(server.url, big, { 'stripe-signature': signed({}).signature });
      expect(huge.status).toBe(413);
      const get = await request(server.url, WEBHOOK_PATH);
      expect(get.status).toBe(405);
    });
  });
}

describe('billing webhook: store unavailable, billing not set up', () => {
  it('503 with Retry-After when the store cannot be reached (Stripe retries); 404 without a secret', async () => {
    const registry = new BuildRegistry(join(tmp.path, 'no-dist'), {});
    const store = new PostgresServiceStore('postgres://postgres@127.0.0.1:9/none', { poolMax: 1, connectTimeoutMs: 500 });
    try {
      const app = createApp({ registry, store, billing: { webhookSecret: SECRET, prices: parsePriceMap(PRICES).map } });
      const { url } = later(await listen(app.listener));
      const e = checkoutEvent({ id: 'evt_503', created: Math.floor(Date.now() / 1000), session: 'cs_503', sub: 'sub_503' });
      const r = await deliver(url, e);
      expect(r.status).toBe(503);
      expect(r.json()).toEqual({ error: 'service store unavailable; retry later' });
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const off = later(await listen(createApp({ registry, store }).listener));
      const r404 = await deliver(off.url, e);
      expect(r404.status).toBe(404);
      expect(r404.json().error).toMatch(/billing is not set up/);
    } finally {
      await store.close();
    }
  });
});

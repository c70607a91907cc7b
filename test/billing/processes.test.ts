/**
 * Billing with several `physpay serve` processes on one service store (SQLite file, PostgreSQL): every event of
 * a subscription's lifecycle delivered to two processes at the same moment, in a shuffled order, is applied
 * once (one key, each event id recorded once, the final state of the in-order delivery); the key is shown by
 * exactly one of two simultaneous visits to the welcome page; a rotation through one process revokes the old
 * key on the other at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { request } from '../helpers/http.ts';
import { pgSkipReason, PG_URL } from '../helpers/pg.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { spawnServe, type ServeProcess } from '../server/serve-process.ts';
import { openServiceStore } from '../../server/store/open.ts';
import { WEBHOOK_PATH } from '../../server/billing/webhook.ts';
import { lifecycle, PRICES, SECRET, signed, type Event } from './events.ts';

const tmp = useTempDir('billing-processes');
const pgSkip = await pgSkipReason('billing with several processes on PostgreSQL');

async function deliver(url: string, e: Event): Promise<number> {
  const { body, signature } = signed(e);
  return (await request(url, WEBHOOK_PATH, { method: 'POST', body, headers: { 'content-type': 'application/json', 'stripe-signature': signature } })).status;
}

for (const kind of ['sqlite', 'postgres'] as const) {
  describe.skipIf(kind === 'postgres' && pgSkip !== null)(`two processes on ${kind}`, () => {
    let procs: ServeProcess[] = [];
    let serviceDb: string;

    beforeAll(async () => {
      const work = join(tmp.path, kind);
      mkdirSync(work);
      const { dist } = goldenBuildIn(work, join(work, 'dist'));
      serviceDb = kind === 'sqlite' ? join(work, 'service.db') : PG_URL;
      const args = ['--data', dist, '--service-db', serviceDb, '--port', '0', '--log-level', 'warn', '--stripe-webhook-secret', SECRET, '--stripe-prices', PRICES];
      procs = await Promise.all([spawnServe(args), spawnServe(args)]);
    }, 60_000);

    afterAll(async () => {
      await Promise.all(procs.map((p) => p.stop()));
    });

    it('each event delivered to both at once, shuffled: applied once; one welcome visit of two gets the key; a rotation on one revokes on the other', async () => {
      const order = fc.sample(fc.shuffledSubarray([...Array(10).keys()], { minLength: 10, maxLength: 10 }), { numRuns: 1, seed: 7 })[0]!;
      const { sub, session, events } = lifecycle(`proc_${kind}_${Date.now()}`);
      for (const i of order) {
        const [a, b] = await Promise.all(procs.map((p) => deliver(p.url, events[i]!)));
        expect([a, b]).toEqual([200, 200]);
      }
      const store = await openServiceStore(serviceDb);
      try {
        const recorded = (await store.listBillingEvents(100_000)).filter((e) => e.subscription_id === sub);
        expect(recorded.map((e) => e.event_id).sort()).toEqual(events.map((e) => e.id).sort());
        expect(await store.getSubscription(sub)).toMatchObject({ plan_tier: 'professional', status: 'canceled' });
        const keys = (await store.listKeyUsage({ day: '2026-01-01', month: '2026-01' })).filter((k) => k.subscription_id === sub);
        expect(keys).toHaveLength(1);
        expect(keys[0]).toMatchObject({ plan_tier: 'professional', subscription_status: 'canceled', customer_id: `cus_${sub}` });
      } finally {
        await store.close();
      }
      // two simultaneous visits of the success page, one per process: one shows the key, the other says it was shown
      const visits = await Promise.all(procs.map((p) => request(p.url, `/account/welcome?session_id=${session}`)));
      expect(visits.map((v) => v.status).sort()).toEqual([200, 410]);
      const key = /<code id="api-key">([^<]+)<\/code>/.exec(visits.find((v) => v.status === 200)!.text)![1]!;
      // a rotation through one process: the old key is refused by the other at once (the new one is canceled: 403)
      const rotated = await request(procs[0]!.url, '/api/v1/me/key/rotate', { method: 'POST', headers: { 'x-api-key': key } });
      expect(rotated.status).toBe(200);
      const fresh = rotated.json<{ key: string }>().key;
      expect((await request(procs[1]!.url, '/api/v1/me/usage', { headers: { 'x-api-key': key } })).status).toBe(401);
      expect((await request(procs[1]!.url, '/api/v1/specialties', { headers: { 'x-api-key': fresh } })).status).toBe(403);
      expect((await request(procs[1]!.url, '/api/v1/me/usage', { headers: { 'x-api-key': fresh } })).json()).toMatchObject({ subscription_status: 'canceled', plan_tier: 'professional' });
    }, 60_000);
  });
}

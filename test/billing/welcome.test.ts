/**
 * GET /account/welcome?session_id=...: Checkout's success page over real HTTP, on SQLite and PostgreSQL. A
 * signed checkout.session.completed is delivered to the webhook first; the page shows the key once (and the
 * key works on the keyed API), then says it was already shown; unknown and malformed sessions get the same
 * neutral 404; strict headers; the log (captured) never holds the key or the session id.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { request, type HttpResponse } from '../helpers/http.ts';
import { pgSkipReason, PG_URL } from '../helpers/pg.ts';
import { closeAfterAll, startTestServer } from '../helpers/server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import type { RunningServer } from '../../server/main.ts';
import { parsePriceMap } from '../../server/billing/prices.ts';
import { WEBHOOK_PATH } from '../../server/billing/webhook.ts';
import { sessionIdOf } from '../../server/billing/welcome.ts';
import { createLogger } from '../../server/observability/logger.ts';
import { checkoutEvent, PRICES, SECRET, signed, subscriptionEvent, type Event } from './events.ts';

const later = closeAfterAll();
const tmp = useTempDir('welcome');

async function deliver(url: string, e: Event): Promise<void> {
  const { body, signature } = signed(e);
  const r = await request(url, WEBHOOK_PATH, { method: 'POST', body, headers: { 'content-type': 'application/json', 'stripe-signature': signature } });
  expect(r.status, r.text).toBe(200);
}

const welcome = (url: string, query: string, method = 'GET') => request(url, `/account/welcome${query}`, { method, headers: { accept: 'text/html' } });

function expectStrictHeaders(r: HttpResponse): void {
  expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(r.headers['cache-control']).toBe('no-store');
  expect(r.headers['referrer-policy']).toBe('no-referrer');
  expect(r.headers['x-content-type-options']).toBe('nosniff');
  const csp = String(r.headers['content-security-policy']);
  expect(csp).toMatch(/^default-src 'none'; script-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; /);
  expect(csp).not.toMatch(/https?:|unsafe-inline|\*/);
  // no third-party (or any external) asset, no script
  expect(r.text).not.toMatch(/<script|<link|<img|src=|https?:\/\/(?!physpay\.example)/i);
}

describe('sessionIdOf', () => {
  it('takes exactly one well-formed checkout session id', () => {
    expect(sessionIdOf('/account/welcome?session_id=cs_test_a1B2')).toBe('cs_test_a1B2');
    expect(sessionIdOf('/account/welcome')).toBeNull();
    expect(sessionIdOf('/account/welcome?session_id=')).toBeNull();
    expect(sessionIdOf('/account/welcome?session_id={CHECKOUT_SESSION_ID}')).toBeNull();
    expect(sessionIdOf('/account/welcome?session_id=pi_123')).toBeNull();
    expect(sessionIdOf('/account/welcome?session_id=cs_a&session_id=cs_b')).toBeNull();
    expect(sessionIdOf(`/account/welcome?session_id=cs_${'a'.repeat(300)}`)).toBeNull();
  });
});

const pgSkip = await pgSkipReason('welcome page on PostgreSQL');

for (const kind of ['sqlite', 'postgres'] as const) {
  describe.skipIf(kind === 'postgres' && pgSkip !== null)(`/account/welcome on ${kind}`, () => {
    let server: RunningServer;
    const log: string[] = [];

    beforeAll(async () => {
      const work = join(tmp.path, kind);
      mkdirSync(work);
      const { dist } = goldenBuildIn(work, join(work, 'dist'));
      const serviceDb = kind === 'sqlite' ? join(work, 'service.db') : PG_URL;
      const logger = createLogger('info', { write: (s: string) => void log.push(s) });
      server = later(await startTestServer(dist, serviceDb, { billing: { webhookSecret: SECRET, prices: parsePriceMap(PRICES).map }, logger }));
    }, 60_000);

    it('shows the key once (it works on the keyed API), then says it was shown; never logs it', async () => {
      const n = `welcome_${kind}_${Date.now()}`;
      const sub = `sub_${n}`;
      const session = `cs_test_${n}`;
      const t0 = Math.floor(Date.now() / 1000) - 100;
      await deliver(server.url, subscriptionEvent('customer.subscription.created', { id: `evt_${n}_1`, created: t0, sub, price: 'price_pro_m', status: 'active' }));
      await deliver(server.url, checkoutEvent({ id: `evt_${n}_2`, created: t0 + 1, session, sub }));

      const first = await welcome(server.url, `?session_id=${session}`);
      expect(first.status, first.text).toBe(200);
      expectStrictHeaders(first);
      const key = /<code id="api-key">(pcb_live_[0-9A-Za-z]{32})<\/code>/.exec(first.text)?.[1];
      expect(key).toBeDefined();
      expect(first.text).toContain('Plan: <strong>professional</strong>');
      expect(first.text).toContain('X-API-Key');
      expect(first.text).toContain(`curl -H &#39;X-API-Key: ${key}&#39; https://physpay.example/api/v1/specialties`);
      expect(first.text).toMatch(/shown once/);

      const api = await request(server.url, '/api/v1/specialties', { headers: { 'x-api-key': key! } });
      expect(api.status, api.text).toBe(200);

      const second = await welcome(server.url, `?session_id=${session}`);
      expect(second.status).toBe(410);
      expectStrictHeaders(second);
      expect(second.text).toMatch(/already shown/);
      expect(second.text).toContain('physpay keys rotate');
      expect(second.text).not.toContain(key!);
      expect(second.text).not.toMatch(/pcb_live_/);

      await new Promise((r) => setTimeout(r, 300)); // let the logger flush
      const text = log.join('');
      expect(text).toMatch(/"route":"\/account\/welcome"/); // request lines are written: the scan means something
      expect(text).not.toContain(key!);
      expect(text).not.toContain(key!.slice(12));
      expect(text).not.toContain(session);
      expect(text).not.toContain('session_id');
    });

    it('unknown, malformed and missing sessions: the same neutral 404; other methods 405', async () => {
      const bodies = new Set<string>();
      for (const q of ['?session_id=cs_test_nobody_paid', '?session_id=nope', '', '?session_id={CHECKOUT_SESSION_ID}']) {
        const r = await welcome(server.url, q);
        expect(r.status, q).toBe(404);
        expectStrictHeaders(r);
        expect(r.text).not.toMatch(/pcb_live_|already shown/);
        bodies.add(r.text);
      }
      expect(bodies.size).toBe(1);
      for (const method of ['POST', 'HEAD', 'PUT']) {
        const r = await welcome(server.url, '?session_id=cs_test_x', method);
        expect(r.status, method).toBe(405);
        expect(r.headers.allow).toBe('GET');
        expect(r.headers['cache-control']).toBe('no-store');
      }
    });
  });
}

/**
 * The subscriber's self-service endpoints, with an injected clock: GET /me/usage/history (the daily series,
 * never counted) and POST /me/key/rotate (a new key shown once, the old one revoked at once; quota counts
 * and history carry over; two rotations racing with one key: exactly one wins).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyRotateResponse, UsageHistoryResponse, UsageResponse } from '../../build/contract/keyed-api.ts';
import { request } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { API, call, expectError, rateHeaders, startKeyedServer, type KeyedServer } from './harness.ts';

let ks: KeyedServer;

beforeAll(async () => {
  ks = await startKeyedServer({ now: '2026-12-10T12:00:00Z', prefix: 'self' });
}, 60_000);

afterAll(() => ks?.close());

const rotate = (key: string | undefined, path = '/me/key/rotate') =>
  request(ks.url, `${API}${path}`, { method: 'POST', headers: key === undefined ? {} : { 'x-api-key': key } });

async function spend(key: string, n: number) {
  for (let i = 0; i < n; i++) expect((await call(ks.url, '/specialties', key)).status).toBe(200);
}

describe('GET /me/usage/history', () => {
  it('one point per UTC day up to today, days without requests as 0; never counted', async () => {
    const k = await createKey(ks.server.store, 'starter');
    ks.setNow('2026-12-08T23:59:00Z');
    await spend(k.key, 2);
    ks.setNow('2026-12-10T00:00:01Z');
    await spend(k.key, 3);
    ks.setNow('2026-12-10T12:00:00Z');
    const r = await call(ks.url, '/me/usage/history?days=5', k.key);
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    const body = UsageHistoryResponse.parse(r.json());
    expect(body).toEqual({
      key_prefix: k.prefix, plan_tier: 'starter', daily_limit: 100, from: '2026-12-06', to: '2026-12-10', total: 5,
      days: [
        { date: '2026-12-06', requests: 0 },
        { date: '2026-12-07', requests: 0 },
        { date: '2026-12-08', requests: 2 },
        { date: '2026-12-09', requests: 0 },
        { date: '2026-12-10', requests: 3 },
      ],
    });
    // the rate-limit headers say what the quota says; the history call itself was not counted
    expect(rateHeaders(r).remainingDaily).toBe(97);
    const usage = UsageResponse.parse((await call(ks.url, '/me/usage', k.key)).json());
    expect(usage.usage.requests_today).toBe(3);
    // default: 90 days ending today
    const d = UsageHistoryResponse.parse((await call(ks.url, '/me/usage/history', k.key)).json());
    expect(d.days).toHaveLength(90);
    expect(d.from).toBe('2026-09-12');
    expect(d.days.at(-1)).toEqual({ date: '2026-12-10', requests: 3 });
    expect(d.total).toBe(5);
  });

  it('refuses a bad days value or an unknown parameter with 400; no key 401; any subscription status may look', async () => {
    const k = await createKey(ks.server.store, 'professional', 'past_due');
    for (const q of ['days=0', 'days=367', 'days=abc', 'days=1.5', 'days=-3', 'days=', 'days=1&days=2', 'from=2026-01-01']) {
      expectError(await call(ks.url, `/me/usage/history?${q}`, k.key), 400);
    }
    expectError(await call(ks.url, '/me/usage/history'), 401, /missing API key/);
    expectError(await call(ks.url, '/me/usage/history', 'pcb_live_nope'), 401);
    const r = await call(ks.url, '/me/usage/history?days=366', k.key);
    expect(r.status).toBe(200);
    expect(UsageHistoryResponse.parse(r.json()).days).toHaveLength(366);
  });
});

describe('POST /me/key/rotate', () => {
  it('a new key shown once; the old key 401 at once; plan, status, quota counts and history carry over', async () => {
    const k = await createKey(ks.server.store, 'professional');
    ks.setNow('2026-12-09T10:00:00Z');
    await spend(k.key, 4);
    ks.setNow('2026-12-10T12:00:00Z');
    await spend(k.key, 2);
    const r = await rotate(k.key);
    expect(r.status, r.text).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    const body = KeyRotateResponse.parse(r.json());
    expect(body).toMatchObject({ plan_tier: 'professional', subscription_status: 'active', created_at: '2026-12-10T12:00:00Z', replaced: { key_prefix: k.prefix, revoked_at: '2026-12-10T12:00:00Z' } });
    expect(body.key).not.toBe(k.key);
    expect(body.key_prefix).toBe(body.key.slice(0, 12));
    expect(rateHeaders(r).remainingDaily).toBe(498); // the rotation itself is not counted
    // the old key is revoked now, the new one works and carries the account's counts and history
    expectError(await call(ks.url, '/specialties', k.key), 401);
    expectError(await rotate(k.key), 401);
    const usage = UsageResponse.parse((await call(ks.url, '/me/usage', body.key)).json());
    expect(usage).toMatchObject({ key_prefix: body.key_prefix, plan_tier: 'professional', usage: { requests_today: 2, requests_this_month: 6 } });
    const h = UsageHistoryResponse.parse((await call(ks.url, '/me/usage/history?days=2', body.key)).json());
    expect(h.days).toEqual([{ date: '2026-12-09', requests: 4 }, { date: '2026-12-10', requests: 2 }]);
    await spend(body.key, 1);
    // the new key is stored by its hash only: the list never shows it
    expect(JSON.stringify(await ks.server.store.listKeys())).not.toContain(body.key);
  });

  it('two rotations racing with one key: exactly one new key, the other 401', async () => {
    const k = await createKey(ks.server.store, 'starter');
    const answers = await Promise.all(Array.from({ length: 8 }, () => rotate(k.key)));
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expectError(a, 401);
    const live = (await ks.server.store.listKeys()).filter((x) => x.label === 'test' && !x.revoked_at && x.key_prefix === KeyRotateResponse.parse(won[0]!.json()).key_prefix);
    expect(live).toHaveLength(1);
  });

  it('a suspended subscriber may rotate (the new key stays suspended); wrong method 405 with Allow; a query 400; no key 401', async () => {
    const k = await createKey(ks.server.store, 'starter', 'suspended');
    const get = await call(ks.url, '/me/key/rotate', k.key);
    expectError(get, 405);
    expect(get.headers.allow).toBe('POST');
    expect((await call(ks.url, '/me/usage', k.key)).status).toBe(200); // the GET did not rotate
    expectError(await rotate(k.key, '/me/key/rotate?now=1'), 400, /unknown parameter/);
    expectError(await rotate(undefined), 401, /missing API key/);
    const post = await request(ks.url, `${API}/me/usage`, { method: 'POST', headers: { 'x-api-key': k.key } });
    expectError(post, 405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const r = await rotate(k.key, '/ME/Key/Rotate/');
    expect(r.status).toBe(200);
    const body = KeyRotateResponse.parse(r.json());
    expect(body.subscription_status).toBe('suspended');
    expectError(await call(ks.url, '/specialties', body.key), 403, /suspended/);
  });
});

/**
 * Headers and quotas of the keyed API with an injected clock (no sleeping): the five X-RateLimit-* headers
 * and the IETF RateLimit fields on every answer to an identified key, X-Request-Id = meta.request_id,
 * meta.rate_limit = headers, Cache-Control and Vary per endpoint; counting rules (400/404 count, 429 not,
 * 5xx refunded, /me/usage free); daily rollover at 00:00 UTC and monthly on the 1st; /me/usage = headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BenchmarkResponse, UsageResponse } from '../../build/contract/keyed-api.ts';
import { keyedPaths } from '../../build/contract/keyed-artifacts.ts';
import type { HttpResponse } from '../helpers/http.ts';
import { createKey, type TestKey } from '../helpers/keys.ts';
import { PLAN_LIMITS, call, expectError, nextMidnight, qs, rateHeaders, startKeyedServer, type KeyedServer } from './harness.ts';

let ks: KeyedServer;

beforeAll(async () => {
  ks = await startKeyedServer({ now: '2026-12-01T12:00:00Z', prefix: 'quota' });
}, 60_000);

afterAll(() => ks?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const windows = () => ({ day: ks.now().toISOString().slice(0, 10), month: ks.now().toISOString().slice(0, 7) });
const used = (k: TestKey) => ks.server.store.readQuota(k.id, windows());

/** seconds in the UTC month of `d`, and seconds from `d` to the next 1st, computed here */
function monthFacts(d: Date) {
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
  const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
  return { length: next - start, next };
}

/** Every header rule for an answer to an identified key whose counts are now `dayCount` / `monthCount`. */
function expectRateHeaders(r: HttpResponse, plan: keyof typeof PLAN_LIMITS, dayCount: number, monthCount: number) {
  const now = ks.now();
  const lim = PLAN_LIMITS[plan];
  const h = rateHeaders(r);
  const rd = Math.max(0, lim.daily - dayCount);
  const rm = Math.max(0, lim.monthly - monthCount);
  expect(h).toEqual({ limitDaily: lim.daily, remainingDaily: rd, limitMonthly: lim.monthly, remainingMonthly: rm, reset: nextMidnight(now) });
  const nowS = Math.floor(now.getTime() / 1000);
  const m = monthFacts(now);
  expect(r.headers['ratelimit-policy']).toBe(`"day";q=${lim.daily};w=86400, "month";q=${lim.monthly};w=${m.length}`);
  expect(r.headers.ratelimit).toBe(`"day";r=${rd};t=${nextMidnight(now) - nowS}, "month";r=${rm};t=${m.next - nowS}`);
  expect(r.headers.vary).toBe('X-API-Key');
  expect(r.headers['x-request-id']).toMatch(UUID);
}

describe('headers on every answer to an identified key', () => {
  it('each endpoint: rate-limit headers, request id = meta.request_id, meta.rate_limit = headers, Cache-Control, Vary', async () => {
    const k = await createKey(ks.server.store, 'professional');
    const cases: [string, number, string, boolean][] = [
      ['/specialties', 200, 'private, max-age=86400', true],
      ['/available-data?specialty=Cardiology&state=Texas', 200, 'private, max-age=3600', true],
      ['/benchmarks?specialty=Cardiology&state=Texas', 200, 'private, max-age=3600', true],
      ['/me/usage', 200, 'no-store', false],
      ['/benchmarks?specialty=Nope', 400, 'no-store', true],
      ['/benchmarks?specialty=Medical%20Genetics', 404, 'no-store', true],
      ['/benchmarks?specialty=Cardiology&year_start=2020', 403, 'no-store', true],
    ];
    let count = 0;
    const ids = new Set<string>();
    for (const [path, status, cache, counts] of cases) {
      const r = await call(ks.url, path, k.key);
      expect(r.status, path).toBe(status);
      if (counts) count++;
      expectRateHeaders(r, 'professional', count, count);
      expect(r.headers['cache-control'], path).toBe(cache);
      ids.add(String(r.headers['x-request-id']));
      if (path.startsWith('/benchmarks') && status === 200) {
        const body = BenchmarkResponse.parse(r.json());
        expect(body.meta.request_id).toBe(r.headers['x-request-id']);
        expect(body.meta.rate_limit).toEqual({
          remaining_daily: Number(r.headers['x-ratelimit-remaining-daily']),
          remaining_monthly: Number(r.headers['x-ratelimit-remaining-monthly']),
          reset: Number(r.headers['x-ratelimit-reset']),
        });
      }
      if (path === '/me/usage') {
        const u = UsageResponse.parse(r.json());
        expect(u.usage.remaining_daily).toBe(Number(r.headers['x-ratelimit-remaining-daily']));
        expect(u.usage.remaining_monthly).toBe(Number(r.headers['x-ratelimit-remaining-monthly']));
        expect(u.usage.daily_reset).toBe(Number(r.headers['x-ratelimit-reset']));
        expect(u.usage.daily_limit).toBe(Number(r.headers['x-ratelimit-limit-daily']));
        expect(u.usage.monthly_limit).toBe(Number(r.headers['x-ratelimit-limit-monthly']));
      }
    }
    expect(ids.size).toBe(cases.length); // a fresh id per request
    expect(await used(k)).toEqual({ dayCount: count, monthCount: count });
  });

  it('the reset is the next midnight UTC, whatever the time of day; the month window follows the calendar', async () => {
    const k = await createKey(ks.server.store, 'starter');
    const moments = ['2026-12-01T00:00:00.000Z', '2026-12-01T23:59:59.999Z', '2027-02-10T05:00:00Z', '2028-02-29T12:00:00Z', '2027-04-30T23:00:00Z'];
    for (const m of moments) {
      ks.setNow(m);
      const r = await call(ks.url, '/specialties', k.key);
      expect(r.status).toBe(200);
      const h = rateHeaders(r);
      expect(h.reset, m).toBe(nextMidnight(new Date(m)));
      expect(new Date(h.reset * 1000).toISOString(), m).toMatch(/T00:00:00\.000Z$/);
      expect(h.reset - new Date(m).getTime() / 1000).toBeGreaterThan(0);
      expect(h.reset - new Date(m).getTime() / 1000).toBeLessThanOrEqual(86_400);
      const month = monthFacts(new Date(m));
      expect(r.headers['ratelimit-policy']).toContain(`"month";q=3000;w=${month.length}`);
      expect(month.length / 86_400).toBe({ '2026-12': 31, '2027-02': 28, '2028-02': 29, '2027-04': 30 }[m.slice(0, 7)]);
    }
    ks.setNow('2026-12-01T12:00:00Z');
  });
});

describe('counting rules', () => {
  it('200, 400, 404 and the tier 403 count; 401 and the inactive 403 do not; /me/usage never does', async () => {
    ks.setNow('2026-12-02T10:00:00Z');
    const k = await createKey(ks.server.store, 'starter');
    const seq: [string, number, boolean][] = [
      ['/specialties', 200, true],
      ['/me/usage', 200, false],
      ['/available-data?specialty=Cardiology', 200, true],
      ['/benchmarks?specialty=Cardiology', 200, true],
      ['/benchmarks?specialty=Cardiology&state=TX', 400, true],
      ['/benchmarks?specialty=Colon%20and%20Rectal%20Surgery', 404, true],
      ['/nope', 404, false], // not an endpoint: never reaches the quota
      ['/me/usage', 200, false],
      ['/me/usage', 200, false],
    ];
    let expected = 0;
    for (const [path, status, counts] of seq) {
      const r = await call(ks.url, path, k.key);
      expect(r.status, path).toBe(status);
      if (counts) expected++;
      expect(await used(k), path).toEqual({ dayCount: expected, monthCount: expected });
    }
    const u = UsageResponse.parse((await call(ks.url, '/me/usage', k.key)).json());
    expect(u.usage).toMatchObject({ requests_today: expected, requests_this_month: expected, remaining_daily: 100 - expected, remaining_monthly: 3000 - expected });
  });

  it('the daily quota: exactly `daily` requests served, then 429 (not counted) with Retry-After to midnight', async () => {
    ks.setNow('2026-12-03T18:30:00Z');
    const k = await createKey(ks.server.store, 'starter');
    for (let i = 1; i <= 100; i++) {
      const r = await call(ks.url, i % 2 ? '/specialties' : '/benchmarks?specialty=Pediatrics', k.key);
      expect(r.status).toBe(200);
      expect(rateHeaders(r).remainingDaily).toBe(100 - i);
    }
    for (let i = 0; i < 5; i++) {
      const r = await call(ks.url, '/benchmarks?specialty=Pediatrics', k.key);
      expectError(r, 429, /daily quota of 100 requests exceeded \(Starter plan\).*X-RateLimit-Reset.*upgrade/);
      expectRateHeaders(r, 'starter', 100, 100);
      expect(Number(r.headers['retry-after'])).toBe(nextMidnight(ks.now()) - Math.floor(ks.now().getTime() / 1000)); // 5.5 h
      expect(r.headers['retry-after']).toBe(String(5.5 * 3600));
      expect(r.headers['cache-control']).toBe('no-store');
    }
    expect(await used(k)).toEqual({ dayCount: 100, monthCount: 100 }); // 429s did not count
    // a request that would only be a 400 is refused by the quota first
    expectError(await call(ks.url, '/benchmarks', k.key), 429);
    // /me/usage still answers, and agrees
    const r = await call(ks.url, '/me/usage', k.key);
    const u = UsageResponse.parse(r.json());
    expect(u.usage).toMatchObject({ requests_today: 100, remaining_daily: 0, requests_this_month: 100, remaining_monthly: 2900 });
    expectRateHeaders(r, 'starter', 100, 100);
  });

  it('5xx answers are refunded', async () => {
    ks.setNow('2026-12-04T09:00:00Z');
    const k = await createKey(ks.server.store, 'enterprise');
    // break one per-report artifact that is read on demand (Enterprise year ranges): the answer is a 500
    const path = join(ks.buildDir, keyedPaths.reports('dermatology'));
    const original = readFileSync(path);
    writeFileSync(path, Buffer.concat([original, Buffer.from(' ')]));
    try {
      expect((await call(ks.url, '/specialties', k.key)).status).toBe(200);
      for (let i = 0; i < 3; i++) {
        const r = await call(ks.url, `/benchmarks?${qs({ specialty: 'Dermatology', year_start: 2022 })}`, k.key);
        expectError(r, 500, /^internal error$/);
        expect(r.text).not.toMatch(/dermatology\.json|private\//); // no internals in the body
      }
      // the refund runs when the answer is finished: poll the store briefly
      for (let t = 0; t < 50 && (await used(k)).dayCount !== 1; t++) await new Promise((res) => setTimeout(res, 20));
      expect(await used(k)).toEqual({ dayCount: 1, monthCount: 1 });
    } finally {
      writeFileSync(path, original);
    }
    // repaired: served (the failed read was not cached)
    expect((await call(ks.url, `/benchmarks?${qs({ specialty: 'Dermatology', year_start: 2022 })}`, k.key)).status).toBe(200);
    expect(await used(k)).toEqual({ dayCount: 2, monthCount: 2 });
  });
});

describe('rollover with an injected clock', () => {
  it('the daily counter resets at 00:00 UTC; the monthly one keeps counting within the month', async () => {
    ks.setNow('2026-12-09T23:59:59.000Z');
    const k = await createKey(ks.server.store, 'starter');
    for (let i = 0; i < 100; i++) expect((await call(ks.url, '/specialties', k.key)).status).toBe(200);
    const refused = await call(ks.url, '/specialties', k.key);
    expectError(refused, 429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(rateHeaders(refused).reset).toBe(Date.UTC(2026, 11, 10) / 1000);
    ks.setNow('2026-12-09T23:59:59.999Z');
    expectError(await call(ks.url, '/specialties', k.key), 429);
    expect((await call(ks.url, '/me/usage', k.key)).json<{ usage: { requests_today: number } }>().usage.requests_today).toBe(100);
    ks.setNow('2026-12-10T00:00:00.000Z');
    const u0 = UsageResponse.parse((await call(ks.url, '/me/usage', k.key)).json());
    expect(u0.usage).toMatchObject({ requests_today: 0, requests_this_month: 100, remaining_daily: 100, remaining_monthly: 2900, daily_reset: Date.UTC(2026, 11, 11) / 1000 });
    const r = await call(ks.url, '/specialties', k.key);
    expect(r.status).toBe(200);
    expectRateHeaders(r, 'starter', 1, 101);
    expect(await used(k)).toEqual({ dayCount: 1, monthCount: 101 });
  });

  it('the monthly quota: used up within a month (429 until the 1st), both counters reset on the 1st at 00:00 UTC', async () => {
    const k = await createKey(ks.server.store, 'starter');
    // 2,999 requests on earlier days of December (counted straight in the store, with the daily limit out of the way)
    for (let i = 0; i < 2999; i++) {
      const day = `2026-12-${String(1 + (i % 28)).padStart(2, '0')}`;
      await ks.server.store.hitQuota(k.id, { day, month: '2026-12' }, { daily: 1e9, monthly: 1e9 });
    }
    ks.setNow('2026-12-31T20:00:00Z');
    const last = await call(ks.url, '/specialties', k.key);
    expect(last.status).toBe(200);
    const h = rateHeaders(last);
    expect(h.remainingMonthly).toBe(0);
    expect(h.remainingDaily).toBe(99);
    const refused = await call(ks.url, '/benchmarks?specialty=Cardiology', k.key);
    expectError(refused, 429, /monthly quota of 3000 requests exceeded.*monthly reset on the 1st/);
    expect(Number(refused.headers['retry-after'])).toBe(4 * 3600); // to 2027-01-01T00:00Z
    expect(rateHeaders(refused)).toMatchObject({ remainingMonthly: 0, remainingDaily: 99, reset: Date.UTC(2027, 0, 1) / 1000 });
    ks.setNow('2026-12-31T23:59:59.999Z');
    expectError(await call(ks.url, '/specialties', k.key), 429);
    ks.setNow('2027-01-01T00:00:00.000Z');
    const fresh = await call(ks.url, '/specialties', k.key);
    expect(fresh.status).toBe(200);
    expectRateHeaders(fresh, 'starter', 1, 1);
    const u = UsageResponse.parse((await call(ks.url, '/me/usage', k.key)).json());
    expect(u.usage).toMatchObject({ requests_today: 1, requests_this_month: 1, remaining_daily: 99, remaining_monthly: 2999, monthly_reset: Date.UTC(2027, 1, 1) / 1000 });
    // a later day of the same month keeps the month's count
    ks.setNow('2027-01-02T08:00:00Z');
    expectRateHeaders(await call(ks.url, '/specialties', k.key), 'starter', 1, 2);
  });

  it('a plan change applies at once to the limits (same counters)', async () => {
    ks.setNow('2026-12-15T12:00:00Z');
    const k = await createKey(ks.server.store, 'starter');
    for (let i = 0; i < 100; i++) await call(ks.url, '/specialties', k.key);
    expectError(await call(ks.url, '/specialties', k.key), 429);
    await ks.server.store.updateKey(String(k.id), { plan: 'professional' });
    const r = await call(ks.url, '/benchmarks?specialty=Cardiology', k.key);
    expect(r.status).toBe(200);
    expectRateHeaders(r, 'professional', 101, 101);
    expect('trending' in r.json<{ data: object }>().data).toBe(true);
  });
});

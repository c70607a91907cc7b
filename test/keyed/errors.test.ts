/**
 * Every error of the keyed API over real HTTP: status, body exactly {"error": string}, the message naming
 * what is wrong (and what is valid), the rate-limit headers where the key is identified (none on 401), and
 * whether the request counted. 503s: no build loaded yet (then a build appears and is served), and a
 * service store that cannot be reached.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { waitFor } from '../helpers/http.ts';
import { createKey, type TestKey } from '../helpers/keys.ts';
import { closeAfterAll, listen, startTestServer } from '../helpers/server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createApp } from '../../server/app.ts';
import { BuildRegistry } from '../../server/builds/registry.ts';
import { PostgresServiceStore } from '../../server/store/postgres.ts';
import { generateKey } from '../../server/keyed/keys.ts';
import { UsageResponse } from '../../build/contract/keyed-api.ts';
import {
  call, expectError, expectNoRateHeaders, qs, rateHeaders, useKeyedServer, type KeyedServer,
} from './harness.ts';

let ks: KeyedServer;
let starter: TestKey;
let professional: TestKey;
let enterprise: TestKey;

useKeyedServer({ now: '2026-12-01T12:00:00Z', prefix: 'errors' }, (k, keys) => {
  ks = k;
  ({ starter, professional, enterprise } = keys);
});

const used = async (k: TestKey) => ks.server.store.readQuota(k.id, { day: ks.now().toISOString().slice(0, 10), month: ks.now().toISOString().slice(0, 7) });

/** Send `path` with `k`, expect `status` and a message matching `pattern`, and check how the counters moved. */
async function expectRefusal(k: TestKey, path: string, status: number, pattern: RegExp, counts: boolean): Promise<string> {
  const before = await used(k);
  const r = await call(ks.url, path, k.key);
  const msg = expectError(r, status, pattern);
  expect(r.headers['cache-control']).toBe('no-store');
  const h = rateHeaders(r);
  const after = await used(k);
  expect(after.dayCount - before.dayCount, `${path} counted?`).toBe(counts ? 1 : 0);
  expect(after.monthCount - before.monthCount).toBe(counts ? 1 : 0);
  expect(h.remainingDaily).toBe(h.limitDaily - after.dayCount);
  expect(h.remainingMonthly).toBe(h.limitMonthly - after.monthCount);
  expect(msg).not.toContain(k.key);
  return msg;
}

describe('400: missing or invalid parameters (counted)', () => {
  it('missing specialty, on /benchmarks and /available-data', async () => {
    await expectRefusal(starter, '/benchmarks', 400, /specialty is required/, true);
    await expectRefusal(starter, '/available-data?state=Texas', 400, /specialty is required/, true);
    await expectRefusal(starter, '/benchmarks?specialty=', 400, /specialty is empty/, true);
  });

  it('unknown specialty lists close matches', async () => {
    const msg = await expectRefusal(starter, `/benchmarks?${qs({ specialty: 'Cardiolgy' })}`, 400, /unknown specialty "Cardiolgy"/, true);
    expect(msg).toMatch(/did you mean: Cardiology\b/);
    const msg2 = await expectRefusal(starter, `/available-data?${qs({ specialty: 'Dermatolgy' })}`, 400, /unknown specialty/, true);
    expect(msg2).toMatch(/did you mean: Dermatology\b/);
  });

  it('a two-letter state is refused with the full name to use', async () => {
    await expectRefusal(starter, `/benchmarks?${qs({ specialty: 'Cardiology', state: 'TX' })}`, 400, /full US state name such as "Texas".*two-letter code/, true);
    await expectRefusal(starter, `/available-data?${qs({ specialty: 'Cardiology', state: 'ca' })}`, 400, /"California".*two-letter/, true);
    await expectRefusal(starter, `/benchmarks?${qs({ specialty: 'Cardiology', state: 'Texsa' })}`, 400, /unknown state "Texsa".*did you mean: Texas/, true);
  });

  it('a state outside the given region, and an unknown region', async () => {
    await expectRefusal(starter, `/benchmarks?${qs({ specialty: 'Cardiology', state: 'Texas', region: 'West' })}`, 400, /Texas is in the South region, not West/, true);
    await expectRefusal(starter, `/available-data?${qs({ specialty: 'Cardiology', state: 'Ohio', region: 'South' })}`, 400, /Ohio is in the Midwest region/, true);
    await expectRefusal(starter, `/benchmarks?${qs({ specialty: 'Cardiology', region: 'North' })}`, 400, /region must be one of Northeast, Midwest, South, West/, true);
  });

  it('unknown practice_setting / employment_type list the valid values', async () => {
    const m1 = await expectRefusal(starter, `/benchmarks?${qs({ specialty: 'Cardiology', practice_setting: 'Hospital' })}`, 400, /practice_setting must be one of/, true);
    for (const v of ['Hospital Employed', 'Private Practice', 'Academic', 'Multispecialty Group', 'Government', 'Other']) expect(m1).toContain(v);
    const m2 = await expectRefusal(starter, `/benchmarks?${qs({ specialty: 'Cardiology', employment_type: 'W-2' })}`, 400, /employment_type must be one of/, true);
    for (const v of ['Full-Time (W-2)', 'Part-Time (W-2)', 'Independent Contractor (1099)', 'Partner/Owner']) expect(m2).toContain(v);
  });

  it('unknown and repeated parameters', async () => {
    await expectRefusal(starter, `/benchmarks?${qs({ specialty: 'Cardiology', speciality: 'x' })}`, 400, /unknown parameter\(s\): speciality/, true);
    await expectRefusal(starter, '/benchmarks?specialty=Cardiology&specialty=Cardiology', 400, /specialty must be given once/, true);
    await expectRefusal(starter, '/benchmarks?specialty=Cardiology&state=Texas&state=Ohio', 400, /state must be given once/, true);
    await expectRefusal(starter, '/specialties?page=2', 400, /unknown parameter\(s\): page; allowed: none/, true);
    await expectRefusal(starter, `/available-data?${qs({ specialty: 'Cardiology', years: 2020 })}`, 400, /unknown parameter\(s\): years/, true);
    // /available-data takes what /benchmarks takes, under the same tier rules: a year range is Enterprise's
    await expectRefusal(starter, `/available-data?${qs({ specialty: 'Cardiology', year_start: 2020 })}`, 403, /Enterprise plan feature/, true);
    // /me/usage never counts, not even when refused
    await expectRefusal(starter, '/me/usage?verbose=1', 400, /unknown parameter/, false);
  });

  it('year_start after year_end, and years that are not integers (Enterprise)', async () => {
    await expectRefusal(enterprise, `/benchmarks?${qs({ specialty: 'Cardiology', year_start: 2024, year_end: 2022 })}`, 400, /year_start \(2024\) is after year_end \(2022\)/, true);
    for (const bad of ['2020.5', 'abc', '20201', '-2020', '2e3']) {
      await expectRefusal(enterprise, `/benchmarks?${qs({ specialty: 'Cardiology', year_start: bad })}`, 400, /year_start must be a four-digit year/, true);
      await expectRefusal(enterprise, `/benchmarks?${qs({ specialty: 'Cardiology', year_end: bad })}`, 400, /year_end must be a four-digit year/, true);
    }
  });
});

describe('401: missing, malformed, unknown or revoked key (no rate-limit headers, not counted)', () => {
  it('each kind, on every endpoint', async () => {
    const revoked = await createKey(ks.server.store, 'professional');
    const ok = await call(ks.url, '/specialties', revoked.key);
    expect(ok.status).toBe(200);
    await ks.server.store.updateKey(revoked.prefix, { revokedAt: ks.now().toISOString() });
    const unknown = generateKey();
    const cases: [string, Record<string, string>, RegExp][] = [
      ['missing', {}, /missing API key/],
      ['empty', { 'x-api-key': '' }, /missing API key/],
      ['malformed', { 'x-api-key': 'not-a-key' }, /invalid API key/],
      ['too short', { 'x-api-key': starter.key.slice(0, -1) }, /invalid API key/],
      ['too long', { 'x-api-key': `${starter.key}x` }, /invalid API key/],
      ['wrong prefix', { 'x-api-key': starter.key.replace('pcb_live_', 'pcb_test_') }, /invalid API key/],
      ['bearer instead', { authorization: `Bearer ${starter.key}` }, /missing API key/],
      ['unknown', { 'x-api-key': unknown }, /invalid API key/],
      ['revoked', { 'x-api-key': revoked.key }, /invalid API key/],
    ];
    for (const path of ['/specialties', '/available-data?specialty=Cardiology', '/benchmarks?specialty=Cardiology', '/me/usage']) {
      for (const [what, headers, pattern] of cases) {
        const r = await call(ks.url, path, undefined, headers);
        const msg = expectError(r, 401, pattern);
        expectNoRateHeaders(r);
        expect(r.headers.vary, what).toBe('X-API-Key');
        expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        for (const v of Object.values(headers)) if (v.length > 12) expect(msg).not.toContain(v.replace('Bearer ', ''));
        expect(r.text).not.toContain(unknown);
        expect(r.text).not.toContain(revoked.key);
      }
    }
    // nothing was counted for the revoked key after revocation
    expect((await used(revoked)).dayCount).toBe(1);
    // a key with surrounding spaces is the same key
    expect((await call(ks.url, '/me/usage', undefined, { 'x-api-key': ` ${starter.key} ` })).status).toBe(200);
  });
});

describe('403: inactive subscription or a feature outside the plan', () => {
  it('past_due, canceled and suspended are named; not counted; /me/usage still answers', async () => {
    for (const status of ['past_due', 'canceled', 'suspended']) {
      const k = await createKey(ks.server.store, 'professional', status);
      for (const path of ['/specialties', '/available-data?specialty=Cardiology', '/benchmarks?specialty=Cardiology']) {
        const msg = await expectRefusal(k, path, 403, new RegExp(`subscription is ${status}`), false);
        expect(msg).toMatch(/only active subscriptions are served/);
      }
      const u = UsageResponse.parse((await call(ks.url, '/me/usage', k.key)).json());
      expect(u.subscription_status).toBe(status);
      expect(u.usage.requests_today).toBe(0);
      // reactivated: served again
      await ks.server.store.updateKey(k.prefix, { status: 'active' });
      expect((await call(ks.url, '/specialties', k.key)).status).toBe(200);
    }
  });

  it('year ranges from Starter and Professional name the Enterprise plan (a counted request)', async () => {
    for (const [k, label] of [[starter, 'Starter'], [professional, 'Professional']] as const) {
      for (const params of [{ year_start: 2022 }, { year_end: 2024 }, { year_start: 2022, year_end: 2024 }]) {
        const msg = await expectRefusal(k, `/benchmarks?${qs({ specialty: 'Cardiology', ...params })}`, 403, /Enterprise plan feature/, true);
        expect(msg).toContain(`on the ${label} plan`);
      }
    }
    // Enterprise gets them
    expect((await call(ks.url, `/benchmarks?${qs({ specialty: 'Cardiology', year_start: 2022 })}`, enterprise.key)).status).toBe(200);
  });
});

describe('404: insufficient data, unknown endpoint', () => {
  it('national n < 5 for the query (counted)', async () => {
    // the message does not state the count (no exact count below the floor): the same words for 0 and 1 report
    const none = await expectRefusal(starter, `/benchmarks?${qs({ specialty: 'Medical Genetics' })}`, 404, /insufficient data: fewer than 5 reports match this query nationally.*available-data/, true);
    const one = await expectRefusal(starter, `/benchmarks?${qs({ specialty: 'Colon and Rectal Surgery', state: 'Texas' })}`, 404, /insufficient data: fewer than 5 reports match this query nationally/, true);
    expect(one).toBe(none);
    expect(none.replace(/\b5\b/g, '').replace('/api/v1/', ''), 'no count in the message').not.toMatch(/\d/);
    // filters narrow the national scope below 5 even for a large specialty
    const filtered = await expectRefusal(starter, `/benchmarks?${qs({ specialty: 'Cardiothoracic Surgery', practice_setting: 'Government' })}`, 404, /insufficient data/, true);
    expect(filtered).toBe(none);
    // available-data answers the same low-data queries with their flags: no count and no years below 5
    // (Colon and Rectal Surgery has one report, of a known year)
    for (const specialty of ['Medical Genetics', 'Colon and Rectal Surgery']) {
      const r = await call(ks.url, `/available-data?${qs({ specialty })}`, starter.key);
      expect(r.status).toBe(200);
      expect(r.json<{ availability: { national: unknown } }>().availability.national, specialty).toEqual({ label: 'National', n: null, years: [], sufficient: false, publishable: false });
    }
  });

  it('unknown endpoints, with and without a key: an identified key gets its X-RateLimit headers, nothing counted', async () => {
    const before = rateHeaders(await call(ks.url, '/me/usage', starter.key));
    for (const path of ['/api/v1/nope', '/api/v1/benchmarks/cardiology', '/api/v1/me', '/api/v1/me/usage/x', '/api/v1']) {
      const withKey = await call(ks.url, path, starter.key);
      expectError(withKey, 404, /no such endpoint/);
      expect(rateHeaders(withKey), path).toEqual(before);
      expect(withKey.headers['ratelimit-policy'], path).toMatch(/"day";q=100/);
      const without = await call(ks.url, path);
      expectError(without, 404, /no such endpoint/);
      expectNoRateHeaders(without);
      // a wrong key is still a 404 (the path does not exist), without headers
      const wrong = await call(ks.url, path, 'pcb_live_' + 'x'.repeat(32));
      expectError(wrong, 404, /no such endpoint/);
      expectNoRateHeaders(wrong);
    }
    expect(rateHeaders(await call(ks.url, '/me/usage', starter.key))).toEqual(before);
  });
});

describe('503: no build loaded yet', () => {
  const work = useTempDir('keyed-nobuild');
  const closeLater = closeAfterAll();

  it('answers 503 with Retry-After (not counted) until a build is published, then serves it', async () => {
    const dist = join(work.path, 'dist');
    const server = closeLater(await startTestServer(dist, join(work.path, 'service.db'), {
      ipLimits: { perMinute: 1e6, perDay: 1e7 }, pollMs: 50, clock: () => new Date('2026-12-01T12:00:00Z'),
    }));
    expect(server.registry.current).toBeNull();
    const k = await createKey(server.store, 'starter');
    for (const path of ['/specialties', '/available-data?specialty=Cardiology', '/benchmarks?specialty=Cardiology']) {
      const r = await call(server.url, path, k.key);
      expectError(r, 503, /no benchmark data is loaded yet/);
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(r.headers['cache-control']).toBe('no-store');
      const h = rateHeaders(r); // the key is identified: the headers are there, unchanged
      expect(h).toMatchObject({ limitDaily: 100, remainingDaily: 100, limitMonthly: 3000, remainingMonthly: 3000 });
    }
    const u = UsageResponse.parse((await call(server.url, '/me/usage', k.key)).json());
    expect(u.usage.requests_today).toBe(0);
    // a key problem is still a 401 first
    expectError(await call(server.url, '/specialties', 'nope'), 401);
    // a build is published (the pointer appears; here it points at the golden build made above): the server
    // picks it up and answers
    mkdirSync(dist, { recursive: true });
    symlinkSync(relative(dist, ks.buildDir), join(dist, 'current'));
    const r = await waitFor('the new build to be served', async () => {
      const x = await call(server.url, '/specialties', k.key);
      return x.status === 200 ? x : null;
    });
    expect(rateHeaders(r).remainingDaily).toBe(99);
  });
});

describe('503: service store unreachable', () => {
  let registry: BuildRegistry;
  const closeLater = closeAfterAll();
  afterAll(() => registry?.stop());

  it('answers 503 with Retry-After and the error body', async () => {
    // a PostgreSQL store on a port nobody listens on
    const store = new PostgresServiceStore('postgres://postgres@127.0.0.1:9/none', 2);
    registry = new BuildRegistry(join(ks.work, 'dist-errors'), {});
    await registry.start(60_000);
    expect(registry.current?.id).toBe(ks.buildId);
    const app = createApp({ registry, store, clock: () => new Date('2026-12-01T12:00:00Z') });
    const { url } = closeLater(await listen(app.listener));
    const key = generateKey();
    for (const path of ['/specialties', '/benchmarks?specialty=Cardiology', '/me/usage']) {
      const r = await call(url, path, key);
      expectError(r, 503, /service temporarily unavailable/);
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(r.text).not.toContain(key);
    }
    await store.close();
  });
});

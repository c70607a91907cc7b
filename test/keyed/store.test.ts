/**
 * The quota half of the service store, on SQLite and PostgreSQL alike (PostgreSQL skipped only when
 * unreachable and CI is not set): keys by hash, check-and-count (refused requests uncounted), day and month
 * windows, refunds only within their window, the one-step identify-and-count of the request path, exactness
 * under concurrent calls, and windows that never move backwards when instances' clocks disagree around midnight.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { PG_URL, pgSkipReason } from '../helpers/pg.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { SqliteServiceStore } from '../../server/store/sqlite.ts';
import { PostgresServiceStore } from '../../server/store/postgres.ts';
import { KeyNotFoundError, KeyRevokedError, type ServiceStore } from '../../server/store/types.ts';
import { generateKey, hashKey, keyPrefixOf } from '../../server/keyed/keys.ts';

const work = useTempDir('keyed-store');

// probe PostgreSQL once, before the suites are collected
const pgReason = await pgSkipReason('the PostgreSQL store tests');

const backends: [string, () => Promise<ServiceStore>][] = [
  ['sqlite', async () => new SqliteServiceStore(join(work.path, `store-${Math.random().toString(36).slice(2)}.db`))],
  ['postgres', async () => PostgresServiceStore.open(PG_URL)],
];

for (const [kind, open] of backends) suite(kind, open);

function suite(kind: string, open: () => Promise<ServiceStore>) {
(kind === 'postgres' && pgReason ? describe.skip : describe)(`${kind} service store`, () => {
  let store: ServiceStore;
  const mine: number[] = [];

  beforeAll(async () => {
    store = await open();
  });

  afterAll(async () => {
    if (!store) return;
    if (store instanceof PostgresServiceStore && mine.length) {
      await store.pool.query('DELETE FROM quota_usage WHERE key_id = ANY($1)', [mine]);
      await store.pool.query('DELETE FROM usage_daily WHERE key_id = ANY($1)', [mine]);
      await store.pool.query('DELETE FROM api_keys WHERE id = ANY($1)', [mine]);
    }
    await store.close();
  });

  async function newKey(plan = 'starter') {
    const key = generateKey();
    const rec = await store.createKey({ keyHash: hashKey(key), keyPrefix: keyPrefixOf(key), plan, status: 'active', label: 'store test', createdAt: '2026-12-01T00:00:00Z' });
    mine.push(rec.id);
    return { key, rec };
  }

  it('keys: found by hash only; updates by id or prefix', async () => {
    const { key, rec } = await newKey();
    expect(rec).toMatchObject({ key_prefix: key.slice(0, 12), plan_tier: 'starter', subscription_status: 'active', revoked_at: null });
    expect(typeof rec.id).toBe('number');
    expect(await store.findKeyByHash(hashKey(key))).toEqual(rec);
    expect(await store.findKeyByHash(key)).toBeNull();
    expect(await store.findKeyByHash(hashKey(`${key}x`))).toBeNull();
    expect(JSON.stringify(rec)).not.toContain(key);
    const moved = await store.updateKey(String(rec.id), { plan: 'enterprise', status: 'suspended' });
    expect(moved).toMatchObject({ id: rec.id, plan_tier: 'enterprise', subscription_status: 'suspended' });
    const revoked = await store.updateKey(String(rec.id), { revokedAt: '2026-12-02T00:00:00.000Z' });
    expect(revoked.revoked_at).toBe('2026-12-02T00:00:00.000Z');
    // a second revocation keeps the first time
    expect((await store.updateKey(String(rec.id), { revokedAt: '2027-01-01T00:00:00.000Z' })).revoked_at).toBe('2026-12-02T00:00:00.000Z');
    await expect(Promise.resolve().then(() => store.updateKey('999999999', { plan: 'starter' }))).rejects.toThrow(/no API key/);
  });

  it('check-and-count: limits of both windows; a refusal is not counted; rollover by day and month', async () => {
    const { rec } = await newKey();
    const lim = { daily: 3, monthly: 5 };
    const d1 = { day: '2026-12-30', month: '2026-12' };
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await store.hitQuota(rec.id, d1, lim));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    expect(results.map((r) => r.dayCount)).toEqual([1, 2, 3, 3, 3]);
    expect(results[3]).toMatchObject({ limitedBy: 'daily', monthCount: 3 });
    expect(await store.readQuota(rec.id, d1)).toEqual({ dayCount: 3, monthCount: 3 });
    // next day, same month: the day starts again, the month carries on until its limit
    const d2 = { day: '2026-12-31', month: '2026-12' };
    expect(await store.readQuota(rec.id, d2)).toEqual({ dayCount: 0, monthCount: 3 });
    const r2 = [];
    for (let i = 0; i < 3; i++) r2.push(await store.hitQuota(rec.id, d2, lim));
    expect(r2.map((r) => [r.allowed, r.dayCount, r.monthCount])).toEqual([[true, 1, 4], [true, 2, 5], [false, 2, 5]]);
    expect(r2[2]!.limitedBy).toBe('monthly');
    // new month: both start again
    const d3 = { day: '2027-01-01', month: '2027-01' };
    expect(await store.hitQuota(rec.id, d3, lim)).toEqual({ allowed: true, dayCount: 1, monthCount: 1 });
    // refunds apply only to their own window
    await store.refundQuota(rec.id, d2); // an old day's 5xx: nothing to give back today
    expect(await store.readQuota(rec.id, d3)).toEqual({ dayCount: 1, monthCount: 1 });
    await store.refundQuota(rec.id, d3);
    expect(await store.readQuota(rec.id, d3)).toEqual({ dayCount: 0, monthCount: 0 });
    await store.refundQuota(rec.id, d3); // never below zero
    expect(await store.readQuota(rec.id, d3)).toEqual({ dayCount: 0, monthCount: 0 });
  });

  it('exact under concurrency: 200 concurrent calls against 50 remaining serve exactly 50', async () => {
    const { rec } = await newKey();
    const w = { day: '2026-12-15', month: '2026-12' };
    const lim = { daily: 50, monthly: 1000 };
    const results = await Promise.all(Array.from({ length: 200 }, () => Promise.resolve().then(() => store.hitQuota(rec.id, w, lim))));
    const allowed = results.filter((r) => r.allowed);
    expect(allowed).toHaveLength(50);
    expect(allowed.map((r) => r.dayCount).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await store.readQuota(rec.id, w)).toEqual({ dayCount: 50, monthCount: 50 });
  });

  it('identifyAndCount: finds the key by hash and counts it against its own plan in one step', async () => {
    const { key, rec } = await newKey('starter');
    const w = { day: '2026-12-16', month: '2026-12' };
    const limits = { starter: { daily: 2, monthly: 10 }, professional: { daily: 5, monthly: 50 }, enterprise: { daily: 9, monthly: 90 } };
    expect(await store.identifyAndCount(hashKey(`${key}x`), w, limits)).toBeNull();
    expect(await store.identifyAndCount(key, w, limits)).toBeNull(); // the clear key is not a hash
    expect(await store.identifyAndCount(hashKey(key), w, limits)).toEqual({ key: rec, quota: { allowed: true, dayCount: 1, monthCount: 1 } });
    expect(await store.identifyAndCount(hashKey(key), w, limits)).toEqual({ key: rec, quota: { allowed: true, dayCount: 2, monthCount: 2 } });
    // the starter limit (2 a day) applies, not another plan's; the refusal is not counted
    expect(await store.identifyAndCount(hashKey(key), w, limits)).toEqual({ key: rec, quota: { allowed: false, dayCount: 2, monthCount: 2, limitedBy: 'daily' } });
    expect(await store.readQuota(rec.id, w)).toEqual({ dayCount: 2, monthCount: 2 });
    // a plan change takes effect on the next request
    const upgraded = await store.updateKey(String(rec.id), { plan: 'professional' });
    expect(await store.identifyAndCount(hashKey(key), w, limits)).toEqual({ key: upgraded, quota: { allowed: true, dayCount: 3, monthCount: 3 } });
  });

  it('identifyAndCount never counts a revoked or inactive key', async () => {
    const w = { day: '2026-12-17', month: '2026-12' };
    const limits = { starter: { daily: 100, monthly: 3000 } };
    const a = await newKey();
    const pastDue = await store.updateKey(String(a.rec.id), { status: 'past_due' });
    expect(await store.identifyAndCount(hashKey(a.key), w, limits)).toEqual({ key: pastDue, quota: null });
    const b = await newKey();
    const revoked = await store.updateKey(String(b.rec.id), { revokedAt: '2026-12-17T00:00:00Z' });
    expect(await store.identifyAndCount(hashKey(b.key), w, limits)).toEqual({ key: revoked, quota: null });
    expect(await store.readQuota(a.rec.id, w)).toEqual({ dayCount: 0, monthCount: 0 });
    expect(await store.readQuota(b.rec.id, w)).toEqual({ dayCount: 0, monthCount: 0 });
  });

  it('identifyAndCount is exact under concurrency: 200 concurrent calls against 50 remaining serve exactly 50', async () => {
    const { key, rec } = await newKey();
    const w = { day: '2026-12-18', month: '2026-12' };
    const limits = { starter: { daily: 50, monthly: 1000 } };
    const results = await Promise.all(Array.from({ length: 200 }, () => Promise.resolve().then(() => store.identifyAndCount(hashKey(key), w, limits))));
    const allowed = results.filter((r) => r?.quota?.allowed);
    expect(allowed).toHaveLength(50);
    expect(allowed.map((r) => r!.quota!.dayCount).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(results.filter((r) => r?.quota?.allowed === false && r.quota.limitedBy === 'daily')).toHaveLength(150);
    expect(await store.readQuota(rec.id, w)).toEqual({ dayCount: 50, monthCount: 50 });
  });

  it('a lagging clock around midnight never moves the windows back (no reset, no lost counts)', async () => {
    const { rec } = await newKey();
    const lim = { daily: 3, monthly: 100 };
    const ahead = { day: '2027-01-01', month: '2027-01' }; // an instance whose clock passed midnight
    const behind = { day: '2026-12-31', month: '2026-12' }; // one a second behind
    // yesterday's quota was used up
    for (let i = 0; i < 3; i++) await store.hitQuota(rec.id, behind, lim);
    expect((await store.hitQuota(rec.id, ahead, lim)).dayCount).toBe(1);
    // the lagging instance counts into the newer window rather than resetting it
    const late = await store.hitQuota(rec.id, behind, lim);
    expect(late).toMatchObject({ allowed: true, dayCount: 2, monthCount: 2 });
    expect(await store.hitQuota(rec.id, ahead, lim)).toEqual({ allowed: true, dayCount: 3, monthCount: 3 });
    expect(await store.readQuota(rec.id, ahead)).toEqual({ dayCount: 3, monthCount: 3 });
    // the day's quota is used up for both instances
    expect(await store.hitQuota(rec.id, behind, lim)).toEqual({ allowed: false, dayCount: 3, monthCount: 3, limitedBy: 'daily' });
    expect((await store.hitQuota(rec.id, ahead, lim)).allowed).toBe(false);
    expect(await store.readQuota(rec.id, ahead)).toEqual({ dayCount: 3, monthCount: 3 });
    // both instances read the same (newest) counts
    expect(await store.readQuota(rec.id, behind)).toEqual({ dayCount: 3, monthCount: 3 });
    // and the next real day starts afresh
    expect(await store.hitQuota(rec.id, { day: '2027-01-02', month: '2027-01' }, lim)).toEqual({ allowed: true, dayCount: 1, monthCount: 4 });
  });

  it('marks its kind: application_id PPSV on SQLite, a comment on service_migrations on PostgreSQL', async () => {
    if (store instanceof PostgresServiceStore) {
      const r = await store.pool.query<{ c: string }>("SELECT obj_description('service_migrations'::regclass, 'pg_class') AS c");
      expect(r.rows[0]!.c).toMatch(/^physpay service store \(PPSV\)/);
    } else {
      expect((store as SqliteServiceStore).db.pragma('application_id', { simple: true })).toBe(Buffer.from('PPSV').readUInt32BE(0));
    }
  });

  it('listKeyUsage: each key with its last counted use and its counts today and this month', async () => {
    const a = await newKey();
    const b = await newKey('enterprise');
    const lim = { daily: 2, monthly: 100 };
    const limits = { starter: lim, enterprise: lim };
    await store.hitQuota(a.rec.id, { day: '2026-12-19', month: '2026-12', at: '2026-12-19T10:00:00Z' }, lim);
    await store.identifyAndCount(hashKey(a.key), { day: '2026-12-20', month: '2026-12', at: '2026-12-20T08:30:00Z' }, limits);
    await store.hitQuota(a.rec.id, { day: '2026-12-20', month: '2026-12', at: '2026-12-20T08:31:00Z' }, lim);
    // refused (daily limit): not a counted use
    expect((await store.hitQuota(a.rec.id, { day: '2026-12-20', month: '2026-12', at: '2026-12-20T09:00:00Z' }, lim)).allowed).toBe(false);
    // a lagging clock never moves the last use back
    await store.hitQuota(b.rec.id, { day: '2026-12-20', month: '2026-12', at: '2026-12-20T12:00:00Z' }, lim);
    await store.hitQuota(b.rec.id, { day: '2026-12-20', month: '2026-12', at: '2026-12-20T11:59:59Z' }, lim);
    const c = await newKey();
    const list = (await store.listKeyUsage({ day: '2026-12-20', month: '2026-12' })).filter((k) => [a.rec.id, b.rec.id, c.rec.id].includes(k.id));
    expect(list).toEqual([
      { ...a.rec, last_used_at: '2026-12-20T08:31:00Z', used_today: 2, used_this_month: 3, subscription_id: null, customer_id: null },
      { ...b.rec, last_used_at: '2026-12-20T12:00:00Z', used_today: 2, used_this_month: 2, subscription_id: null, customer_id: null },
      { ...c.rec, last_used_at: null, used_today: 0, used_this_month: 0, subscription_id: null, customer_id: null },
    ]);
    // the next day: today's count is 0, the month's carries on
    const next = (await store.listKeyUsage({ day: '2026-12-21', month: '2026-12' })).find((k) => k.id === a.rec.id)!;
    expect(next).toMatchObject({ used_today: 0, used_this_month: 3, last_used_at: '2026-12-20T08:31:00Z' });
  });

  it('updateKey refuses a plan or status for a revoked key; revoking again keeps the first time', async () => {
    const { rec } = await newKey();
    const revoked = await store.updateKey(rec.key_prefix, { revokedAt: '2026-12-21T00:00:00Z' });
    for (const patch of [{ status: 'active' }, { plan: 'enterprise' }]) {
      await expect(Promise.resolve().then(() => store.updateKey(String(rec.id), patch))).rejects.toBeInstanceOf(KeyRevokedError);
    }
    expect((await store.listKeys()).find((k) => k.id === rec.id)).toEqual(revoked);
    expect(await store.updateKey(String(rec.id), { revokedAt: '2027-01-01T00:00:00Z' })).toEqual(revoked);
  });

  it('rotateKey: a new key with the same plan, status, label and quota counts; the old one revoked at once', async () => {
    const old = await newKey('professional');
    const w = { day: '2026-12-22', month: '2026-12', at: '2026-12-22T07:00:00Z' };
    for (let i = 0; i < 3; i++) await store.hitQuota(old.rec.id, w, { daily: 10, monthly: 100 });
    await store.updateKey(String(old.rec.id), { status: 'suspended' });
    const fresh = generateKey();
    const r = await store.rotateKey(old.rec.key_prefix, { keyHash: hashKey(fresh), keyPrefix: keyPrefixOf(fresh), createdAt: '2026-12-22T08:00:00Z' }, '2026-12-22T08:00:00Z');
    mine.push(r.key.id);
    expect(r.old).toMatchObject({ id: old.rec.id, revoked_at: '2026-12-22T08:00:00Z' });
    expect(r.key).toEqual({
      id: r.key.id, key_prefix: keyPrefixOf(fresh), plan_tier: 'professional', subscription_status: 'suspended', label: 'store test',
      created_at: '2026-12-22T08:00:00Z', revoked_at: null,
    });
    expect(r.key.id).not.toBe(old.rec.id);
    expect(await store.findKeyByHash(hashKey(fresh))).toEqual(r.key);
    expect(await store.findKeyByHash(hashKey(old.key))).toEqual(r.old);
    // the account's use this month carries over; the old key is never counted again
    expect(await store.readQuota(r.key.id, w)).toEqual({ dayCount: 3, monthCount: 3 });
    const limits = { professional: { daily: 10, monthly: 100 } };
    expect(await store.identifyAndCount(hashKey(fresh), w, limits)).toEqual({ key: r.key, quota: null }); // suspended, like the old key
    const active = await store.updateKey(r.key.key_prefix, { status: 'active' });
    expect(await store.identifyAndCount(hashKey(old.key), w, limits)).toEqual({ key: r.old, quota: null });
    expect(await store.identifyAndCount(hashKey(fresh), w, limits)).toEqual({ key: active, quota: { allowed: true, dayCount: 4, monthCount: 4 } });
    // a revoked key cannot be rotated; an unknown one is not found
    const again = generateKey();
    await expect(Promise.resolve().then(() => store.rotateKey(String(old.rec.id), { keyHash: hashKey(again), keyPrefix: keyPrefixOf(again), createdAt: '2026-12-22T09:00:00Z' }, '2026-12-22T09:00:00Z')))
      .rejects.toBeInstanceOf(KeyRevokedError);
    await expect(Promise.resolve().then(() => store.rotateKey('999999999', { keyHash: hashKey(again), keyPrefix: keyPrefixOf(again), createdAt: '2026-12-22T09:00:00Z' }, '2026-12-22T09:00:00Z')))
      .rejects.toBeInstanceOf(KeyNotFoundError);
    expect(await store.findKeyByHash(hashKey(again))).toBeNull();
  });

  it('usageHistory: each day\'s count kept when the counter moves on; refunds and refusals as the quota counted them', async () => {
    const { rec } = await newKey();
    const lim = { daily: 3, monthly: 100 };
    const hit = (day: string) => store.hitQuota(rec.id, { day, month: day.slice(0, 7), at: `${day}T10:00:00Z` }, lim);
    expect(await store.usageHistory(rec.id, '2026-01-01', '2026-12-31')).toEqual([]);
    await hit('2026-11-28');
    await hit('2026-11-28');
    for (let i = 0; i < 5; i++) await hit('2026-11-30'); // 3 counted, 2 refused
    await store.refundQuota(rec.id, { day: '2026-11-30', month: '2026-11' }); // a 5xx given back
    await hit('2026-12-02');
    // a lagging clock counts into the newer day: no day is closed twice or moved back
    await hit('2026-12-01');
    expect(await store.usageHistory(rec.id, '2026-11-01', '2026-12-31')).toEqual([
      { day: '2026-11-28', count: 2 },
      { day: '2026-11-30', count: 2 },
      { day: '2026-12-02', count: 2 },
    ]);
    // the range is inclusive at both ends; days outside it are left out
    expect(await store.usageHistory(rec.id, '2026-11-29', '2026-11-30')).toEqual([{ day: '2026-11-30', count: 2 }]);
    expect(await store.usageHistory(rec.id, '2026-12-02', '2026-12-02')).toEqual([{ day: '2026-12-02', count: 2 }]);
    // a rotated key's history carries over to its successor; the old key keeps its own
    const fresh = generateKey();
    const r = await store.rotateKey(String(rec.id), { keyHash: hashKey(fresh), keyPrefix: keyPrefixOf(fresh), createdAt: '2026-12-02T12:00:00Z' }, '2026-12-02T12:00:00Z');
    mine.push(r.key.id);
    await store.hitQuota(r.key.id, { day: '2026-12-03', month: '2026-12', at: '2026-12-03T01:00:00Z' }, lim);
    expect(await store.usageHistory(r.key.id, '2026-11-01', '2026-12-31')).toEqual([
      { day: '2026-11-28', count: 2 },
      { day: '2026-11-30', count: 2 },
      { day: '2026-12-02', count: 2 },
      { day: '2026-12-03', count: 1 },
    ]);
    expect((await store.usageHistory(rec.id, '2026-11-01', '2026-12-31')).map((d) => d.day)).toEqual(['2026-11-28', '2026-11-30', '2026-12-02']);
    // pruning (days since the epoch) keeps 400 days of history before the day given
    const dayNo = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
    await store.pruneIp(dayNo('2028-01-05')); // 400 days before it: 2026-12-01
    expect((await store.usageHistory(r.key.id, '2026-01-01', '2026-12-31')).map((d) => d.day)).toEqual(['2026-12-02', '2026-12-03']);
  });
});
}

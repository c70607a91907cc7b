/**
 * The keyed API's request pipeline: key -> subscription -> build -> quota (check-and-count).
 * Only this file and the store decide who is served and counted.
 * Every response to an identified key carries the rate-limit headers (`rateHeaders`, added by handler.ts).
 */
import type { IncomingMessage } from 'node:http';
import type { BuildRegistry } from '../builds/registry.ts';
import type { Clock } from '../http/clock.ts';
import type { ApiKeyRecord, QuotaLimits, ServiceStore } from '../store/types.ts';
import { KeyedError } from './errors.ts';
import { hashKey, KEY_PATTERN } from './keys.ts';
import { PLANS, planOf } from './plans.ts';
import type { KeyedLocals } from './context.ts';
import { nextDailyReset, nextMonthlyReset, quotaWindows } from './quota-time.ts';

export interface KeyedDeps {
  registry: BuildRegistry;
  store: ServiceStore;
  clock: Clock;
}

/** The spec's X-RateLimit-* and the IETF RateLimit fields from the request's counts ({} before they are known). */
export function rateHeaders(l: KeyedLocals): Record<string, string | number> {
  if (!l.plan || !l.now || !l.used) return {};
  const dailyReset = nextDailyReset(l.now);
  const monthlyReset = nextMonthlyReset(l.now);
  const nowS = Math.floor(l.now.getTime() / 1000);
  const rd = Math.max(0, l.plan.daily - l.used.dayCount);
  const rm = Math.max(0, l.plan.monthly - l.used.monthCount);
  const monthSeconds = monthlyReset - Date.UTC(l.now.getUTCFullYear(), l.now.getUTCMonth(), 1) / 1000;
  return {
    'X-RateLimit-Limit-Daily': l.plan.daily,
    'X-RateLimit-Remaining-Daily': rd,
    'X-RateLimit-Limit-Monthly': l.plan.monthly,
    'X-RateLimit-Remaining-Monthly': rm,
    'X-RateLimit-Reset': dailyReset,
    'RateLimit-Policy': `"day";q=${l.plan.daily};w=86400, "month";q=${l.plan.monthly};w=${monthSeconds}`,
    RateLimit: `"day";r=${rd};t=${dailyReset - nowS}, "month";r=${rm};t=${monthlyReset - nowS}`,
  };
}

/** The key's hash from X-API-Key; 401 when it is missing or malformed. Never echoes or logs the key. */
function keyHashOf(req: IncomingMessage): string {
  const raw = req.headers['x-api-key'];
  if (raw === undefined || raw === '') throw new KeyedError('unauthorized', 'missing API key: send your key in the X-API-Key header');
  const key = Array.isArray(raw) ? undefined : raw.trim();
  if (!key || !KEY_PATTERN.test(key)) throw new KeyedError('unauthorized', 'invalid API key');
  return hashKey(key);
}

/** The request's time and quota windows (read once, before the store is asked). */
function stamp(deps: KeyedDeps, l: KeyedLocals): void {
  l.now = deps.clock();
  l.windows = quotaWindows(l.now);
}

/** Attach the key found by hash (401 when there is none or it was revoked). */
function identify(l: KeyedLocals, record: ApiKeyRecord | null | undefined): void {
  if (!record || record.revoked_at) throw new KeyedError('unauthorized', 'invalid API key');
  l.key = record;
  l.plan = planOf(record.plan_tier);
}

/** Current counts of an identified key, for answers that count nothing (they go in the rate-limit headers). */
export async function readUsage(deps: KeyedDeps, l: KeyedLocals): Promise<void> {
  l.used = await deps.store.readQuota(l.key!.id, l.windows!);
}

const inactive = (key: ApiKeyRecord) =>
  new KeyedError('forbidden', `subscription is ${key.subscription_status}: only active subscriptions are served; renew or contact support`);

/** Quota limits of every plan, by tier, for the store's one-step identify-and-count. */
const PLAN_LIMITS: Record<string, QuotaLimits> = Object.fromEntries(Object.values(PLANS).map((p) => [p.tier, { daily: p.daily, monthly: p.monthly }]));

/** Identify the key without counting (/me/usage, which is never counted). */
export async function authenticate(deps: KeyedDeps, req: IncomingMessage, l: KeyedLocals): Promise<void> {
  await identifyKeyHash(deps, keyHashOf(req), l);
}

/** Identify a key known by its hash without counting (401 when there is none or it was revoked). */
export async function identifyKeyHash(deps: KeyedDeps, hash: string, l: KeyedLocals): Promise<void> {
  stamp(deps, l);
  identify(l, await deps.store.findKeyByHash(hash));
}

/**
 * The counted endpoints' pipeline: key (401) -> subscription (403) -> build (503) -> the atomic
 * check-and-count (429). With a build loaded (always, after the first), the key lookup and the count are one
 * step of the store (one round trip on PostgreSQL): it counts only keys that are neither revoked nor
 * inactive, so a 401 or 403 is never counted. A refused request is not counted; a 5xx answer is refunded.
 */
export async function authenticateAndCount(deps: KeyedDeps, req: IncomingMessage, l: KeyedLocals): Promise<void> {
  await countKeyHash(deps, keyHashOf(req), l);
}

/**
 * The same pipeline for a key already known by its hash (the tool server's keyed tools: the key came as a
 * bearer token): the same checks, counts and errors as a keyed API request.
 */
export async function countKeyHash(deps: KeyedDeps, hash: string, l: KeyedLocals): Promise<void> {
  stamp(deps, l);
  const build = deps.registry.current;
  if (!build) {
    const record = await deps.store.findKeyByHash(hash);
    identify(l, record);
    await readUsage(deps, l);
    if (record!.subscription_status !== 'active') throw inactive(record!);
    throw new KeyedError('unavailable', 'no benchmark data is loaded yet; retry after a brief delay', { 'Retry-After': 5 });
  }
  const found = await deps.store.identifyAndCount(hash, l.windows!, PLAN_LIMITS);
  identify(l, found?.key);
  if (!found!.quota) {
    await readUsage(deps, l);
    throw inactive(found!.key);
  }
  l.build = build;
  const d = found!.quota;
  l.used = { dayCount: d.dayCount, monthCount: d.monthCount };
  if (!d.allowed) {
    const reset = d.limitedBy === 'monthly' ? nextMonthlyReset(l.now!) : nextDailyReset(l.now!);
    const retry = Math.max(1, reset - Math.floor(l.now!.getTime() / 1000));
    throw new KeyedError(
      'quota_exceeded',
      `${d.limitedBy} quota of ${d.limitedBy === 'monthly' ? l.plan!.monthly : l.plan!.daily} requests exceeded (${l.plan!.label} plan); wait until the time in X-RateLimit-Reset${d.limitedBy === 'monthly' ? ' and the monthly reset on the 1st' : ''} or upgrade`,
      { 'Retry-After': retry },
    );
  }
  l.counted = true; // a 5xx answer from here on is refunded (handler.ts)
}

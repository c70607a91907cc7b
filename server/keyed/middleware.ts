/**
 * The keyed API's request pipeline: request id -> key -> subscription -> build -> quota (check-and-count).
 * Every response to an identified key carries the rate-limit headers (set in `rateHeaders`).
 */
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { BuildRegistry } from '../builds/registry.ts';
import type { Clock } from '../http/clock.ts';
import type { ServiceStore } from '../store/types.ts';
import { KeyedError } from './errors.ts';
import { hashKey, KEY_PATTERN } from './keys.ts';
import { planOf } from './plans.ts';
import { locals } from './context.ts';
import { nextDailyReset, nextMonthlyReset, quotaWindows } from './quota-time.ts';

type Mw = (req: Request, res: Response, next: NextFunction) => void | Promise<void>;

export interface KeyedDeps {
  registry: BuildRegistry;
  store: ServiceStore;
  clock: Clock;
}

/** Wrap an async middleware so rejections reach the error handler. */
export const wrap = (fn: Mw): Mw => (req, res, next) => {
  Promise.resolve(fn(req, res, next)).catch(next);
};

/** The request id the app set (X-Request-Id), or a new one when the router runs on its own. */
export const requestId: Mw = (_req, res, next) => {
  let id = res.getHeader('X-Request-Id');
  if (typeof id !== 'string') {
    id = randomUUID();
    res.setHeader('X-Request-Id', id);
  }
  locals(res).requestId = id;
  next();
};

/** Set the spec's X-RateLimit-* and the IETF RateLimit fields from the request's counts. */
export function rateHeaders(res: Response): void {
  const l = locals(res);
  if (!l.plan || !l.now || !l.used) return;
  const dailyReset = nextDailyReset(l.now);
  const monthlyReset = nextMonthlyReset(l.now);
  const nowS = Math.floor(l.now.getTime() / 1000);
  const rd = Math.max(0, l.plan.daily - l.used.dayCount);
  const rm = Math.max(0, l.plan.monthly - l.used.monthCount);
  res.setHeader('X-RateLimit-Limit-Daily', l.plan.daily);
  res.setHeader('X-RateLimit-Remaining-Daily', rd);
  res.setHeader('X-RateLimit-Limit-Monthly', l.plan.monthly);
  res.setHeader('X-RateLimit-Remaining-Monthly', rm);
  res.setHeader('X-RateLimit-Reset', dailyReset);
  const monthSeconds = monthlyReset - Date.UTC(l.now.getUTCFullYear(), l.now.getUTCMonth(), 1) / 1000;
  res.setHeader('RateLimit-Policy', `"day";q=${l.plan.daily};w=86400, "month";q=${l.plan.monthly};w=${monthSeconds}`);
  res.setHeader('RateLimit', `"day";r=${rd};t=${dailyReset - nowS}, "month";r=${rm};t=${monthlyReset - nowS}`);
}

export function authenticate(deps: KeyedDeps): Mw {
  return wrap(async (req, res, next) => {
    const raw = req.headers['x-api-key'];
    if (raw === undefined || raw === '') throw new KeyedError('unauthorized', 'missing API key: send your key in the X-API-Key header');
    const key = Array.isArray(raw) ? undefined : raw.trim();
    // Never echo or log the key: the message names only the problem.
    if (!key || !KEY_PATTERN.test(key)) throw new KeyedError('unauthorized', 'invalid API key');
    const record = await deps.store.findKeyByHash(hashKey(key));
    if (!record || record.revoked_at) throw new KeyedError('unauthorized', 'invalid API key');
    const l = locals(res);
    l.key = record;
    l.plan = planOf(record.plan_tier);
    l.now = deps.clock();
    l.windows = quotaWindows(l.now);
    next();
  });
}

/** Read current counts (for responses that do not count: /me/usage, 403s). */
export function readUsage(deps: KeyedDeps): Mw {
  return wrap(async (_req, res, next) => {
    const l = locals(res);
    l.used = await deps.store.readQuota(l.key!.id, l.windows!);
    rateHeaders(res);
    next();
  });
}

export function requireActive(deps: KeyedDeps): Mw {
  return wrap(async (_req, res, next) => {
    const l = locals(res);
    if (l.key!.subscription_status !== 'active') {
      l.used = await deps.store.readQuota(l.key!.id, l.windows!);
      rateHeaders(res);
      throw new KeyedError('forbidden', `subscription is ${l.key!.subscription_status}: only active subscriptions are served; renew or contact support`);
    }
    next();
  });
}

export function requireBuild(deps: KeyedDeps): Mw {
  return wrap(async (_req, res, next) => {
    const build = deps.registry.current;
    const l = locals(res);
    if (!build) {
      // The key is identified: its (unchanged) counts go in the rate-limit headers like on every other answer.
      l.used = await deps.store.readQuota(l.key!.id, l.windows!);
      rateHeaders(res);
      throw new KeyedError('unavailable', 'no benchmark data is loaded yet; retry after a brief delay', { 'Retry-After': 5 });
    }
    l.build = build;
    next();
  });
}

/** The atomic check-and-count. A refused request is not counted; a 5xx answer is refunded. */
export function countRequest(deps: KeyedDeps): Mw {
  return wrap(async (_req, res, next) => {
    const l = locals(res);
    const d = await deps.store.hitQuota(l.key!.id, l.windows!, { daily: l.plan!.daily, monthly: l.plan!.monthly });
    l.used = { dayCount: d.dayCount, monthCount: d.monthCount };
    rateHeaders(res);
    if (!d.allowed) {
      const reset = d.limitedBy === 'monthly' ? nextMonthlyReset(l.now!) : nextDailyReset(l.now!);
      const retry = Math.max(1, reset - Math.floor(l.now!.getTime() / 1000));
      throw new KeyedError(
        'quota_exceeded',
        `${d.limitedBy} quota of ${d.limitedBy === 'monthly' ? l.plan!.monthly : l.plan!.daily} requests exceeded (${l.plan!.label} plan); wait until the time in X-RateLimit-Reset${d.limitedBy === 'monthly' ? ' and the monthly reset on the 1st' : ''} or upgrade`,
        { 'Retry-After': retry },
      );
    }
    l.counted = true;
    res.on('finish', () => {
      if (res.statusCode >= 500) void Promise.resolve(deps.store.refundQuota(l.key!.id, l.windows!)).catch(() => {});
    });
    next();
  });
}

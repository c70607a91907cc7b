/** What the keyed API's pipeline learns about a request, and what a route answers, typed in one place. */
import type { ApiKeyRecord, QuotaWindows } from '../store/types.ts';
import type { LoadedBuild } from '../builds/loaded-build.ts';
import type { Plan } from './plans.ts';
import { nextDailyReset } from './quota-time.ts';

export interface KeyedLocals {
  requestId: string;
  key?: ApiKeyRecord;
  plan?: Plan;
  now?: Date;
  windows?: QuotaWindows;
  /** counts after this request (set by the quota step or read for uncounted answers) */
  used?: { dayCount: number; monthCount: number };
  counted?: boolean;
  build?: LoadedBuild;
}

/** A route's successful answer: the JSON body and its Cache-Control (status 200). */
export interface Answer {
  body: unknown;
  cacheControl: string;
}

/** `meta.rate_limit` of a counted answer: what is left after this request. */
export function rateLimitMeta(l: KeyedLocals): { remaining_daily: number; remaining_monthly: number; reset: number } {
  return {
    remaining_daily: Math.max(0, l.plan!.daily - l.used!.dayCount),
    remaining_monthly: Math.max(0, l.plan!.monthly - l.used!.monthCount),
    reset: nextDailyReset(l.now!),
  };
}

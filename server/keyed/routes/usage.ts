/** GET /api/v1/me/usage: the caller's plan, counts and features. Never counted. */
import type { UsageResponse } from '../../../build/contract/keyed-api.ts';
import type { PlanTier, SubscriptionStatus } from '../../../build/contract/vocab.ts';
import type { Answer, KeyedLocals } from '../context.ts';
import { allowOnly, type Query } from '../params.ts';
import { nextDailyReset, nextMonthlyReset } from '../quota-time.ts';

export function usageRoute(query: Query, l: KeyedLocals): Answer {
  allowOnly(query, []);
  const { key, plan, used, now } = { key: l.key!, plan: l.plan!, used: l.used!, now: l.now! };
  const body: UsageResponse = {
    plan_tier: key.plan_tier as PlanTier,
    subscription_status: key.subscription_status as SubscriptionStatus,
    key_prefix: key.key_prefix,
    created_at: key.created_at,
    usage: {
      requests_today: used.dayCount,
      requests_this_month: used.monthCount,
      daily_limit: plan.daily,
      monthly_limit: plan.monthly,
      remaining_daily: Math.max(0, plan.daily - used.dayCount),
      remaining_monthly: Math.max(0, plan.monthly - used.monthCount),
      daily_reset: nextDailyReset(now),
      monthly_reset: nextMonthlyReset(now),
    },
    features: {
      trending: plan.professionalSections,
      fte_normalized: plan.professionalSections,
      breakdowns: plan.professionalSections,
      components: plan.professionalSections,
      custom_date_ranges: plan.customDateRanges,
    },
  };
  return { body, cacheControl: 'no-store' };
}

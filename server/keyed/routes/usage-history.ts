/** GET /api/v1/me/usage/history?days=N: requests counted per UTC day, oldest first, up to today. Never counted. */
import { USAGE_HISTORY_DEFAULT_DAYS, USAGE_HISTORY_MAX_DAYS, type UsageHistoryResponse } from '../../../build/contract/keyed-api.ts';
import type { PlanTier } from '../../../build/contract/vocab.ts';
import type { Answer, KeyedLocals } from '../context.ts';
import { badRequest } from '../errors.ts';
import type { KeyedDeps } from '../middleware.ts';
import { allowOnly, single, type Query } from '../params.ts';
import { denseSeries, seriesStart } from '../usage-series.ts';

export function parseDays(query: Query): number {
  const raw = single(query, 'days');
  if (raw === undefined) return USAGE_HISTORY_DEFAULT_DAYS;
  if (!/^\d{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > USAGE_HISTORY_MAX_DAYS) {
    throw badRequest(`parameter days must be a whole number from 1 to ${USAGE_HISTORY_MAX_DAYS} (got "${raw.slice(0, 20)}")`);
  }
  return Number(raw);
}

export async function usageHistoryRoute(query: Query, l: KeyedLocals, deps: KeyedDeps): Promise<Answer> {
  allowOnly(query, ['days']);
  const days = parseDays(query);
  const to = l.windows!.day;
  const from = seriesStart(l.now!, days);
  const series = denseSeries(await deps.store.usageHistory(l.key!.id, from, to), from, to);
  const body: UsageHistoryResponse = {
    key_prefix: l.key!.key_prefix,
    plan_tier: l.key!.plan_tier as PlanTier,
    daily_limit: l.plan!.daily,
    from,
    to,
    total: series.reduce((sum, d) => sum + d.requests, 0),
    days: series,
  };
  return { body, cacheControl: 'no-store' };
}

/** Quota periods and reset moments (pure): daily at 00:00 UTC, monthly on the 1st at 00:00 UTC. */
import type { QuotaWindows } from '../store/types.ts';

export function quotaWindows(now: Date): QuotaWindows {
  const iso = now.toISOString();
  return { day: iso.slice(0, 10), month: iso.slice(0, 7), at: `${iso.slice(0, 19)}Z` };
}

/** Unix seconds of the next 00:00 UTC. */
export function nextDailyReset(now: Date): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) / 1000;
}

/** Unix seconds of the next 1st of a month, 00:00 UTC. */
export function nextMonthlyReset(now: Date): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000;
}

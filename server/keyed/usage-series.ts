/** The usage history's series (pure): one point per UTC day from `from` to `to`, days without requests as 0. */
import type { DailyUse } from '../store/types.ts';

const DAY_MS = 86_400_000;

/** The first UTC day of a `days`-day series that ends on the day of `now` (`YYYY-MM-DD`). */
export function seriesStart(now: Date, days: number): string {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS).toISOString().slice(0, 10);
}

/** Every day from `from` to `to` (inclusive), with the counts of `rows` (days outside the range ignored). */
export function denseSeries(rows: readonly DailyUse[], from: string, to: string): { date: string; requests: number }[] {
  const byDay = new Map(rows.map((r) => [r.day, r.count]));
  const out: { date: string; requests: number }[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`), end = Date.parse(`${to}T00:00:00Z`); t <= end; t += DAY_MS) {
    const date = new Date(t).toISOString().slice(0, 10);
    out.push({ date, requests: byDay.get(date) ?? 0 });
  }
  return out;
}

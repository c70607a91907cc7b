/**
 * Per-IP limits of the open data API and the tool server (60 a minute, 2,000 a UTC day by default):
 * fixed windows aligned to the clock, counted in the shared service store in one atomic step.
 */
import type { Clock } from '../http/clock.ts';
import type { IpDecision, IpLimits, MaybePromise, ServiceStore } from '../store/types.ts';

export interface IpVerdict extends IpDecision {
  /** seconds until the minute / day window ends */
  minuteReset: number;
  dayReset: number;
  limits: IpLimits;
}

export class IpLimiter {
  constructor(
    private readonly store: ServiceStore,
    readonly limits: IpLimits,
    private readonly clock: Clock,
  ) {}

  check(ip: string): MaybePromise<IpVerdict> {
    const now = this.clock().getTime();
    const minute = Math.floor(now / 60_000);
    const day = Math.floor(now / 86_400_000);
    const extra = {
      minuteReset: Math.max(1, Math.ceil(((minute + 1) * 60_000 - now) / 1000)),
      dayReset: Math.max(1, Math.ceil(((day + 1) * 86_400_000 - now) / 1000)),
      limits: this.limits,
    };
    const d = this.store.hitIp(ip, { minute, day }, this.limits);
    return d instanceof Promise ? d.then((x) => ({ ...x, ...extra })) : { ...d, ...extra };
  }

  /** Seconds a refused client should wait. */
  static retryAfter(v: IpVerdict): number {
    return v.limitedBy === 'day' ? v.dayReset : v.minuteReset;
  }

  /** IETF draft RateLimit-Policy value (constant for a configuration). */
  policyHeader(): string {
    return `"minute";q=${this.limits.perMinute};w=60, "day";q=${this.limits.perDay};w=86400`;
  }

  static rateLimitHeader(v: IpVerdict): string {
    const rm = Math.max(0, v.limits.perMinute - v.minuteCount);
    const rd = Math.max(0, v.limits.perDay - v.dayCount);
    return `"minute";r=${rm};t=${v.minuteReset}, "day";r=${rd};t=${v.dayReset}`;
  }
}

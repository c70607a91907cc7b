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

interface Pending {
  ip: string;
  resolve(v: IpVerdict): void;
  reject(err: unknown): void;
}

export class IpLimiter {
  /** requests waiting for the next group commit (stores with hitIpMany) */
  private pending: Pending[] | null = null;

  constructor(
    private readonly store: ServiceStore,
    readonly limits: IpLimits,
    private readonly clock: Clock,
  ) {}

  private windows() {
    const now = this.clock().getTime();
    const minute = Math.floor(now / 60_000);
    const day = Math.floor(now / 86_400_000);
    const extra = {
      minuteReset: Math.max(1, Math.ceil(((minute + 1) * 60_000 - now) / 1000)),
      dayReset: Math.max(1, Math.ceil(((day + 1) * 86_400_000 - now) / 1000)),
      limits: this.limits,
    };
    return { w: { minute, day }, extra };
  }

  /**
   * Count one request of `ip` (or refuse it, uncounted). With a store that offers group commit, the
   * requests that arrive in one turn of the event loop are counted together at the end of it, in arrival
   * order, in one atomic step: each decision is the one it would have had alone, for one lock and one
   * commit per group instead of per request (the hot path's biggest cost).
   */
  check(ip: string): MaybePromise<IpVerdict> {
    if (this.store.hitIpMany) {
      return new Promise<IpVerdict>((resolve, reject) => {
        if (!this.pending) {
          this.pending = [];
          setImmediate(() => this.flush());
        }
        this.pending.push({ ip, resolve, reject });
      });
    }
    const { w, extra } = this.windows();
    const d = this.store.hitIp(ip, w, this.limits);
    return d instanceof Promise ? d.then((x) => ({ ...x, ...extra })) : { ...d, ...extra };
  }

  private flush(): void {
    const group = this.pending ?? [];
    this.pending = null;
    const { w, extra } = this.windows();
    let decisions: IpDecision[];
    try {
      decisions = this.store.hitIpMany!(group.map((p) => p.ip), w, this.limits);
    } catch (err) {
      for (const p of group) p.reject(err);
      return;
    }
    group.forEach((p, i) => p.resolve({ ...decisions[i]!, ...extra }));
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

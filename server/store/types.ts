/**
 * The service store: every piece of state the server shares between processes and instances (per-IP
 * counters; API keys and quota counters in the keyed API). One interface, one real implementation per
 * backend: SQLite (one machine, any number of processes) and PostgreSQL (several machines).
 *
 * Methods may answer synchronously (SQLite) or with a promise (PostgreSQL); callers `await` either.
 */
export type MaybePromise<T> = T | Promise<T>;

export interface IpLimits {
  perMinute: number;
  perDay: number;
}

/** The windows a request falls in: minute and UTC day numbers since the epoch. */
export interface IpWindows {
  minute: number;
  day: number;
}

export interface IpDecision {
  allowed: boolean;
  /** requests counted in the current minute / day (after this one, when allowed) */
  minuteCount: number;
  dayCount: number;
  /** when refused: which limit */
  limitedBy?: 'minute' | 'day';
}

export interface ServiceStore {
  readonly kind: 'sqlite' | 'postgres';
  /** Count one request of `ip` if it is within both limits (one atomic step); refuse it otherwise, uncounted. */
  hitIp(ip: string, windows: IpWindows, limits: IpLimits): MaybePromise<IpDecision>;
  /** Forget counters of days before `day`. */
  pruneIp(day: number): MaybePromise<void>;
  close(): MaybePromise<void>;
}

export class StoreUnavailableError extends Error {}

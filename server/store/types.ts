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

export interface ApiKeyRecord {
  id: number;
  key_prefix: string;
  plan_tier: string;
  subscription_status: string;
  label: string;
  created_at: string;
  revoked_at: string | null;
}

export interface NewApiKey {
  keyHash: string;
  keyPrefix: string;
  plan: string;
  status: string;
  label: string;
  createdAt: string;
}

/** Quota periods: the UTC day `YYYY-MM-DD` and month `YYYY-MM` a request falls in. */
export interface QuotaWindows {
  day: string;
  month: string;
}

export interface QuotaLimits {
  daily: number;
  monthly: number;
}

export interface QuotaDecision {
  allowed: boolean;
  /** requests counted today / this month (including this one when allowed) */
  dayCount: number;
  monthCount: number;
  limitedBy?: 'daily' | 'monthly';
}

/** What `identifyAndCount` found: the key, and the check-and-count decision when the key could be counted. */
export interface Identified {
  key: ApiKeyRecord;
  /** null: not counted, because the key is revoked or its subscription is not active */
  quota: QuotaDecision | null;
}

export class KeyNotFoundError extends Error {}

export interface ServiceStore {
  readonly kind: 'sqlite' | 'postgres';
  createKey(k: NewApiKey): MaybePromise<ApiKeyRecord>;
  findKeyByHash(keyHash: string): MaybePromise<ApiKeyRecord | null>;
  listKeys(): MaybePromise<ApiKeyRecord[]>;
  /** Change a key found by id or key_prefix. Throws KeyNotFoundError (unknown or ambiguous). */
  updateKey(ref: string, patch: { plan?: string; status?: string; revokedAt?: string }): MaybePromise<ApiKeyRecord>;
  /** Count one request against both quotas if it fits both (one atomic step); refuse it uncounted otherwise. */
  hitQuota(keyId: number, w: QuotaWindows, limits: QuotaLimits): MaybePromise<QuotaDecision>;
  /**
   * The keyed API's hot path in one step (one round trip on PostgreSQL): find the key by hash (null when
   * there is none) and, when it is neither revoked nor inactive, check-and-count it against its plan's
   * limits (`limits` by plan tier) exactly as `hitQuota` does.
   */
  identifyAndCount(keyHash: string, w: QuotaWindows, limits: Record<string, QuotaLimits>): MaybePromise<Identified | null>;
  /** Give back one counted request (a 5xx answer). */
  refundQuota(keyId: number, w: QuotaWindows): MaybePromise<void>;
  readQuota(keyId: number, w: QuotaWindows): MaybePromise<{ dayCount: number; monthCount: number }>;
  /** Count one request of `ip` if it is within both limits (one atomic step); refuse it otherwise, uncounted. */
  hitIp(ip: string, windows: IpWindows, limits: IpLimits): MaybePromise<IpDecision>;
  /**
   * Optional group commit: `hitIp` for each request in order, all in one atomic step (one transaction, so
   * one lock and one commit for the whole group). Each decision is exactly what `hitIp` would have given.
   */
  hitIpMany?(ips: string[], windows: IpWindows, limits: IpLimits): IpDecision[];
  /** Forget counters of days before `day`. */
  pruneIp(day: number): MaybePromise<void>;
  /** Optional health check run periodically while serving; throws StoreUnavailableError when unusable. */
  probe?(): MaybePromise<void>;
  close(): MaybePromise<void>;
}

export class StoreUnavailableError extends Error {}

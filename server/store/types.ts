/**
 * The service store: every piece of state the server shares between processes and instances (per-IP
 * counters; API keys and quota counters in the keyed API). One interface, one real implementation per
 * backend: SQLite (one machine, any number of processes) and PostgreSQL (several machines).
 *
 * Methods may answer synchronously (SQLite) or with a promise (PostgreSQL); callers `await` either.
 */
import type { OfferTerms } from '../../build/contract/offer-terms.ts';

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
  /** the request's time (ISO 8601 UTC, seconds): a counted request records it as the key's last use */
  at?: string;
}

/** A key with its use: last counted request, and requests counted today / this month (the quota counters). */
export interface KeyUsage extends ApiKeyRecord {
  last_used_at: string | null;
  used_today: number;
  used_this_month: number;
  /** the Stripe subscription the key belongs to, and its customer (null: a key made by hand) */
  subscription_id: string | null;
  customer_id: string | null;
}

/** Requests counted on one UTC day (`YYYY-MM-DD`): the usage history's points. */
export interface DailyUse {
  day: string;
  count: number;
}

/** The new key's hash and prefix (the key itself is never given to the store). */
export interface NextApiKey {
  keyHash: string;
  keyPrefix: string;
  createdAt: string;
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

/** Usage history is kept for 400 days: the first day kept when counters of days before `day` are pruned. */
export function historyHorizon(day: number): string {
  return new Date((day - 400) * 86_400_000).toISOString().slice(0, 10);
}

/** A key reference shorter than a whole prefix that starts `count` keys' prefixes (`keys revoke pcb_live_`). */
export function keyRefMessage(ref: string, count: number): string {
  return `${ref} is only the start of a key prefix: it matches ${count} key${count === 1 ? '' : 's'}; name one by its id or its whole 12-character prefix (physpay keys list shows both)`;
}

/** A change asked of a revoked key (its plan or status, or a rotation): revocation is final. */
export class KeyRevokedError extends Error {
  constructor(readonly key: ApiKeyRecord) {
    super(`API key ${key.key_prefix} (id ${key.id}) is revoked`);
  }
}

/** The stored state of a Stripe subscription (server/billing/apply.ts), and the billing webhook's step. */
export interface StoredSubscription {
  subscription_id: string;
  customer_id: string | null;
  plan_tier: string | null;
  plan_version: string | null;
  status: string | null;
  stripe_status: string | null;
  status_version: string | null;
  checkout_session_id: string | null;
}

export interface BillingStep<S extends StoredSubscription = StoredSubscription> {
  event: { id: string; type: string; receivedAt: string; subscriptionId: string | null };
  /** Pure: the new state (null: no change), the outcome in words, and whether to create the key. */
  decide?(current: S | null, hasKey: boolean): { next: S | null; outcome: string; createKey: boolean };
  /** the plan and status a subscription's keys carry (pure) */
  keyView?(s: S): { plan: string; status: string };
  /** the key to create when `decide` asks for one: its hash and prefix, and the key sealed for its one reveal */
  newKey?: { keyHash: string; keyPrefix: string; label: string; createdAt: string; sealed: string };
  /** the outcome stored for an event that is not acted on (no `decide`) */
  outcome?: string;
}

export interface BillingResult {
  /** the event id was recorded before: nothing was done */
  duplicate: boolean;
  outcome: string;
  /** the id of the key created */
  keyId?: number;
}

export interface BillingEventRecord {
  event_id: string;
  type: string;
  subscription_id: string | null;
  received_at: string;
  outcome: string;
}

/**
 * A physician's report sent through /contribute, checked with the importer's rules. The values are the
 * reports CSV's columns (README: Input files), as the importer would read them: specialty by its name in the
 * reference data, state as its two-letter code, dollars as numbers. The whole offer's values
 * (build/contract/offer-terms.ts) are present only when given, so a report without them is stored, and
 * fingerprinted, as before they existed. Both stores keep a report as JSON text: every field comes back.
 */
export interface IntakeReport extends Partial<OfferTerms> {
  specialty: string;
  state: string;
  year: number;
  total_compensation: number;
  base_salary: number | null;
  bonus: number | null;
  hours_per_week: number | null;
  years_in_practice: number | null;
  practice_setting: string | null;
  employment_type: string | null;
  wrvus: number | null;
}

/** What the moderator is shown about how a submission arrived (abuse review). */
export interface IntakeSignals {
  /** `pow`: the proof-of-work challenge was solved (JavaScript); `form`: the no-JavaScript form (signed token, minimum fill time) */
  challenge: 'pow' | 'form';
  /** seconds from the form being served to the submission */
  seconds_to_submit: number | null;
  /** the submission's number among its client's submissions that UTC day (1 = first) */
  client_submissions_today: number;
  /** how many earlier submissions carried the same report (same fingerprint) from other clients */
  same_report_elsewhere: number;
}

export interface NewSubmission {
  /** a random id (UUID): the submission's reference in the reports DB */
  id: string;
  report: IntakeReport;
  /** the importer's report fingerprint (build/db/fingerprint.ts) */
  fingerprint: string;
  /** HMAC of the client address under the day's salt: never the address itself */
  clientHash: string;
  /** UTC day of the submission, `YYYY-MM-DD` */
  day: string;
  received_at: string;
  challenge: IntakeSignals['challenge'];
  /**
   * What the report spent: the solved proof-of-work challenge's signature, or on the form path without
   * JavaScript `form:` and its token's nonce. One stored report each (null: nothing to spend).
   */
  challengeSignature: string | null;
  seconds_to_submit: number | null;
}

/** A submission waiting in the service store for `physpay import submissions`. */
export interface PendingSubmission {
  id: string;
  report: IntakeReport;
  fingerprint: string;
  received_at: string;
  signals: IntakeSignals;
}

/** The daily limits a submission is checked against (counted per UTC day, in the store: shared by every process). */
export interface IntakeLimits {
  /** submissions one client (its address hash) may store a day */
  perClient: number;
  /** submissions without a proof of work (the form without JavaScript) the whole site stores a day */
  withoutProofPerDay: number;
}

export interface SubmitResult {
  /**
   * stored; refused by the per-client daily limit; already sent by this same client; its challenge or form
   * token already spent; or (without a proof of work) the site's daily budget for those used up. Nothing is
   * stored unless `stored`.
   */
  outcome: 'stored' | 'limited' | 'repeat' | 'spent' | 'budget';
  /** the client's submissions counted today, this one included when stored */
  clientCount: number;
}

/**
 * OAuth (server/oauth/): a client registered by an assistant (RFC 7591, public: no secret), an authorization
 * code waiting for its exchange, and an access or refresh token. Codes and tokens are stored by their SHA-256
 * hash only, with the API key they stand for sealed under the code or token itself (server/oauth/crypto.ts);
 * every one belongs to an API key, and a revoked key's tokens are refused (`key_revoked_at`). Times are ISO
 * 8601 UTC with milliseconds (`Date.toISOString()`), so they compare as strings.
 */
export interface OAuthClientRecord {
  client_id: string;
  client_name: string;
  redirect_uris: string[];
  created_at: string;
}

export interface OAuthCodeRecord {
  client_id: string;
  key_id: number;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  sealed: string;
  expires_at: string;
}

export interface OAuthTokenRecord {
  token_hash: string;
  kind: 'access' | 'refresh';
  /** the tokens issued from one approval, through every refresh: revoked together */
  grant_id: string;
  client_id: string;
  key_id: number;
  resource: string;
  sealed: string;
  expires_at: string;
}

export interface FoundOAuthToken extends OAuthTokenRecord {
  /** a refresh token already exchanged (rotation): presenting it again revokes its grant */
  used_at: string | null;
  /** the API key's revocation time (a rotated key is revoked too) */
  key_revoked_at: string | null;
}

/** One approval still in force (an assistant connected with a key): its client and its newest refresh token's expiry. */
export interface OAuthGrantSummary {
  grant_id: string;
  client_id: string;
  client_name: string;
  redirect_uris: string[];
  /** when its newest unspent refresh token expires (each refresh issues one, valid for 30 days) */
  expires_at: string;
}

export interface ServiceStore {
  readonly kind: 'sqlite' | 'postgres';
  createKey(k: NewApiKey): MaybePromise<ApiKeyRecord>;
  findKeyByHash(keyHash: string): MaybePromise<ApiKeyRecord | null>;
  listKeys(): MaybePromise<ApiKeyRecord[]>;
  /** Every key with its last use and its counts in the windows `w` (the same rule as readQuota). */
  listKeyUsage(w: QuotaWindows): MaybePromise<KeyUsage[]>;
  /**
   * Change a key found by id or key_prefix. Throws KeyNotFoundError (unknown or ambiguous), and
   * KeyRevokedError when a plan or status is asked of a revoked key (revoking again keeps the first time).
   */
  updateKey(ref: string, patch: { plan?: string; status?: string; revokedAt?: string }): MaybePromise<ApiKeyRecord>;
  /**
   * One atomic step: a new key for the same account as the key found by id or key_prefix (same plan,
   * status, label and subscription; its quota counts of the current periods and its usage history carry over), and that key revoked at
   * `revokedAt`. Throws KeyNotFoundError, or KeyRevokedError when the key is already revoked.
   */
  rotateKey(ref: string, next: NextApiKey, revokedAt: string): MaybePromise<{ old: ApiKeyRecord; key: ApiKeyRecord }>;
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
  /**
   * Requests counted per UTC day from `fromDay` to `toDay` (inclusive, `YYYY-MM-DD`), days without any left
   * out, oldest first. A day's count is kept when the key's quota counter moves on to a newer day (a store
   * trigger, so the hot path writes nothing more); the counter's own day is read from the counter. A rotated
   * key's history carries over to its successor, like its quota counts.
   */
  usageHistory(keyId: number, fromDay: string, toDay: string): MaybePromise<DailyUse[]>;
  /** Count one request of `ip` if it is within both limits (one atomic step); refuse it otherwise, uncounted. */
  hitIp(ip: string, windows: IpWindows, limits: IpLimits): MaybePromise<IpDecision>;
  /**
   * Optional group commit: `hitIp` for each request in order, all in one atomic step (one transaction, so
   * one lock and one commit for the whole group). Each decision is exactly what `hitIp` would have given.
   */
  hitIpMany?(ips: string[], windows: IpWindows, limits: IpLimits): IpDecision[];
  /**
   * The billing webhook's one transaction: record the event id (a duplicate does nothing more and is
   * answered as such), then read the subscription's state (locked), apply `decide`, store the new state,
   * give its plan and status to the subscription's keys that are not revoked, create the key when asked
   * (kept sealed for one reveal under its checkout session id) and store the outcome with the event.
   */
  applyBillingEvent(step: BillingStep): MaybePromise<BillingResult>;
  /** The newest billing events first (at most `limit`). */
  listBillingEvents(limit: number): MaybePromise<BillingEventRecord[]>;
  getSubscription(subscriptionId: string): MaybePromise<StoredSubscription | null>;
  /** The sealed key waiting under a checkout session id, deleted as it is read (shown once); null when none. */
  takeKeyReveal(checkoutSessionId: string): MaybePromise<{ key_id: number; sealed: string } | null>;
  /** Was a checkout with this session id recorded (a subscription started by it)? The welcome page's second visit. */
  hasCheckoutSession(checkoutSessionId: string): MaybePromise<boolean>;
  /**
   * One atomic step: refuse when its solved challenge or form token was already used for a stored report
   * (`spent`), when this client (its hash) already stored the same report (`repeat`: the same values, whenever
   * sent, also after it was taken into a reports DB; repeat-key.ts), or has
   * `limits.perClient` submissions today (`limited`), or when it has no proof of work and the site stored
   * `limits.withoutProofPerDay` such submissions today (`budget`); otherwise store it (pending import), count
   * it, and record how many other clients sent the same report before (a signal for the moderator, never told
   * to the sender).
   */
  submitReport(s: NewSubmission, limits: IntakeLimits): MaybePromise<SubmitResult>;
  /** Submissions not taken into a reports DB yet, oldest first (at most `limit`). */
  pendingSubmissions(limit: number): MaybePromise<PendingSubmission[]>;
  /** How many submissions are waiting (not taken into a reports DB yet): /metrics' physpay_intake_queue_depth. */
  pendingSubmissionCount(): MaybePromise<number>;
  /**
   * Mark submissions taken into the reports DB (import batch `batchId`) and drop their client hashes (the
   * repeat check's digest of client and report stays).
   * Submissions already taken are left as they are; answers how many were marked now.
   */
  markSubmissionsTaken(ids: string[], batchId: number, takenAt: string): MaybePromise<number>;
  /** A secret generated once per service store and shared by every process using it (form tokens, challenges, client hashes). */
  intakeSecret(): MaybePromise<string>;
  registerOAuthClient(c: OAuthClientRecord): MaybePromise<void>;
  findOAuthClient(clientId: string): MaybePromise<OAuthClientRecord | null>;
  saveOAuthCode(codeHash: string, c: OAuthCodeRecord): MaybePromise<void>;
  /** The code stored under `codeHash`, deleted as it is read (one atomic step: a code is exchanged once at most); null when none. */
  takeOAuthCode(codeHash: string): MaybePromise<OAuthCodeRecord | null>;
  saveOAuthTokens(tokens: OAuthTokenRecord[]): MaybePromise<void>;
  findOAuthToken(tokenHash: string): MaybePromise<FoundOAuthToken | null>;
  /**
   * One atomic step: mark the refresh token `tokenHash` used at `usedAt` and store `next`, only if it was not
   * used before. False (nothing stored) when it was: the caller revokes the grant (a refresh token replayed).
   */
  rotateOAuthRefresh(tokenHash: string, usedAt: string, next: OAuthTokenRecord[]): MaybePromise<boolean>;
  /** Delete every token of a grant. */
  revokeOAuthGrant(grantId: string): MaybePromise<void>;
  /** The approvals of key `keyId` with an unspent refresh token that has not expired at `now`, newest first. */
  listOAuthGrants(keyId: number, now: string): MaybePromise<OAuthGrantSummary[]>;
  /** End grant `grantId` if it belongs to key `keyId`; false when it does not (or is gone already). */
  revokeOAuthGrantOfKey(grantId: string, keyId: number): MaybePromise<boolean>;
  /**
   * Forget per-IP counters of days before `day` (days since the epoch), usage history older than 400 days before it,
   * OAuth codes and tokens expired before that day began, and OAuth clients registered over 90 days before it that hold none.
   */
  pruneIp(day: number): MaybePromise<void>;
  /** Optional health check run periodically while serving; throws StoreUnavailableError when unusable. */
  probe?(): MaybePromise<void>;
  close(): MaybePromise<void>;
}

export class StoreUnavailableError extends Error {}

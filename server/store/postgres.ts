/**
 * Service store on PostgreSQL: several server instances on several machines share it. Each
 * check-and-count is one INSERT ... ON CONFLICT DO UPDATE ... WHERE ... RETURNING, atomic under the row lock.
 */
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { oauthPruneTimes, pendingOf, quotaRefusal, refusal, type StoreEvents, type SubmissionRow } from './sqlite.ts';
import { repeatKey } from './repeat-key.ts';
import {
  historyHorizon, KeyNotFoundError, keyRefMessage, KeyRevokedError, StoreUnavailableError,
  type ApiKeyRecord, type BillingEventRecord, type BillingResult, type BillingStep, type DailyUse, type IntakeLimits, type NewSubmission, type PendingSubmission, type SubmitResult, type StoredSubscription, type Identified, type IpDecision, type IpLimits, type IpWindows, type KeyUsage, type NewApiKey, type NextApiKey, type QuotaDecision, type QuotaLimits, type QuotaWindows, type ServiceStore,
  type FoundOAuthToken, type OAuthClientRecord, type OAuthCodeRecord, type OAuthTokenRecord, type OAuthGrantSummary,
} from './types.ts';

const MIGRATIONS: { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `CREATE TABLE IF NOT EXISTS ip_counters (
      ip           TEXT PRIMARY KEY,
      minute       BIGINT NOT NULL,
      minute_count INTEGER NOT NULL,
      day          INTEGER NOT NULL,
      day_count    INTEGER NOT NULL
    )`,
  },
  {
    version: 2,
    sql: `CREATE TABLE IF NOT EXISTS api_keys (
      id                  BIGSERIAL PRIMARY KEY,
      key_hash            TEXT NOT NULL UNIQUE,
      key_prefix          TEXT NOT NULL,
      plan_tier           TEXT NOT NULL,
      subscription_status TEXT NOT NULL,
      label               TEXT NOT NULL DEFAULT '',
      created_at          TEXT NOT NULL,
      revoked_at          TEXT
    );
    CREATE INDEX IF NOT EXISTS api_keys_prefix ON api_keys (key_prefix);
    CREATE TABLE IF NOT EXISTS quota_usage (
      key_id      BIGINT PRIMARY KEY REFERENCES api_keys(id),
      day         TEXT NOT NULL,
      day_count   INTEGER NOT NULL,
      month       TEXT NOT NULL,
      month_count INTEGER NOT NULL
    )`,
  },
  {
    // the time of the key's last counted request (ISO 8601 UTC), written by the same statement as the counts
    version: 3,
    sql: 'ALTER TABLE quota_usage ADD COLUMN IF NOT EXISTS last_used_at TEXT',
  },
  {
    // the store's kind (the SQLite store's application_id 'PPSV'): a marker a tool or person can check
    version: 4,
    sql: "COMMENT ON TABLE service_migrations IS 'physpay service store (PPSV): API keys, quotas, per-IP counters'",
  },
  {
    // billing (Stripe): the subscription a key belongs to, subscriptions' states, events received once each,
    // and keys waiting for their one reveal after a checkout
    version: 5,
    sql: `ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS subscription_id TEXT;
    CREATE INDEX IF NOT EXISTS api_keys_subscription ON api_keys (subscription_id);
    CREATE TABLE IF NOT EXISTS billing_subscriptions (
      subscription_id     TEXT PRIMARY KEY,
      customer_id         TEXT,
      plan_tier           TEXT,
      plan_version        TEXT,
      status              TEXT,
      stripe_status       TEXT,
      status_version      TEXT,
      checkout_session_id TEXT,
      updated_at          TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS billing_events (
      seq             BIGSERIAL UNIQUE,
      event_id        TEXT PRIMARY KEY,
      type            TEXT NOT NULL,
      subscription_id TEXT,
      received_at     TEXT NOT NULL,
      outcome         TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS billing_events_received ON billing_events (received_at);
    CREATE TABLE IF NOT EXISTS key_reveals (
      checkout_session_id TEXT PRIMARY KEY,
      key_id              BIGINT NOT NULL REFERENCES api_keys(id),
      sealed              TEXT NOT NULL,
      created_at          TEXT NOT NULL
    )`,
  },
  {
    // the usage history (GET /api/v1/me/usage/history): a day's count is copied out of quota_usage when the
    // counter moves on to a newer day, by a trigger, so the quota's hot statement stays one round trip; and
    // the welcome page's lookup of a checkout session by its id
    version: 6,
    sql: `CREATE TABLE IF NOT EXISTS usage_daily (
      key_id BIGINT NOT NULL,
      day    TEXT NOT NULL,
      count  INTEGER NOT NULL,
      PRIMARY KEY (key_id, day)
    );
    CREATE OR REPLACE FUNCTION physpay_usage_day_closed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO usage_daily (key_id, day, count) VALUES (OLD.key_id, OLD.day, OLD.day_count)
        ON CONFLICT (key_id, day) DO UPDATE SET count = excluded.count;
      RETURN NULL;
    END $$;
    DROP TRIGGER IF EXISTS quota_usage_day_closed ON quota_usage;
    CREATE TRIGGER quota_usage_day_closed AFTER UPDATE OF day ON quota_usage
      FOR EACH ROW WHEN (NEW.day > OLD.day) EXECUTE FUNCTION physpay_usage_day_closed();
    CREATE INDEX IF NOT EXISTS billing_subscriptions_checkout ON billing_subscriptions (checkout_session_id)`,
  },
  {
    // physicians' submissions (/contribute) waiting for `physpay import submissions`, each client's
    // submissions per UTC day (the per-client limit), and secrets shared by every instance of this store
    version: 7,
    sql: `CREATE TABLE IF NOT EXISTS intake_submissions (
      id                       TEXT PRIMARY KEY,
      report                   TEXT NOT NULL,
      fingerprint              TEXT NOT NULL,
      client_hash              TEXT,
      day                      TEXT NOT NULL,
      received_at              TEXT NOT NULL,
      challenge                TEXT NOT NULL,
      seconds_to_submit        INTEGER,
      client_submissions_today INTEGER NOT NULL,
      same_report_elsewhere    INTEGER NOT NULL,
      challenge_signature      TEXT UNIQUE,
      taken_at                 TEXT,
      batch_id                 BIGINT
    );
    CREATE INDEX IF NOT EXISTS intake_pending ON intake_submissions (taken_at, received_at);
    CREATE INDEX IF NOT EXISTS intake_fingerprint ON intake_submissions (fingerprint, client_hash);
    CREATE TABLE IF NOT EXISTS intake_clients (
      client_hash TEXT NOT NULL,
      day         TEXT NOT NULL,
      count       INTEGER NOT NULL,
      PRIMARY KEY (client_hash, day)
    );
    CREATE TABLE IF NOT EXISTS service_secrets (
      name  TEXT PRIMARY KEY,
      value TEXT NOT NULL
    )`,
  },
  {
    // the site-wide daily budget of submissions without a proof of work counts them by day
    version: 8,
    sql: 'CREATE INDEX IF NOT EXISTS intake_day_challenge ON intake_submissions (day, challenge)',
  },
  {
    // the repeat check outlives the import: a digest of client and report (repeat-key.ts), kept when the
    // client hash is dropped
    version: 9,
    sql: `ALTER TABLE intake_submissions ADD COLUMN IF NOT EXISTS repeat_key TEXT;
    CREATE INDEX IF NOT EXISTS intake_repeat ON intake_submissions (repeat_key)`,
  },
  {
    // rows stored before: those still holding their client hash get their digest (taken ones have none left)
    version: 10,
    sql: `UPDATE intake_submissions SET repeat_key = encode(sha256(convert_to(client_hash || E'\\n' || fingerprint, 'UTF8')), 'hex')
      WHERE repeat_key IS NULL AND client_hash IS NOT NULL`,
  },
  {
    // OAuth for assistants (server/oauth/): registered clients, codes waiting for their exchange, tokens;
    // codes and tokens by hash, each bound to an API key
    version: 11,
    sql: `CREATE TABLE IF NOT EXISTS oauth_clients (
      client_id     TEXT PRIMARY KEY,
      client_name   TEXT NOT NULL,
      redirect_uris TEXT NOT NULL,
      created_at    TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS oauth_codes (
      code_hash      TEXT PRIMARY KEY,
      client_id      TEXT NOT NULL,
      key_id         BIGINT NOT NULL REFERENCES api_keys(id),
      redirect_uri   TEXT NOT NULL,
      code_challenge TEXT NOT NULL,
      resource       TEXT NOT NULL,
      sealed         TEXT NOT NULL,
      expires_at     TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS oauth_tokens (
      token_hash TEXT PRIMARY KEY,
      kind       TEXT NOT NULL,
      grant_id   TEXT NOT NULL,
      client_id  TEXT NOT NULL,
      key_id     BIGINT NOT NULL REFERENCES api_keys(id),
      resource   TEXT NOT NULL,
      sealed     TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      used_at    TEXT
    );
    CREATE INDEX IF NOT EXISTS oauth_tokens_grant ON oauth_tokens (grant_id);
    CREATE INDEX IF NOT EXISTS oauth_tokens_expiry ON oauth_tokens (expires_at);
    CREATE INDEX IF NOT EXISTS oauth_tokens_client ON oauth_tokens (client_id)`,
  },
];


const SUB_COLUMNS = 'subscription_id, customer_id, plan_tier, plan_version, status, stripe_status, status_version, checkout_session_id';

/**
 * The check-and-count rule of hitQuota and identifyAndCount: count into the newest period (periods only move
 * forward), and only when both counts stay within their limits (SQL expressions, so they can come from the
 * statement). Atomic under the row lock: ON CONFLICT DO UPDATE always sees the latest committed row.
 */
const QUOTA_ON_CONFLICT = (daily: string, monthly: string) => `ON CONFLICT (key_id) DO UPDATE SET
         day_count = CASE WHEN excluded.day > q.day THEN 1 ELSE q.day_count + 1 END,
         day = GREATEST(q.day, excluded.day),
         month_count = CASE WHEN excluded.month > q.month THEN 1 ELSE q.month_count + 1 END,
         month = GREATEST(q.month, excluded.month),
         last_used_at = GREATEST(q.last_used_at, excluded.last_used_at)
       WHERE (CASE WHEN excluded.day > q.day THEN 0 ELSE q.day_count END) < ${daily}
         AND (CASE WHEN excluded.month > q.month THEN 0 ELSE q.month_count END) < ${monthly}
       RETURNING day_count, month_count`;

/** The plan limits as the jsonb parameter of identifyAndCount, `{"tier": [daily, monthly]}`, made once per limits object. */
const tiersJson = new WeakMap<Record<string, QuotaLimits>, string>();
function tiersParam(limits: Record<string, QuotaLimits>): string {
  let json = tiersJson.get(limits);
  if (json === undefined) tiersJson.set(limits, (json = JSON.stringify(Object.fromEntries(Object.entries(limits).map(([t, l]) => [t, [l.daily, l.monthly]])))));
  return json;
}

const KEY_COLUMNS = 'id::int AS id, key_prefix, plan_tier, subscription_status, label, created_at, revoked_at';

/**
 * Give a connection back after a failed transaction: a broken or silent one is dropped (the server rolls
 * back), never reused nor waited on again; a healthy one is rolled back and returned to the pool.
 */
async function releaseAfterFailure(client: pg.PoolClient, err: unknown): Promise<void> {
  if (pgFailure(err)) {
    client.release(err as Error);
    return;
  }
  await client.query('ROLLBACK').catch(() => {});
  client.release();
}

/** The one key named by id or key_prefix, its row locked until the transaction ends. */
async function keyByRef(c: pg.PoolClient, ref: string): Promise<ApiKeyRecord> {
  const found = await c.query<ApiKeyRecord>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1 OR key_prefix = $2 FOR UPDATE`, [/^\d+$/.test(ref) ? Number(ref) : -1, ref]);
  if (found.rows.length === 0 && !/^\d+$/.test(ref)) {
    // a shorter prefix (`pcb_live_`) names the keys whose prefix starts with it
    const like = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE left(key_prefix, $1) = $2', [ref.length, ref]);
    if (like.rows[0]!.n > 0) throw new KeyNotFoundError(keyRefMessage(ref, like.rows[0]!.n));
  }
  if (found.rows.length !== 1) throw new KeyNotFoundError(found.rows.length === 0 ? `no API key ${ref}` : `${ref} matches ${found.rows.length} keys; use the id`);
  return found.rows[0]!;
}

/**
 * How a PostgreSQL failure is answered: `down` (the store cannot read or commit: refused, reset or timed-out
 * connections, a statement that ran out of time, a server refusing new sessions, a read-only server) is an
 * outage: 503, /readyz not ready, reported once; `busy` (no free connection in the pool within the wait:
 * more concurrent requests than connections, the store itself working) is 503 only; null is a bug (500).
 */
export function pgFailure(err: unknown): 'down' | 'busy' | null {
  const code = (err as { code?: string }).code ?? '';
  const message = (err as Error).message ?? '';
  // pg-pool: waited connectionTimeoutMillis in the pool's queue without getting a connection
  if (/timeout exceeded when trying to connect/i.test(message)) return 'busy';
  if (['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)) return 'down';
  // 08: connection exception; 57P0x: the server shutting down or starting; 57014: statement_timeout (the
  // statement was cancelled and rolled back); 53: insufficient resources (disk full, too many connections);
  // 25006: a read-only server (a standby); 28 and 3D000: a new session refused (credentials, database)
  if (/^(08|53|28)/.test(code) || ['57P01', '57P02', '57P03', '57014', '25006', '3D000'].includes(code)) return 'down';
  return /Connection terminated|connection timeout|Query read timeout|Client has encountered a connection error|Connection ended unexpectedly|not queryable/i.test(message) ? 'down' : null;
}

/** Errors that mean "the database is not usable right now" (answer 503, retry later). */
export function isConnectionError(err: unknown): boolean {
  return pgFailure(err) !== null;
}

/**
 * The pool and its time bounds, from the --service-db URL's query (README: Operations). A store step waits
 * at most `connect_timeout` for a connection (a new one, or a free one from the pool), PostgreSQL cancels a
 * statement after `statement_timeout` (rolled back: nothing counted), and the client gives up on an answer
 * after `query_timeout` (a server or network that stopped answering). query_timeout stays above
 * statement_timeout so that a slow statement is cancelled by the server, uncounted, before the client stops
 * waiting for it.
 */
export interface PostgresSettings {
  /** connections per process (`pool_max`) */
  poolMax: number;
  /** `connect_timeout`, given in seconds as in libpq (decimals allowed) */
  connectTimeoutMs: number;
  /** `statement_timeout`, ms; 0: none */
  statementTimeoutMs: number;
  /** `query_timeout`, ms; 0: none */
  queryTimeoutMs: number;
}

export const PG_DEFAULTS: PostgresSettings = { poolMax: 10, connectTimeoutMs: 3_000, statementTimeoutMs: 3_000, queryTimeoutMs: 5_000 };

/** The settings named in the URL's query, over the defaults; a bad value is refused with one sentence. */
export function postgresSettings(url: string): PostgresSettings {
  let q: URLSearchParams;
  try {
    q = new URL(url).searchParams;
  } catch {
    return { ...PG_DEFAULTS };
  }
  const num = (name: string, rule: string, ok: (n: number) => boolean): number | undefined => {
    const raw = q.get(name);
    if (raw === null) return undefined;
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || !ok(n)) throw new Error(`${name} must be ${rule} (got ${JSON.stringify(raw.slice(0, 40))})`);
    return n;
  };
  const poolMax = num('pool_max', 'a whole number from 1 to 1000', (n) => Number.isInteger(n) && n >= 1 && n <= 1000);
  const connect = num('connect_timeout', 'a number of seconds above 0 and at most 600', (n) => n > 0 && n <= 600);
  const statement = num('statement_timeout', 'a whole number of milliseconds (0: none)', (n) => Number.isInteger(n) && n >= 0);
  const query = num('query_timeout', 'a whole number of milliseconds (0: none)', (n) => Number.isInteger(n) && n >= 0);
  const statementTimeoutMs = statement ?? PG_DEFAULTS.statementTimeoutMs;
  // by default the client waits 2 s longer than the server lets a statement run
  const queryTimeoutMs = query ?? (statementTimeoutMs === 0 ? PG_DEFAULTS.queryTimeoutMs : statementTimeoutMs + 2_000);
  if (queryTimeoutMs !== 0 && statementTimeoutMs !== 0 && queryTimeoutMs <= statementTimeoutMs) {
    throw new Error(`query_timeout (${queryTimeoutMs} ms) must be above statement_timeout (${statementTimeoutMs} ms), or 0: a statement still running when the client gives up could be counted for a request answered 503`);
  }
  return {
    poolMax: poolMax ?? PG_DEFAULTS.poolMax,
    connectTimeoutMs: connect === undefined ? PG_DEFAULTS.connectTimeoutMs : Math.round(connect * 1000),
    statementTimeoutMs,
    queryTimeoutMs,
  };
}

const OWN_PARAMS = ['pool_max', 'connect_timeout', 'statement_timeout', 'query_timeout'];

/**
 * The URL for pg without the settings above (given to pg as numbers instead: pg would otherwise take
 * them from the URL as strings, and a `query_timeout=0` string would time every query out at once).
 * A URL without them is passed on as written.
 */
function pgConnectionString(url: string): string {
  try {
    const u = new URL(url);
    if (!OWN_PARAMS.some((p) => u.searchParams.has(p))) return url;
    for (const p of OWN_PARAMS) u.searchParams.delete(p);
    return String(u).replace(/\?$/, '');
  } catch {
    return url;
  }
}

/** The store named in messages: host, port and database (never the user's password or the query). */
function storeName(url: string): string {
  try {
    const u = new URL(url);
    return `PostgreSQL ${u.hostname || 'localhost'}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

/** A failure for the log: pg's message, with the cause of a connection timeout and the error code. */
function describeFailure(err: unknown): string {
  const e = err as Error & { code?: string; cause?: Error & { code?: string } };
  const cause = e.cause?.message && !e.message.includes(e.cause.message) ? ` (${e.cause.message})` : '';
  const code = e.code && !e.message.includes(e.code) ? ` [${e.code}]` : '';
  return `${e.message}${cause}${code}`.replace(/postgres(ql)?:\/\/\S*/gi, '[url]');
}

export interface PostgresStoreOptions extends Partial<PostgresSettings> {
  events?: StoreEvents;
}

export async function migratePostgres(pool: pg.Pool, extra: { version: number; sql: string }[] = []): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(727274)'); // one migrator at a time
    await client.query('CREATE TABLE IF NOT EXISTS service_migrations (version INTEGER PRIMARY KEY)');
    const done = new Set((await client.query<{ version: number }>('SELECT version FROM service_migrations')).rows.map((r) => r.version));
    for (const m of [...MIGRATIONS, ...extra].sort((a, b) => a.version - b.version)) {
      if (done.has(m.version)) continue;
      await client.query(m.sql);
      await client.query('INSERT INTO service_migrations (version) VALUES ($1)', [m.version]);
    }
    await client.query('COMMIT');
  } catch (err) {
    await releaseAfterFailure(client, err);
    throw err;
  }
  client.release();
}

export class PostgresServiceStore implements ServiceStore {
  readonly kind = 'postgres' as const;
  readonly pool: pg.Pool;
  readonly settings: PostgresSettings;
  private readonly name: string;
  private readonly events: StoreEvents;
  /** an outage was reported (events.onFault) and no store step has succeeded since */
  private faulted = false;
  /** counts recoveries: a step that started before the last one cannot open a new outage */
  private epoch = 0;
  private probing: Promise<void> | null = null;

  /** `options`: the pool size (a number, as tests give it), or settings over those of the URL, and the events. */
  constructor(url: string, options: number | PostgresStoreOptions = {}) {
    const o: PostgresStoreOptions = typeof options === 'number' ? { poolMax: options } : options;
    const { events, ...explicit } = o;
    this.settings = { ...postgresSettings(url), ...Object.fromEntries(Object.entries(explicit).filter(([, v]) => v !== undefined)) };
    this.events = events ?? {};
    this.name = storeName(url);
    const s = this.settings;
    // synchronous_commit=off: a counter update is visible to every instance as soon as it commits, and
    // survives any crash of physpay itself; only a crash of the PostgreSQL server within its WAL writer
    // delay (~0.6 s) could lose the newest counts. It takes a disk flush (~1 ms here) off every request.
    this.pool = new pg.Pool({
      connectionString: pgConnectionString(url), max: s.poolMax, connectionTimeoutMillis: s.connectTimeoutMs, idleTimeoutMillis: 30_000,
      options: '-c synchronous_commit=off',
      ...(s.statementTimeoutMs > 0 ? { statement_timeout: s.statementTimeoutMs } : {}),
      ...(s.queryTimeoutMs > 0 ? { query_timeout: s.queryTimeoutMs } : {}),
    });
    // An idle client losing its connection (e.g. a database restart) must not crash the process; the probe
    // and the next store step notice an outage.
    this.pool.on('error', () => {});
  }

  static async open(url: string, extra: { version: number; sql: string }[] = [], options: PostgresStoreOptions = {}): Promise<PostgresServiceStore> {
    const store = new PostgresServiceStore(url, options);
    try {
      await migratePostgres(store.pool, extra);
    } catch (err) {
      await store.close().catch(() => {});
      throw err;
    }
    return store;
  }

  /**
   * Run one store step. A failure that means the store cannot serve becomes a StoreUnavailableError (the
   * request is answered 503 with Retry-After, never served uncounted); an outage (not a full pool) is
   * reported once through events.onFault, and the first step that succeeds after it through onRecover,
   * as the SQLite store does.
   */
  private async step<T>(run: () => Promise<T>): Promise<T> {
    const epoch = this.epoch;
    let out: T;
    try {
      out = await run();
    } catch (err) {
      const failure = pgFailure(err);
      if (!failure) throw err;
      if (failure === 'busy') {
        throw new StoreUnavailableError(`service store busy: no free connection of ${this.settings.poolMax} within ${this.settings.connectTimeoutMs} ms`, { cause: err });
      }
      const message = `${this.name}: ${describeFailure(err)}`;
      if (!this.faulted && epoch === this.epoch) {
        this.faulted = true;
        this.events.onFault?.(message);
      }
      throw new StoreUnavailableError(`service store unavailable: ${message}`, { cause: err });
    }
    if (this.faulted) {
      this.faulted = false;
      this.epoch++;
      this.events.onRecover?.();
    }
    return out;
  }

  /**
   * Run a query, mapping failures to StoreUnavailableError. A `name` makes it a prepared
   * statement (parsed and planned once per connection): used for the statements on the request path.
   */
  async query<R extends pg.QueryResultRow>(sql: string, params: unknown[], name?: string): Promise<pg.QueryResult<R>> {
    return this.step(() => this.pool.query<R>(name ? { name, text: sql, values: params } : { text: sql, values: params }));
  }

  /**
   * Periodic health check (every second while serving): one trivial query through the pool, so an outage
   * is noticed, and its end, without waiting for a request. At most one runs at a time.
   */
  probe(): Promise<void> {
    this.probing ??= this.query('SELECT 1', [], 'physpay_probe').then(
      () => {
        this.probing = null;
      },
      (err: unknown) => {
        this.probing = null;
        throw err;
      },
    );
    return this.probing;
  }

  async hitIp(ip: string, w: IpWindows, limits: IpLimits): Promise<IpDecision> {
    const res = await this.query<{ minute_count: number; day_count: number }>(
      `INSERT INTO ip_counters AS c (ip, minute, minute_count, day, day_count) VALUES ($1, $2, 1, $3, 1)
       ON CONFLICT (ip) DO UPDATE SET
         minute_count = CASE WHEN c.minute = excluded.minute THEN c.minute_count + 1 ELSE 1 END,
         minute = excluded.minute,
         day_count = CASE WHEN c.day = excluded.day THEN c.day_count + 1 ELSE 1 END,
         day = excluded.day
       WHERE (CASE WHEN c.minute = excluded.minute THEN c.minute_count ELSE 0 END) < $4
         AND (CASE WHEN c.day = excluded.day THEN c.day_count ELSE 0 END) < $5
       RETURNING minute_count, day_count`,
      [ip, w.minute, w.day, limits.perMinute, limits.perDay],
      'physpay_hit_ip',
    );
    const row = res.rows[0];
    if (row) return { allowed: true, minuteCount: row.minute_count, dayCount: row.day_count };
    const cur = await this.query<{ minute: string; minute_count: number; day: number; day_count: number }>(
      'SELECT minute, minute_count, day, day_count FROM ip_counters WHERE ip = $1',
      [ip],
    );
    const r = cur.rows[0]!;
    return refusal({ ...r, minute: Number(r.minute) }, w, limits);
  }

  async createKey(k: NewApiKey): Promise<ApiKeyRecord> {
    const r = await this.query<ApiKeyRecord>(
      `INSERT INTO api_keys (key_hash, key_prefix, plan_tier, subscription_status, label, created_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${KEY_COLUMNS}`,
      [k.keyHash, k.keyPrefix, k.plan, k.status, k.label, k.createdAt],
    );
    return r.rows[0]!;
  }

  async findKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const r = await this.query<ApiKeyRecord>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = $1`, [keyHash], 'physpay_find_key');
    return r.rows[0] ?? null;
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    return (await this.query<ApiKeyRecord>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY id`, [])).rows;
  }

  async listKeyUsage(w: QuotaWindows): Promise<KeyUsage[]> {
    const r = await this.query<KeyUsage>(
      `SELECT ${KEY_COLUMNS.split(', ').map((c) => `k.${c}`).join(', ')}, q.last_used_at,
         CASE WHEN q.day >= $1 THEN q.day_count ELSE 0 END AS used_today,
         CASE WHEN q.month >= $2 THEN q.month_count ELSE 0 END AS used_this_month,
         k.subscription_id, b.customer_id
       FROM api_keys k LEFT JOIN quota_usage q ON q.key_id = k.id
         LEFT JOIN billing_subscriptions b ON b.subscription_id = k.subscription_id ORDER BY k.id`,
      [w.day, w.month],
    );
    return r.rows;
  }

  async updateKey(ref: string, patch: { plan?: string; status?: string; revokedAt?: string }): Promise<ApiKeyRecord> {
    const changes = patch.plan !== undefined || patch.status !== undefined;
    return this.transaction(async (c) => {
      const found = await keyByRef(c, ref);
      if (found.revoked_at && changes) throw new KeyRevokedError(found);
      const r = await c.query<ApiKeyRecord>(
        `UPDATE api_keys SET plan_tier = coalesce($1, plan_tier), subscription_status = coalesce($2, subscription_status),
           revoked_at = coalesce(revoked_at, $3) WHERE id = $4 RETURNING ${KEY_COLUMNS}`,
        [patch.plan ?? null, patch.status ?? null, patch.revokedAt ?? null, found.id],
      );
      return r.rows[0]!;
    });
  }

  async rotateKey(ref: string, next: NextApiKey, revokedAt: string): Promise<{ old: ApiKeyRecord; key: ApiKeyRecord }> {
    return this.transaction(async (c) => {
      const found = await keyByRef(c, ref);
      if (found.revoked_at) throw new KeyRevokedError(found);
      const key = (await c.query<ApiKeyRecord>(
        `INSERT INTO api_keys (key_hash, key_prefix, plan_tier, subscription_status, label, created_at, subscription_id)
         SELECT $1, $2, $3, $4, $5, $6, subscription_id FROM api_keys WHERE id = $7 RETURNING ${KEY_COLUMNS}`,
        [next.keyHash, next.keyPrefix, found.plan_tier, found.subscription_status, found.label, next.createdAt, found.id],
      )).rows[0]!;
      // the quota is the account's: the current periods' counts carry over to the new key (the old key's row
      // is locked first, so no request is counted on it in between)
      await c.query(
        `INSERT INTO quota_usage (key_id, day, day_count, month, month_count)
         SELECT $1, day, day_count, month, month_count FROM quota_usage WHERE key_id = $2 FOR UPDATE`,
        [key.id, found.id],
      );
      await c.query('INSERT INTO usage_daily (key_id, day, count) SELECT $1, day, count FROM usage_daily WHERE key_id = $2', [key.id, found.id]);
      const old = (await c.query<ApiKeyRecord>(`UPDATE api_keys SET revoked_at = $1 WHERE id = $2 RETURNING ${KEY_COLUMNS}`, [revokedAt, found.id])).rows[0]!;
      return { old, key };
    });
  }

  /** Run `fn` in one transaction on one connection; connection failures become StoreUnavailableError. */
  private async transaction<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.step(async () => {
      const client = await this.pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn(client);
        await client.query('COMMIT');
        client.release();
        return out;
      } catch (err) {
        await releaseAfterFailure(client, err);
        throw err;
      }
    });
  }

  /** Periods only move forward: an instance whose clock lags behind counts into the newer period. */
  async hitQuota(keyId: number, w: QuotaWindows, limits: QuotaLimits): Promise<QuotaDecision> {
    const r = await this.query<{ day_count: number; month_count: number }>(
      `INSERT INTO quota_usage AS q (key_id, day, day_count, month, month_count, last_used_at) VALUES ($1, $2, 1, $3, 1, $6::text)
       ${QUOTA_ON_CONFLICT('$4', '$5')}`,
      [keyId, w.day, w.month, limits.daily, limits.monthly, w.at ?? null],
      'physpay_hit_quota',
    );
    const row = r.rows[0];
    if (row) return { allowed: true, dayCount: row.day_count, monthCount: row.month_count };
    return quotaRefusal(await this.readQuota(keyId, w), limits);
  }

  /**
   * One round trip: the key's row, and (when it is neither revoked nor inactive) the same check-and-count
   * as hitQuota with its plan's limits, taken from `limits` inside the statement. A refused count costs a
   * second round trip (the current counts for the 429's headers), as in hitQuota.
   */
  async identifyAndCount(keyHash: string, w: QuotaWindows, limits: Record<string, QuotaLimits>): Promise<Identified | null> {
    const tiers = tiersParam(limits);
    const r = await this.query<ApiKeyRecord & { daily: number | null; monthly: number | null; counted: boolean; day_count: number | null; month_count: number | null }>(
      `WITH k AS (
         SELECT ${KEY_COLUMNS}, (($4::jsonb -> plan_tier) ->> 0)::int AS daily, (($4::jsonb -> plan_tier) ->> 1)::int AS monthly
         FROM api_keys WHERE key_hash = $1
       ), hit AS (
         INSERT INTO quota_usage AS q (key_id, day, day_count, month, month_count, last_used_at)
         SELECT id, $2, 1, $3, 1, $5::text FROM k WHERE revoked_at IS NULL AND subscription_status = 'active' AND daily >= 1 AND monthly >= 1
         ${QUOTA_ON_CONFLICT('(SELECT daily FROM k)', '(SELECT monthly FROM k)')}
       )
       SELECT k.*, (k.revoked_at IS NULL AND k.subscription_status = 'active' AND k.daily IS NOT NULL) AS counted,
         hit.day_count, hit.month_count
       FROM k LEFT JOIN hit ON true`,
      [keyHash, w.day, w.month, tiers, w.at ?? null],
      'physpay_identify_count',
    );
    const row = r.rows[0];
    if (!row) return null;
    const { daily, monthly, counted, day_count, month_count, ...key } = row;
    if (!counted) return { key, quota: null };
    if (day_count !== null && month_count !== null) return { key, quota: { allowed: true, dayCount: day_count, monthCount: month_count } };
    return { key, quota: quotaRefusal(await this.readQuota(key.id, w), { daily: daily!, monthly: monthly! }) };
  }

  async refundQuota(keyId: number, w: QuotaWindows): Promise<void> {
    await this.query(
      `UPDATE quota_usage SET
         day_count = CASE WHEN day = $2 AND day_count > 0 THEN day_count - 1 ELSE day_count END,
         month_count = CASE WHEN month = $3 AND month_count > 0 THEN month_count - 1 ELSE month_count END
       WHERE key_id = $1`,
      [keyId, w.day, w.month],
    );
  }

  async readQuota(keyId: number, w: QuotaWindows): Promise<{ dayCount: number; monthCount: number }> {
    const r = await this.query<{ day: string; day_count: number; month: string; month_count: number }>(
      'SELECT day, day_count, month, month_count FROM quota_usage WHERE key_id = $1',
      [keyId],
      'physpay_read_quota',
    );
    const x = r.rows[0];
    // a newer stored period (another instance's clock is ahead) is the current one, as in hitQuota
    return { dayCount: x && x.day >= w.day ? x.day_count : 0, monthCount: x && x.month >= w.month ? x.month_count : 0 };
  }

  async applyBillingEvent(step: BillingStep): Promise<BillingResult> {
    const { event } = step;
    return this.transaction(async (c) => {
      // the event id first: a second delivery, even to another instance at the same time, waits for this
      // transaction and then finds the id (ON CONFLICT DO NOTHING inserts no row)
      const fresh = await c.query(`INSERT INTO billing_events (event_id, type, subscription_id, received_at, outcome) VALUES ($1, $2, $3, $4, '')
        ON CONFLICT (event_id) DO NOTHING`, [event.id, event.type, event.subscriptionId, event.receivedAt]);
      if (fresh.rowCount === 0) {
        const prior = await c.query<{ outcome: string }>('SELECT outcome FROM billing_events WHERE event_id = $1', [event.id]);
        return { duplicate: true, outcome: prior.rows[0]?.outcome ?? '' };
      }
      let outcome = step.outcome ?? 'ignored';
      let keyId: number | undefined;
      if (step.decide && event.subscriptionId !== null) {
        const sub = event.subscriptionId;
        // the subscription's row, locked: two events of one subscription are decided one after the other
        await c.query(`INSERT INTO billing_subscriptions (subscription_id, updated_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [sub, event.receivedAt]);
        const row = (await c.query<StoredSubscription>(`SELECT ${SUB_COLUMNS} FROM billing_subscriptions WHERE subscription_id = $1 FOR UPDATE`, [sub])).rows[0]!;
        // a row made just now (no state yet) is no subscription state
        const current = row.plan_version === null && row.status_version === null && row.checkout_session_id === null && row.customer_id === null ? null : row;
        const hasKey = (await c.query('SELECT 1 FROM api_keys WHERE subscription_id = $1 LIMIT 1', [sub])).rows.length > 0;
        const d = step.decide(current, hasKey);
        outcome = d.outcome;
        if (d.next) {
          const n = d.next;
          await c.query(`UPDATE billing_subscriptions SET customer_id = $2, plan_tier = $3, plan_version = $4, status = $5, stripe_status = $6,
            status_version = $7, checkout_session_id = $8, updated_at = $9 WHERE subscription_id = $1`,
          [sub, n.customer_id, n.plan_tier, n.plan_version, n.status, n.stripe_status, n.status_version, n.checkout_session_id, event.receivedAt]);
          const view = step.keyView!(n);
          await c.query('UPDATE api_keys SET plan_tier = $1, subscription_status = $2 WHERE subscription_id = $3 AND revoked_at IS NULL', [view.plan, view.status, sub]);
          if (d.createKey && step.newKey && n.checkout_session_id) {
            const k = step.newKey;
            keyId = (await c.query<{ id: number }>(`INSERT INTO api_keys (key_hash, key_prefix, plan_tier, subscription_status, label, created_at, subscription_id)
              VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::int AS id`, [k.keyHash, k.keyPrefix, view.plan, view.status, k.label, k.createdAt, sub])).rows[0]!.id;
            await c.query('INSERT INTO key_reveals (checkout_session_id, key_id, sealed, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
              [n.checkout_session_id, keyId, k.sealed, k.createdAt]);
          }
        } else if (current === null) {
          await c.query('DELETE FROM billing_subscriptions WHERE subscription_id = $1', [sub]);
        }
      }
      await c.query('UPDATE billing_events SET outcome = $1 WHERE event_id = $2', [outcome, event.id]);
      return { duplicate: false, outcome, ...(keyId !== undefined ? { keyId } : {}) };
    });
  }

  async listBillingEvents(limit: number): Promise<BillingEventRecord[]> {
    return (await this.query<BillingEventRecord>(
      'SELECT event_id, type, subscription_id, received_at, outcome FROM billing_events ORDER BY received_at DESC, seq DESC LIMIT $1', [limit])).rows;
  }

  async getSubscription(subscriptionId: string): Promise<StoredSubscription | null> {
    return (await this.query<StoredSubscription>(`SELECT ${SUB_COLUMNS} FROM billing_subscriptions WHERE subscription_id = $1`, [subscriptionId])).rows[0] ?? null;
  }

  async hasCheckoutSession(checkoutSessionId: string): Promise<boolean> {
    return (await this.query('SELECT 1 FROM billing_subscriptions WHERE checkout_session_id = $1 LIMIT 1', [checkoutSessionId])).rows.length > 0;
  }

  async takeKeyReveal(checkoutSessionId: string): Promise<{ key_id: number; sealed: string } | null> {
    return (await this.query<{ key_id: number; sealed: string }>(
      'DELETE FROM key_reveals WHERE checkout_session_id = $1 RETURNING key_id::int AS key_id, sealed', [checkoutSessionId])).rows[0] ?? null;
  }

  async usageHistory(keyId: number, fromDay: string, toDay: string): Promise<DailyUse[]> {
    return (await this.query<DailyUse>(
      `SELECT day, count FROM usage_daily WHERE key_id = $1 AND day BETWEEN $2 AND $3
         AND day <> coalesce((SELECT day FROM quota_usage WHERE key_id = $1), '')
       UNION ALL SELECT day, day_count AS count FROM quota_usage WHERE key_id = $1 AND day BETWEEN $2 AND $3
       ORDER BY day`,
      [keyId, fromDay, toDay],
    )).rows;
  }

  async submitReport(n: NewSubmission, limits: IntakeLimits): Promise<SubmitResult> {
    return this.transaction(async (c) => {
      // the client's row of the day, locked: two submissions of one client (any instances) are decided in turn
      await c.query('INSERT INTO intake_clients (client_hash, day, count) VALUES ($1, $2, 0) ON CONFLICT (client_hash, day) DO NOTHING', [n.clientHash, n.day]);
      const counted = (await c.query<{ count: number }>('SELECT count FROM intake_clients WHERE client_hash = $1 AND day = $2 FOR UPDATE', [n.clientHash, n.day])).rows[0]!.count;
      if (n.challengeSignature !== null && (await c.query('SELECT 1 FROM intake_submissions WHERE challenge_signature = $1', [n.challengeSignature])).rows.length) return { outcome: 'spent', clientCount: counted };
      const key = repeatKey(n.clientHash, n.fingerprint);
      if ((await c.query('SELECT 1 FROM intake_submissions WHERE repeat_key = $1', [key])).rows.length) return { outcome: 'repeat', clientCount: counted };
      if (counted >= limits.perClient) return { outcome: 'limited', clientCount: counted };
      if (n.challenge === 'form') {
        // the day's budget is the whole site's: reports without a proof of work are decided one at a time
        await c.query("SELECT pg_advisory_xact_lock(hashtext('physpay intake without proof ' || $1))", [n.day]);
        const today = Number((await c.query<{ n: string }>("SELECT count(*) AS n FROM intake_submissions WHERE day = $1 AND challenge = 'form'", [n.day])).rows[0]!.n);
        if (today >= limits.withoutProofPerDay) return { outcome: 'budget', clientCount: counted };
      }
      const elsewhere = Number((await c.query<{ n: string }>('SELECT count(*) AS n FROM intake_submissions WHERE fingerprint = $1', [n.fingerprint])).rows[0]!.n);
      await c.query(`INSERT INTO intake_submissions (id, report, fingerprint, client_hash, repeat_key, day, received_at, challenge, challenge_signature, seconds_to_submit, client_submissions_today, same_report_elsewhere)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`, [n.id, JSON.stringify(n.report), n.fingerprint, n.clientHash, key, n.day, n.received_at, n.challenge, n.challengeSignature, n.seconds_to_submit, counted + 1, elsewhere]);
      await c.query('UPDATE intake_clients SET count = count + 1 WHERE client_hash = $1 AND day = $2', [n.clientHash, n.day]);
      return { outcome: 'stored', clientCount: counted + 1 };
    });
  }

  async pendingSubmissions(limit: number): Promise<PendingSubmission[]> {
    const r = await this.query<SubmissionRow>(
      `SELECT id, report, fingerprint, received_at, challenge, seconds_to_submit, client_submissions_today, same_report_elsewhere
       FROM intake_submissions WHERE taken_at IS NULL ORDER BY received_at, id LIMIT $1`, [limit]);
    return r.rows.map(pendingOf);
  }

  async pendingSubmissionCount(): Promise<number> {
    return Number((await this.query<{ n: string }>('SELECT count(*) AS n FROM intake_submissions WHERE taken_at IS NULL', [])).rows[0]!.n);
  }

  async markSubmissionsTaken(ids: string[], batchId: number, takenAt: string): Promise<number> {
    if (ids.length === 0) return 0;
    const r = await this.query('UPDATE intake_submissions SET taken_at = $1, batch_id = $2, client_hash = NULL WHERE id = ANY($3) AND taken_at IS NULL', [takenAt, batchId, ids]);
    return r.rowCount ?? 0;
  }

  async intakeSecret(): Promise<string> {
    await this.query("INSERT INTO service_secrets (name, value) VALUES ('intake', $1) ON CONFLICT (name) DO NOTHING", [randomBytes(32).toString('hex')]);
    return (await this.query<{ value: string }>("SELECT value FROM service_secrets WHERE name = 'intake'", [])).rows[0]!.value;
  }

  async registerOAuthClient(c: OAuthClientRecord): Promise<void> {
    await this.query('INSERT INTO oauth_clients (client_id, client_name, redirect_uris, created_at) VALUES ($1, $2, $3, $4)',
      [c.client_id, c.client_name, JSON.stringify(c.redirect_uris), c.created_at]);
  }

  async findOAuthClient(clientId: string): Promise<OAuthClientRecord | null> {
    const row = (await this.query<Omit<OAuthClientRecord, 'redirect_uris'> & { redirect_uris: string }>(
      'SELECT client_id, client_name, redirect_uris, created_at FROM oauth_clients WHERE client_id = $1', [clientId], 'physpay_oauth_client')).rows[0];
    return row ? { ...row, redirect_uris: JSON.parse(row.redirect_uris) as string[] } : null;
  }

  async saveOAuthCode(codeHash: string, c: OAuthCodeRecord): Promise<void> {
    await this.query(`INSERT INTO oauth_codes (code_hash, client_id, key_id, redirect_uri, code_challenge, resource, sealed, expires_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [codeHash, c.client_id, c.key_id, c.redirect_uri, c.code_challenge, c.resource, c.sealed, c.expires_at]);
  }

  async takeOAuthCode(codeHash: string): Promise<OAuthCodeRecord | null> {
    return (await this.query<OAuthCodeRecord>(
      'DELETE FROM oauth_codes WHERE code_hash = $1 RETURNING client_id, key_id::int AS key_id, redirect_uri, code_challenge, resource, sealed, expires_at', [codeHash])).rows[0] ?? null;
  }

  async saveOAuthTokens(tokens: OAuthTokenRecord[]): Promise<void> {
    await this.transaction((c) => insertOAuthTokens(c, tokens));
  }

  async findOAuthToken(tokenHash: string): Promise<FoundOAuthToken | null> {
    return (await this.query<FoundOAuthToken>(
      `SELECT t.token_hash, t.kind, t.grant_id, t.client_id, t.key_id::int AS key_id, t.resource, t.sealed, t.expires_at, t.used_at, k.revoked_at AS key_revoked_at
       FROM oauth_tokens t JOIN api_keys k ON k.id = t.key_id WHERE t.token_hash = $1`, [tokenHash], 'physpay_oauth_token')).rows[0] ?? null;
  }

  async rotateOAuthRefresh(tokenHash: string, usedAt: string, next: OAuthTokenRecord[]): Promise<boolean> {
    return this.transaction(async (c) => {
      const marked = await c.query("UPDATE oauth_tokens SET used_at = $1 WHERE token_hash = $2 AND kind = 'refresh' AND used_at IS NULL", [usedAt, tokenHash]);
      if (marked.rowCount !== 1) return false;
      await insertOAuthTokens(c, next);
      return true;
    });
  }

  async revokeOAuthGrant(grantId: string): Promise<void> {
    await this.query('DELETE FROM oauth_tokens WHERE grant_id = $1', [grantId]);
  }

  async listOAuthGrants(keyId: number, now: string): Promise<OAuthGrantSummary[]> {
    const rows = (await this.query<Omit<OAuthGrantSummary, 'redirect_uris'> & { redirect_uris: string }>(`SELECT t.grant_id, t.client_id, c.client_name, c.redirect_uris, MAX(t.expires_at) AS expires_at
         FROM oauth_tokens t JOIN oauth_clients c ON c.client_id = t.client_id
         WHERE t.key_id = $1 AND t.kind = 'refresh' AND t.used_at IS NULL AND t.expires_at > $2
         GROUP BY t.grant_id, t.client_id, c.client_name, c.redirect_uris ORDER BY expires_at DESC, t.grant_id`, [keyId, now])).rows;
    return rows.map((r) => ({ ...r, redirect_uris: JSON.parse(r.redirect_uris) as string[] }));
  }

  async revokeOAuthGrantOfKey(grantId: string, keyId: number): Promise<boolean> {
    return ((await this.query('DELETE FROM oauth_tokens WHERE grant_id = $1 AND key_id = $2', [grantId, keyId])).rowCount ?? 0) > 0;
  }

  async pruneIp(day: number): Promise<void> {
    const o = oauthPruneTimes(day);
    await this.query('DELETE FROM oauth_codes WHERE expires_at < $1', [o.now]);
    await this.query('DELETE FROM oauth_tokens WHERE expires_at < $1', [o.now]);
    await this.query(`DELETE FROM oauth_clients WHERE created_at < $1 AND NOT EXISTS (SELECT 1 FROM oauth_tokens t WHERE t.client_id = oauth_clients.client_id)
      AND NOT EXISTS (SELECT 1 FROM oauth_codes c WHERE c.client_id = oauth_clients.client_id)`, [o.clientsBefore]);
    await this.query('DELETE FROM ip_counters WHERE day < $1', [day]);
    await this.query('DELETE FROM intake_clients WHERE day < $1', [new Date(day * 86_400_000).toISOString().slice(0, 10)]);
    await this.query('DELETE FROM usage_daily WHERE day < $1', [historyHorizon(day)]);
  }

  /** End the pool; a connection that no longer answers does not hold up the exit beyond the connect timeout. */
  async close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.pool.end(),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.settings.connectTimeoutMs);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
  }
}

/** Insert tokens on one connection (inside the caller's transaction). */
async function insertOAuthTokens(c: pg.PoolClient, tokens: OAuthTokenRecord[]): Promise<void> {
  for (const t of tokens) {
    await c.query(`INSERT INTO oauth_tokens (token_hash, kind, grant_id, client_id, key_id, resource, sealed, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [t.token_hash, t.kind, t.grant_id, t.client_id, t.key_id, t.resource, t.sealed, t.expires_at]);
  }
}

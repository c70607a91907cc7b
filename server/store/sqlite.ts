/**
 * Service store on SQLite (WAL): several processes on one machine share one file, and SQLite's single
 * writer lock makes each check-and-count atomic across all of them.
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { accessSync, closeSync, constants, openSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { APPLICATION_IDS, checkDbPath, expectKind } from '../../build/db/kind.ts';
import { repeatKey } from './repeat-key.ts';
import { KeyNotFoundError, KeyRevokedError, StoreUnavailableError, historyHorizon, keyRefMessage, type ApiKeyRecord, type BillingEventRecord, type BillingResult, type BillingStep, type DailyUse, type IntakeLimits, type IntakeReport, type IntakeSignals, type NewSubmission, type PendingSubmission, type SubmitResult, type StoredSubscription, type Identified, type IpDecision, type IpLimits, type IpWindows, type KeyUsage, type NewApiKey, type NextApiKey, type QuotaDecision, type QuotaLimits, type QuotaWindows, type ServiceStore, type FoundOAuthToken, type OAuthClientRecord, type OAuthCodeRecord, type OAuthTokenRecord, type OAuthGrantSummary } from './types.ts';

const MIGRATIONS: { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `CREATE TABLE ip_counters (
      ip           TEXT PRIMARY KEY,
      minute       INTEGER NOT NULL,
      minute_count INTEGER NOT NULL,
      day          INTEGER NOT NULL,
      day_count    INTEGER NOT NULL
    ) STRICT, WITHOUT ROWID;`,
  },
  {
    version: 2,
    sql: `CREATE TABLE api_keys (
      id                  INTEGER PRIMARY KEY,
      key_hash            TEXT NOT NULL UNIQUE,
      key_prefix          TEXT NOT NULL,
      plan_tier           TEXT NOT NULL,
      subscription_status TEXT NOT NULL,
      label               TEXT NOT NULL DEFAULT '',
      created_at          TEXT NOT NULL,
      revoked_at          TEXT
    ) STRICT;
    CREATE INDEX api_keys_prefix ON api_keys (key_prefix);
    CREATE TABLE quota_usage (
      key_id      INTEGER PRIMARY KEY REFERENCES api_keys(id),
      day         TEXT NOT NULL,
      day_count   INTEGER NOT NULL,
      month       TEXT NOT NULL,
      month_count INTEGER NOT NULL
    ) STRICT;`,
  },
  {
    // the time of the key's last counted request (ISO 8601 UTC), written by the same statement as the counts
    version: 3,
    sql: 'ALTER TABLE quota_usage ADD COLUMN last_used_at TEXT;',
  },
  {
    // billing (Stripe): the subscription a key belongs to, subscriptions' states, events received once each,
    // and keys waiting for their one reveal after a checkout
    version: 4,
    sql: `ALTER TABLE api_keys ADD COLUMN subscription_id TEXT;
    CREATE INDEX api_keys_subscription ON api_keys (subscription_id);
    CREATE TABLE billing_subscriptions (
      subscription_id     TEXT PRIMARY KEY,
      customer_id         TEXT,
      plan_tier           TEXT,
      plan_version        TEXT,
      status              TEXT,
      stripe_status       TEXT,
      status_version      TEXT,
      checkout_session_id TEXT,
      updated_at          TEXT NOT NULL
    ) STRICT;
    CREATE TABLE billing_events (
      event_id        TEXT PRIMARY KEY,
      type            TEXT NOT NULL,
      subscription_id TEXT,
      received_at     TEXT NOT NULL,
      outcome         TEXT NOT NULL
    ) STRICT;
    CREATE INDEX billing_events_received ON billing_events (received_at);
    CREATE TABLE key_reveals (
      checkout_session_id TEXT PRIMARY KEY,
      key_id              INTEGER NOT NULL REFERENCES api_keys(id),
      sealed              TEXT NOT NULL,
      created_at          TEXT NOT NULL
    ) STRICT;`,
  },
  {
    // the usage history (GET /api/v1/me/usage/history): a day's count is copied out of quota_usage when the
    // counter moves on to a newer day, by a trigger, so the quota's hot statement stays one write; and the
    // welcome page's lookup of a checkout session by its id
    version: 5,
    sql: `CREATE TABLE usage_daily (
      key_id INTEGER NOT NULL,
      day    TEXT NOT NULL,
      count  INTEGER NOT NULL,
      PRIMARY KEY (key_id, day)
    ) STRICT, WITHOUT ROWID;
    CREATE TRIGGER quota_usage_day_closed AFTER UPDATE OF day ON quota_usage WHEN NEW.day > OLD.day
    BEGIN
      INSERT INTO usage_daily (key_id, day, count) VALUES (OLD.key_id, OLD.day, OLD.day_count)
        ON CONFLICT (key_id, day) DO UPDATE SET count = excluded.count;
    END;
    CREATE INDEX billing_subscriptions_checkout ON billing_subscriptions (checkout_session_id);`,
  },
  {
    // physicians' submissions (/contribute) waiting for `physpay import submissions`, each client's
    // submissions per UTC day (the per-client limit), and secrets shared by every process of this store
    version: 6,
    sql: `CREATE TABLE intake_submissions (
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
      batch_id                 INTEGER
    ) STRICT;
    CREATE INDEX intake_pending ON intake_submissions (taken_at, received_at);
    CREATE INDEX intake_fingerprint ON intake_submissions (fingerprint, client_hash);
    CREATE TABLE intake_clients (
      client_hash TEXT NOT NULL,
      day         TEXT NOT NULL,
      count       INTEGER NOT NULL,
      PRIMARY KEY (client_hash, day)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE service_secrets (
      name  TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) STRICT;`,
  },
  {
    // the site-wide daily budget of submissions without a proof of work counts them by day
    version: 7,
    sql: 'CREATE INDEX intake_day_challenge ON intake_submissions (day, challenge);',
  },
  {
    // the repeat check outlives the import: a digest of client and report (repeat-key.ts), kept when the
    // client hash is dropped
    version: 8,
    sql: `ALTER TABLE intake_submissions ADD COLUMN repeat_key TEXT;
    CREATE INDEX intake_repeat ON intake_submissions (repeat_key);`,
  },
  {
    // rows stored before: those still holding their client hash get their digest (taken ones have none left)
    version: 9,
    sql: 'UPDATE intake_submissions SET repeat_key = physpay_repeat_key(client_hash, fingerprint) WHERE repeat_key IS NULL AND client_hash IS NOT NULL;',
  },
  {
    // OAuth for assistants (server/oauth/): registered clients, codes waiting for their exchange, tokens;
    // codes and tokens by hash, each bound to an API key
    version: 10,
    sql: `CREATE TABLE oauth_clients (
      client_id     TEXT PRIMARY KEY,
      client_name   TEXT NOT NULL,
      redirect_uris TEXT NOT NULL,
      created_at    TEXT NOT NULL
    ) STRICT;
    CREATE TABLE oauth_codes (
      code_hash      TEXT PRIMARY KEY,
      client_id      TEXT NOT NULL,
      key_id         INTEGER NOT NULL REFERENCES api_keys(id),
      redirect_uri   TEXT NOT NULL,
      code_challenge TEXT NOT NULL,
      resource       TEXT NOT NULL,
      sealed         TEXT NOT NULL,
      expires_at     TEXT NOT NULL
    ) STRICT;
    CREATE TABLE oauth_tokens (
      token_hash TEXT PRIMARY KEY,
      kind       TEXT NOT NULL,
      grant_id   TEXT NOT NULL,
      client_id  TEXT NOT NULL,
      key_id     INTEGER NOT NULL REFERENCES api_keys(id),
      resource   TEXT NOT NULL,
      sealed     TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      used_at    TEXT
    ) STRICT;
    CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id);
    CREATE INDEX oauth_tokens_expiry ON oauth_tokens (expires_at);
    CREATE INDEX oauth_tokens_client ON oauth_tokens (client_id);`,
  },
];

const OAUTH_TOKEN_COLUMNS = 'token_hash, kind, grant_id, client_id, key_id, resource, sealed, expires_at';

/** The prune's cut-offs for OAuth state: the start of `day` (ISO) and 90 days before it. */
export function oauthPruneTimes(day: number): { now: string; clientsBefore: string } {
  return { now: new Date(day * 86_400_000).toISOString(), clientsBefore: new Date((day - 90) * 86_400_000).toISOString() };
}

const SUB_COLUMNS = 'subscription_id, customer_id, plan_tier, plan_version, status, stripe_status, status_version, checkout_session_id';

const KEY_COLUMNS = 'id, key_prefix, plan_tier, subscription_status, label, created_at, revoked_at';

export function migrateSqliteStore(db: Database.Database, extra: { version: number; sql: string }[] = []): void {
  db.exec('CREATE TABLE IF NOT EXISTS service_migrations (version INTEGER PRIMARY KEY) STRICT');
  db.function('physpay_repeat_key', { deterministic: true }, (client: unknown, fingerprint: unknown) => repeatKey(String(client), String(fingerprint)));
  const all = [...MIGRATIONS, ...extra].sort((a, b) => a.version - b.version);
  db.transaction(() => {
    const done = new Set((db.prepare('SELECT version FROM service_migrations').all() as { version: number }[]).map((r) => r.version));
    for (const m of all) {
      if (done.has(m.version)) continue;
      db.exec(m.sql);
      db.prepare('INSERT INTO service_migrations (version) VALUES (?)').run(m.version);
    }
    // the file's kind (build/db/kind.ts): a new service DB, or one made before application_id, is stamped
    if ((db.pragma('application_id', { simple: true }) as number) !== APPLICATION_IDS.service) db.pragma(`application_id = ${APPLICATION_IDS.service}`);
  }).immediate();
}

/** SQLite errors that mean the store cannot read or commit right now (a disk, file or lock problem). */
const STORE_FAULT = /^SQLITE_(IOERR|READONLY|FULL|CANTOPEN|CORRUPT|NOTADB|PROTOCOL|BUSY|LOCKED|PERM)/;

export interface StoreEvents {
  /** the store stopped accepting reads or commits (called once per outage) */
  onFault?(message: string): void;
  /** it works again */
  onRecover?(): void;
}

export class SqliteServiceStore implements ServiceStore {
  readonly kind = 'sqlite' as const;
  readonly db: Database.Database;
  private readonly path: string;
  /** identity of the file opened, to notice it deleted or replaced (probe) */
  private readonly inode: { dev: number; ino: number } | null;
  /** set when the file is gone: nothing is counted into an unlinked file */
  private gone: string | null = null;
  private faulted = false;
  private readonly hit: Database.Statement;
  private readonly read: Database.Statement;
  private readonly prune: Database.Statement;
  private readonly findKey: Database.Statement;
  private readonly quotaHit: Database.Statement;
  private readonly quotaRead: Database.Statement;
  private readonly quotaRefund: Database.Statement;
  private readonly hitMany: Database.Transaction<(ips: string[], w: IpWindows, limits: IpLimits) => IpDecision[]>;

  constructor(path: string, private readonly events: StoreEvents = {}) {
    // API key hashes and client addresses: readable by the owner only. SQLite gives the -wal and -shm files
    // the main file's permissions.
    // A missing folder, a file that is not SQLite, a reports DB or another application's DB is refused
    // (DbKindError) before anything is written to it.
    if (path !== ':memory:' && checkDbPath(path, 'service') === 'missing') closeSync(openSync(path, 'a', 0o600));
    this.path = path === ':memory:' ? path : resolve(path);
    this.db = new Database(path);
    if (path !== ':memory:') {
      try {
        this.db.pragma('busy_timeout = 10000');
        expectKind(this.db, path, 'service', true);
      } catch (err) {
        this.db.close();
        throw err;
      }
    }
    this.inode = path === ':memory:' ? null : (({ dev, ino }) => ({ dev, ino }))(statSync(path));
    this.db.pragma('busy_timeout = 10000');
    this.db.pragma('journal_mode = WAL');
    // No fsync: a commit is in the OS page cache before the answer is sent, so counts survive a kill -9 of
    // any process (tested); only a crash of the machine itself could lose the newest counts (the same
    // trade as synchronous_commit=off on PostgreSQL). With NORMAL, every WAL checkpoint fsyncs on the
    // request path and stalls it for tens of ms on this disk.
    this.db.pragma('synchronous = OFF');
    migrateSqliteStore(this.db);
    // One statement: count the request only if both windows stay within their limits.
    this.hit = this.db.prepare(`
      INSERT INTO ip_counters (ip, minute, minute_count, day, day_count) VALUES (@ip, @minute, 1, @day, 1)
      ON CONFLICT (ip) DO UPDATE SET
        minute_count = CASE WHEN minute = excluded.minute THEN minute_count + 1 ELSE 1 END,
        minute = excluded.minute,
        day_count = CASE WHEN day = excluded.day THEN day_count + 1 ELSE 1 END,
        day = excluded.day
      WHERE (CASE WHEN minute = excluded.minute THEN minute_count ELSE 0 END) < @perMinute
        AND (CASE WHEN day = excluded.day THEN day_count ELSE 0 END) < @perDay
      RETURNING minute_count, day_count`);
    this.read = this.db.prepare('SELECT minute, minute_count, day, day_count FROM ip_counters WHERE ip = ?');
    const write = this.db.prepare(`INSERT INTO ip_counters (ip, minute, minute_count, day, day_count) VALUES (@ip, @minute, @minuteCount, @day, @dayCount)
      ON CONFLICT (ip) DO UPDATE SET minute = excluded.minute, minute_count = excluded.minute_count, day = excluded.day, day_count = excluded.day_count`);
    // Under the write lock (IMMEDIATE), each address's row is read once, its requests are decided in
    // arrival order by decideIpHits (the same rule as the single-request statement above), and the row is
    // written once: two statements per address per group instead of one per request.
    this.hitMany = this.db.transaction((ips: string[], w: IpWindows, limits: IpLimits) => {
      const byIp = new Map<string, number[]>();
      ips.forEach((ip, i) => {
        const at = byIp.get(ip);
        if (at) at.push(i);
        else byIp.set(ip, [i]);
      });
      const out = new Array<IpDecision>(ips.length);
      for (const [ip, at] of byIp) {
        const cur = (this.read.get(ip) as { minute: number; minute_count: number; day: number; day_count: number } | undefined) ?? null;
        const { decisions, minuteCount, dayCount } = decideIpHits(cur, at.length, w, limits);
        at.forEach((i, k) => (out[i] = decisions[k]!));
        if (decisions.some((d) => d.allowed)) write.run({ ip, minute: w.minute, minuteCount, day: w.day, dayCount });
      }
      return out;
    });
    this.prune = this.db.prepare('DELETE FROM ip_counters WHERE day < ?');
    this.findKey = this.db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = ?`);
    // Same pattern as the IP counters: both periods counted in one statement, only when both fit.
    // Periods only move forward (ISO strings compare in time order): a process whose clock lags behind
    // another's around midnight counts into the newer period instead of resetting it.
    // The last use moves forward only as well (max of two ISO times; a NULL, no time given, changes nothing).
    this.quotaHit = this.db.prepare(`
      INSERT INTO quota_usage (key_id, day, day_count, month, month_count, last_used_at) VALUES (@key, @day, 1, @month, 1, @at)
      ON CONFLICT (key_id) DO UPDATE SET
        day_count = CASE WHEN excluded.day > day THEN 1 ELSE day_count + 1 END,
        day = max(day, excluded.day),
        month_count = CASE WHEN excluded.month > month THEN 1 ELSE month_count + 1 END,
        month = max(month, excluded.month),
        last_used_at = coalesce(max(last_used_at, excluded.last_used_at), last_used_at, excluded.last_used_at)
      WHERE (CASE WHEN excluded.day > day THEN 0 ELSE day_count END) < @daily
        AND (CASE WHEN excluded.month > month THEN 0 ELSE month_count END) < @monthly
      RETURNING day_count, month_count`);
    this.quotaRead = this.db.prepare('SELECT day, day_count, month, month_count FROM quota_usage WHERE key_id = ?');
    this.quotaRefund = this.db.prepare(`UPDATE quota_usage SET
        day_count = CASE WHEN day = @day AND day_count > 0 THEN day_count - 1 ELSE day_count END,
        month_count = CASE WHEN month = @month AND month_count > 0 THEN month_count - 1 ELSE month_count END
      WHERE key_id = @key`);
  }

  /**
   * Run one store step; an error that means the file cannot be read or committed becomes a
   * StoreUnavailableError (the request is answered 503, never served uncounted), reported once per outage.
   * Every step first checks the WAL index is writable: SQLite maps the -shm file into memory and writes to
   * it even to read (read marks), and a write to the mapping of a file made immutable kills the process
   * with SIGBUS instead of returning an error. Only a `write` step that succeeds ends an outage.
   */
  private guard<T>(write: boolean, step: () => T): T {
    try {
      if (this.gone) throw new StoreUnavailableError(this.gone);
      if (this.inode) accessSync(`${this.path}-shm`, constants.W_OK);
      const out = step();
      if (this.faulted && write) {
        this.faulted = false;
        this.events.onRecover?.();
      }
      return out;
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (!(err instanceof StoreUnavailableError) && !STORE_FAULT.test(code) && code !== 'EPERM' && code !== 'EACCES' && code !== 'ENOENT') throw err;
      const message = err instanceof StoreUnavailableError ? err.message : `service DB ${this.path}: ${code}: ${(err as Error).message}`;
      if (!this.faulted) {
        this.faulted = true;
        this.events.onFault?.(message);
      }
      throw err instanceof StoreUnavailableError ? err : new StoreUnavailableError(message, { cause: err });
    }
  }

  /**
   * Periodic health check: the file still the one opened (not deleted or replaced), its WAL index and the
   * file writable. A deleted file is final (restart physpay serve with a new service DB); the rest recovers.
   */
  probe(): void {
    if (!this.inode || this.gone) {
      if (this.gone) throw new StoreUnavailableError(this.gone);
      return;
    }
    let same = false;
    try {
      const st = statSync(this.path);
      same = st.dev === this.inode.dev && st.ino === this.inode.ino;
    } catch {
      same = false;
    }
    if (!same) {
      this.gone = `service DB ${this.path} was deleted or replaced while serving; requests are refused until physpay serve is restarted`;
      this.faulted = true;
      this.events.onFault?.(this.gone);
      throw new StoreUnavailableError(this.gone);
    }
    this.guard(true, () => {
      accessSync(this.path, constants.W_OK);
      accessSync(`${this.path}-shm`, constants.W_OK);
      accessSync(`${this.path}-wal`, constants.W_OK);
    });
  }

  createKey(k: NewApiKey): ApiKeyRecord {
    // .all(), not .get(): .get() stops after the first row, and the autocommit's COMMIT failing at reset
    // would go unnoticed (a key printed that was never stored)
    return this.guard(true, () => this.db
      .prepare(`INSERT INTO api_keys (key_hash, key_prefix, plan_tier, subscription_status, label, created_at)
        VALUES (?, ?, ?, ?, ?, ?) RETURNING ${KEY_COLUMNS}`)
      .all(k.keyHash, k.keyPrefix, k.plan, k.status, k.label, k.createdAt)[0] as ApiKeyRecord);
  }

  findKeyByHash(keyHash: string): ApiKeyRecord | null {
    return this.guard(false, () => (this.findKey.get(keyHash) as ApiKeyRecord | undefined) ?? null);
  }

  listKeys(): ApiKeyRecord[] {
    return this.db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY id`).all() as ApiKeyRecord[];
  }

  listKeyUsage(w: QuotaWindows): KeyUsage[] {
    const rows = this.guard(false, () => this.db
      .prepare(`SELECT ${KEY_COLUMNS.split(', ').map((c) => `k.${c}`).join(', ')}, q.day, q.day_count, q.month, q.month_count, q.last_used_at,
          k.subscription_id, b.customer_id
        FROM api_keys k LEFT JOIN quota_usage q ON q.key_id = k.id LEFT JOIN billing_subscriptions b ON b.subscription_id = k.subscription_id ORDER BY k.id`)
      .all()) as (ApiKeyRecord & { day: string | null; day_count: number | null; month: string | null; month_count: number | null; last_used_at: string | null; subscription_id: string | null; customer_id: string | null })[];
    return rows.map(({ day, day_count, month, month_count, ...k }) => ({
      ...k,
      // the readQuota rule: a newer stored period (a clock ahead) is the current one
      used_today: day !== null && day >= w.day ? day_count! : 0,
      used_this_month: month !== null && month >= w.month ? month_count! : 0,
    }));
  }

  /** The one key named by id or key_prefix (inside a transaction). */
  private keyByRef(ref: string): ApiKeyRecord {
    const rows = this.db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ? OR key_prefix = ?`).all(/^\d+$/.test(ref) ? Number(ref) : -1, ref) as ApiKeyRecord[];
    if (rows.length === 0 && !/^\d+$/.test(ref)) {
      // a shorter prefix (`pcb_live_`, `pcb_live_g0`) names the keys whose prefix starts with it
      const like = this.db.prepare(`SELECT count(*) AS n FROM api_keys WHERE substr(key_prefix, 1, ?) = ?`).get(ref.length, ref) as { n: number };
      if (like.n > 0) throw new KeyNotFoundError(keyRefMessage(ref, like.n));
    }
    if (rows.length !== 1) throw new KeyNotFoundError(rows.length === 0 ? `no API key ${ref}` : `${ref} matches ${rows.length} keys; use the id`);
    return rows[0]!;
  }

  updateKey(ref: string, patch: { plan?: string; status?: string; revokedAt?: string }): ApiKeyRecord {
    return this.guard(true, () => this.db
      .transaction(() => {
        const key = this.keyByRef(ref);
        if (key.revoked_at && (patch.plan !== undefined || patch.status !== undefined)) throw new KeyRevokedError(key);
        return this.db
          .prepare(`UPDATE api_keys SET plan_tier = coalesce(?, plan_tier), subscription_status = coalesce(?, subscription_status),
            revoked_at = coalesce(revoked_at, ?) WHERE id = ? RETURNING ${KEY_COLUMNS}`)
          .all(patch.plan ?? null, patch.status ?? null, patch.revokedAt ?? null, key.id)[0] as ApiKeyRecord;
      })
      .immediate());
  }

  rotateKey(ref: string, next: NextApiKey, revokedAt: string): { old: ApiKeyRecord; key: ApiKeyRecord } {
    return this.guard(true, () => this.db
      .transaction(() => {
        const found = this.keyByRef(ref);
        if (found.revoked_at) throw new KeyRevokedError(found);
        const key = this.db
          .prepare(`INSERT INTO api_keys (key_hash, key_prefix, plan_tier, subscription_status, label, created_at, subscription_id)
            SELECT ?, ?, ?, ?, ?, ?, subscription_id FROM api_keys WHERE id = ? RETURNING ${KEY_COLUMNS}`)
          .all(next.keyHash, next.keyPrefix, found.plan_tier, found.subscription_status, found.label, next.createdAt, found.id)[0] as ApiKeyRecord;
        // the quota is the account's: the current periods' counts carry over to the new key
        this.db.prepare(`INSERT INTO quota_usage (key_id, day, day_count, month, month_count)
          SELECT ?, day, day_count, month, month_count FROM quota_usage WHERE key_id = ?`).run(key.id, found.id);
        this.db.prepare('INSERT INTO usage_daily (key_id, day, count) SELECT ?, day, count FROM usage_daily WHERE key_id = ?').run(key.id, found.id);
        const old = this.db.prepare(`UPDATE api_keys SET revoked_at = ? WHERE id = ? RETURNING ${KEY_COLUMNS}`).all(revokedAt, found.id)[0] as ApiKeyRecord;
        return { old, key };
      })
      .immediate());
  }

  hitQuota(keyId: number, w: QuotaWindows, limits: QuotaLimits): QuotaDecision {
    // .all() runs the statement to its end, so a failed commit throws (.get() would hide it: issue 16)
    const row = this.guard(true, () => this.quotaHit.all({ key: keyId, day: w.day, month: w.month, at: w.at ?? null, daily: limits.daily, monthly: limits.monthly })[0]) as
      | { day_count: number; month_count: number }
      | undefined;
    if (row) return { allowed: true, dayCount: row.day_count, monthCount: row.month_count };
    return quotaRefusal(this.readQuota(keyId, w), limits);
  }

  identifyAndCount(keyHash: string, w: QuotaWindows, limits: Record<string, QuotaLimits>): Identified | null {
    // Synchronous: nothing else runs in this process between the lookup and the count, and the count is
    // itself one atomic statement across processes.
    const key = this.findKeyByHash(keyHash);
    if (!key) return null;
    const lim = limits[key.plan_tier];
    if (key.revoked_at || key.subscription_status !== 'active' || !lim) return { key, quota: null };
    return { key, quota: this.hitQuota(key.id, w, lim) };
  }

  refundQuota(keyId: number, w: QuotaWindows): void {
    this.guard(true, () => this.quotaRefund.run({ key: keyId, day: w.day, month: w.month }));
  }

  readQuota(keyId: number, w: QuotaWindows): { dayCount: number; monthCount: number } {
    const r = this.guard(false, () => this.quotaRead.get(keyId)) as { day: string; day_count: number; month: string; month_count: number } | undefined;
    // a newer stored period (another process's clock is ahead) is the current one, as in hitQuota
    return { dayCount: r && r.day >= w.day ? r.day_count : 0, monthCount: r && r.month >= w.month ? r.month_count : 0 };
  }

  hitIp(ip: string, w: IpWindows, limits: IpLimits): IpDecision {
    const row = this.guard(true, () => this.hit.all({ ip, minute: w.minute, day: w.day, perMinute: limits.perMinute, perDay: limits.perDay })[0]) as
      | { minute_count: number; day_count: number }
      | undefined;
    if (row) return { allowed: true, minuteCount: row.minute_count, dayCount: row.day_count };
    const cur = this.read.get(ip) as { minute: number; minute_count: number; day: number; day_count: number };
    return refusal(cur, w, limits);
  }

  hitIpMany(ips: string[], w: IpWindows, limits: IpLimits): IpDecision[] {
    return this.guard(true, () => this.hitMany.immediate(ips, w, limits));
  }

  applyBillingEvent(step: BillingStep): BillingResult {
    const { event } = step;
    return this.guard(true, () => this.db
      .transaction((): BillingResult => {
        // the event id first: a second delivery (or another process with the same event) stops here
        const fresh = this.db.prepare(`INSERT INTO billing_events (event_id, type, subscription_id, received_at, outcome) VALUES (?, ?, ?, ?, '')
          ON CONFLICT (event_id) DO NOTHING`).run(event.id, event.type, event.subscriptionId, event.receivedAt);
        if (fresh.changes === 0) {
          const prior = this.db.prepare('SELECT outcome FROM billing_events WHERE event_id = ?').get(event.id) as { outcome: string };
          return { duplicate: true, outcome: prior.outcome };
        }
        let outcome = step.outcome ?? 'ignored';
        let keyId: number | undefined;
        if (step.decide && event.subscriptionId !== null) {
          const sub = event.subscriptionId;
          const current = (this.db.prepare(`SELECT ${SUB_COLUMNS} FROM billing_subscriptions WHERE subscription_id = ?`).get(sub) as StoredSubscription | undefined) ?? null;
          const hasKey = this.db.prepare('SELECT 1 FROM api_keys WHERE subscription_id = ? LIMIT 1').get(sub) !== undefined;
          const d = step.decide(current, hasKey);
          outcome = d.outcome;
          if (d.next) {
            const n = d.next;
            this.db.prepare(`INSERT INTO billing_subscriptions (${SUB_COLUMNS}, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
              ON CONFLICT (subscription_id) DO UPDATE SET customer_id = excluded.customer_id, plan_tier = excluded.plan_tier,
                plan_version = excluded.plan_version, status = excluded.status, stripe_status = excluded.stripe_status,
                status_version = excluded.status_version, checkout_session_id = excluded.checkout_session_id, updated_at = excluded.updated_at`)
              .run(n.subscription_id, n.customer_id, n.plan_tier, n.plan_version, n.status, n.stripe_status, n.status_version, n.checkout_session_id, event.receivedAt);
            const view = step.keyView!(n);
            this.db.prepare('UPDATE api_keys SET plan_tier = ?, subscription_status = ? WHERE subscription_id = ? AND revoked_at IS NULL').run(view.plan, view.status, sub);
            if (d.createKey && step.newKey && n.checkout_session_id) {
              const k = step.newKey;
              keyId = (this.db.prepare(`INSERT INTO api_keys (key_hash, key_prefix, plan_tier, subscription_status, label, created_at, subscription_id)
                VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`).all(k.keyHash, k.keyPrefix, view.plan, view.status, k.label, k.createdAt, sub)[0] as { id: number }).id;
              this.db.prepare('INSERT INTO key_reveals (checkout_session_id, key_id, sealed, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING')
                .run(n.checkout_session_id, keyId, k.sealed, k.createdAt);
            }
          }
        }
        this.db.prepare('UPDATE billing_events SET outcome = ? WHERE event_id = ?').run(outcome, event.id);
        return { duplicate: false, outcome, ...(keyId !== undefined ? { keyId } : {}) };
      })
      .immediate());
  }

  listBillingEvents(limit: number): BillingEventRecord[] {
    return this.guard(false, () => this.db
      .prepare('SELECT event_id, type, subscription_id, received_at, outcome FROM billing_events ORDER BY received_at DESC, rowid DESC LIMIT ?')
      .all(limit) as BillingEventRecord[]);
  }

  getSubscription(subscriptionId: string): StoredSubscription | null {
    return this.guard(false, () => (this.db.prepare(`SELECT ${SUB_COLUMNS} FROM billing_subscriptions WHERE subscription_id = ?`).get(subscriptionId) as StoredSubscription | undefined) ?? null);
  }

  hasCheckoutSession(checkoutSessionId: string): boolean {
    return this.guard(false, () => this.db.prepare('SELECT 1 FROM billing_subscriptions WHERE checkout_session_id = ? LIMIT 1').get(checkoutSessionId) !== undefined);
  }

  takeKeyReveal(checkoutSessionId: string): { key_id: number; sealed: string } | null {
    return this.guard(true, () => (this.db.prepare('DELETE FROM key_reveals WHERE checkout_session_id = ? RETURNING key_id, sealed').all(checkoutSessionId)[0] as { key_id: number; sealed: string } | undefined) ?? null);
  }

  usageHistory(keyId: number, fromDay: string, toDay: string): DailyUse[] {
    return this.guard(false, () => this.db
      .prepare(`SELECT day, count FROM usage_daily WHERE key_id = @key AND day BETWEEN @from AND @to
        AND day <> coalesce((SELECT day FROM quota_usage WHERE key_id = @key), '')
        UNION ALL SELECT day, day_count AS count FROM quota_usage WHERE key_id = @key AND day BETWEEN @from AND @to
        ORDER BY day`)
      .all({ key: keyId, from: fromDay, to: toDay }) as DailyUse[]);
  }

  submitReport(n: NewSubmission, limits: IntakeLimits): SubmitResult {
    return this.guard(true, () => this.db
      .transaction((): SubmitResult => {
        const counted = (this.db.prepare('SELECT count FROM intake_clients WHERE client_hash = ? AND day = ?').get(n.clientHash, n.day) as { count: number } | undefined)?.count ?? 0;
        if (n.challengeSignature !== null && this.db.prepare('SELECT 1 FROM intake_submissions WHERE challenge_signature = ?').get(n.challengeSignature)) return { outcome: 'spent', clientCount: counted };
        const key = repeatKey(n.clientHash, n.fingerprint);
        if (this.db.prepare('SELECT 1 FROM intake_submissions WHERE repeat_key = ?').get(key)) return { outcome: 'repeat', clientCount: counted };
        if (counted >= limits.perClient) return { outcome: 'limited', clientCount: counted };
        if (n.challenge === 'form' && (this.db.prepare("SELECT count(*) AS n FROM intake_submissions WHERE day = ? AND challenge = 'form'").get(n.day) as { n: number }).n >= limits.withoutProofPerDay) {
          return { outcome: 'budget', clientCount: counted };
        }
        const elsewhere = (this.db.prepare('SELECT count(*) AS n FROM intake_submissions WHERE fingerprint = ?').get(n.fingerprint) as { n: number }).n;
        this.db.prepare(`INSERT INTO intake_submissions (id, report, fingerprint, client_hash, repeat_key, day, received_at, challenge, challenge_signature, seconds_to_submit, client_submissions_today, same_report_elsewhere)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(n.id, JSON.stringify(n.report), n.fingerprint, n.clientHash, key, n.day, n.received_at, n.challenge, n.challengeSignature, n.seconds_to_submit, counted + 1, elsewhere);
        this.db.prepare(`INSERT INTO intake_clients (client_hash, day, count) VALUES (?, ?, 1)
          ON CONFLICT (client_hash, day) DO UPDATE SET count = count + 1`).run(n.clientHash, n.day);
        return { outcome: 'stored', clientCount: counted + 1 };
      })
      .immediate());
  }

  pendingSubmissions(limit: number): PendingSubmission[] {
    const rows = this.guard(false, () => this.db
      .prepare(`SELECT id, report, fingerprint, received_at, challenge, seconds_to_submit, client_submissions_today, same_report_elsewhere
        FROM intake_submissions WHERE taken_at IS NULL ORDER BY received_at, id LIMIT ?`)
      .all(limit)) as SubmissionRow[];
    return rows.map(pendingOf);
  }

  pendingSubmissionCount(): number {
    return this.guard(false, () => (this.db.prepare('SELECT count(*) AS n FROM intake_submissions WHERE taken_at IS NULL').get() as { n: number }).n);
  }

  markSubmissionsTaken(ids: string[], batchId: number, takenAt: string): number {
    if (ids.length === 0) return 0;
    return this.guard(true, () => this.db
      .transaction(() => {
        const mark = this.db.prepare('UPDATE intake_submissions SET taken_at = ?, batch_id = ?, client_hash = NULL WHERE id = ? AND taken_at IS NULL');
        let n = 0;
        for (const id of ids) n += mark.run(takenAt, batchId, id).changes;
        return n;
      })
      .immediate());
  }

  intakeSecret(): string {
    return this.guard(true, () => {
      this.db.prepare("INSERT INTO service_secrets (name, value) VALUES ('intake', ?) ON CONFLICT (name) DO NOTHING").run(randomBytes(32).toString('hex'));
      return (this.db.prepare("SELECT value FROM service_secrets WHERE name = 'intake'").get() as { value: string }).value;
    });
  }

  registerOAuthClient(c: OAuthClientRecord): void {
    this.guard(true, () => this.db.prepare('INSERT INTO oauth_clients (client_id, client_name, redirect_uris, created_at) VALUES (?, ?, ?, ?)')
      .run(c.client_id, c.client_name, JSON.stringify(c.redirect_uris), c.created_at));
  }

  findOAuthClient(clientId: string): OAuthClientRecord | null {
    const row = this.guard(false, () => this.db.prepare('SELECT client_id, client_name, redirect_uris, created_at FROM oauth_clients WHERE client_id = ?').get(clientId)) as
      (Omit<OAuthClientRecord, 'redirect_uris'> & { redirect_uris: string }) | undefined;
    return row ? { ...row, redirect_uris: JSON.parse(row.redirect_uris) as string[] } : null;
  }

  saveOAuthCode(codeHash: string, c: OAuthCodeRecord): void {
    this.guard(true, () => this.db.prepare(`INSERT INTO oauth_codes (code_hash, client_id, key_id, redirect_uri, code_challenge, resource, sealed, expires_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(codeHash, c.client_id, c.key_id, c.redirect_uri, c.code_challenge, c.resource, c.sealed, c.expires_at));
  }

  takeOAuthCode(codeHash: string): OAuthCodeRecord | null {
    return this.guard(true, () => (this.db.prepare('DELETE FROM oauth_codes WHERE code_hash = ? RETURNING client_id, key_id, redirect_uri, code_challenge, resource, sealed, expires_at')
      .all(codeHash)[0] as OAuthCodeRecord | undefined) ?? null);
  }

  saveOAuthTokens(tokens: OAuthTokenRecord[]): void {
    this.guard(true, () => this.db.transaction(() => this.insertOAuthTokens(tokens)).immediate());
  }

  private insertOAuthTokens(tokens: OAuthTokenRecord[]): void {
    const insert = this.db.prepare(`INSERT INTO oauth_tokens (${OAUTH_TOKEN_COLUMNS}) VALUES (@token_hash, @kind, @grant_id, @client_id, @key_id, @resource, @sealed, @expires_at)`);
    for (const t of tokens) insert.run(t);
  }

  findOAuthToken(tokenHash: string): FoundOAuthToken | null {
    return this.guard(false, () => (this.db.prepare(`SELECT t.token_hash, t.kind, t.grant_id, t.client_id, t.key_id, t.resource, t.sealed, t.expires_at, t.used_at,
        k.revoked_at AS key_revoked_at FROM oauth_tokens t JOIN api_keys k ON k.id = t.key_id WHERE t.token_hash = ?`).get(tokenHash) as FoundOAuthToken | undefined) ?? null);
  }

  rotateOAuthRefresh(tokenHash: string, usedAt: string, next: OAuthTokenRecord[]): boolean {
    return this.guard(true, () => this.db
      .transaction(() => {
        const marked = this.db.prepare("UPDATE oauth_tokens SET used_at = ? WHERE token_hash = ? AND kind = 'refresh' AND used_at IS NULL").run(usedAt, tokenHash).changes;
        if (marked !== 1) return false;
        this.insertOAuthTokens(next);
        return true;
      })
      .immediate());
  }

  revokeOAuthGrant(grantId: string): void {
    this.guard(true, () => this.db.prepare('DELETE FROM oauth_tokens WHERE grant_id = ?').run(grantId));
  }

  listOAuthGrants(keyId: number, now: string): OAuthGrantSummary[] {
    const rows = this.guard(false, () => this.db.prepare(`SELECT t.grant_id, t.client_id, c.client_name, c.redirect_uris, MAX(t.expires_at) AS expires_at
         FROM oauth_tokens t JOIN oauth_clients c ON c.client_id = t.client_id
         WHERE t.key_id = ? AND t.kind = 'refresh' AND t.used_at IS NULL AND t.expires_at > ?
         GROUP BY t.grant_id, t.client_id, c.client_name, c.redirect_uris ORDER BY expires_at DESC, t.grant_id`).all(keyId, now)) as (Omit<OAuthGrantSummary, 'redirect_uris'> & { redirect_uris: string })[];
    return rows.map((r) => ({ ...r, redirect_uris: JSON.parse(r.redirect_uris) as string[] }));
  }

  revokeOAuthGrantOfKey(grantId: string, keyId: number): boolean {
    return this.guard(true, () => this.db.prepare('DELETE FROM oauth_tokens WHERE grant_id = ? AND key_id = ?').run(grantId, keyId).changes > 0);
  }

  pruneIp(day: number): void {
    const o = oauthPruneTimes(day);
    this.db.prepare('DELETE FROM oauth_codes WHERE expires_at < ?').run(o.now);
    this.db.prepare('DELETE FROM oauth_tokens WHERE expires_at < ?').run(o.now);
    this.db.prepare(`DELETE FROM oauth_clients WHERE created_at < ? AND NOT EXISTS (SELECT 1 FROM oauth_tokens t WHERE t.client_id = oauth_clients.client_id)
      AND NOT EXISTS (SELECT 1 FROM oauth_codes c WHERE c.client_id = oauth_clients.client_id)`).run(o.clientsBefore);
    this.prune.run(day);
    this.db.prepare('DELETE FROM intake_clients WHERE day < ?').run(new Date(day * 86_400_000).toISOString().slice(0, 10));
    this.db.prepare('DELETE FROM usage_daily WHERE day < ?').run(historyHorizon(day));
  }

  close(): void {
    if (!this.db.open) return;
    // Fold the WAL into the database and empty it, even when another process still has the file open
    // (only the last connection to close would do it, and two workers closing together both skip it).
    try {
      this.db.pragma('busy_timeout = 500'); // other processes may still be busy: do not hold up the exit
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // busy or read-only: the WAL stays valid and is replayed by the next opener
    }
    this.db.close();
  }
}

/** A submission's row as both stores read it. */
export interface SubmissionRow {
  id: string;
  report: string;
  fingerprint: string;
  received_at: string;
  challenge: string;
  seconds_to_submit: number | null;
  client_submissions_today: number;
  same_report_elsewhere: number;
}

export function pendingOf(r: SubmissionRow): PendingSubmission {
  return {
    id: r.id, report: JSON.parse(r.report) as IntakeReport, fingerprint: r.fingerprint, received_at: r.received_at,
    signals: { challenge: r.challenge as IntakeSignals['challenge'], seconds_to_submit: r.seconds_to_submit, client_submissions_today: Number(r.client_submissions_today), same_report_elsewhere: Number(r.same_report_elsewhere) },
  };
}

export function quotaRefusal(used: { dayCount: number; monthCount: number }, limits: QuotaLimits): QuotaDecision {
  return { allowed: false, ...used, limitedBy: used.monthCount >= limits.monthly ? 'monthly' : 'daily' };
}

/**
 * `n` requests of one address, in order, against its stored counters (null: none yet): each is counted if
 * both windows stay within their limits, refused uncounted otherwise. A stored window other than the
 * current one counts as empty (as in the single-request statement). Pure.
 */
export function decideIpHits(
  cur: { minute: number; minute_count: number; day: number; day_count: number } | null,
  n: number,
  w: IpWindows,
  limits: IpLimits,
): { decisions: IpDecision[]; minuteCount: number; dayCount: number } {
  let minuteCount = cur && cur.minute === w.minute ? cur.minute_count : 0;
  let dayCount = cur && cur.day === w.day ? cur.day_count : 0;
  const decisions: IpDecision[] = [];
  for (let k = 0; k < n; k++) {
    if (minuteCount < limits.perMinute && dayCount < limits.perDay) {
      minuteCount++;
      dayCount++;
      decisions.push({ allowed: true, minuteCount, dayCount });
    } else {
      decisions.push({ allowed: false, minuteCount, dayCount, limitedBy: dayCount >= limits.perDay ? 'day' : 'minute' });
    }
  }
  return { decisions, minuteCount, dayCount };
}

export function refusal(cur: { minute: number; minute_count: number; day: number; day_count: number }, w: IpWindows, limits: IpLimits): IpDecision {
  const minuteCount = cur.minute === w.minute ? cur.minute_count : 0;
  const dayCount = cur.day === w.day ? cur.day_count : 0;
  return { allowed: false, minuteCount, dayCount, limitedBy: dayCount >= limits.perDay ? 'day' : 'minute' };
}

/**
 * Service store on PostgreSQL: several server instances on several machines share it. Each
 * check-and-count is one INSERT ... ON CONFLICT DO UPDATE ... WHERE ... RETURNING, atomic under the row lock.
 */
import pg from 'pg';
import { quotaRefusal, refusal } from './sqlite.ts';
import {
  KeyNotFoundError, KeyRevokedError, StoreUnavailableError,
  type ApiKeyRecord, type Identified, type IpDecision, type IpLimits, type IpWindows, type KeyUsage, type NewApiKey, type NextApiKey, type QuotaDecision, type QuotaLimits, type QuotaWindows, type ServiceStore,
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
];

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

/** The one key named by id or key_prefix, its row locked until the transaction ends. */
async function keyByRef(c: pg.PoolClient, ref: string): Promise<ApiKeyRecord> {
  const found = await c.query<ApiKeyRecord>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1 OR key_prefix = $2 FOR UPDATE`, [/^\d+$/.test(ref) ? Number(ref) : -1, ref]);
  if (found.rows.length !== 1) throw new KeyNotFoundError(found.rows.length === 0 ? `no API key ${ref}` : `${ref} matches ${found.rows.length} keys; use the id`);
  return found.rows[0]!;
}

/** Errors that mean "the database is not reachable right now" (answer 503, retry later). */
export function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: string }).code ?? '';
  return ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004'].includes(code) ||
    /Connection terminated|connection timeout|Client has encountered a connection error/i.test((err as Error).message ?? '');
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
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

export class PostgresServiceStore implements ServiceStore {
  readonly kind = 'postgres' as const;
  readonly pool: pg.Pool;

  constructor(url: string, poolSize = 10) {
    // synchronous_commit=off: a counter update is visible to every instance as soon as it commits, and
    // survives any crash of physpay itself; only a crash of the PostgreSQL server within its WAL writer
    // delay (~0.6 s) could lose the newest counts. It takes a disk flush (~1 ms here) off every request.
    this.pool = new pg.Pool({
      connectionString: url, max: poolSize, connectionTimeoutMillis: 2000, idleTimeoutMillis: 30_000,
      options: '-c synchronous_commit=off',
    });
    // An idle client losing its connection (e.g. a database restart) must not crash the process.
    this.pool.on('error', () => {});
  }

  static async open(url: string, extra: { version: number; sql: string }[] = []): Promise<PostgresServiceStore> {
    const store = new PostgresServiceStore(url);
    await migratePostgres(store.pool, extra);
    return store;
  }

  /**
   * Run a query, mapping connection failures to StoreUnavailableError. A `name` makes it a prepared
   * statement (parsed and planned once per connection): used for the statements on the request path.
   */
  async query<R extends pg.QueryResultRow>(sql: string, params: unknown[], name?: string): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(name ? { name, text: sql, values: params } : { text: sql, values: params });
    } catch (err) {
      if (isConnectionError(err)) throw new StoreUnavailableError(`service store unavailable: ${(err as Error).message}`);
      throw err;
    }
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
    const r = await this.query<ApiKeyRecord & { last_used_at: string | null; used_today: number; used_this_month: number }>(
      `SELECT ${KEY_COLUMNS.split(', ').map((c) => `k.${c}`).join(', ')}, q.last_used_at,
         CASE WHEN q.day >= $1 THEN q.day_count ELSE 0 END AS used_today,
         CASE WHEN q.month >= $2 THEN q.month_count ELSE 0 END AS used_this_month
       FROM api_keys k LEFT JOIN quota_usage q ON q.key_id = k.id ORDER BY k.id`,
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
        `INSERT INTO api_keys (key_hash, key_prefix, plan_tier, subscription_status, label, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${KEY_COLUMNS}`,
        [next.keyHash, next.keyPrefix, found.plan_tier, found.subscription_status, found.label, next.createdAt],
      )).rows[0]!;
      // the quota is the account's: the current periods' counts carry over to the new key (the old key's row
      // is locked first, so no request is counted on it in between)
      await c.query(
        `INSERT INTO quota_usage (key_id, day, day_count, month, month_count)
         SELECT $1, day, day_count, month, month_count FROM quota_usage WHERE key_id = $2 FOR UPDATE`,
        [key.id, found.id],
      );
      const old = (await c.query<ApiKeyRecord>(`UPDATE api_keys SET revoked_at = $1 WHERE id = $2 RETURNING ${KEY_COLUMNS}`, [revokedAt, found.id])).rows[0]!;
      return { old, key };
    });
  }

  /** Run `fn` in one transaction on one connection; connection failures become StoreUnavailableError. */
  private async transaction<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      if (isConnectionError(err)) throw new StoreUnavailableError(`service store unavailable: ${(err as Error).message}`);
      throw err;
    }
    try {
      await client.query('BEGIN');
      const out = await fn(client);
      await client.query('COMMIT');
      return out;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      if (isConnectionError(err)) throw new StoreUnavailableError(`service store unavailable: ${(err as Error).message}`);
      throw err;
    } finally {
      client.release();
    }
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

  async pruneIp(day: number): Promise<void> {
    await this.query('DELETE FROM ip_counters WHERE day < $1', [day]);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

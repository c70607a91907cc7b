/**
 * Service store on PostgreSQL: several server instances on several machines share it. Each
 * check-and-count is one INSERT ... ON CONFLICT DO UPDATE ... WHERE ... RETURNING, atomic under the row lock.
 */
import pg from 'pg';
import { refusal } from './sqlite.ts';
import { StoreUnavailableError, type IpDecision, type IpLimits, type IpWindows, type ServiceStore } from './types.ts';

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
];

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
    this.pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 2000, idleTimeoutMillis: 30_000 });
    // An idle client losing its connection (e.g. a database restart) must not crash the process.
    this.pool.on('error', () => {});
  }

  static async open(url: string, extra: { version: number; sql: string }[] = []): Promise<PostgresServiceStore> {
    const store = new PostgresServiceStore(url);
    await migratePostgres(store.pool, extra);
    return store;
  }

  /** Run a query, mapping connection failures to StoreUnavailableError. */
  async query<R extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(sql, params);
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

  async pruneIp(day: number): Promise<void> {
    await this.query('DELETE FROM ip_counters WHERE day < $1', [day]);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

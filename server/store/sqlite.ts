/**
 * Service store on SQLite (WAL): several processes on one machine share one file, and SQLite's single
 * writer lock makes each check-and-count atomic across all of them.
 */
import Database from 'better-sqlite3';
import type { IpDecision, IpLimits, IpWindows, ServiceStore } from './types.ts';

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
];

export function migrateSqliteStore(db: Database.Database, extra: { version: number; sql: string }[] = []): void {
  db.exec('CREATE TABLE IF NOT EXISTS service_migrations (version INTEGER PRIMARY KEY) STRICT');
  const all = [...MIGRATIONS, ...extra].sort((a, b) => a.version - b.version);
  db.transaction(() => {
    const done = new Set((db.prepare('SELECT version FROM service_migrations').all() as { version: number }[]).map((r) => r.version));
    for (const m of all) {
      if (done.has(m.version)) continue;
      db.exec(m.sql);
      db.prepare('INSERT INTO service_migrations (version) VALUES (?)').run(m.version);
    }
  }).immediate();
}

export class SqliteServiceStore implements ServiceStore {
  readonly kind = 'sqlite' as const;
  readonly db: Database.Database;
  private readonly hit: Database.Statement;
  private readonly read: Database.Statement;
  private readonly prune: Database.Statement;

  constructor(path: string) {
    this.db = new Database(path);
    this.db.pragma('busy_timeout = 10000');
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
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
    this.prune = this.db.prepare('DELETE FROM ip_counters WHERE day < ?');
  }

  hitIp(ip: string, w: IpWindows, limits: IpLimits): IpDecision {
    const row = this.hit.get({ ip, minute: w.minute, day: w.day, perMinute: limits.perMinute, perDay: limits.perDay }) as
      | { minute_count: number; day_count: number }
      | undefined;
    if (row) return { allowed: true, minuteCount: row.minute_count, dayCount: row.day_count };
    const cur = this.read.get(ip) as { minute: number; minute_count: number; day: number; day_count: number };
    return refusal(cur, w, limits);
  }

  pruneIp(day: number): void {
    this.prune.run(day);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

export function refusal(cur: { minute: number; minute_count: number; day: number; day_count: number }, w: IpWindows, limits: IpLimits): IpDecision {
  const minuteCount = cur.minute === w.minute ? cur.minute_count : 0;
  const dayCount = cur.day === w.day ? cur.day_count : 0;
  return { allowed: false, minuteCount, dayCount, limitedBy: dayCount >= limits.perDay ? 'day' : 'minute' };
}

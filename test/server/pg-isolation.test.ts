/**
 * PostgreSQL tests as neighbours (issue 28, item 7): each test file gets a database of its own, created on
 * import of test/helpers/pg.ts and dropped when the run ends, so another run on the same server (or another
 * file of this one) never sees or drops its tables. Before, every file and every run shared `test`.
 */
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { ADMIN_URL, PG_URL, pgSkipReason } from '../helpers/pg.ts';

describe('a PostgreSQL database per test file', async () => {
  const skip = process.env.PHYSPAY_TEST_PG_URL ? 'PHYSPAY_TEST_PG_URL names a shared database' : await pgSkipReason('the PostgreSQL isolation test');
  it.skipIf(skip)('is this run\'s own, new and empty, and dropped at the end', async () => {
    const name = decodeURIComponent(new URL(PG_URL).pathname.slice(1));
    expect(name).toMatch(/^physpay_t_[a-z0-9]+_\d+_\d+_[0-9a-f]{6}$/);
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      const { rows } = await c.query<{ n: number }>("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'");
      expect(rows[0]!.n).toBe(0); // nothing of another file or run
    } finally {
      await c.end();
    }
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname = $1', [name]);
      expect(rows).toHaveLength(1);
    } finally {
      await admin.end();
    }
  });
});

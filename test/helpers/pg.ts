/**
 * PostgreSQL for tests: the local server (127.0.0.1:5432, trust auth, database `test`). A test that needs
 * it may skip with a clear message when it is unreachable, except when `CI` is set: there it must run.
 */
import pg from 'pg';

export const PG_URL = process.env.PHYSPAY_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Why PostgreSQL cannot be used right now, or null when it answers. */
export async function pgUnreachable(url = PG_URL): Promise<string | null> {
  const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await probe.connect();
    await probe.query('SELECT 1');
    return null;
  } catch (err) {
    return `PostgreSQL unreachable at ${url} (${(err as Error).message})`;
  } finally {
    await probe.end().catch(() => {});
  }
}

/**
 * The reason to skip `what` (PostgreSQL unreachable outside CI), or null to run it. Throws in CI, where
 * PostgreSQL is required.
 */
export async function pgSkipReason(what: string): Promise<string | null> {
  const why = await pgUnreachable();
  if (!why) return null;
  if (process.env.CI) throw new Error(`${why}: required when CI is set`);
  console.warn(`skipping ${what}: ${why}`);
  return why;
}

/** A connected client for checks and clean-up; the caller ends it. */
export async function pgClient(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  return c;
}

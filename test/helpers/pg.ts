/**
 * PostgreSQL for tests: the local server (127.0.0.1:5432, trust auth). Each test file gets a database of its
 * own, created when this module is first imported and dropped when the run ends (pg-global.ts), so two
 * runs on one server never collide. A test that needs PostgreSQL may skip with a clear message when it is
 * unreachable, except when `CI` is set: there it must run. PHYSPAY_TEST_PG_URL names a database to use
 * instead (it is not dropped).
 */
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';

/** The maintenance database, where per-file databases are created and dropped. */
export const ADMIN_URL = process.env.PHYSPAY_TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh database for this test file (its URL), or the admin URL's server's `test` database when none can be created. */
async function ownDatabase(): Promise<string> {
  const name = `${inject('pgRun') ?? `physpay_t_${Date.now().toString(36)}`}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const url = new URL(ADMIN_URL);
  const c = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query(`CREATE DATABASE "${name}"`);
    url.pathname = `/${name}`;
  } catch {
    url.pathname = '/test'; // unreachable: pgSkipReason says so (and fails in CI)
  } finally {
    await c.end().catch(() => {});
  }
  return url.toString();
}

export const PG_URL = process.env.PHYSPAY_TEST_PG_URL ?? (await ownDatabase());

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

/**
 * Vitest global set-up (both configs): names this run's PostgreSQL databases and drops them at the end.
 * Every test file that imports test/helpers/pg.ts gets its own database `<run>_<pid>_<random>`, created on
 * import, so two runs (or two files) on one server never share tables. Nothing happens without PostgreSQL.
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';

const ADMIN_URL = process.env.PHYSPAY_TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** this run's database name prefix (test/helpers/pg.ts reads it with inject) */
    pgRun: string;
  }
}

export default function setup(project: TestProject): () => Promise<void> {
  const run = `physpay_t_${Date.now().toString(36)}_${process.pid}`;
  project.provide('pgRun', run);
  return async () => {
    const c = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
    try {
      await c.connect();
      const { rows } = await c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${run}\\_%`]);
      for (const { datname } of rows) await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    } catch {
      // PostgreSQL absent (outside CI the tests that need it skipped) or already gone
    } finally {
      await c.end().catch(() => {});
    }
  };
}

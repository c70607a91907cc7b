/**
 * Set-up of the import CLI test files: a new reports DB (`physpay init`) in a fresh temporary folder before
 * each test, files written into that folder, and read-only queries of the DB.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, expect } from 'vitest';
import { REPORT_COLUMNS } from '../../build/import/reports.ts';
import { runCli } from '../helpers/cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

export interface ReportsDbFixture {
  /** the temporary folder of the current test */
  readonly dir: string;
  /** the reports DB of the current test */
  readonly db: string;
  /** a file of these lines (newline-terminated) in the test's folder */
  file(name: string, lines: string[]): string;
  /** a reports CSV: the full header, then these rows */
  csv(name: string, rows: string[]): string;
  query<T>(sql: string): T[];
}

export function useReportsDb(prefix: string): ReportsDbFixture {
  const tmp = useTempDir(prefix, { each: true });
  let db = '';
  beforeEach(async () => {
    db = join(tmp.path, 'reports.db');
    expect((await runCli(['init', '--db', db])).code).toBe(0);
  });
  const file = (name: string, lines: string[]) => {
    const path = join(tmp.path, name);
    writeFileSync(path, `${lines.join('\n')}\n`);
    return path;
  };
  return {
    get dir() {
      return tmp.path;
    },
    get db() {
      return db;
    },
    file,
    csv: (name, rows) => file(name, [REPORT_COLUMNS.join(','), ...rows]),
    query<T>(sql: string): T[] {
      const conn = new Database(db, { readonly: true });
      try {
        return conn.prepare(sql).all() as T[];
      } finally {
        conn.close();
      }
    },
  };
}

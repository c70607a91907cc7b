/**
 * Opening the reports DB. One of the few modules that touch the disk.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { migrate } from './migrations.ts';

export type Db = Database.Database;

export interface OpenOptions {
  /** Create the file (and reference data) when it does not exist. Default false: a missing DB is an error. */
  create?: boolean;
  readonly?: boolean;
}

export class DbError extends Error {}

/** Open a reports DB, apply pending migrations (unless read-only) and return the connection. */
export function openReportsDb(path: string, opts: OpenOptions = {}): Db {
  if (!opts.create && path !== ':memory:' && !existsSync(path)) {
    throw new DbError(`reports DB not found: ${path} (create one with \`physpay init --db ${path}\` or \`physpay demo --db ${path}\`)`);
  }
  const db = new Database(path, { readonly: Boolean(opts.readonly), fileMustExist: !opts.create });
  if (!opts.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  if (!opts.readonly) migrate(db);
  return db;
}

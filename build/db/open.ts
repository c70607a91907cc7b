/**
 * Opening the reports DB. One of the few modules that touch the disk.
 */
import Database from 'better-sqlite3';
import { SchemaTooNewError, assertKnownSchema, migrate } from './migrations.ts';
import { checkDbPath, expectKind, stampKind } from './kind.ts';

export type Db = Database.Database;

export interface OpenOptions {
  /** Create the file (and reference data) when it does not exist. Default false: a missing DB is an error. */
  create?: boolean;
  readonly?: boolean;
}

export class DbError extends Error {}

/** Open a reports DB, apply pending migrations (unless read-only) and return the connection. */
export function openReportsDb(path: string, opts: OpenOptions = {}): Db {
  // Before SQLite touches the file: a missing folder, a folder, or a file that is not SQLite is refused
  // (DbKindError, exit 2), and so (below, before any write) is a service DB or another application's DB.
  const onDisk = path === ':memory:' ? null : checkDbPath(path, 'reports');
  if (!opts.create && onDisk === 'missing') {
    throw new DbError(`reports DB not found: ${path} (create one with \`physpay init --db ${path}\` or \`physpay demo --db ${path}\`)`);
  }
  const db = new Database(path, { readonly: Boolean(opts.readonly), fileMustExist: !opts.create });
  try {
    if (onDisk !== null) {
      db.pragma('busy_timeout = 5000');
      expectKind(db, path, 'reports', !opts.readonly);
    }
    if (!opts.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    if (!opts.readonly) {
      migrate(db);
      stampKind(db, 'reports');
    } else if (onDisk !== null) {
      assertKnownSchema(db);
    }
  } catch (err) {
    db.close();
    if (err instanceof SchemaTooNewError) {
      throw new DbError(`reports DB ${path} has schema version ${err.current}, newer than this physpay (${err.latest}); upgrade physpay before using it (nothing was changed)`);
    }
    throw err;
  }
  return db;
}

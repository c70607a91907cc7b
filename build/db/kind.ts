/**
 * Which physpay DB a SQLite file is. A reports DB carries SQLite's `application_id` 'PPRD', a service DB
 * (API keys, quotas, per-IP counters) 'PPSV', set when the DB is created or migrated. DBs made before this
 * (application_id 0) are recognised by their tables and stamped the next time they are opened for writing.
 *
 * Every opener checks a path before SQLite touches it (SQLite writes into whatever file it is given, even a
 * DB of the other kind), so a wrong `--db` / `--service-db` is refused in one sentence (exit 2) with
 * nothing written.
 */
import type Database from 'better-sqlite3';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliError } from '../cli/io.ts';

export type DbKind = 'reports' | 'service';

/** SQLite application_id of each kind: the ASCII bytes 'PPRD' and 'PPSV' as a big-endian 32-bit integer. */
export const APPLICATION_IDS: Record<DbKind, number> = {
  reports: 0x50505244,
  service: 0x50505356,
};

const FLAG: Record<DbKind, string> = { reports: '--db', service: '--service-db' };
const WHAT: Record<DbKind, string> = {
  reports: 'a physpay reports DB (salary reports)',
  service: 'a physpay service DB (API keys and counters)',
};
const GIVE: Record<DbKind, string> = {
  reports: 'give the reports DB made by physpay init or physpay demo',
  service: 'give the service DB file (API keys and counters, default service.db) or a postgres:// URL',
};

/** A DB path or file of the wrong kind, given by the operator: one sentence, exit 2. */
export class DbKindError extends CliError {
  constructor(message: string) {
    super(message, 2);
  }
}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Check a path before SQLite opens it: its folder exists, it is not a folder, and an existing non-empty file
 * starts with the SQLite header. Returns 'missing' (no file yet), 'empty' (0 bytes: SQLite takes it as an
 * empty DB) or 'sqlite'. Throws DbKindError otherwise.
 */
export function checkDbPath(path: string, kind: DbKind): 'missing' | 'empty' | 'sqlite' {
  const flag = FLAG[kind];
  let st;
  try {
    st = statSync(path);
  } catch {
    const dir = dirname(resolve(path));
    let dirOk = false;
    try {
      dirOk = statSync(dir).isDirectory();
    } catch {
      dirOk = false;
    }
    if (!dirOk) throw new DbKindError(`${flag} ${path}: the folder ${dir} does not exist; create it first or give another path`);
    return 'missing';
  }
  if (st.isDirectory()) throw new DbKindError(`${flag} ${path} is a folder, not a SQLite database file; ${GIVE[kind]}`);
  if (st.size === 0) return 'empty';
  const head = Buffer.alloc(512);
  let n = 0;
  const fd = openSync(path, 'r');
  try {
    n = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (n >= SQLITE_MAGIC.length && head.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) return 'sqlite';
  const text = !head.subarray(0, n).includes(0);
  throw new DbKindError(`${flag} ${path} is not a SQLite database (${text ? 'it looks like a CSV or text file' : 'it is some other binary file'}); ${GIVE[kind]}`);
}

export type Identified = 'reports' | 'service' | 'empty' | 'foreign' | 'unknown';

/** What an open SQLite DB is, from its application_id, or (when 0) from its tables. Reads only. */
export function identifyDb(db: Database.Database): { kind: Identified; applicationId: number } {
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  if (applicationId === APPLICATION_IDS.reports) return { kind: 'reports', applicationId };
  if (applicationId === APPLICATION_IDS.service) return { kind: 'service', applicationId };
  if (applicationId !== 0) return { kind: 'foreign', applicationId };
  const names = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
  // A reports DB from before application_id: its migrations table (a service table written into it by an
  // older physpay does not change what it is).
  if (names.has('schema_migrations') || names.has('specialties')) return { kind: 'reports', applicationId };
  if (names.has('service_migrations') || names.has('api_keys') || names.has('ip_counters')) return { kind: 'service', applicationId };
  return { kind: names.size === 0 ? 'empty' : 'unknown', applicationId };
}

/**
 * Refuse an open DB that is not of `kind` (an empty DB is accepted when `allowEmpty`: the caller is about to
 * create the schema). Reads only; the caller closes the connection when this throws.
 */
export function expectKind(db: Database.Database, path: string, kind: DbKind, allowEmpty: boolean): void {
  const found = identifyDb(db);
  if (found.kind === kind || (found.kind === 'empty' && allowEmpty)) return;
  const flag = FLAG[kind];
  const noun = kind === 'reports' ? 'a reports DB' : 'a service DB';
  switch (found.kind) {
    case 'reports':
    case 'service':
      throw new DbKindError(`${flag} ${path} is ${WHAT[found.kind]}, not ${noun}; ${GIVE[kind]}`);
    case 'empty':
      throw new DbKindError(`${flag} ${path} is an empty SQLite file, not ${noun} yet; ${kind === 'reports' ? `create it with physpay init --db ${path}` : GIVE[kind]}`);
    case 'foreign':
      throw new DbKindError(`${flag} ${path} is a SQLite database of another application (application_id 0x${found.applicationId.toString(16).padStart(8, '0')}), not ${noun}; ${GIVE[kind]}`);
    default:
      throw new DbKindError(`${flag} ${path} is a SQLite database without physpay's tables, not ${noun}; ${GIVE[kind]}`);
  }
}

/** Set the DB's application_id to its kind (a write: only on a connection opened for writing). */
export function stampKind(db: Database.Database, kind: DbKind): void {
  if ((db.pragma('application_id', { simple: true }) as number) !== APPLICATION_IDS[kind]) db.pragma(`application_id = ${APPLICATION_IDS[kind]}`);
}

/** The sentence for a missing DB file of `kind` when the command does not create one. */
export function missingDbError(path: string, kind: DbKind): DbKindError {
  return new DbKindError(`${FLAG[kind]} ${path}: no ${kind === 'reports' ? 'reports' : 'service'} DB there; ${GIVE[kind]}`);
}

/**
 * Check a DB path without writing anything: the path checks above, then (for an existing SQLite file) its
 * kind, read on a read-only connection. A missing file passes (the caller may create it).
 */
export async function checkDbFile(path: string, kind: DbKind): Promise<void> {
  if (checkDbPath(path, kind) !== 'sqlite') return;
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    expectKind(db, path, kind, true);
  } finally {
    db.close();
  }
}

/**
 * `physpay backup --db <reports.db> --service-db <service.db> --out <dist-data> --backup-dir <dir>`: consistent
 * online copies of the reports DB and the SQLite service DB, and a copy of the published builds, safe while
 * `physpay serve`, a build or an import runs.
 *
 * Each DB copy is made with SQLite's online backup (better-sqlite3's `db.backup()`) inside one read transaction
 * on the source, so the copy is one moment of the DB however much is written meanwhile (WAL: writers are
 * not blocked). It is written under a temporary name (mode 0600: the service DB holds key hashes, the
 * reports DB its disclosure-control secret and the method version it was made for), switched to a
 * self-contained rollback-journal file, verified (integrity_check, its kind, its schema version and every
 * table's row count against the source at that moment), flushed, and only then renamed to
 * `<dir>/reports.db` / `<dir>/service.db`. A copy is never overwritten. A PostgreSQL service store is
 * skipped: back it up with pg_dump.
 *
 * The builds (build/emit/copy-builds.ts) go to `<dir>/dist-data`: they hold the release history a later
 * build continues (releases.json, the changelog, each kept release's files), which the DBs do not.
 */
import type { Command } from 'commander';
import Database from 'better-sqlite3';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkDbPath, DbKindError, expectKind, identifyDb, missingDbError, type DbKind } from '../../db/kind.ts';
import { option, readSettings } from '../settings.ts';
import { CliError, type CliIo } from '../io.ts';
import { describeStore } from './keys.ts';
import { copyBuilds, type BuildsCopy } from '../../emit/copy-builds.ts';

const FILE_NAME: Record<DbKind, string> = { reports: 'reports.db', service: 'service.db' };
const MIGRATIONS_TABLE: Record<DbKind, string> = { reports: 'schema_migrations', service: 'service_migrations' };
const isPostgres = (target: string) => /^postgres(ql)?:\/\//.test(target);

export interface CopyReport {
  source: string;
  file: string;
  bytes: number;
  kind: DbKind;
  schema_version: number;
  integrity: 'ok';
  /** rows of every table, at the moment copied */
  tables: Record<string, number>;
}

interface Snapshot {
  schemaVersion: number;
  tables: Record<string, number>;
}

/** Schema version and every table's row count, as the connection sees the DB (inside its transaction). */
function snapshot(db: Database.Database, kind: DbKind): Snapshot {
  const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
  const tables: Record<string, number> = {};
  for (const name of names) tables[name] = (db.prepare(`SELECT count(*) AS n FROM "${name.replace(/"/g, '""')}"`).get() as { n: number }).n;
  const schemaVersion = names.includes(MIGRATIONS_TABLE[kind])
    ? (db.prepare(`SELECT coalesce(max(version), 0) AS v FROM ${MIGRATIONS_TABLE[kind]}`).get() as { v: number }).v
    : 0;
  return { schemaVersion, tables };
}

/** Open a source DB for reading, refusing a missing file or one of the wrong kind (exit 2). Writes nothing. */
function openSource(path: string, kind: DbKind): Database.Database {
  if (checkDbPath(path, kind) === 'missing') throw missingDbError(path, kind);
  let db: Database.Database;
  try {
    db = new Database(path, { fileMustExist: true });
  } catch (err) {
    throw new CliError(`cannot open ${path} (${kind === 'reports' ? '--db' : '--service-db'}): ${(err as Error).message}`);
  }
  try {
    db.pragma('busy_timeout = 10000');
    expectKind(db, path, kind, false);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Copy one DB into `dir`, verify the copy, then give it its final name. */
async function copyDb(src: Database.Database, source: string, dir: string, kind: DbKind): Promise<CopyReport> {
  const dest = join(dir, FILE_NAME[kind]);
  const tmp = join(dir, `.${FILE_NAME[kind]}.tmp-${process.pid}`);
  rmSync(tmp, { force: true });
  closeSync(openSync(tmp, 'wx', 0o600)); // owner-only before the first byte is copied
  try {
    let at: Snapshot;
    // One read transaction: the pages copied and the counts below are the same moment of the DB, and other
    // connections' commits (a running server, an import) do not restart the copy.
    src.exec('BEGIN');
    try {
      at = snapshot(src, kind);
      await src.backup(tmp);
    } finally {
      src.exec('COMMIT');
    }
    const copy = new Database(tmp, { fileMustExist: true });
    let problem: string | null = null;
    try {
      copy.pragma('journal_mode = DELETE'); // one self-contained file: restoring it is copying it
      const integrity = (copy.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
      const found = identifyDb(copy).kind;
      const got = snapshot(copy, kind);
      if (integrity.join() !== 'ok') problem = `integrity_check: ${integrity.slice(0, 3).join('; ')}`;
      else if (found !== kind) problem = `the copy is not a ${kind} DB (${found})`;
      else if (got.schemaVersion !== at.schemaVersion) problem = `schema version ${got.schemaVersion} instead of ${at.schemaVersion}`;
      else {
        const diff = [...new Set([...Object.keys(at.tables), ...Object.keys(got.tables)])].filter((t) => at.tables[t] !== got.tables[t]);
        if (diff.length) problem = `row counts differ in ${diff.map((t) => `${t} (${got.tables[t] ?? 'missing'} instead of ${at.tables[t] ?? 'none'})`).join(', ')}`;
      }
    } finally {
      copy.close();
    }
    if (problem) throw new CliError(`the copy of ${source} failed verification: ${problem}; nothing was kept`);
    fsyncPath(tmp);
    renameSync(tmp, dest);
    fsyncPath(dir);
    return { source, file: dest, bytes: statSync(dest).size, kind, schema_version: at.schemaVersion, integrity: 'ok', tables: at.tables };
  } catch (err) {
    rmSync(tmp, { force: true });
    if (err instanceof CliError) throw err;
    throw new CliError(`backup of ${source} failed: ${(err as Error).message}; nothing was kept`);
  }
}

const size = (n: number) => (n < 1e6 ? `${(n / 1e3).toFixed(1)} kB` : `${(n / 1e6).toFixed(1)} MB`);
const fmt = (n: number | undefined) => (n ?? 0).toLocaleString('en-US');

function describeCopy(r: CopyReport): string {
  const rows = Object.values(r.tables).reduce((a, b) => a + b, 0);
  const main = r.kind === 'reports' ? `${fmt(r.tables.reports)} reports, ${fmt(r.tables.institutions)} institutions` : `${fmt(r.tables.api_keys)} API keys`;
  return `backed up the ${r.kind} DB ${r.source} to ${r.file}: ${size(r.bytes)}, schema v${r.schema_version}, integrity ok, ${main}, ${fmt(rows)} rows in ${Object.keys(r.tables).length} tables`;
}

function describeBuilds(b: BuildsCopy): string {
  const history = b.releases.length ? `, release history ${b.releases.length === 1 ? b.releases[0] : `${b.releases.at(-1)} to ${b.releases[0]}`} (${b.releases.length} release${b.releases.length === 1 ? '' : 's'})` : '';
  const gone = b.vanished.length ? `; pruned while copied, left out: ${b.vanished.join(', ')}` : '';
  return `backed up the builds of ${b.source} to ${b.dir}: ${b.builds.length} build${b.builds.length === 1 ? '' : 's'} (current ${b.current}${history}), ${fmt(b.files)} files, ${size(b.bytes)}, each verified against its manifest${gone}`;
}

export function registerBackupCommand(program: Command, io: CliIo): void {
  program
    .command('backup')
    .description('copy the reports DB, the SQLite service DB (online, consistent, verified) and the published builds with their release history into a folder; safe while serving')
    .addOption(option('db').makeOptionMandatory())
    .addOption(option('serviceDb'))
    .addOption(option('backupDir').makeOptionMandatory())
    .addOption(option('out'))
    .option('--json', 'print one JSON object {backup_dir, reports: {...}, service: {...}, builds: {...}}')
    .action(async (opts) => {
      const s = readSettings(opts, ['db', 'serviceDb', 'backupDir', 'out']);
      const dir = resolve(s.backupDir);
      const reportsPath = resolve(s.db);
      const pg = isPostgres(s.serviceDb);
      const servicePath = pg ? null : resolve(s.serviceDb);
      // Everything is checked before anything is written: the folder, both sources and their kinds.
      if (existsSync(dir) && !statSync(dir).isDirectory()) throw new DbKindError(`--backup-dir ${s.backupDir} is a file, not a folder; give an empty or new folder`);
      for (const kind of pg ? (['reports'] as const) : (['reports', 'service'] as const)) {
        if (existsSync(join(dir, FILE_NAME[kind]))) {
          throw new DbKindError(`--backup-dir ${s.backupDir} already holds ${FILE_NAME[kind]}; give an empty or new folder (a backup never overwrites one)`);
        }
      }
      if (existsSync(join(dir, 'dist-data'))) {
        throw new DbKindError(`--backup-dir ${s.backupDir} already holds dist-data; give an empty or new folder (a backup never overwrites one)`);
      }
      if (servicePath !== null && servicePath === reportsPath) throw new DbKindError(`--db and --service-db name the same file ${s.db}; they are two different DBs`);
      const reportsDb = openSource(s.db, 'reports');
      let serviceDb: Database.Database | null = null;
      try {
        if (!pg) serviceDb = openSource(s.serviceDb, 'service');
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        const reports = await copyDb(reportsDb, reportsPath, dir, 'reports');
        const service = serviceDb ? await copyDb(serviceDb, servicePath!, dir, 'service') : null;
        let builds: BuildsCopy | null;
        try {
          builds = copyBuilds(resolve(s.out), join(dir, 'dist-data'));
        } catch (err) {
          throw new CliError(`backup of the builds in ${s.out} (--out) failed: ${(err as Error).message}; the DB copies were kept, the builds were not`);
        }
        const noBuilds = { skipped: resolve(s.out), reason: 'no published build there (--out, PHYSPAY_OUT): only the DBs were copied' };
        const skipped = pg
          ? { skipped: describeStore(s.serviceDb), reason: 'physpay backup copies SQLite files only; back up PostgreSQL with pg_dump (e.g. pg_dump --format=custom --file=service.dump <URL>)' }
          : null;
        if (opts.json) {
          io.out(JSON.stringify({ backup_dir: dir, reports, service: service ?? skipped, builds: builds ?? noBuilds }));
          return;
        }
        io.out(describeCopy(reports));
        io.out(service ? describeCopy(service) : `skipped the service store ${skipped!.skipped}: ${skipped!.reason}`);
        io.out(builds ? describeBuilds(builds) : `skipped the builds: ${noBuilds.reason}`);
      } finally {
        reportsDb.close();
        serviceDb?.close();
      }
    });
}

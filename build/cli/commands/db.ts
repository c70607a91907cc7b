/** `physpay init`, `physpay stats` and `physpay reclaim`: create a reports DB, summarise one, shrink one. */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { openReportsDb } from '../../db/open.ts';
import { schemaVersion } from '../../db/migrations.ts';
import { freeSpace, mbText, reclaimSpace } from '../../db/reclaim.ts';
import { option, readSettings } from '../settings.ts';
import { CliError, type CliIo } from '../io.ts';

/** The schema version of an existing reports DB before `init` migrates it (0 when it has none yet). */
function versionOf(path: string): number {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
    return has ? schemaVersion(db) : 0;
  } catch {
    return 0; // not a reports DB: openReportsDb refuses it with its own message
  } finally {
    db.close();
  }
}

export function registerDbCommands(program: Command, io: CliIo): void {
  program
    .command('init')
    .description('create an empty reports DB with reference data (specialties, states), or migrate an existing one')
    .addOption(option('db').makeOptionMandatory())
    .action((opts) => {
      const { db: path } = readSettings(opts, ['db']);
      const existed = existsSync(path);
      const before = existed ? versionOf(path) : null;
      const db = openReportsDb(path, { create: true });
      const counts = db.prepare('SELECT (SELECT count(*) FROM specialties) AS specialties, (SELECT count(*) FROM states) AS states').get() as { specialties: number; states: number };
      const after = schemaVersion(db);
      const what = !existed ? 'created' : before === after ? 'already up to date:' : `migrated from schema v${before}:`;
      io.out(`${what} ${path} (schema v${after}; ${counts.specialties} specialties, ${counts.states} states incl. DC)`);
      db.close();
    });

  program
    .command('stats')
    .description('summarise a reports DB: reports by status, specialties, states, institutions, wage rows')
    .addOption(option('db').makeOptionMandatory())
    .option('--json', 'print one JSON object')
    .action((opts) => {
      const { db: path } = readSettings(opts, ['db']);
      const db = openReportsDb(path, { readonly: true });
      const byStatus = Object.fromEntries(
        (db.prepare('SELECT status, count(*) AS n FROM reports GROUP BY status ORDER BY status').all() as { status: string; n: number }[]).map((r) => [r.status, r.n]),
      );
      const one = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
      const stats = {
        db: path,
        synthetic: one("SELECT count(*) AS n FROM dataset_meta WHERE key = 'synthetic' AND value = 'true'") > 0,
        reports: byStatus,
        specialties_with_approved_reports: one("SELECT count(DISTINCT specialty_id) AS n FROM reports WHERE status = 'approved'"),
        states_with_approved_reports: one("SELECT count(DISTINCT state) AS n FROM reports WHERE status = 'approved'"),
        institutions: one('SELECT count(*) AS n FROM institutions'),
        bls_wages: one('SELECT count(*) AS n FROM bls_wages'),
      };
      db.close();
      if (opts.json) {
        io.out(JSON.stringify(stats));
        return;
      }
      const total = Object.values(byStatus).reduce((a, b) => a + b, 0);
      io.out(`${path}${stats.synthetic ? ' (SYNTHETIC demo data)' : ''}`);
      io.out(`  reports: ${total.toLocaleString('en-US')} (${Object.entries(byStatus).map(([k, v]) => `${v.toLocaleString('en-US')} ${k}`).join(', ') || 'none'})`);
      io.out(`  approved reports cover ${stats.specialties_with_approved_reports} specialties in ${stats.states_with_approved_reports} states`);
      io.out(`  teaching institutions: ${stats.institutions.toLocaleString('en-US')}; BLS wage rows: ${stats.bls_wages.toLocaleString('en-US')}`);
      if (total === 0 && !existsSync(path)) throw new CliError(`no reports DB at ${path}`);
    });

  program
    .command('reclaim')
    .description('give back the disk space deleted reports left in a reports DB (after a large import undo or delete); rewrites the file')
    .addOption(option('db').makeOptionMandatory())
    .action((opts) => {
      const { db: path } = readSettings(opts, ['db']);
      const db = openReportsDb(path);
      try {
        const free = freeSpace(db);
        const r = reclaimSpace(db, path);
        const freed = Math.max(0, r.before - r.after);
        io.out(`${path}: ${mbText(r.before)} -> ${mbText(r.after)} (${mbText(freed)} given back${free.bytes === 0 ? '; there was no free space to give back' : ''})`);
      } finally {
        db.close();
      }
    });
}

/** `physpay demo --db <db> [--reports N] [--seed S]`: a synthetic reports DB. */
import type { Command } from 'commander';
import { createDemoDb } from '../../demo/create.ts';
import { option, readSettings } from '../settings.ts';
import type { CliIo } from '../io.ts';

export function registerDemoCommand(program: Command, io: CliIo): void {
  program
    .command('demo')
    .description('create a reports DB filled with synthetic (clearly labelled) demo data')
    .addOption(option('db').makeOptionMandatory())
    .addOption(option('reports'))
    .addOption(option('seed'))
    .addOption(option('asOf'))
    .option('--force', 'replace an existing demo DB (a DB holding real reports is never replaced)')
    .action((opts) => {
      const s = readSettings(opts, ['db', 'reports', 'seed', 'asOf']);
      const summary = createDemoDb(s.db, { reports: s.reports, seed: s.seed, asOf: s.asOf, force: Boolean(opts.force), now: () => io.now() });
      const fmt = (n: number | undefined) => (n ?? 0).toLocaleString('en-US');
      io.out(
        `SYNTHETIC demo DB ${summary.path}: ${fmt(summary.reports)} reports (${fmt(summary.byStatus.approved)} approved, ` +
          `${fmt(summary.byStatus.pending)} pending, ${fmt(summary.byStatus.rejected)} rejected), ${fmt(summary.institutions)} teaching hospitals, ` +
          `seed ${s.seed}, in ${summary.seconds.toFixed(1)} s`,
      );
    });
}

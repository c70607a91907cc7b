/** `physpay import reports|institutions|bls|col --db <db> <file.csv>` */
import type { Command } from 'commander';
import { openReportsDb } from '../../db/open.ts';
import { ImportRejected, importFile, type ImportKind } from '../../import/run.ts';
import { REPORT_COLUMNS } from '../../import/reports.ts';
import { INSTITUTION_COLUMNS } from '../../import/institutions.ts';
import { BLS_COLUMNS } from '../../import/bls.ts';
import { COL_COLUMNS } from '../../import/col.ts';
import { option, readSettings } from '../settings.ts';
import { CliError, type CliIo } from '../io.ts';

const KINDS: { kind: ImportKind; description: string; columns: readonly string[] }[] = [
  { kind: 'reports', description: 'import salary reports (re-importing the same file does nothing)', columns: REPORT_COLUMNS },
  { kind: 'institutions', description: 'import teaching hospitals and their PGY pay scales (replaces each listed scale)', columns: INSTITUTION_COLUMNS },
  { kind: 'bls', description: 'import BLS OEWS national wages (official columns OCC_CODE, OCC_TITLE, A_MEDIAN)', columns: BLS_COLUMNS },
  { kind: 'col', description: 'import a cost-of-living index per state (replaces each listed state)', columns: COL_COLUMNS },
];

export function registerImportCommands(program: Command, io: CliIo): void {
  const imp = program.command('import').description('import a CSV file into the reports DB (all rows or none)');
  for (const k of KINDS) {
    const cmd = imp
      .command(k.kind)
      .description(k.description)
      .argument('<file>', 'CSV file (UTF-8, header row)')
      .addOption(option('db').makeOptionMandatory())
      .addHelpText('after', `\nColumns: ${k.columns.join(',')}${k.kind === 'bls' ? ' (other columns of the official file are ignored)' : ' (any order)'}`);
    if (k.kind === 'bls') cmd.addOption(option('year')).addOption(option('topCode'));
    cmd.action((file: string, opts) => {
      const settings = readSettings(opts, k.kind === 'bls' ? ['db', 'year', 'topCode'] : ['db']);
      const db = openReportsDb(settings.db);
      try {
        const result = importFile(db, k.kind, file, {
          now: () => io.now(),
          ...('year' in settings ? { year: settings.year as number | undefined, topCode: settings.topCode as number } : {}),
        });
        io.out(result.summary);
      } catch (err) {
        if (err instanceof ImportRejected) {
          for (const e of err.errors) io.err(`${err.file} line ${e.line}: ${e.message}`);
          throw new CliError(`${err.file}: ${err.errors.length} bad row(s); nothing was imported`);
        }
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new CliError(`cannot read ${file}: no such file`);
        throw err;
      } finally {
        db.close();
      }
    });
  }
}
